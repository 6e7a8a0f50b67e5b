"""The browsing library, the Bloom perspective and ``argkb analytics`` on a real Neo4j holding a
hand-made graph (tests/fixtures/browse/graph.cypher). Expected rows are counted by hand from that
file; betweenness is checked against networkx."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.errors import ExploreError
from argkb.explore import library
from argkb.explore.analytics import run_analytics

pytestmark = pytest.mark.neo4j
GRAPH = Path(__file__).resolve().parents[1] / "fixtures" / "browse" / "graph.cypher"

# The unit graph of the fixture, written out by hand: (premise, conclusion) of each argument
# (for the undercut a13, the conclusion of the argument it attacks), the one SAME_AS pair, and
# the key point, a unit in no argument.
SUPPORTS = [
    ("c2", "c1"), ("p3", "c1"), ("p14", "c1"), ("p5", "c1"), ("p4", "c2"), ("p13", "p4"),
    ("c2", "c7"), ("p6", "c7"), ("p3", "c7"), ("p10", "c9"), ("p11", "c9"), ("p12", "c9"),
    ("p15", "c1"),
]  # fmt: skip
SAME_AS = [("c2", "p6")]
ALONE = ["kp1"]


@pytest.fixture(scope="module")
def graph(db):
    db.execute_query(GRAPH.read_text(encoding="utf-8"))
    run_analytics(db, concurrency=1)
    return db


def rows(driver, name: str, **params: Any) -> list[dict[str, Any]]:
    query = library.get(name)
    bound = library.bind(query, {k: str(v) for k, v in params.items()})
    return library.run(driver, name, bound)


def keys(path: dict[str, Any]) -> list[str]:
    return [node["key"] for node in path["nodes"]]


def test_every_query_runs_with_its_documented_examples(graph) -> None:
    # the examples name the demo corpus, not this graph: they must run, rows or none
    for query in library.all_queries():
        library.run(graph, query.name, query.examples)


def test_overview(graph) -> None:
    got = {(r["kind"], r["name"]): r["count"] for r in rows(graph, "overview")}
    assert got == {
        ("label", "Unit"): 15, ("label", "Claim"): 5, ("label", "Premise"): 11,
        ("label", "KeyPoint"): 1, ("label", "Sentence"): 2,
        ("label", "Argument"): 13, ("label", "Source"): 4, ("label", "Corpus"): 2,
        ("label", "Cluster"): 8, ("label", "ClaimCluster"): 5, ("label", "PremiseCluster"): 3,
        ("label", "ClusterOf1"): 6, ("label", "ClusterOf2to4"): 2,
        ("relationship", "CONCLUDES"): 12, ("relationship", "PREMISE_OF"): 13,
        ("relationship", "UNDERCUTS"): 1, ("relationship", "FROM"): 14,
        ("relationship", "REUSES"): 3, ("relationship", "SAME_AS"): 1,
        ("relationship", "IN_CLUSTER"): 10, ("relationship", "SHARES"): 1,
        ("relationship", "MATCHES_KEY_POINT"): 1, ("relationship", "IN"): 2,
        ("relationship", "NEXT"): 1,
        ("corpus complete", "browse fixture"): 15, ("corpus complete", "second fixture"): 0,
    }  # fmt: skip


def test_overview_reads_the_count_store_not_the_graph(graph) -> None:
    """The data model's labels and types are counted from the count store, not by reading the
    graph (the overview used to read every node and every relationship); a label outside the
    model is still counted. Inside a transaction that adds 2,000 sentences (rolled back), the
    database hits stay far below them, and 3 nodes of an unknown label are counted."""
    body = library.get("overview").body

    def overview_with(*statements: str) -> tuple[dict[tuple[str, str], int], int]:
        with graph.session() as session, session.begin_transaction() as tx:
            for statement in statements:
                tx.run(statement).consume()
            counted = {(r["kind"], r["name"]): r["count"] for r in tx.run(body)}
            hits = _db_hits(tx.run("PROFILE " + body).consume().profile)
            tx.rollback()
        return counted, hits

    more = "UNWIND range(1, 2000) AS i CREATE (:Sentence {uid: 'tx' + i})"
    counted, hits = overview_with(more)
    assert counted[("label", "Sentence")] == 2002
    assert 0 < hits < 200, hits
    counted, hits = overview_with(more, "UNWIND range(1, 3) AS i CREATE (:NotArgkb)")
    assert counted[("label", "NotArgkb")] == 3
    assert hits > 2000  # a label outside the data model costs a scan of every node


def _db_hits(plan: Any) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


def test_find_units(graph) -> None:
    got = [
        (r["uid"], r["claim"], r["premise"], r["pagerank"], r["concluded_by"], r["premise_of"])
        for r in rows(graph, "find_units", text="AIR")
    ]
    assert got == [("c2", True, True, 0.20, 1, 2), ("p6", False, True, 0.08, 0, 1)]
    assert [r["uid"] for r in rows(graph, "find_units", text="air", limit=1)] == ["c2"]


def test_claim_arguments_is_the_graph_of_pro_and_con(graph) -> None:
    result = rows(graph, "claim_arguments", claim="ban cars")
    premises = {
        (r["premise"]["nodes"][0]["key"], r["premise"]["relationships"][0]["properties"]["stance"])
        for r in result
        if r["premise"]
    }
    assert premises == {("c2", "pro"), ("p5", "pro"), ("p3", "con"), ("p14", "con")}
    assert {keys(r["conclusion"])[1] for r in result} == {"c1"}
    # the undercut of a1 comes with it, in a row of its own (not paired with each premise)
    assert [(keys(r["conclusion"])[0], keys(r["undercut"])) for r in result if r["undercut"]] == [
        ("a1", ["p15", "a13", "a1"])
    ]
    assert len(result) == 5 and all(
        (r["premise"] is None) != (r["undercut"] is None) for r in result
    )
    # a uid picks its unit; of several matching texts the shortest wins (c1, not c7)
    assert len(rows(graph, "claim_arguments", claim="c7")) == 3
    assert {keys(r["conclusion"])[1] for r in rows(graph, "claim_arguments", claim="Cities")} == {
        "c1"
    }


def test_claim_pro_con_table(graph) -> None:
    got = [
        (r["stance"], r["stance_from"], r["premise"], r["argument"])
        for r in rows(graph, "claim_pro_con", claim="Homework should be abolished")
    ]
    assert got == [
        ("pro", "data", "Homework causes stress", "a7"),
        ("con", "data", "Homework builds discipline", "a8"),
        ("con", "model", "Practice improves learning", "a9"),
    ]
    first = rows(graph, "claim_pro_con", claim="cities should ban")
    assert [(r["stance"], r["argument"]) for r in first] == [
        ("pro", "a1"), ("pro", "a3"), ("con", "a2"), ("con", "a12"),
        ("undercut", "a13 undercuts a1"),
    ]  # fmt: skip
    assert first[-1]["premise"].startswith("Filters can clean")
    assert rows(graph, "claim_pro_con", claim="c1") == first  # by its key
    # a key wins over a text that contains it; a premise's key names no claim
    assert rows(graph, "reuse_chains", claim="p4", depth=1) != []
    assert rows(graph, "claim_pro_con", claim="p3") == []  # p3 concludes nothing


# every query that looks something up by its key, with a key of the fixture
BY_KEY = {
    "claim_pro_con": {"claim": "c1"}, "claim_arguments": {"claim": "c1"},
    "support_tree": {"claim": "c1", "depth": 2}, "reuse_chains": {"claim": "p4", "depth": 1},
    "same_as": {"unit": "p6"}, "unit_cluster": {"unit": "c2"},
    "cluster_members": {"cid": "premise:0"}, "source_arguments": {"source": "fx:s3"},
    "paths_between": {"from": "p13", "to": "c7"}, "premise_sentences": {"unit": "p15"},
}  # fmt: skip


def test_a_key_is_looked_up_in_the_index_not_by_scanning(graph) -> None:
    """The lookups by key (uid, sid, cid) seek the constraint's index; the text search, which
    scans, runs only when no key matched: its planned label scan produces no row."""
    from argkb.db.schema import init_schema

    init_schema(graph)  # the constraints whose indexes the keys are sought in
    keyed = {q.name for q in library.all_queries() if "{uid: $" in q.body or "{sid: $" in q.body
             or "{cid: $" in q.body}  # fmt: skip
    assert keyed == set(BY_KEY)
    for name, params in BY_KEY.items():
        plan = graph.execute_query("PROFILE " + library.get(name).body, params).summary.profile
        assert _rows_of(plan, "Seek") > 0, name
        assert _rows_of(plan, "LabelScan") == 0, name
        assert _rows_of(plan, "AllNodesScan") == 0, name
    by_text = graph.execute_query(
        "PROFILE " + library.get("claim_pro_con").body, {"claim": "ban cars"}
    ).summary.profile
    assert _rows_of(by_text, "LabelScan") > 0  # the check above can fail


def _rows_of(plan: Any, kind: str) -> int:
    """Rows the operators of ``kind`` produced (a planned scan that never ran produces 0)."""
    own = int(plan.get("rows", 0)) if kind in plan["operatorType"] else 0
    return own + sum(_rows_of(c, kind) for c in plan.get("children", []))


def test_support_tree_by_depth(graph) -> None:
    def starts(depth: int) -> Counter[str]:
        result = rows(graph, "support_tree", claim="ban cars", depth=depth)
        assert {keys(r["path"])[-1] for r in result} == {"c1"}
        return Counter(keys(r["path"])[0] for r in result)

    assert starts(1) == Counter({"c2": 1, "p3": 1, "p5": 1, "p14": 1})
    assert starts(2) == Counter({"c2": 1, "p3": 1, "p5": 1, "p14": 1, "p4": 1})
    assert starts(3) == Counter({"c2": 1, "p3": 1, "p5": 1, "p14": 1, "p4": 1, "p13": 1})


def test_reuse_chains_by_depth(graph) -> None:
    def chains(depth: int) -> set[tuple[str, ...]]:
        result = rows(graph, "reuse_chains", claim="Exhaust fumes", depth=depth)
        return {tuple(k for k in keys(r["path"]) if not k.startswith("a")) for r in result}

    assert chains(1) == {("p4", "c2")}
    assert chains(2) == {("p4", "c2"), ("p4", "c2", "c1"), ("p4", "c2", "c7")}
    assert chains(3) == chains(2)  # nothing reuses c1 or c7


def test_shared_premises(graph) -> None:
    result = rows(graph, "shared_premises")
    assert [(r["uid"], r["claims"]) for r in result] == [("c2", 2), ("p3", 2)]
    assert sorted((u["claim"], u["stance"]) for u in result[1]["uses"]) == [
        ("Cities should ban cars", "con"), ("Cities should build more bike lanes", "con"),
    ]  # fmt: skip
    assert rows(graph, "shared_premises", min_claims=3) == []


def test_contested_claims(graph) -> None:
    got = [
        (r["uid"], r["pro"], r["con"], r["contested"], r["undercuts"])
        for r in rows(graph, "contested_claims")
    ]
    assert got == [("c1", 2, 2, 2, 1), ("c7", 2, 1, 1, 0), ("c9", 1, 2, 1, 0)]


def test_topic_central_units(graph) -> None:
    assert [r["uid"] for r in rows(graph, "topic_central_units", topic="homework", limit=3)] == [
        "c9", "p10", "p11",
    ]  # fmt: skip
    # p12 does not say "homework": it belongs to the topic through its source's title, and so
    # does the key point kp1, which hangs on the source with no argument
    assert [r["uid"] for r in rows(graph, "topic_central_units", topic="Homework")] == [
        "c9", "p10", "p11", "p12", "kp1",
    ]  # fmt: skip


def test_cluster_members_and_largest_clusters(graph) -> None:
    got = [
        (r["uid"], r["size"], r["cf_pro"], r["cf_con"], r["premise_of"], r["concluded_by"])
        for r in rows(graph, "cluster_members", cid="premise:0")
    ]
    assert got == [("c2", 2, 2, 0, 2, 1), ("p6", 2, 2, 0, 1, 0)]
    largest = rows(graph, "largest_clusters", kind="premise")
    assert [(r["cid"], r["members"], r["sample"]) for r in largest] == [
        ("premise:0", 2, "Cars pollute the air"),
        ("premise:1", 2, "Homework builds discipline"),
        ("premise:2", 1, "Car bans hurt shop owners"),
    ]
    assert len(rows(graph, "largest_clusters", kind="claim", limit=2)) == 2


def test_unit_cluster(graph) -> None:
    result = rows(graph, "unit_cluster", unit="Cars pollute the air")
    assert [(keys(r["own"])[1], r["member"] and keys(r["member"])[1]) for r in result] == [
        ("claim:3", None), ("premise:0", "p6"),
    ]  # fmt: skip


def test_same_as(graph) -> None:
    result = rows(graph, "same_as", unit="Traffic pollutes")
    assert [keys(r["path"]) for r in result] == [["p6", "c2"]]
    assert result[0]["path"]["relationships"][0]["properties"]["score"] == 0.9


def test_source_arguments(graph) -> None:
    for source in ("Bike lanes", "fx:s3"):
        result = rows(graph, "source_arguments", source=source)
        assert sorted(keys(r["provenance"])[0] for r in result) == ["a10", "a5", "a6"]
        assert {keys(r["conclusion"])[1] for r in result} == {"c7"}
        assert sorted(keys(r["premise"])[0] for r in result) == ["c2", "p3", "p6"]
    # an undercut comes with the argument it attacks; a unit on its own with its source
    result = rows(graph, "source_arguments", source="fx:s1")
    assert sorted(keys(r["conclusion"]) for r in result) == [
        ["a1", "c1"], ["a12", "c1"], ["a13", "a1"], ["a2", "c1"],
    ]  # fmt: skip
    result = rows(graph, "source_arguments", source="Homework debate")
    assert sorted(keys(r["provenance"])[0] for r in result) == ["a7", "a8", "a9", "kp1"]
    assert [r["conclusion"] for r in result if keys(r["provenance"])[0] == "kp1"] == [None]


def test_premise_sentences(graph) -> None:
    result = rows(graph, "premise_sentences", unit="Filters")
    assert [keys(r["sentence"]) for r in result] == [["p15#0", "p15"], ["p15#1", "p15"]]
    assert [r["next"] and keys(r["next"]) for r in result] == [["p15#0", "p15#1"], None]
    assert rows(graph, "premise_sentences", unit="p3") == []  # not split into sentences
    # a text picks the shortest premise that was split ("Car bans ..." is shorter, not split)
    assert {keys(r["sentence"])[1] for r in rows(graph, "premise_sentences", unit="car")} == {"p15"}


def test_paths_between(graph) -> None:
    result = rows(graph, "paths_between", **{"from": "ban cars", "to": "bike lanes"})
    assert sorted(keys(r["path"]) for r in result) == [
        ["c1", "a1", "c2", "a5", "c7"], ["c1", "a2", "p3", "a10", "c7"],
    ]  # fmt: skip
    result = rows(graph, "paths_between", **{"from": "Diesel", "to": "c7"})
    assert [keys(r["path"]) for r in result] == [["p13", "a11", "p4", "a4", "c2", "a5", "c7"]]
    assert rows(graph, "paths_between", **{"from": "Diesel", "to": "Homework"}) == []
    # an undercut's premise reaches the claim it attacks through UNDERCUTS
    result = rows(graph, "paths_between", **{"from": "Filters", "to": "c1"})
    assert [keys(r["path"]) for r in result] == [["p15", "a13", "a1", "c1"]]
    assert rows(graph, "paths_between", **{"from": "c1", "to": "ban cars"}) == []  # one unit


def test_the_explorer_graph_draws_an_undercut(graph) -> None:
    """GET /api/v1/graph's reads: an undercut's premise is joined to the claim whose argument
    it attacks, as an edge of its own type, from either end."""
    from argkb.serve.store import Store

    for start in ("p15", "c1"):
        found = Store(graph).graph(start, 1, 50)
        undercuts = [e for e in found["edges"] if e["type"] == "undercuts"]
        assert [(e["source"], e["target"], e["argument"]) for e in undercuts] == [
            ("p15", "c1", "a13")
        ], start
    assert Store(graph).graph("c7", 1, 50)["edges"] and all(
        e["type"] != "undercuts" for e in Store(graph).graph("c7", 1, 50)["edges"]
    )


def test_the_api_lists_an_arguments_undercuts(graph) -> None:
    """GET /api/v1/claims/{key}/arguments: each argument with the undercuts that attack it."""
    from argkb.serve.models import ClaimArguments
    from argkb.serve.store import Store

    found = ClaimArguments(**Store(graph).claim_arguments("c1", 10))
    undercuts = {a.aid: [(u.aid, u.source, [p.key for p in u.premises]) for u in a.undercuts]
                 for a in found.arguments}  # fmt: skip
    assert undercuts == {"a1": [("a13", "fx:s1", ["p15"])], "a12": [], "a2": [], "a3": []}


def test_top_arguments(graph) -> None:
    result = rows(graph, "top_arguments", aggregate="avg", limit=3)
    assert [(r["argument"], r["relevance"]) for r in result] == [
        ("a1", 0.20), ("a5", 0.20), ("a4", 0.15),
    ]  # fmt: skip
    assert result[0]["premises"] == ["Cars pollute the air"]
    # a value outside the documented ones is refused, not answered with no rows
    with pytest.raises(ExploreError, match="takes 'min', 'avg', 'max' or 'sum', got 'median'"):
        rows(graph, "top_arguments", aggregate="median")


def test_sources(graph) -> None:
    got = [(r["sid"], r["arguments"], r["claims"], r["units"]) for r in rows(graph, "sources")]
    assert got == [
        ("fx:s1", 4, 1, 0), ("fx:s2", 3, 3, 0), ("fx:s3", 3, 1, 0), ("fx:s4", 3, 1, 1),
    ]  # fmt: skip


def test_predicted_stances(graph) -> None:
    assert rows(graph, "predicted_stances") == [
        {
            "premise": "Practice improves learning", "stance": "con", "p_pro": 0.2,
            "model": "fixture", "claim": "Homework should be abolished", "argument": "a9",
        }
    ]  # fmt: skip


def test_communities_nest_in_components(graph) -> None:
    result = rows(graph, "communities")
    assert sum(r["units"] for r in result) == 15
    assert all(len(r["components"]) == 1 for r in result)
    homework = [r for r in result if r["top_units"][0] == "Homework should be abolished"]
    assert len(homework) == 1 and homework[0]["units"] == 4  # the star c9 + 3 premises
    components = {r["components"][0] for r in result}
    assert len(components) == 3  # cars (with the undercut's premise), homework, kp1 alone


def test_bridges_match_networkx_betweenness(graph) -> None:
    import networkx as nx

    g: nx.Graph[str] = nx.Graph()
    g.add_edges_from(SUPPORTS + SAME_AS)
    g.add_nodes_from(ALONE)
    # unnormalised, each unordered pair of units counted once, as GDS does on undirected graphs
    expected = nx.betweenness_centrality(g, normalized=False)
    result = rows(graph, "bridges", limit=15)
    assert {r["uid"]: r["betweenness"] for r in result} == pytest.approx(expected)
    assert result[0]["uid"] == max(expected, key=lambda k: expected[k]) == "c1"


def test_analytics_writes_argument_properties(graph) -> None:
    records = graph.execute_query(
        "MATCH (a:Argument)-[:CONCLUDES]->(c) "
        "RETURN a.community = c.community AND a.component = c.component AS same, "
        "a.community IS NOT NULL AS has"
    ).records
    assert len(records) == 12 and all(r["same"] and r["has"] for r in records)
    # the undercut a13 concludes nothing: it takes those of c1, whose argument it attacks
    undercut = graph.execute_query(
        "MATCH (a:Argument {aid: 'a13'}), (c:Unit {uid: 'c1'}) "
        "RETURN a.community = c.community AND a.component = c.component AS same"
    ).records
    assert undercut[0]["same"] is True


# -- the Bloom perspective -------------------------------------------------------------------

# parameters that find something in this graph, per search phrase (browsing query)
FIXTURE_PARAMS: dict[str, dict[str, Any]] = {
    "claim_arguments": {"claim": "ban cars"},
    "paths_between": {"from": "Diesel", "to": "bike lanes"},
    "reuse_chains": {"claim": "Exhaust fumes", "depth": 2},
    "same_as": {"unit": "Traffic"},
    "source_arguments": {"source": "Bike lanes"},
    "support_tree": {"claim": "ban cars", "depth": 3},
    "unit_cluster": {"unit": "Cars pollute"},
    "premise_sentences": {"unit": "Filters"},
}


@pytest.fixture(scope="module")
def perspective(tmp_path_factory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("bloom") / "argkb.json"
    result = CliRunner().invoke(main, ["bloom", "perspective", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_search_phrase_runs(graph, perspective) -> None:
    templates = perspective["templates"]
    assert {t["id"].removeprefix("tmpl:") for t in templates} == set(FIXTURE_PARAMS)
    for template in templates:
        name = template["id"].removeprefix("tmpl:")
        declared = {p["name"].lstrip("$") for p in template["params"]}
        assert declared == set(FIXTURE_PARAMS[name])
        for example in (FIXTURE_PARAMS[name], library.get(name).examples):
            records = graph.execute_query(template["cypher"], example).records
            if example is FIXTURE_PARAMS[name]:
                assert records, name


def test_every_scene_action_runs(graph, perspective) -> None:
    def ids(*uids: str) -> list[str]:
        return [
            r["id"]
            for r in graph.execute_query(
                "MATCH (n) WHERE n.uid IN $uids OR n.aid IN $uids OR n.cid IN $uids "
                "RETURN elementId(n) AS id",
                uids=list(uids),
            ).records
        ]

    actions = {a["name"]: a["cypher"] for a in perspective["sceneActions"]}

    def run(name: str, *uids: str) -> list[Any]:
        return graph.execute_query(actions[name], nodes=ids(*uids)).records

    expand = run("Expand reuse", "c2")
    assert len(expand) == 3  # c2 -> c1, c2 -> c7 (up), p4 -> c2 (down)
    assert len(run("Expand reuse", "a4")) == 3  # a1 and a5 reuse a4; a4 reuses a11
    assert len(run("Show cluster", "c2")) == 1  # premise:0 with p6
    assert len(run("Show cluster", "premise:0")) == 2
    assert len(run("Show arguments of claim", "c1")) == 5  # 4 premises, 1 undercut premise
    assert [r["undercut"] for r in run("Show arguments of claim", "c7")] == [None] * 3
    for selected in ("a1", "c1"):  # the argument attacked, or the claim it concludes
        found = run("Show undercuts", selected)
        assert [r["path"].nodes[0]["uid"] for r in found] == ["p15"], selected
    assert run("Show undercuts", "a2") == []
    corpora = run("Show corpora of argument", "a5")
    assert sorted(r["c"]["cid"] for r in corpora) == ["fixture:1", "fixture:2"]
    assert [r["c"]["cid"] for r in run("Show corpora of argument", "a1")] == ["fixture:1"]
    assert len(run("Show community (argkb analytics)", "c9")) == 4


def test_show_community_seeks_the_community_index(graph, perspective) -> None:
    """Bloom's "Show community" finds a community's units through the index on Unit.community
    that ``argkb init`` creates, not by reading every unit: inside a transaction that adds 2,000
    units of another community (rolled back), its database hits stay far below them. Without
    the index they are above 2,000 (a scan of every unit)."""
    from argkb.db.schema import init_schema

    init_schema(graph)
    action = {a["name"]: a["cypher"] for a in perspective["sceneActions"]}[
        "Show community (argkb analytics)"
    ]
    (c9,) = graph.execute_query("MATCH (u:Unit {uid: 'c9'}) RETURN elementId(u) AS id").records
    with graph.session() as session, session.begin_transaction() as tx:
        tx.run("UNWIND range(1, 2000) AS i CREATE (:Unit {uid: 'tx' + i, community: -1})").consume()
        found = [r["m"]["uid"] for r in tx.run(action, nodes=[c9["id"]])]
        hits = _db_hits(tx.run("PROFILE " + action, nodes=[c9["id"]]).consume().profile)
        tx.rollback()
    assert sorted(found) == ["c9", "p10", "p11", "p12"]
    assert 0 < hits < 300, hits


def test_perspective_names_only_what_the_graph_has(graph, perspective) -> None:
    labels = {r["label"] for r in graph.execute_query("CALL db.labels()").records}
    types = {
        r["relationshipType"] for r in graph.execute_query("CALL db.relationshipTypes()").records
    }

    def node_keys(label: str) -> set[str]:
        return {
            r["key"]
            for r in graph.execute_query(
                "MATCH (n) WHERE $label IN labels(n) UNWIND keys(n) AS key RETURN DISTINCT key",
                label=label,
            ).records
        }

    def rel_keys(rel_type: str) -> set[str]:
        return {
            r["key"]
            for r in graph.execute_query(
                "MATCH ()-[r]->() WHERE type(r) = $t UNWIND keys(r) AS key RETURN DISTINCT key",
                t=rel_type,
            ).records
        }

    for category in perspective["categories"]:
        assert set(category["labels"]) <= labels, category["name"]
        present = set().union(*(node_keys(label) for label in category["labels"]))
        named = {p["name"] for p in category["properties"]} | set(category["captionKeys"])
        named |= {rule["basedOn"].rsplit("_", 1)[0] for rule in category["styleRules"]}
        assert named <= present, (category["name"], named - present)
    assert set(perspective["labels"]) <= labels
    for rel in perspective["relationshipTypes"]:
        assert rel["name"] in types
        named = {p["propertyKey"] for p in rel["properties"]}
        named |= {rule["basedOn"].rsplit("_", 1)[0] for rule in rel["styleRules"]}
        assert named <= rel_keys(rel["name"]), rel["name"]
    for segment in perspective["metadata"]["pathSegments"]:
        assert segment["relationshipType"] in types
        assert {segment["source"], segment["target"]} <= labels


# -- the CLI ---------------------------------------------------------------------------------


def test_cli_run_prints_rows_and_json(graph, neo4j_uri) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["cypher", "run", "contested_claims", "--param", "limit=1", "--uri", neo4j_uri]
    )
    assert result.exit_code == 0, result.output
    assert "Cities should ban cars" in result.output and "(1 row)" in result.output
    result = runner.invoke(
        main,
        ["cypher", "run", "same_as", "--param", "unit=Traffic", "--json", "--uri", neo4j_uri],
    )
    assert result.exit_code == 0, result.output
    assert [keys(r["path"]) for r in json.loads(result.stdout)] == [["p6", "c2"]]


def test_cli_run_bad_parameters_are_one_line_errors(graph, neo4j_uri) -> None:
    runner = CliRunner()
    for args, message in (
        (["claim_pro_con"], "missing parameter 'claim'"),
        (["find_units", "--param", "text=a", "--param", "limit=ten"], "takes an integer"),
        (["overview", "--param", "x=1"], "has no parameter 'x'"),
        (["overview", "--param", "novalue"], "is not KEY=VALUE"),
        (["nope"], "no browsing query 'nope'"),
        (
            ["find_units", "--param", "text=a", "--param", "limit=99999999999999999999"],
            "takes a 64-bit integer",
        ),
    ):
        result = runner.invoke(main, ["cypher", "run", *args, "--uri", neo4j_uri])
        assert result.exit_code != 0 and message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_cli_json_leaves_every_vector_out(graph, neo4j_uri) -> None:
    graph.execute_query("MATCH (c:Unit {uid: 'c1'}) SET c.negation_embedding = [0.5, 0.5]")
    try:
        result = CliRunner().invoke(main, ["cypher", "run", "claim_arguments", "--param",
                                           "claim=c1", "--json", "--uri", neo4j_uri])  # fmt: skip
        assert result.exit_code == 0, result.output
        found = json.loads(result.stdout)
        claims = [n for r in found for n in r["conclusion"]["nodes"] if n["key"] == "c1"]
        assert claims and all("negation_embedding" not in n["properties"] for n in claims)
    finally:
        graph.execute_query("MATCH (c:Unit {uid: 'c1'}) REMOVE c.negation_embedding")


def test_cli_analytics_refuses_more_threads_than_gds_community_runs(graph, neo4j_uri) -> None:
    result = CliRunner().invoke(main, ["analytics", "--concurrency", "5", "--uri", neo4j_uri])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "runs at most 4 threads" in result.output


def test_cli_analytics_json(graph, neo4j_uri) -> None:
    result = CliRunner().invoke(main, ["analytics", "--json", "--uri", neo4j_uri])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["units"] == 15
    assert report["links"] == len(SUPPORTS) + len(SAME_AS)
    assert report["components"] == 3
    assert report["correlation"]["units"] == 14  # those with a PageRank: not the key point


# -- the Browser guide (docs/guide.md) ---------------------------------------------------------

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"
_BLOCK = re.compile(r"^```cypher\n(.*?)\n```$", re.S | re.M)


def test_guide_slides_and_blocks_run_in_order(graph) -> None:
    """As Browser plays it: slides split on '---' lines; each ```cypher block runs with the
    parameters the last ':params' block set."""
    slides = re.split(r"^---$", GUIDE.read_text(encoding="utf-8"), flags=re.M)
    assert len(slides) >= 8 and slides[0].lstrip().startswith("# The argkb argument graph")
    bodies = {query.body: query.name for query in library.all_queries()}
    params: dict[str, Any] = {}
    ran: dict[str, int] = {}
    for slide in slides:
        blocks = _BLOCK.findall(slide)
        assert blocks, slide[:60]
        for block in blocks:
            if block.startswith(":params "):
                literal = block.removeprefix(":params ")
                params = graph.execute_query(f"RETURN {literal} AS p").records[0]["p"]
                continue
            assert block in bodies, f"not a library query:\n{block}"
            ran[bodies[block]] = len(graph.execute_query(block, params).records)
    assert len(ran) >= 15
    # the guide's examples name the demo corpus; those without a text find rows here too
    for name, count in (("overview", 26), ("contested_claims", 3), ("sources", 4),
                        ("communities", None), ("bridges", 10)):  # fmt: skip
        assert ran[name] == count if count is not None else ran[name] > 0
