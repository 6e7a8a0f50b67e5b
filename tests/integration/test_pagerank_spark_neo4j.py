"""``argkb pagerank --engine spark`` through Neo4j: the same scores written back as SciPy's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
READ = (
    "MATCH (u:Unit) OPTIONAL MATCH (u)-[:PREMISE_OF]->(a:Argument) "
    "RETURN u.uid AS uid, u.pagerank AS s, collect([a.aid, a.relevance_avg]) AS rel"
)


def _stored(driver) -> dict[str, tuple[float, dict[str, float]]]:
    return {
        r["uid"]: (r["s"], {aid: v for aid, v in r["rel"] if aid is not None})
        for r in driver.execute_query(READ).records
    }


def test_spark_engine_writes_the_scipy_scores(db, neo4j_uri: str) -> None:
    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    runner = CliRunner()
    args = ["pagerank", "--uri", neo4j_uri, "--top", "3"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    scipy = _stored(db)
    db.execute_query("MATCH (u:Unit) REMOVE u.pagerank")
    db.execute_query("MATCH (a:Argument) REMOVE a.relevance_avg")
    second = runner.invoke(main, [*args, "--engine", "spark"])
    assert second.exit_code == 0, second.output
    spark = _stored(db)
    assert spark.keys() == scipy.keys() and len(spark) > 10
    diff = max(abs(spark[u][0] - scipy[u][0]) for u in scipy)
    assert diff < 1e-9, diff
    for uid, (_, rel) in scipy.items():
        assert rel.keys() == spark[uid][1].keys()
        for aid, value in rel.items():
            assert abs(spark[uid][1][aid] - value) < 1e-9
