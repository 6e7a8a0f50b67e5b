"""The query engine's graph sizes: read once per engine, or again after ``counts_ttl`` seconds
(``argkb serve`` shares one engine across requests, so a corpus loaded meanwhile must count)."""

from __future__ import annotations

from typing import Any

import pytest

from argkb.query import candidates as engine_module
from argkb.query.engine import QueryEngine
from argkb.query.settings import QuerySettings


class _Record:
    def __init__(self, claims: int) -> None:
        self.claims = claims

    def data(self) -> dict[str, int]:
        return {"claims": self.claims, "claim_clusters": self.claims // 2}


def _engine(monkeypatch: pytest.MonkeyPatch, ttl: float | None) -> tuple[QueryEngine, list[str]]:
    engine = QueryEngine(driver=None, embedder=None, counts_ttl=ttl,  # type: ignore[arg-type]
                         settings=QuerySettings(alignment="always"))  # fmt: skip
    reads: list[str] = []

    def read(name: str, **_: Any) -> list[_Record]:
        reads.append(name)
        return [_Record(10 * len(reads))]

    monkeypatch.setattr(engine.reader, "read", read)
    return engine, reads


def test_counts_are_read_once_without_a_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    engine, reads = _engine(monkeypatch, None)
    assert engine.counts()["claims"] == 10
    monkeypatch.setattr(engine_module.time, "monotonic", lambda: 1e9)
    assert engine.counts()["claims"] == 10
    assert reads == ["query/counts"]


def test_counts_are_read_again_after_the_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(engine_module.time, "monotonic", lambda: now[0])
    engine, reads = _engine(monkeypatch, 10.0)
    assert engine.counts()["claims"] == 10
    now[0] += 9.0
    assert engine.counts()["claims"] == 10  # within the ttl: reused
    now[0] += 2.0
    assert engine.counts()["claims"] == 20  # past it: read again
    assert len(reads) == 2


def test_the_answer_notes_what_the_pipeline_is_behind_on() -> None:
    from argkb.query.engine import behind_notes

    assert behind_notes({"claims": 3, "corpora_since_cluster": 0, "runs_interrupted": 0}) == []
    (one,) = behind_notes({"corpora_since_cluster": 1})
    assert one.startswith("1 corpus loaded since the last 'argkb cluster': its arguments")
    two, jobs = behind_notes({"corpora_since_cluster": 2, "runs_interrupted": 1})
    assert two.startswith("2 corpora loaded since the last 'argkb cluster': their arguments")
    assert "argkb update" in jobs


def test_a_nan_modularity_is_carried_as_none() -> None:
    """GDS's Louvain gives NaN for a graph without links; JSON cannot carry NaN."""
    from argkb.explore.analytics import _number

    assert _number(float("nan")) is None and _number("0.25") == 0.25


def test_a_graph_never_clustered_is_said_to_be_so() -> None:
    """Before any 'argkb cluster' every corpus counts as loaded since it (Corpus.clustered is
    unset); the answer said "1 corpus loaded since the last 'argkb cluster'"."""
    from argkb.query.engine import behind_notes

    (note,) = behind_notes({"claims": 29, "claim_clusters": 0, "corpora_since_cluster": 1})
    assert note.startswith("the graph is not clustered yet ('argkb cluster' has not run)")
    assert behind_notes({"claims": 29, "claim_clusters": 12, "corpora_since_cluster": 0}) == []
