// The argkb explorer: a search box over GET /api/v1/query, pro and con columns of clusters, and
// the graph neighbourhood of a unit (GET /api/v1/graph) drawn with Cytoscape.js. No CDN: every
// asset comes from this server.
"use strict";

const $ = (id) => document.getElementById(id);
let graphKey = null;
let graphText = "";

function headers() {
  const token = $("token").value || localStorage.getItem("argkb-token") || "";
  if ($("token").value) localStorage.setItem("argkb-token", $("token").value);
  return token ? { Authorization: "Bearer " + token } : {};
}

async function api(path, params) {
  const url = "api/v1/" + path + "?" + new URLSearchParams(params);
  const response = await fetch(url, { headers: headers() });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message || response.statusText);
  return body;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, attrs || {});
  for (const child of children) node.append(child);
  return node;
}

function clusterItem(cluster) {
  const rep = cluster.representative;
  const members = el("ul", { className: "members", hidden: true },
    ...cluster.members.map((m) => el("li", { onclick: (e) => { e.stopPropagation(); showGraph(m.key, m.text); } }, m.text)));
  const explain = el("pre", { className: "explain", hidden: true },
    cluster.explain ? JSON.stringify(cluster.explain, null, 1) : "");
  const more = el("button", { type: "button", textContent: `${cluster.size} premise(s)`,
    onclick: (e) => { e.stopPropagation(); members.hidden = !members.hidden; } });
  const why = el("button", { type: "button", textContent: "explain", hidden: !cluster.explain,
    onclick: (e) => { e.stopPropagation(); explain.hidden = !explain.hidden; } });
  return el("li", { className: "cluster", onclick: () => showGraph(rep.key, rep.text) },
    el("div", { className: "representative" }, rep.text),
    el("div", { className: "meta" }, `score ${cluster.score.toFixed(3)} `, more, " ", why),
    members, explain);
}

async function search(event) {
  event.preventDefault();
  $("message").textContent = "searching ...";
  try {
    const result = await api("query", { q: $("q").value, k: $("k").value, explain: true });
    $("message").textContent = result.message || "";
    $("pro").replaceChildren(...result.pro.map(clusterItem));
    $("con").replaceChildren(...result.con.map(clusterItem));
  } catch (err) {
    $("message").textContent = err.message;
  }
}

async function showGraph(key, text) {
  graphKey = key;
  graphText = text;
  $("graph-panel").hidden = false;
  $("graph-title").textContent = "Graph around: " + text;
  try {
    const graph = await api("graph", { key, depth: $("depth").value, limit: 300 });
    const ranks = graph.nodes.map((n) => n.pagerank || 0);
    const top = Math.max(...ranks, 1e-12);
    const elements = [
      ...graph.nodes.map((n) => ({ data: { id: n.id, label: n.text.slice(0, 60),
        kind: n.kind.startsWith("claim") ? "claim" : "premise", size: 14 + 36 * Math.sqrt((n.pagerank || 0) / top),
        origin: n.id === key ? "yes" : "no" } })),
      ...graph.edges.map((e, i) => ({ data: { id: "e" + i, source: e.source, target: e.target,
        kind: e.type === "same_as" ? "same" : (e.stance || "unknown") } })),
    ];
    const cy = cytoscape({
      container: $("graph"), elements,
      style: [
        { selector: "node", style: { label: "data(label)", width: "data(size)", height: "data(size)",
          "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 140 } },
        { selector: 'node[kind = "claim"]', style: { "background-color": "#2563eb" } },
        { selector: 'node[kind = "premise"]', style: { "background-color": "#f59e0b" } },
        { selector: 'node[origin = "yes"]', style: { "border-width": 3, "border-color": "#111" } },
        { selector: "edge", style: { width: 2, "curve-style": "bezier", "target-arrow-shape": "triangle" } },
        { selector: 'edge[kind = "pro"]', style: { "line-color": "#15803d", "target-arrow-color": "#15803d" } },
        { selector: 'edge[kind = "con"]', style: { "line-color": "#b91c1c", "target-arrow-color": "#b91c1c" } },
        { selector: 'edge[kind = "same"]', style: { "line-color": "#9ca3af", "line-style": "dashed", "target-arrow-shape": "none" } },
      ],
      layout: { name: "cose", animate: false, nodeRepulsion: () => 9000, idealEdgeLength: () => 90 },
      maxZoom: 1.4,
    });
    cy.on("tap", "node", (e) => showGraph(e.target.id(), e.target.data("label")));
    window.argkbGraph = cy;  // for tests and the console
  } catch (err) {
    $("message").textContent = err.message;
  }
}

$("search").addEventListener("submit", search);
$("depth").addEventListener("change", () => graphKey && showGraph(graphKey, graphText));
$("token").value = localStorage.getItem("argkb-token") || "";
