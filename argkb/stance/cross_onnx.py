"""The cross-encoder stance model run by ONNX Runtime instead of torch (CPU).

The merged model (MiniLM with the adapters folded in, mean pooling and the linear head) is
exported once to ONNX and kept under ``cache_root()/onnx/stance-cross-<fingerprint>-r<RECIPE>/``,
where the fingerprint covers the base weights, the adapters and their configuration: a retrained
model gets a new folder. ``onnx-int8`` is that graph with its matrix products quantised by
:func:`argkb.embed.onnx.quantize`, the embedder's recipe (its recipe number is part of the
folder name too). On the 2-core machine the int8 graph answered 22 short pairs in one batch in
52 ms against torch's 81 ms; docs/results/stance.md gives its accuracy next to torch's (the
decisions differ on a few pairs near P = .5).

Export and quantisation reuse :mod:`argkb.embed.onnx` (atomic writes, telemetry off); at run time
only ``onnxruntime`` and numpy are needed beyond the tokenizer the model already holds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.embed.onnx import (
    INPUTS,
    INSTALL_HINT,
    cpu_session,
    export_module,
    quantize,
    write_atomically,
)
from argkb.embed.onnx import RECIPE as EMBED_RECIPE
from argkb.errors import ConfigError
from argkb.paths import cache_root

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.stance.cross import CrossStanceModel

logger = logging.getLogger(__name__)

BACKENDS = ("torch", "onnx", "onnx-int8")
RECIPE = "1"  # bumped when the export or the quantisation changes


def fingerprint(files: list[Path]) -> str:
    """A short hash of the files that make the model: the bytes of the adapters and their
    configuration, the size of the base weights (as the embedder tells base models apart)."""
    digest = hashlib.sha256()
    for path in files:
        size = path.stat().st_size
        digest.update(path.read_bytes() if size < 2**24 else f"{path.name}:{size}".encode())
    return digest.hexdigest()[:16]


def graph_file(key: str, backend: str) -> Path:
    """Where the ``.onnx`` file of ``backend`` for the model fingerprinted ``key`` is kept."""
    if backend not in ("onnx", "onnx-int8"):
        raise ConfigError(f"no ONNX graph for backend {backend!r}")
    folder = cache_root() / "onnx" / f"stance-cross-{key}-r{RECIPE}.{EMBED_RECIPE}"
    return folder / ("model.onnx" if backend == "onnx" else "model-int8.onnx")


def ensure_graph(model: CrossStanceModel, key: str, backend: str) -> Path:
    """The ``.onnx`` file of ``backend`` for the model fingerprinted ``key``, made on first use."""
    if model.encoder.config.model_type != "bert":  # the graph is exported with BERT's inputs
        raise ConfigError(f"the {backend} backend runs BERT encoders only, not "
                          f"{model.encoder.config.model_type}")  # fmt: skip
    target = graph_file(key, backend)
    fp32 = graph_file(key, "onnx")
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # a warning, so that the command line shows it: the first use waits tens of seconds (46 s on
    # this project's 2-core machine under load) with nothing else said
    logger.warning("exporting the stance cross-encoder to ONNX (%s, once) ...", backend)
    if not fp32.is_file():
        started = time.perf_counter()
        write_atomically(fp32, lambda tmp: export(model, tmp))
        logger.info("exported the stance cross-encoder to %s in %.1f s", fp32,
                    time.perf_counter() - started)  # fmt: skip
    if not target.is_file():
        write_atomically(target, lambda tmp: quantize(fp32, tmp))
    return target


def export(model: CrossStanceModel, target: Path) -> None:
    """Export encoder, mean pooling and head: int64 ``input_ids``, ``attention_mask``,
    ``token_type_ids`` (batch x sequence) to the float32 ``logit`` of each pair."""
    import torch

    class Pooled(torch.nn.Module):
        def __init__(self, encoder: Any, head: Any) -> None:
            super().__init__()
            self.encoder, self.head = encoder, head

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=token_type_ids).last_hidden_state  # fmt: skip
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return self.head((hidden * mask).sum(1) / mask.sum(1)).squeeze(-1)

    export_module(Pooled(model.encoder, model.head), target, "logit")


class OnnxCross:
    """The cross-encoder as one ONNX Runtime session: P(pro) of each premise towards its
    conclusion, tokenised with the model folder's ``tokenizer.json`` (no torch at run time)."""

    def __init__(
        self, path: Path, tokenizer_file: Path, max_length: int, *, threads: int | None = None
    ) -> None:
        try:
            from tokenizers import Tokenizer
        except ImportError as err:
            raise ConfigError(INSTALL_HINT) from err
        self.path = path
        self.session = cpu_session(path, threads)
        # as the transformers tokenizer is called in training: conclusion first, only the
        # premise cut, at the model's max_length
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length, strategy="only_second")
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0

    def probability(
        self, conclusions: Sequence[str], premises: Sequence[str], *, batch_size: int = 64
    ) -> NDArray[np.float64]:
        """P(pro) of each premise towards the conclusion at the same position; pairs are
        batched by token count (little padding) and answered in input order."""
        import numpy as np

        if len(premises) != len(conclusions):
            raise ValueError("premises and conclusions must have the same length")
        encoded = self.tokenizer.encode_batch(list(zip(conclusions, premises, strict=True)))
        out = np.zeros(len(premises), dtype=np.float64)
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i].ids))
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            width = max(len(encoded[i].ids) for i in chunk)
            feeds = {name: np.zeros((len(chunk), width), dtype=np.int64) for name in INPUTS}
            feeds["input_ids"][:] = self.pad_id
            for row, i in enumerate(chunk):
                e = encoded[i]
                feeds["input_ids"][row, : len(e.ids)] = e.ids
                feeds["attention_mask"][row, : len(e.ids)] = 1
                feeds["token_type_ids"][row, : len(e.ids)] = e.type_ids
            logit = np.asarray(self.session.run(None, feeds)[0], dtype=np.float64)
            out[chunk] = 1.0 / (1.0 + np.exp(-logit))
        return out


def shipped(backend: str, weights: Path | None = None, info: Path | None = None) -> OnnxCross:
    """A cross-encoder (default: the shipped one on all-MiniLM-L6-v2; ONNX runs BERT encoders
    only) on ONNX Runtime. torch and transformers load only to export a graph that is not cached
    yet; after that a process needs neither (loading the model through torch took 5.8 s of a
    2-core CPU, this about 0.3 s)."""
    from argkb.stance.cross import SHIPPED, source_files

    weights, info = weights or SHIPPED["cross-minilm"][0], info or SHIPPED["cross-minilm"][1]
    try:
        meta = json.loads(info.read_text(encoding="utf-8"))
        max_length, base = int(meta.get("max_length", 256)), str(meta.get("base", ""))
    except (OSError, ValueError, AttributeError) as err:
        raise ConfigError(f"{info}: not a cross-encoder stance model ({err!r})") from err
    files = source_files(weights, info, base)
    key = fingerprint(files)
    path = graph_file(key, backend)
    if not path.is_file():
        from argkb.stance.cross import CrossStanceModel

        ensure_graph(CrossStanceModel.load(weights, info), key, backend)
    return OnnxCross(path, files[0].with_name("tokenizer.json"), max_length)
