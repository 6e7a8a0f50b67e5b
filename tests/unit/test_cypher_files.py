"""The Cypher file loader and the identifier quoting helper (no server needed)."""

from __future__ import annotations

import pytest

from argkb.db import cypher
from argkb.errors import QueryFileError

SCRIPT = """// a comment; with a semicolon at its end;
CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);
  // an indented comment
MATCH (n) WHERE n.text = 'one; two'
SET n.seen = true ;\t
CREATE VECTOR INDEX v IF NOT EXISTS
FOR (u:U) ON u.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions}};

;
RETURN 1"""


def test_statements_split_at_line_final_semicolons(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the shipped files themselves are split and run on a real server in test_schema.py)
    monkeypatch.setattr(cypher, "load", lambda name: SCRIPT)
    assert cypher.statements("any") == [
        "CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x)",
        # a semicolon inside a line does not end the statement
        "MATCH (n) WHERE n.text = 'one; two'\nSET n.seen = true",
        "CREATE VECTOR INDEX v IF NOT EXISTS\nFOR (u:U) ON u.embedding\n"
        "OPTIONS {indexConfig: {`vector.dimensions`: $dimensions}}",
        "RETURN 1",
    ]


def test_names_lists_shipped_files() -> None:
    names = cypher.names()
    assert "schema" in names and "status/components" in names


@pytest.mark.parametrize("bad", ["../etc/passwd", "Schema", "a//b", ""])
def test_invalid_names_are_refused(bad: str) -> None:
    with pytest.raises(QueryFileError):
        cypher.load(bad)


def test_missing_file_is_a_clear_error() -> None:
    with pytest.raises(QueryFileError, match="no Cypher file"):
        cypher.load("nope/never")


def test_quote_identifier_escapes_backticks() -> None:
    assert cypher.quote_identifier("Unit") == "`Unit`"
    assert cypher.quote_identifier("a`b") == "`a``b`"
    with pytest.raises(QueryFileError):
        cypher.quote_identifier("")


def test_render_fills_slots_with_quoted_identifiers() -> None:
    text = cypher.render("status/count_label", label="We`ird")
    assert "`We``ird`" in text and "{{" not in text
    with pytest.raises(QueryFileError, match="needs identifier"):
        cypher.render("status/count_label")


def test_recent_set_is_bounded() -> None:
    from argkb.loaders.common import RecentSet

    seen = RecentSet(capacity=2)
    assert seen.add("a") and seen.add("b") and not seen.add("a")
    assert seen.add("c")  # evicts "b", the least recently used
    assert not seen.add("a") and seen.add("b")
