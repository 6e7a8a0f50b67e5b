"""Fuzz tier on a real Neo4j: hostile query text through :func:`lucene_query` into argkb's own
full-text Cypher queries (claims, premises, the BM25 baseline). Lucene must accept whatever
comes out: no syntax error, no ``TooManyClauses``, whatever the user typed.

The session's server (a database wiped for this module) with the demo corpus loaded; the
queries only read it.
"""

from __future__ import annotations

from pathlib import Path

import neo4j
import pytest
from fuzzing import LONE_SURROGATES, QUERY, fuzz_settings
from hypothesis import example, given
from hypothesis import strategies as st

from argkb.db import cypher
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader
from argkb.retrieve.lucene import lucene_query

pytestmark = [pytest.mark.fuzz, pytest.mark.neo4j]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"

# words the analyzer splits into many tokens: each token is a clause of the Lucene query
MANY_TOKENS = st.sampled_from(
    ["a-b-c-d-e-f", "1,2,3,4,5,6", "fossil/fuels/harm/us", "x" * 300, "\u6c14\u5019\u53d8\u5316"]
).flatmap(lambda word: st.integers(1, 700).map(lambda n: " ".join([word] * n)))
LONG = st.sampled_from(["a" * 100_000, "\u6c14" * 3000, "a-" * 2000, "x " * 2000])


@pytest.fixture(scope="module")
def demo(db: neo4j.Driver) -> neo4j.Driver:
    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    return db


def _search(driver: neo4j.Driver, text: str) -> None:
    terms = lucene_query(text)
    if not terms:
        return
    cypher.read_scores(driver, "query/claims_fulltext", k=10, text=terms)
    cypher.read_scores(driver, "query/premises_bm25", text=terms, k=10, fetch=20, collection=None)
    cypher.read(driver, "baseline/bm25", index="premise_text", query=terms, limit=10)


@fuzz_settings(60)
@given(st.one_of(QUERY, st.text(st.characters(codec="utf-8") | LONE_SURROGATES, max_size=40)))
@example('title:(fossil AND fuels) OR NOT \\ "renewables"~2 [a TO z] *:* /re.*x/')
@example("fossil fuels")
def test_lucene_accepts_any_escaped_text(demo: neo4j.Driver, text: str) -> None:
    _search(demo, text)


@fuzz_settings(30)
@given(st.one_of(MANY_TOKENS, LONG))
@example("a-b-c-d-e-f " * 512)
@example("\U0001f600 " * 2000)
@example("\u4e2d\u6587" * 1200)
def test_lucene_accepts_long_queries_of_many_tokens(demo: neo4j.Driver, text: str) -> None:
    _search(demo, text)
