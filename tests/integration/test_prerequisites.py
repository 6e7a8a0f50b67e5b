"""A step run before what it needs is a one-line refusal that writes nothing; a dropped corpus
leaves clusters and PageRank marked stale; ``update --dry-run`` predicts the refusals of a real
run (an audit of the CLI, 2026-11-27: each of these exited 0, wrote schema, or said "up to date").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from argkb import pipeline
from argkb.errors import ArgKBError

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIRST = FIXTURES / "argsme" / "small.jsonl"
SECOND = FIXTURES / "eval" / "dataset" / "corpus.jsonl"


def _schema(driver: Any) -> int:
    constraints = driver.execute_query("SHOW CONSTRAINTS YIELD name").records
    indexes = driver.execute_query("SHOW INDEXES YIELD type WHERE type <> 'LOOKUP'").records
    return len(constraints) + len(indexes)


def _stale(driver: Any) -> dict[str, int]:
    from argkb.db.staleness import stale_steps

    return {s.what: s.count for s in stale_steps(driver) if s.count}


def test_every_step_refuses_an_empty_graph_and_writes_no_schema(db: Any, wipe_db: Any) -> None:
    from argkb.embed.model import Embedder

    wipe_db(db)
    steps = {
        "argkb embed": lambda: pipeline.embed(db, None, Embedder()),
        "argkb sentences": lambda: pipeline.split_sentences(db, None),
        "argkb cluster": lambda: pipeline.cluster(db, None),
        "argkb pagerank": lambda: pipeline.pagerank(db, None),
        "argkb update": lambda: pipeline.update(db, None),
    }
    for command, run in steps.items():
        with pytest.raises(ArgKBError, match="the graph has no units: load a corpus first") as err:
            run()
        assert command in str(err.value)
    with pytest.raises(ArgKBError, match="no units"):
        pipeline.update(db, None, dry_run=True)
    assert _schema(db) == 0


def test_the_cli_says_it_in_one_line(db: Any, wipe_db: Any, neo4j_uri: str) -> None:
    from click.testing import CliRunner

    from argkb.cli import main

    wipe_db(db)
    for command in (["cluster"], ["pagerank"], ["sentences"], ["update"]):
        result = CliRunner().invoke(main, [*command, "--uri", neo4j_uri])
        assert result.exit_code == 1, result.output
        assert result.output.strip().splitlines() == [
            f"Error: the graph has no units: load a corpus first (argkb load FORMAT PATH), "
            f"then argkb {command[0]}"
        ]


def test_steps_that_need_vectors_or_same_as_say_which_step_first(db: Any, wipe_db: Any) -> None:
    from argkb.embed.model import Embedder
    from argkb.errors import QueryError
    from argkb.query.engine import QueryEngine

    wipe_db(db)
    pipeline.load(db, None, "argsme", [FIRST])
    with pytest.raises(ArgKBError, match="no unit has an embedding yet: run 'argkb embed'"):
        pipeline.cluster(db, None)
    assert not db.execute_query("MATCH (c:Corpus) WHERE c.clustered IS NOT NULL RETURN c").records
    with pytest.raises(ArgKBError, match=r"reads SAME_AS edges .* run 'argkb cluster' first"):
        pipeline.pagerank(db, None, reuse="semantic")
    engine = QueryEngine(db, Embedder.for_queries(cache=False))
    with pytest.raises(QueryError, match="nothing in the graph is embedded yet"):
        engine.query("We should abolish the death penalty")


def test_a_dry_run_predicts_the_refusal_of_an_unfinished_load(db: Any, wipe_db: Any) -> None:
    wipe_db(db)
    pipeline.load(db, None, "argsme", [FIRST])
    db.execute_query("MATCH (c:Corpus) SET c.status = 'loading'")
    for dry_run in (True, False):
        with pytest.raises(ArgKBError, match="is loading: run the same 'argkb load' again"):
            pipeline.update(db, None, dry_run=dry_run)


def test_a_dropped_corpus_leaves_clusters_and_pagerank_stale_until_update(
    db: Any, wipe_db: Any
) -> None:
    from argkb.ingest_drop import drop_corpus

    wipe_db(db)
    pipeline.load(db, None, "argsme", [FIRST])
    second = pipeline.load(db, None, "jsonl", [SECOND])
    pipeline.update(db, None)
    assert _stale(db) == {}
    drop_corpus(db, second.corpus)
    stale = _stale(db)
    assert stale["cluster_runs_interrupted"] == 2 and stale["pagerank_runs_interrupted"] == 1
    # its sentences went with it; the term statistics still count them until a recount
    assert stale["sentence_statistics_off"] > 0
    plan = pipeline.update(db, None, dry_run=True)
    assert {step.step for step in plan.steps if step.stale} == {"sentences", "cluster", "pagerank"}
    pipeline.update(db, None)
    assert _stale(db) == {}
    empty = db.execute_query("MATCH (c:Cluster) WHERE NOT EXISTS { (c)<-[:IN_CLUSTER]-() } "
                             "RETURN count(c) AS n").records[0]["n"]  # fmt: skip
    wrong = db.execute_query("MATCH (c:Cluster) WHERE c.size <> COUNT { (c)<-[:IN_CLUSTER]-() } "
                             "RETURN count(c) AS n").records[0]["n"]  # fmt: skip
    total = db.execute_query("MATCH (u:Unit) RETURN sum(u.pagerank) AS s").records[0]["s"]
    assert empty == 0 and wrong == 0 and total == pytest.approx(1.0, abs=1e-6)


def test_dropping_the_last_corpus_marks_nothing(db: Any, wipe_db: Any) -> None:
    from argkb.ingest_drop import drop_corpus

    wipe_db(db)
    summary = pipeline.load(db, None, "argsme", [FIRST])
    drop_corpus(db, summary.corpus)
    assert not db.execute_query("MATCH (j:Job) RETURN j").records


def test_dropping_the_last_corpus_leaves_no_clusters_or_sentence_terms(
    db: Any, wipe_db: Any
) -> None:
    """Clusters and term statistics of a graph without units are nobody's: the drop removes
    them, so that a corpus loaded afterwards is clustered as into a fresh graph (before, the
    emptied clusters stayed, and the next 'argkb update' wrote new ones beside them)."""
    from argkb.ingest_drop import drop_corpus

    wipe_db(db)
    summary = pipeline.load(db, None, "jsonl", [SECOND])
    pipeline.update(db, None)
    clean = db.execute_query("MATCH (c:Cluster) RETURN count(c) AS n").records[0]["n"]
    assert clean > 0
    drop_corpus(db, summary.corpus)
    left = db.execute_query("MATCH (x:Cluster|SentenceTerm|SentenceStats|Job) RETURN count(x) AS n")
    assert left.records[0]["n"] == 0
    pipeline.load(db, None, "jsonl", [SECOND])
    pipeline.update(db, None)
    assert _stale(db) == {}
    again = db.execute_query("MATCH (c:Cluster) RETURN count(c) AS n").records[0]["n"]
    empty = db.execute_query("MATCH (c:Cluster) WHERE NOT EXISTS { (c)<-[:IN_CLUSTER]-() } "
                             "RETURN count(c) AS n").records[0]["n"]  # fmt: skip
    assert (again, empty) == (clean, 0)


def test_dropping_a_corpus_that_only_repeated_others_marks_nothing(
    db: Any, wipe_db: Any, tmp_path: Path
) -> None:
    """A corpus whose every argument another corpus loaded first (the same file under another
    name) removes nothing when dropped: before, the drop marked clusters and PageRank to redo,
    and the next 'argkb update' rebuilt every cluster."""
    from argkb.ingest_drop import drop_corpus

    wipe_db(db)
    pipeline.load(db, None, "jsonl", [SECOND])
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(SECOND.read_bytes())
    repeated = pipeline.load(db, None, "jsonl", [copy])
    assert (repeated.arguments, repeated.units) == (0, 0) and repeated.shared > 0
    pipeline.update(db, None)
    drop_corpus(db, repeated.corpus)
    assert not db.execute_query("MATCH (j:Job) RETURN j").records
    assert _stale(db) == {}
