"""``argkb analytics`` on the demo corpus (examples/debates.json, as `make demo` loads it):
the properties it writes, checked against networkx on the same unit graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = pytest.mark.neo4j
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"


@pytest.fixture(scope="module")
def report(db, neo4j_uri):
    from argkb.rank.store import run_pagerank

    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    run_pagerank(db)
    result = CliRunner().invoke(main, ["analytics", "--json", "--uri", neo4j_uri])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _unit_graph(db):
    import networkx as nx

    g: nx.Graph[str] = nx.Graph()
    g.add_nodes_from(r["u"] for r in db.execute_query("MATCH (u:Unit) RETURN u.uid AS u").records)
    g.add_edges_from(
        (r["p"], r["c"])
        for r in db.execute_query(
            "MATCH (p:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit) WHERE p <> c "
            "RETURN p.uid AS p, c.uid AS c"
        ).records
    )
    return g


def test_every_unit_and_argument_gets_its_properties(db, report) -> None:
    units = db.execute_query(
        "MATCH (u:Unit) RETURN count(u) AS n, count(u.community) AS community, "
        "count(u.component) AS component, count(u.betweenness) AS betweenness, "
        "count(u.gds_pagerank) AS gds_pagerank"
    ).records[0]
    assert units["n"] == report["units"] == 107
    assert units["community"] == units["component"] == units["betweenness"] == 107
    assert units["gds_pagerank"] == 107
    arguments = db.execute_query(
        "MATCH (a:Argument)-[:CONCLUDES]->(c:Unit) "
        "RETURN count(a) AS n, sum(CASE WHEN a.community = c.community "
        "AND a.component = c.component THEN 1 ELSE 0 END) AS same"
    ).records[0]
    assert arguments["n"] == arguments["same"] == report["arguments"] == 99


def test_components_and_betweenness_match_networkx(db, report) -> None:
    import networkx as nx

    g = _unit_graph(db)  # no SAME_AS here: the demo is not clustered in this module
    assert report["links"] == g.number_of_edges()
    components = list(nx.connected_components(g))
    assert report["components"] == len(components)
    written = {
        r["uid"]: (r["component"], r["community"], r["betweenness"])
        for r in db.execute_query(
            "MATCH (u:Unit) RETURN u.uid AS uid, u.component AS component, "
            "u.community AS community, u.betweenness AS betweenness"
        ).records
    }
    for part in components:
        assert len({written[uid][0] for uid in part}) == 1
    # communities never span two components
    by_community: dict[int, set[int]] = {}
    for component, community, _ in written.values():
        by_community.setdefault(community, set()).add(component)
    assert all(len(parts) == 1 for parts in by_community.values())
    assert report["communities"] == len(by_community) >= len(components)
    expected = nx.betweenness_centrality(g, normalized=False)
    assert {uid: value[2] for uid, value in written.items()} == pytest.approx(expected)


def test_pagerank_correlation(db, report) -> None:
    from scipy.stats import kendalltau

    rows = db.execute_query(
        "MATCH (u:Unit) RETURN u.pagerank AS argkb, u.gds_pagerank AS gds ORDER BY u.uid"
    ).records
    tau = kendalltau([r["argkb"] for r in rows], [r["gds"] for r in rows]).statistic
    assert report["correlation"]["units"] == 107
    assert report["correlation"]["kendall_tau"] == pytest.approx(tau)
    # every demo argument has one premise, so argkb's adapted PageRank moves along the same
    # edges as GDS's classic one: they differ only in dangling mass, and the ranks agree
    assert tau == pytest.approx(1.0)
    assert report["pagerank_converged"]


def test_errors_are_one_line(db, wipe_db, neo4j_uri, report) -> None:
    wipe_db(db)
    result = CliRunner().invoke(main, ["analytics", "--uri", neo4j_uri])
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1] == (
        "Error: the graph has no units: load a corpus first (argkb load ...)"
    )
