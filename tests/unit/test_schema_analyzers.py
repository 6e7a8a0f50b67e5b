"""Which Lucene analyzer each full-text index of cypher/schema.cypher asks for, and which
existing indexes an `argkb init` builds again."""

from __future__ import annotations

from argkb.db.schema import fulltext_analyzers, fulltext_statements, outdated_indexes


def test_claim_and_premise_text_stem_and_sentences_keep_the_default() -> None:
    assert fulltext_analyzers() == {
        "claim_text": "english",
        "premise_text": "english",
        "sentence_text": "standard-no-stop-words",
    }
    assert set(fulltext_statements()) == set(fulltext_analyzers())


def _index(name: str, analyzer: str | None, kind: str = "FULLTEXT") -> dict:
    config = {} if analyzer is None else {"fulltext.analyzer": analyzer}
    return {"name": name, "type": kind, "config": config}


def test_outdated_lists_only_argkb_full_text_indexes_with_another_analyzer() -> None:
    found = [
        _index("claim_text", "english"),
        _index("premise_text", "standard-no-stop-words"),
        _index("sentence_text", None),  # no config read: Neo4j's default, as the schema wants
        _index("my_own_text", "standard"),  # not argkb's
        _index("unit_corpus", None, kind="RANGE"),
    ]
    old = {"name": "premise_text", "kind": "FULLTEXT", "have": "standard-no-stop-words",
           "want": "english"}  # fmt: skip
    assert outdated_indexes(found) == [old]
