"""What ``argkb`` prints on a real Neo4j where a run had little or nothing to work on (from the
CLI audit of what a person sees, helper 1, on ``examples/debates.json`` and an empty database).
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.neo4j]


def _argkb(neo4j_uri: str, *args: str) -> Any:
    from click.testing import CliRunner

    from argkb.cli import main

    return CliRunner().invoke(main, [*args, "--uri", neo4j_uri])


def test_status_of_a_database_without_argkb_schema_says_so_once(
    db: Any, wipe_db: Any, neo4j_uri: str
) -> None:
    # a fresh or cleared database listed each of the 17 constraints and indexes as MISSING,
    # then printed 17 warnings "... is missing: run 'argkb init' to create it"
    wipe_db(db)
    result = _argkb(neo4j_uri, "status")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "  none of argkb's: 7 constraints and 10 indexes MISSING" in lines
    assert [line for line in lines if "MISSING" in line or "warning" in line] == [
        "  none of argkb's: 7 constraints and 10 indexes MISSING",
        "warning: argkb's schema is not created (7 constraints and 10 indexes): run 'argkb "
        "init' (a first 'argkb load' creates it too)",
    ]


def test_status_still_names_each_missing_index_of_a_partial_schema(
    db: Any, wipe_db: Any, neo4j_uri: str
) -> None:
    from argkb.db.schema import init_schema

    wipe_db(db)
    init_schema(db)
    db.execute_query("DROP INDEX premise_text")
    lines = _argkb(neo4j_uri, "status").stdout.splitlines()
    assert [line.split() for line in lines if "MISSING" in line] == [
        ["premise_text", "FULLTEXT", "MISSING"]
    ]
    assert "warning: index premise_text is missing: run 'argkb init' to create it" in lines


def test_pagerank_top_says_one_unit_and_no_header_for_none(
    db: Any, wipe_db: Any, neo4j_uri: str
) -> None:
    # '--top 1' printed "top 1 units:", '--top 0' a "top 0 units:" header over nothing
    from pathlib import Path

    from argkb import pipeline

    wipe_db(db)
    pipeline.load(db, None, "argsme", [Path(__file__).parents[1] / "fixtures/argsme/small.json"])
    one = _argkb(neo4j_uri, "pagerank", "--top", "1")
    assert one.exit_code == 0, one.output
    assert "top 1 unit:" in one.stdout.splitlines()
    none = _argkb(neo4j_uri, "pagerank", "--top", "0")
    assert none.exit_code == 0, none.output
    assert none.stdout.splitlines()[-1].startswith("seconds: export ")
