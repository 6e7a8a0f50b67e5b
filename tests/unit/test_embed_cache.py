"""The embedding disk cache: round trip, and the Embedder never encodes a cached text again."""

from __future__ import annotations

import numpy as np
import pytest

from argkb.embed.cache import EmbeddingCache


def test_cache_round_trip(tmp_path) -> None:
    cache = EmbeddingCache(tmp_path / "e.sqlite", "model-a")
    assert len(cache) == 0
    vectors = np.arange(6, dtype=np.float32).reshape(2, 3)
    cache.put_many(["one", "two"], vectors)
    got = cache.get_many(["two", "three", "one"])
    assert got[1] is None
    np.testing.assert_array_equal(got[0], vectors[1])
    np.testing.assert_array_equal(got[2], vectors[0])
    assert len(cache) == 2
    # another model id does not see these vectors
    assert EmbeddingCache(tmp_path / "e.sqlite", "model-b").get_many(["one"]) == [None]


@pytest.fixture
def counting_embedder(tmp_path, monkeypatch):
    """An Embedder on the default model folder whose encoder is replaced by a counting fake."""
    from argkb.embed.model import Embedder

    monkeypatch.setenv("ARGKB_HOME", str(tmp_path))
    embedder = Embedder()
    calls: list[list[str]] = []

    def fake_encode(texts):
        calls.append(list(texts))
        return np.asarray([[float(len(t)), 1.0] for t in texts], dtype=np.float32)

    monkeypatch.setattr(embedder, "_encode", fake_encode)
    return embedder, calls


def test_embedder_writes_to_an_empty_cache_and_reads_back(counting_embedder, tmp_path) -> None:
    embedder, calls = counting_embedder
    first = embedder.embed(["short", "a longer text"])
    assert calls == [["short", "a longer text"]]
    assert (tmp_path / "embeddings.sqlite").is_file()
    assert len(embedder._cache) == 2  # an empty cache must still be written to
    second = embedder.embed(["a longer text", "new one", "short"])
    assert calls[1:] == [["new one"]]  # only the text not seen before is encoded
    np.testing.assert_array_equal(second[0], first[1])
    np.testing.assert_array_equal(second[2], first[0])


def test_use_cache_false_bypasses_the_cache(counting_embedder) -> None:
    embedder, calls = counting_embedder
    embedder.embed(["query text"], use_cache=False)
    embedder.embed(["query text"], use_cache=False)
    assert len(calls) == 2
    assert len(embedder._cache) == 0


def test_memory_cache_keeps_the_texts_used_last() -> None:
    from argkb.embed.cache import MemoryCache

    cache = MemoryCache(2)
    cache.put_many(["a", "b"], np.asarray([[1.0], [2.0]], dtype=np.float32))
    assert [v[0] if v is not None else None for v in cache.get_many(["a"])] == [1.0]  # a used
    cache.put_many(["c"], np.asarray([[3.0]], dtype=np.float32))  # b, used least lately, goes
    found = cache.get_many(["a", "b", "c"])
    assert [v[0] if v is not None else None for v in found] == [1.0, None, 3.0]
    assert len(cache) == 2


def test_an_embedder_without_disk_cache_remembers_in_memory(tmp_path, monkeypatch) -> None:
    """``argkb serve``'s embedder (``cache=False, memory=N``): a second request for a topic's
    key points encodes nothing again, and writes no cache file."""
    from argkb.embed.model import Embedder

    monkeypatch.setenv("ARGKB_HOME", str(tmp_path))
    embedder = Embedder(cache=False, memory=10)
    calls: list[list[str]] = []

    def fake_encode(texts):
        calls.append(list(texts))
        return np.asarray([[float(len(t)), 1.0] for t in texts], dtype=np.float32)

    monkeypatch.setattr(embedder, "_encode", fake_encode)
    first = embedder.embed(["one premise", "two"])
    second = embedder.embed(["two", "one premise", "three"])
    assert calls == [["one premise", "two"], ["three"]]
    np.testing.assert_array_equal(second[:2], first[::-1])
    embedder.embed(["a query"], use_cache=False)
    embedder.embed(["a query"], use_cache=False)
    assert calls[2:] == [["a query"], ["a query"]]  # one-off texts: not kept
    assert not (tmp_path / "embeddings.sqlite").exists()
