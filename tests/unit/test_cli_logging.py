"""-v/--verbose, the Cypher debug log, and `db clear`'s refusal of servers argkb does not manage
(no server needed: these stop before connecting)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.cli.app import configure_logging
from argkb.db import cypher


@pytest.fixture()
def quiet_again() -> Iterator[None]:
    yield
    configure_logging(0)


def test_brief_shortens_vectors_batches_and_long_texts() -> None:
    params = {"vector": [0.5] * 384, "rows": [{"id": i} for i in range(1000)], "text": "x" * 500}
    short = cypher.brief(params)
    assert short["vector"] == [0.5, 0.5, 0.5, "... (384 items)"]
    assert short["rows"][-1] == "... (1000 items)"
    assert short["text"].endswith("... (500 chars)") and len(short["text"]) < 100
    assert cypher.brief({"k": 3, "s": "abc"}) == {"k": 3, "s": "abc"}


@pytest.mark.parametrize(
    ("verbosity", "argkb_level", "shows_cypher"),
    [(0, logging.WARNING, False), (1, logging.INFO, False), (2, logging.DEBUG, True)],
)
def test_verbosity_levels(
    capsys: pytest.CaptureFixture[str], quiet_again: None, verbosity: int, argkb_level: int,
    shows_cypher: bool,
) -> None:  # fmt: skip
    configure_logging(verbosity)
    configure_logging(verbosity)  # a second call adds no second handler
    assert logging.getLogger("argkb").level == argkb_level
    assert len(logging.getLogger("argkb").handlers) == 1
    cypher.log_query("baseline/bm25", {"query": "fossil fuels", "limit": 10})
    err = capsys.readouterr().err
    expected = "DEBUG argkb.db.cypher: cypher/baseline/bm25.cypher {'query': 'fossil fuels'"
    assert (expected in err) is shows_cypher
    # the driver's own log is off by default: argkb's one-line error speaks for it
    driver_level = logging.CRITICAL if verbosity == 0 else logging.WARNING
    assert logging.getLogger("neo4j").level == driver_level


def test_verbose_flag_on_the_group(quiet_again: None) -> None:
    result = CliRunner().invoke(main, ["-vvv", "eval", "--help"])
    assert result.exit_code == 0
    assert logging.getLogger("argkb").level == logging.DEBUG
    assert logging.getLogger("neo4j").level == logging.DEBUG


def test_db_clear_never_touches_a_server_named_only_by_the_environment() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["db", "clear", "--yes"], env={"NEO4J_URI": "bolt://127.0.0.1:1"})
    assert result.exit_code == 1
    assert "NEO4J_URI names a server argkb does not manage (bolt://127.0.0.1:1)" in result.output
    result = runner.invoke(main, ["db", "clear", "--json"], env={"NEO4J_URI": ""})
    assert result.exit_code == 1 and "--json needs --yes" in result.output
