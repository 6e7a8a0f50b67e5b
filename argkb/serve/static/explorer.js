// The argkb explorer: a search box over GET /api/v1/query, pro and con columns of clusters, a
// readable explanation of each rank, and the graph neighbourhood of a unit (GET /api/v1/graph)
// drawn with Cytoscape.js; two more views: sentence pairs (GET /api/v1/pairs) and a topic's key
// points (GET /api/v1/keypoints), in the pro and con columns. No CDN: every asset comes from this
// server. The page runs under a strict Content-Security-Policy (no inline scripts or style
// attributes): everything here is built with DOM calls, bars are <meter> elements.
"use strict";

const $ = (id) => document.getElementById(id);
let graphKey = null;
let graphText = "";
let lastResult = null;

// What each route or feature of the hybrid ranker is, in words (argkb/query/rankers/hybrid.py,
// hybrid_fusion.py).
const ROUTES = {
  claims: "given for similar claims",
  bm25: "the query's words (BM25)",
  cosine: "its meaning (embeddings)",
  argument: "reads as an argument",
  claim: "its conclusion matches the query",
  support: "how many similar claims its cluster serves",
  length: "its length",
};

function headers() {
  // the box is what is sent and kept: emptied, it forgets the token
  const token = $("token").value.trim();
  if (/[^\x21-\x7e]/.test(token)) {  // fetch refuses such a header with its own jargon
    throw new Error("A token is printable ASCII without spaces, as argkb serve --token takes it: " +
      "correct the token box.");
  }
  if (token) localStorage.setItem("argkb-token", token);
  else localStorage.removeItem("argkb-token");
  return token ? { Authorization: "Bearer " + token } : {};
}

async function api(path, params) {
  const url = "api/v1/" + path + (params ? "?" + new URLSearchParams(params) : "");
  const sent = headers();
  let response;
  try {
    response = await fetch(url, { headers: sent });
  } catch (err) {  // no answer at all: the server stopped, or the network is gone
    throw new Error(`argkb serve at ${location.host} does not answer: start it again ` +
      "(argkb serve) and search again.");
  }
  let body = null;
  try {
    body = await response.json();
  } catch (err) {  // not the API's JSON (a proxy's error page, a cut answer)
    body = null;
  }
  if (response.ok && body !== null) return body;
  throw new Error(failure(response, body, "Authorization" in sent));
}

function failure(response, body, tokenSent) {
  // one line a person can act on, for an answer that is not the API's
  if (response.status === 401) {
    return tokenSent
      ? "The token in the token box is not the one this argkb serve was started with " +
        "(--token or ARGKB_SERVE_TOKEN): correct it and search again."
      : "This argkb serve needs a token: type the one it was started with (--token or " +
        "ARGKB_SERVE_TOKEN) into the token box and search again.";
  }
  if (body && typeof body.message === "string" && body.message) return body.message;
  return `argkb serve answered ${response.status} ${response.statusText} without saying why ` +
    "(is something between this page and it?); its log may say more.";
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, attrs || {});
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A corpus text on the page goes into a <bdi>: an isolate whose direction comes from its own
// first strong letter, so that the bidirectional controls a text may hold (U+202E right-to-left
// override, U+2067 right-to-left isolate, U+200F ...) cannot reorder the page's words around it.
// Chromium draws an isolate as U+2068 ... U+2069 around the text, so a stray U+2069 (pop
// directional isolate) in the text would end the isolate early: such a pop is dropped, and
// isolates the text leaves open are closed at its end (embeddings and overrides end with the
// isolate by themselves).
function bidiBalanced(text) {
  let open = 0;
  let out = "";
  for (const ch of String(text)) {
    if (ch === "\u2066" || ch === "\u2067" || ch === "\u2068") open += 1;
    else if (ch === "\u2069") {
      if (!open) continue;
      open -= 1;
    }
    out += ch;
  }
  return out + "\u2069".repeat(open);
}

function corpusText(text) {
  return el("bdi", {}, bidiBalanced(text));
}

function fixed(x, digits) {
  return typeof x === "number" ? x.toFixed(digits) : "?";
}

// -- sources and stances ------------------------------------------------------------------------

function safeUrl(url) {
  // only web links: a javascript: or data: URL from the data never becomes a link
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch (err) {
    return null;
  }
}

function sourceNode(source) {
  const name = source.title || source.sid;
  const href = source.url ? safeUrl(source.url) : null;
  if (!href) return el("span", { className: "source", title: source.sid }, corpusText(name));
  return el("a", { className: "source", href, target: "_blank", rel: "noopener noreferrer",
    title: source.sid + " (opens " + new URL(href).host + ")" }, corpusText(name));
}

function sourcesOf(members) {
  const seen = new Map();
  for (const m of members) for (const s of m.sources || []) if (!seen.has(s.sid)) seen.set(s.sid, s);
  return [...seen.values()];
}

function stanceWords(stanceSource) {
  if (stanceSource === "data") return "from the data (as loaded)";
  if (stanceSource === "model") return "predicted by the stance model (argkb stance)";
  return "from the data in some arguments, predicted by the stance model in others";
}

function memberItem(m) {
  const sources = m.sources || [];
  const meta = el("div", { className: "meta" }, "source: ");
  if (!sources.length) meta.append("none recorded");
  sources.forEach((s, i) => { if (i) meta.append(", "); meta.append(sourceNode(s)); });
  meta.append(" · stance " + (m.stance_source === "data" ? "from the data" :
    m.stance_source === "model" ? "from the model" : "from data and model") + " (towards its claim)");
  const show = el("button", { type: "button", className: "link",
    title: "draw the graph around this premise", onclick: () => showGraph(m.key, m.text) },
  corpusText(m.text));
  return el("li", {}, show, meta);
}

// -- the explanation ----------------------------------------------------------------------------

function routeRow(name, row, total) {
  const share = total > 0 ? row.contribution / total : 0;
  // a feature of the linear fusion has a value; a route of the rank fusion only its rank
  const value = typeof row.value === "number" ? `value ${fixed(row.value, 3)}, ` : "";
  const words = row.rank
    ? `${value}rank ${row.rank}: adds ${fixed(row.contribution, 3)}, ${Math.round(100 * share)}% of the score`
    : "not found by this route: adds nothing";
  return el("li", { className: "route" },
    el("span", { className: "route-name" }, ROUTES[name] || name),
    el("meter", { min: 0, max: 1, value: share, title: `${Math.round(100 * share)}%` }),
    el("span", { className: "route-words" }, words));
}

function explanation(cluster, side) {
  const ex = cluster.explain || {};
  const box = el("div", { className: "explain", hidden: true });
  if (ex.routes) {
    const rows = Object.entries(ex.routes);
    const total = rows.reduce((sum, [, row]) => sum + row.contribution, 0);
    const linear = rows.some(([, row]) => typeof row.value === "number");
    const how = linear
      ? "the weighted sum of the features below, of this cluster's best premise (linear fusion; " +
        "rank: among the candidates on this side)."
      : "found by the routes below, each adding more the higher it ranked this cluster " +
        "(reciprocal rank fusion).";
    box.append(el("p", {}, `Score ${fixed(cluster.score, 3)}: ${how}` +
      (ex.promoted ? " Shown on its own to fill the list, below the clusters." : "")),
    el("ul", { className: "routes" }, ...rows.map(([name, row]) => routeRow(name, row, total))));
  } else {
    box.append(el("p", {}, `Score ${fixed(cluster.score, 3)} (${lastResult ? lastResult.ranker : ""} ranker).`));
  }
  const rep = cluster.representative;
  box.append(el("p", {}, rep.pagerank === null || rep.pagerank === undefined
    ? "PageRank: not computed yet (argkb pagerank)."
    : `PageRank ${fixed(rep.pagerank, 4)}: how much of the argument graph leads to this premise ` +
      "(the node's size in the graph)."));
  const counts = {};
  for (const m of cluster.members) counts[m.stance_source] = (counts[m.stance_source] || 0) + 1;
  const said = Object.entries(counts).map(([source, n]) =>
    `${stanceWords(source)}${cluster.members.length > 1 ? ` for ${n} of ${cluster.members.length}` : ""}`);
  box.append(el("p", { className: "stance" }, `Stance: ${side}, ${said.join("; ")}. That is ` +
    "its stance towards the claim it is given for; its side here also depends on whether that " +
    "claim says what the query says, which the alignment model decides."));
  const sources = sourcesOf(cluster.members);
  const where = el("p", {}, "Sources: ");
  if (!sources.length) where.append("none recorded.");
  sources.forEach((s, i) => { if (i) where.append(", "); where.append(sourceNode(s)); });
  box.append(where);
  const lent = el("div", { className: "lent" });
  if (ex.claims) {  // pfidf: the engine names the claims itself
    lent.append(el("p", {}, "Claims that lent mass:"), el("ul", {}, ...ex.claims.map((row) =>
      el("li", {}, "\"", corpusText(row.claim), `": P(c|q) ${fixed(row.p_claim, 3)}, ${row.pf === 1 ? "1 premise" : `${fixed(row.pf, 0)} premises`} of it in this cluster`))));
  } else {
    lent.append(el("p", { className: "meta" }, "reading the claims that lent mass ..."));
    box.addEventListener("explain-open", () => claimsThatLentMass(cluster, lent), { once: true });
  }
  box.append(lent);
  return box;
}

async function claimsThatLentMass(cluster, target) {
  // the claims this cluster's premises are given for in the arguments the query read, with the
  // similarity P(c|q) of those among the retrieved claims
  const similar = new Map((lastResult ? lastResult.claims : []).map((c) => [c.key, c]));
  const found = new Map();
  try {
    const members = cluster.members.slice(0, 6);
    const units = await Promise.all(members.map((m) =>
      api("units/" + encodeURIComponent(m.key), { limit: 100 })));
    units.forEach((unit, i) => {
      const read = new Set(members[i].arguments);
      for (const use of unit.premise_of) {
        if (read.has(use.argument) && !found.has(use.claim_key)) found.set(use.claim_key, use.claim_text);
      }
    });
  } catch (err) {
    target.replaceChildren(el("p", { className: "meta" }, "claims not read: " + err.message));
    return;
  }
  const all = [...found.entries()].map(([key, text]) => ({ key, text, claim: similar.get(key) }));
  // a retrieved claim whose P(c|q) rounds to nothing lent no mass worth naming
  const rows = all.filter((r) => !r.claim || r.claim.p >= 0.0005);
  rows.sort((a, b) => (b.claim ? b.claim.p : -1) - (a.claim ? a.claim.p : -1));
  const faint = all.length - rows.length;
  target.replaceChildren(
    el("p", {}, rows.length ? "Claims that lent mass (the claims these premises are given for):"
      : "No similar claim lent mass: the direct routes found it."),
    el("ul", {}, ...rows.map((r) => el("li", {}, "\"", corpusText(r.text), "\": " + (r.claim
      ? `similar to the query, P(c|q) ${fixed(r.claim.p, 3)}`
      : "in the cluster of a similar claim, shares its mass")))));
  if (faint) target.append(el("p", { className: "meta" }, `(and ${faint} retrieved claim(s) with P(c|q) below 0.0005)`));
}

function toggle(button, box) {
  box.hidden = !box.hidden;
  button.setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden) box.dispatchEvent(new Event("explain-open"));
}

// A premise of more than two sentences comes with its best two sentences for the query
// (`snippet`, asked for with snippets=true): shown first, the full text one click away.
function premiseText(member) {
  if (!member.snippet || !member.snippet.length) {
    return el("div", { className: "representative" }, corpusText(member.text));
  }
  const snippet = member.snippet.join(" ") + " [...]";
  const shown = el("span", { className: "snippet-text" }, corpusText(snippet));
  const button = el("button", { type: "button", className: "link full-text", textContent: "full text" });
  button.setAttribute("aria-expanded", "false");
  button.onclick = () => {
    const full = button.getAttribute("aria-expanded") !== "true";
    shown.replaceChildren(corpusText(full ? member.text : snippet));
    button.textContent = full ? "best sentences" : "full text";
    button.setAttribute("aria-expanded", String(full));
  };
  return el("div", { className: "representative snippet" }, shown, " ", button);
}

function clusterItem(cluster, side) {
  const rep = cluster.representative;
  const members = el("ul", { className: "members", hidden: true }, ...cluster.members.map(memberItem));
  const explain = explanation(cluster, side);
  const more = el("button", { type: "button",
    textContent: cluster.size === 1 ? "1 premise" : `${cluster.size} premises` });
  more.setAttribute("aria-expanded", "false");
  more.onclick = () => toggle(more, members);
  const why = el("button", { type: "button", className: "why", textContent: "why this rank" });
  why.setAttribute("aria-expanded", "false");
  why.onclick = () => toggle(why, explain);
  const graph = el("button", { type: "button", textContent: "graph",
    onclick: () => showGraph(rep.key, rep.text) });
  const sources = sourcesOf(cluster.members);
  const meta = el("div", { className: "meta" }, `score ${fixed(cluster.score, 3)} `, more, " ", why, " ", graph);
  if (sources.length) {
    meta.append(" · ", sourceNode(sources[0]));
    if (sources.length > 1) meta.append(` +${sources.length - 1} more`);
  }
  return el("li", { className: "cluster" },
    premiseText(rep), meta, members, explain);
}

// -- search and the address bar -----------------------------------------------------------------

function formParams() {
  const params = { q: $("q").value.trim(), k: $("k").value || DEFAULT_K[$("view").value],
    stance: $("stance").value };
  if ($("view").value !== "clusters") params.view = $("view").value;
  return params;
}

// the default count of each view, as the CLI's (argkb query --k 10, argkb keypoints --k 5)
const DEFAULT_K = { clusters: "10", pairs: "10", keypoints: "5" };
let shownView = "clusters";  // the view the count was last set for

function fillForm(params) {
  $("q").value = params.get("q") || "";
  const view = params.get("view");
  $("view").value = ["pairs", "keypoints"].includes(view) ? view : "clusters";
  const k = Number.parseInt(params.get("k") || "", 10);
  $("k").value = Number.isFinite(k) && k >= 1 && k <= 100 ? String(k) : DEFAULT_K[$("view").value];
  const stance = params.get("stance");
  $("stance").value = ["pro", "con", "both"].includes(stance) ? stance : "both";
  shownView = $("view").value;
  syncControls();
}

function viewChanged() {
  // a count left at the old view's default follows the new view's; one the user chose stays
  if ($("k").value === DEFAULT_K[shownView]) $("k").value = DEFAULT_K[$("view").value];
  shownView = $("view").value;
  syncControls();
}

function syncControls() {
  // sentence pairs have no stance filter (as `argkb query --pairs` takes no --stance)
  const pairs = $("view").value === "pairs";
  $("stance").disabled = pairs;
  $("stance").title = pairs ? "sentence pairs come from both sides" : "";
}

// -- sentence pairs (GET /api/v1/pairs; needs argkb sentences) -----------------------------------

function pairItem(pair) {
  // pair.top: which sentence was retrieved; the other is its neighbour in the premise
  const sentences = pair.sentences.map((s, i) => i === pair.top
    ? el("strong", { className: "top-sentence" }, corpusText(s.text))
    : el("span", { className: "next-sentence" }, corpusText(s.text)));
  const text = el("div", { className: "pair-text" });
  sentences.forEach((node, i) => { if (i) text.append(" "); text.append(node); });
  const first = pair.arguments && pair.arguments[0];
  const where = first && first.conclusion
    ? [`${pair.stance || "stance unknown"} on "`, corpusText(first.conclusion), "\"" +
      (pair.arguments.length > 1 ? ` (+${pair.arguments.length - 1} more)` : "")]
    : [pair.stance || "stance unknown"];
  const graph = el("button", { type: "button", textContent: "graph",
    onclick: () => showGraph(pair.unit, pair.sentences.map((s) => s.text).join(" ")) });
  const score = el("span", { className: "pair-score", title: pairWhy(pair.explain) },
    `score ${fixed(pair.score, 3)}`);
  const meta = el("div", { className: "meta" }, score, " · ", ...where, " ", graph);
  return el("li", { className: "pair" }, text, meta);
}

function pairWhy(explain) {
  // the pipeline's score is the weighted sum of these features (argkb.sentences.pipeline)
  if (!explain) return "";
  const terms = Object.entries(explain.weights)
    .map(([name, weight]) => `${weight} x ${name} ${fixed(explain.features[name], 3)}`);
  return `${explain.model} ${fixed(explain.top_score, 3)}; score = ${terms.join(" + ")}`;
}

function showPairs(result) {
  say(result.message || (result.pairs.length
    ? `the best sentence of each premise with its ${result.pairing}, best first ` +
      "(hover a score for what made it)" : ""), result.notes);
  $("pairs").replaceChildren(...result.pairs.map(pairItem));
}

// -- key points of a topic (GET /api/v1/keypoints) ------------------------------------------------

function keyPointExample(example) {
  const where = el("span", { className: "meta" });
  example.sources.forEach((s, i) => where.append(i ? ", " : " ", sourceNode(s)));
  return el("li", { className: "example" }, corpusText(example.text), where);
}

function keyPointItem(row) {
  const meta = el("div", { className: "meta" },
    `${row.prevalence} premise${row.prevalence === 1 ? "" : "s"} of ` +
    `${row.arguments} argument${row.arguments === 1 ? "" : "s"} match it`);
  if (row.from.text !== row.key_point) {  // a sentence of a longer premise: say which
    meta.append(" · from: ", el("span", { className: "kp-from", title: row.from.text },
      corpusText(shortLabel(row.from.text))));
  }
  const examples = el("ul", { className: "members" }, ...row.examples.map(keyPointExample));
  return el("li", { className: "keypoint" },
    el("strong", { className: "key-point" }, corpusText(row.key_point)), meta, examples);
}

function showKeyPoints(result) {
  const unknown = result.unknown_stance ? `; ${result.unknown_stance} of unknown stance left out` : "";
  const verb = result.premises === 1 ? "concludes" : "conclude";
  say([`${counted(result.premises, "premise")} ${verb} "`, corpusText(result.topic),
    `"${unknown}: each key point is a sentence of one of them, most prevalent first`]);
  for (const side of ["pro", "con"]) {
    const part = result.stances[side];
    $(side).replaceChildren(...(part ? part.key_points.map(keyPointItem) : []));
  }
}

function showClusters(result) {
  say(result.message, result.notes);
  $("pro").replaceChildren(...result.pro.map((c) => clusterItem(c, "pro")));
  $("con").replaceChildren(...result.con.map((c) => clusterItem(c, "con")));
}

const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const MAX_QUERY = 2000;  // characters, as the API (argkb.serve.routes) takes them
let searches = 0;  // searches started (a search, back, forward): only the latest one is shown

function say(message, notes) {
  // the answer's message (or what the view shows) and, each on a line of its own, its notes:
  // what the answer may lack and what to run (a corpus loaded since the last argkb sentences);
  // a line is a string, or a list of strings and nodes (a corpus text in its isolate)
  const lines = [message, ...(notes || [])].filter((line) => line);
  $("message").replaceChildren(...lines.map((line, i) =>
    el("div", { className: i || !message ? "note" : "" }, ...[].concat(line))));
}

function clearAnswer(message) {
  // an answer that failed must not leave the previous one on screen, as if it were its answer
  say(message);
  for (const id of ["pro", "con", "pairs"]) $(id).replaceChildren();
  lastResult = null;
  document.title = "argkb explorer";
}

async function run(params) {
  const mine = ++searches;
  if (!params.q) return clearAnswer("Type a claim to search.");
  if (params.q.length > MAX_QUERY) {
    return clearAnswer(`A claim is at most ${MAX_QUERY} characters; this one has ${params.q.length}.`);
  }
  $("message").textContent = "searching ...";
  const pairs = params.view === "pairs";
  $("k-label").textContent = pairs ? "pairs" : params.view === "keypoints" ? "key points" : "clusters";
  $("pairs-column").hidden = !pairs;
  $("pro-column").hidden = pairs || params.stance === "con";
  $("con-column").hidden = pairs || params.stance === "pro";
  const [path, asked, show] = pairs ? ["pairs", { q: params.q, k: params.k, explain: true }, showPairs]
    : params.view === "keypoints"
      ? ["keypoints", { topic: params.q, stance: params.stance, k: params.k }, showKeyPoints]
      : ["query", { ...params, explain: true, snippets: true }, showClusters];
  try {
    const result = await api(path, asked);
    if (mine !== searches) return;  // a later search is on screen: this answer is not its
    lastResult = result;
    show(result);
    document.title = params.q + " · argkb explorer";
  } catch (err) {
    if (mine === searches) clearAnswer(err.message);
  }
}

function search(event) {
  event.preventDefault();
  const params = formParams();
  const url = "?" + new URLSearchParams(params);
  if (url !== location.search) history.pushState(params, "", url);
  run(params);
}

function fromAddress() {
  const params = new URLSearchParams(location.search);
  fillForm(params);
  if ($("q").value.trim()) {
    run(formParams());
  } else {
    clearAnswer("");
  }
}

// -- the graph ----------------------------------------------------------------------------------

function shortLabel(text, max = 48) {
  // cut at a word end where there is one, so that no word is shown cut
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 2);
  const space = cut.lastIndexOf(" ");
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd() + " …";
}

// a node of GET /api/v1/graph as drawn and listed: claim or premise, and its text (else its key)
const nodeKind = (n) => (n.kind.startsWith("claim") ? "claim" : "premise");
const nodeText = (n) => n.text || n.id;
const GRAPH_NODES = 300;  // the most nodes drawn (the API's limit)

let graphs = 0;  // graphs asked for: only the latest one is drawn

function clearGraph(message) {
  // the panel's title names the unit asked for: no other unit's drawing may stay under it
  if (window.argkbGraph) window.argkbGraph.destroy();
  window.argkbGraph = null;
  $("graph-nodes").replaceChildren();
  $("graph-message").textContent = message;
}

async function showGraph(key, text) {
  const mine = ++graphs;
  graphKey = key;
  graphText = text;
  clearGraph("drawing ...");
  $("graph-panel").hidden = false;
  $("graph-title").replaceChildren("Graph around: ", corpusText(shortLabel(text, 120)));
  $("graph-title").title = text;
  // the panel is below the answer: bring it into view, and the keyboard's focus with it
  $("graph-panel").scrollIntoView({ block: "start" });
  $("graph-title").focus({ preventScroll: true });
  try {
    const depth = $("depth").value;
    const graph = await api("graph", { key, depth, limit: GRAPH_NODES });
    if (mine !== graphs) return;  // another unit was asked for meanwhile
    const ranks = graph.nodes.map((n) => n.pagerank || 0);
    const top = Math.max(...ranks, 1e-12);
    const elements = [
      ...graph.nodes.map((n) => ({ data: { id: n.id, label: shortLabel(nodeText(n)), text: nodeText(n),
        depth: n.depth, kind: nodeKind(n),
        size: 14 + 30 * Math.sqrt((n.pagerank || 0) / top), origin: n.id === key ? "yes" : "no" } })),
      ...graph.edges.map((e, i) => ({ data: { id: "e" + i, source: e.source, target: e.target,
        kind: e.type === "same_as" ? "same" : e.type === "undercuts" ? "undercut" : (e.stance || "unknown") } })),
    ];
    const cy = cytoscape({
      container: $("graph"), elements,
      style: [
        { selector: "node", style: { label: "data(label)", width: "data(size)", height: "data(size)",
          "font-size": 12, "text-wrap": "wrap", "text-max-width": 140, "text-valign": "bottom",
          "text-margin-y": 3, "text-background-color": "#fff", "text-background-opacity": 0.85,
          "text-background-padding": 1, "min-zoomed-font-size": 7, color: "#111" } },
        { selector: 'node[kind = "claim"]', style: { "background-color": "#2563eb" } },
        { selector: 'node[kind = "premise"]', style: { "background-color": "#f59e0b" } },
        { selector: 'node[origin = "yes"]', style: { "border-width": 3, "border-color": "#111", "font-weight": "bold" } },
        { selector: "edge", style: { width: 2, "curve-style": "bezier", "target-arrow-shape": "triangle" } },
        { selector: 'edge[kind = "pro"]', style: { "line-color": "#15803d", "target-arrow-color": "#15803d" } },
        { selector: 'edge[kind = "con"]', style: { "line-color": "#b91c1c", "target-arrow-color": "#b91c1c" } },
        { selector: 'edge[kind = "same"]', style: { "line-color": "#9ca3af", "line-style": "dashed", "target-arrow-shape": "none" } },
        { selector: 'edge[kind = "undercut"]', style: { "line-color": "#b91c1c", "line-style": "dotted", "target-arrow-color": "#b91c1c", "target-arrow-shape": "tee" } },
      ],
      // rings by distance from the chosen unit; node boxes include their labels, so that no two
      // labels overlap (a force layout let them pile up at the centre)
      layout: { name: "concentric", concentric: (n) => 10 - n.data("depth"), levelWidth: () => 1,
        minNodeSpacing: 12, avoidOverlap: true, nodeDimensionsIncludeLabels: true, animate: false },
      maxZoom: 1.6,
    });
    cy.on("tap", "node", (e) => showGraph(e.target.id(), e.target.data("text")));
    window.argkbGraph = cy;  // for tests and the console
    graphList(graph.nodes, key);
    $("graph-message").textContent = graph.truncated
      ? `The ${graph.nodes.length} units nearest to it: its neighbourhood at depth ${depth} ` +
        "has more (choose a smaller depth, or click a node to move there)."
      : "";
  } catch (err) {  // said in the panel, which has the focus, not above the answer
    if (mine === graphs) clearGraph(err.message);
  }
}

function graphList(nodes, key) {
  // the drawn nodes again as a list of buttons, nearest first: what the keyboard (and a screen
  // reader) can reach, where the drawing answers only the mouse
  const sorted = [...nodes].sort((a, b) => a.depth - b.depth);
  $("graph-nodes").replaceChildren(...sorted.map((n) => {
    const kind = nodeKind(n);
    const text = nodeText(n);
    const button = el("button", { type: "button", className: "link", title: text,
      onclick: () => showGraph(n.id, text) }, corpusText(shortLabel(text, 90)));
    if (n.id === key) button.setAttribute("aria-current", "true");
    return el("li", {}, `${kind}, step ${n.depth}: `, button);
  }));
}

$("search").addEventListener("submit", search);
$("view").addEventListener("change", viewChanged);
$("depth").addEventListener("change", () => graphKey && showGraph(graphKey, graphText));
$("token").value = localStorage.getItem("argkb-token") || "";
window.addEventListener("popstate", fromAddress);
fromAddress();
