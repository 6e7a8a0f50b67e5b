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
