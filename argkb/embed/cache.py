"""A disk cache of embeddings keyed by (model, text hash), so nothing is embedded twice.

SQLite in the per-user cache folder: one table, vectors stored as float32 bytes. SQLite is in
the standard library, safe across processes, and fast enough for millions of rows (lookups go
through the primary key).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embedding (
    model TEXT NOT NULL,
    text_hash BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID
"""


def text_hash(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class EmbeddingCache:
    """``get_many`` / ``put_many`` of float32 vectors for one model id."""

    def __init__(self, path: Path, model: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.model = model
        self._db = sqlite3.connect(path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def get_many(self, texts: Sequence[str]) -> list[NDArray[np.float32] | None]:
        import numpy as np

        hashes = [text_hash(t) for t in texts]
        found: dict[bytes, bytes] = {}
        for start in range(0, len(hashes), 500):  # SQLite's variable limit
            chunk = hashes[start : start + 500]
            marks = ",".join("?" * len(chunk))  # only '?' placeholders are formatted in
            query = (
                "SELECT text_hash, vector FROM embedding "
                f"WHERE model = ? AND text_hash IN ({marks})"
            )
            rows = self._db.execute(query, [self.model, *chunk])
            found.update(rows.fetchall())
        return [np.frombuffer(found[h], dtype=np.float32) if h in found else None for h in hashes]

    def put_many(self, texts: Sequence[str], vectors: NDArray[np.float32]) -> None:
        rows = [
            (self.model, text_hash(t), v.astype("float32").tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO embedding VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        (count,) = self._db.execute(
            "SELECT count(*) FROM embedding WHERE model = ?", [self.model]
        ).fetchone()
        return int(count)


class MemoryCache:
    """``get_many`` / ``put_many`` as :class:`EmbeddingCache`'s, in memory and for one process:
    the ``most`` texts used last (least recently used ones go first), safe to share between
    threads. ``argkb serve`` keeps one: a topic's key points embed all its premises' sentences,
    which a second request for the topic, or a retry after a 504, then finds here."""

    def __init__(self, most: int) -> None:
        import threading
        from collections import OrderedDict

        self.most = most
        self._vectors: OrderedDict[bytes, NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, texts: Sequence[str]) -> list[NDArray[np.float32] | None]:
        out: list[NDArray[np.float32] | None] = []
        with self._lock:
            for h in map(text_hash, texts):
                vector = self._vectors.get(h)
                if vector is not None:
                    self._vectors.move_to_end(h)
                out.append(vector)
        return out

    def put_many(self, texts: Sequence[str], vectors: NDArray[np.float32]) -> None:
        with self._lock:
            for t, v in zip(texts, vectors, strict=True):
                h = text_hash(t)
                self._vectors[h] = v.astype("float32", copy=True)
                self._vectors.move_to_end(h)
            while len(self._vectors) > self.most:
                self._vectors.popitem(last=False)

    def __len__(self) -> int:
        return len(self._vectors)
