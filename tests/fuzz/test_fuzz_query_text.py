"""Fuzz tier: the query text a user types, as argkb turns it into a Lucene full-text query.

:func:`argkb.retrieve.lucene.lucene_query` is the one step between a user's text and the
``$text`` parameter of every full-text Cypher query (claims, premises, the BM25 baseline). Its
promise: any text, however hostile, becomes a bag of plain terms (no Lucene syntax survives),
at most ``max_terms`` of them, with the words the user typed. The checks below parse the result
the way Lucene's classic query parser reads it (a backslash escapes the next character); that a
real Lucene accepts it is checked on a real Neo4j in test_fuzz_fulltext.py.
"""

from __future__ import annotations

import pytest
from fuzzing import QUERY, fuzz_settings
from hypothesis import example, given
from hypothesis import strategies as st

from argkb.retrieve.lucene import MAX_TERMS, lucene_query, token_count

pytestmark = pytest.mark.fuzz

# Lucene's classic query syntax (org.apache.lucene.queryparser.classic): characters with a meaning
SPECIAL = set('+-&|!(){}[]^"~*?:\\/')
OPERATORS = {"AND", "OR", "NOT", "TO"}


def terms(query: str) -> list[str]:
    """The terms of ``query`` as Lucene's classic parser reads them, each unescaped; fails on a
    character that would be syntax (unescaped) or a term that would be an operator."""
    out: list[str] = []
    for token in query.split():
        assert token not in OPERATORS, f"operator {token!r} in {query!r}"
        chars, escaped = [], False
        for char in token:
            if escaped:
                chars.append(char)
                escaped = False
            elif char == "\\":
                escaped = True
            else:
                assert char not in SPECIAL, f"unescaped {char!r} in {query!r}"
                chars.append(char)
        assert not escaped, f"dangling escape in {query!r}"
        out.append("".join(chars))
    return out


@fuzz_settings(200)
@given(QUERY, st.sampled_from([MAX_TERMS, 1, 3]))
@example('title:(fossil AND fuels) OR NOT \\ "renewables"~2 [a TO z] *:* \ud800', MAX_TERMS)
@example("AND", MAX_TERMS)
@example("", MAX_TERMS)
def test_any_text_becomes_plain_terms(text: str, max_terms: int) -> None:
    query = lucene_query(text, max_terms=max_terms)
    # the longest prefix of the words whose analyzer tokens add up to at most max_terms
    words: list[str] = []
    for word in text.split():
        if sum(map(token_count, words)) + token_count(word) > max_terms:
            break
        words.append(word)
    assert (query == "") == (not words)
    got = terms(query)
    assert len(got) == len(words)
    assert sum(map(token_count, got)) <= max_terms
    # the words the user typed, operators lower-cased (the analyzer lower-cases terms anyway)
    assert [t.lower() for t in got] == [w.lower() for w in words]


@fuzz_settings(20)
@given(st.integers(MAX_TERMS - 2, 4 * MAX_TERMS), st.sampled_from(["a", "AND", "x-y", "😀"]))
def test_long_queries_are_cut_to_max_terms(count: int, word: str) -> None:
    query = lucene_query(" ".join([word] * count))
    # "x-y" is two tokens to the analyzer, so half as many words fit
    assert len(terms(query)) == min(count, MAX_TERMS // token_count(word))
