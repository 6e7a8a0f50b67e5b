"""ONNX Runtime backends of the Embedder: the local model exported once, run without torch.

``onnx`` runs the exported fp32 graph; ``onnx-int8`` the same graph with its matrix products
quantised to int8 by ONNX Runtime's dynamic quantisation (weights int8 per output channel,
activations uint8 quantised per batch at run time). Both are made on this machine from the local
sentence-transformers folder (never downloaded) the first time they are needed, and kept under
``cache_root()/onnx/<model folder>-<fingerprint>/``:

* the export (``torch.onnx``, TorchScript exporter) wraps the transformer with the folder's mean
  pooling and L2 normalisation, so the graph maps word-piece ids to finished sentence vectors;
* tokenizing uses the folder's ``tokenizer.json`` through ``tokenizers`` (the same fast tokenizer
  sentence-transformers uses), cut at the folder's ``max_seq_length``.

At run time only ``onnxruntime``, ``tokenizers`` and numpy are imported. Texts are tokenized
once per call and batched in order of token count, so each batch pads to a near-equal length
(sentence-transformers sorts by characters, which pads more; docs/benchmarks.md).

ONNX Runtime's telemetry is switched off before it is imported (``ORT_DISABLE_TELEMETRY=1``) and
again through its API; ``tests/unit/test_embed_backend_offline.py`` checks that an embed opens
no network connection.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import ConfigError
from argkb.paths import cache_root

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

logger = logging.getLogger(__name__)

ONNX_BACKENDS = ("onnx", "onnx-int8")
# Bumped when the export or the quantisation recipe changes, so files and cached vectors made
# by an older recipe are not reused (it is part of the cache folder and of the model id).
RECIPE = "1"
_FILES = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx"}
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
INSTALL_HINT = "the onnx backends need onnxruntime and onnx: pip install 'argkb[onnx]'"


def disable_telemetry() -> None:
    """Switch off ONNX Runtime's telemetry (read when it loads, so call before importing it)."""
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"


def model_dir(model_path: Path, fingerprint: str) -> Path:
    """Where the exported graphs of one model folder are kept."""
    return cache_root() / "onnx" / f"{model_path.name}-{fingerprint}-r{RECIPE}"


def model_file(model_path: Path, fingerprint: str, backend: str) -> Path:
    """Where the ``.onnx`` file of ``backend`` for a model folder is (made or not)."""
    return model_dir(model_path, fingerprint) / _FILES[backend]


def read_config(model_path: Path) -> tuple[int, int]:
    """``(max_seq_length, dimensions)`` of a mean-pooling sentence-transformers folder.

    Raises ConfigError for folders the export cannot reproduce (another pooling, no
    ``tokenizer.json``): their vectors would silently differ from the torch backend's.
    """
    pooling = model_path / "1_Pooling" / "config.json"
    settings = model_path / "sentence_bert_config.json"
    for needed in (pooling, settings, model_path / "tokenizer.json"):
        if not needed.is_file():
            raise ConfigError(f"{needed}: missing; the onnx backends need a sentence-transformers "
                              "folder with mean pooling and a fast tokenizer")  # fmt: skip
    try:
        pool = json.loads(pooling.read_text(encoding="utf-8"))
        config = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ConfigError(f"{pooling.parent}: unreadable model configuration ({err})") from err
    modes = [k for k, v in pool.items() if k.startswith("pooling_mode") and v]
    if modes != ["pooling_mode_mean_tokens"]:
        raise ConfigError(f"{pooling}: pooling {modes or 'none'}; the onnx backends support "
                          "pooling_mode_mean_tokens only")  # fmt: skip
    if config.get("do_lower_case"):
        raise ConfigError(f"{settings}: do_lower_case is not supported by the onnx backends")
    try:
        return int(config["max_seq_length"]), int(pool["word_embedding_dimension"])
    except (KeyError, TypeError, ValueError) as err:
        raise ConfigError(f"{settings}: field {err} missing or not a number") from err


def ensure_model(model_path: Path, fingerprint: str, backend: str) -> Path:
    """The ``.onnx`` file of ``backend`` for a model folder, made on first use."""
    folder = model_dir(model_path, fingerprint)
    target = model_file(model_path, fingerprint, backend)
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    fp32 = folder / _FILES["onnx"]
    if not fp32.is_file():
        started = time.perf_counter()
        write_atomically(fp32, lambda tmp: export(model_path, tmp))
        logger.info("exported %s to %s in %.1f s", model_path, fp32, time.perf_counter() - started)
    if backend == "onnx-int8" and not target.is_file():
        started = time.perf_counter()
        write_atomically(target, lambda tmp: quantize(fp32, tmp))
        logger.info("quantised %s to %s in %.1f s", fp32, target, time.perf_counter() - started)
    return target


def write_atomically(target: Path, make: Any) -> None:
    """Write ``target`` through a temporary file in its folder and one rename, so another
    process never reads half a file (two processes making it at once both write whole files)."""
    handle, name = tempfile.mkstemp(dir=target.parent, suffix=".tmp.onnx")
    os.close(handle)
    tmp = Path(name)
    try:
        make(tmp)
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o666 & ~umask)  # mkstemp's 0600 would keep the file from the user's group
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def export(model_path: Path, target: Path) -> None:
    """Export the folder's transformer with mean pooling and L2 normalisation to ONNX.

    Inputs ``input_ids``, ``attention_mask``, ``token_type_ids`` (int64, batch x sequence);
    output ``sentence_embedding`` (float32, batch x dimensions). Mean pooling and the
    normalisation are sentence-transformers' own: the sum of the unmasked token vectors over
    their count (at least 1e-9), divided by its L2 norm (at least 1e-12).
    """

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        transformer = AutoModel.from_pretrained(str(model_path), dtype=torch.float32).eval()
    finally:
        if bars:
            hf_logging.enable_progress_bar()

    class Pooled(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            tokens = self.inner(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state  # fmt: skip
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            mean = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    export_module(Pooled(transformer), target, "sentence_embedding")


def export_module(module: Any, target: Path, output: str) -> None:
    """Export a torch module of ``input_ids``, ``attention_mask`` and ``token_type_ids`` (int64,
    batch x sequence, both axes dynamic) with one output named ``output`` (batch first) to ONNX
    (TorchScript exporter, opset 17)."""
    import warnings

    import torch

    ids = torch.ones((2, 8), dtype=torch.long)
    dynamic: dict[str, dict[int, str]] = {name: {0: "batch", 1: "sequence"} for name in INPUTS}
    dynamic[output] = {0: "batch"}
    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notices
        torch.onnx.export(
            module.eval(),
            (ids, torch.ones_like(ids), torch.zeros_like(ids)),
            str(target),
            input_names=list(INPUTS),
            output_names=[output],
            dynamic_axes=dynamic,
            opset_version=17,
            dynamo=False,
        )


def cpu_session(path: Path, threads: int | None = None) -> Any:
    """An ONNX Runtime session over ``path`` on the CPU, telemetry off."""
    disable_telemetry()
    try:
        import onnxruntime as ort
    except ImportError as err:
        raise ConfigError(INSTALL_HINT) from err
    ort.disable_telemetry_events()
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads or 0  # 0: ONNX Runtime's default, the cores
    options.inter_op_num_threads = 1
    # worker threads that sleep when idle, as OMP_WAIT_POLICY=PASSIVE does for torch: on a
    # shared machine spinning threads take cores from everyone else (docs/benchmarks.md)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def quantize(fp32: Path, target: Path) -> None:
    """ONNX Runtime's dynamic int8 quantisation of the matrix products of ``fp32``.

    Only ``MatMul`` is quantised (the word-piece embedding table stays fp32: a lookup, no
    arithmetic to save), weights as signed int8 per output channel. ``reduce_range`` keeps
    weights to 7 bits: on AVX2 without VNNI the u8 x s8 product instruction (vpmaddubsw)
    saturates its 16-bit pair sums with full-range weights (ONNX Runtime's quantisation notes).
    """
    disable_telemetry()
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as err:
        raise ConfigError(INSTALL_HINT) from err

    # the quantiser logs a hint to pre-process the model on the root logger; tried here
    # (onnxruntime.quantization.quant_pre_process) it changed neither speed nor vectors
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        quantize_dynamic(
            fp32,
            target,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            op_types_to_quantize=["MatMul"],
        )
    finally:
        root.setLevel(level)


class OnnxEncoder:
    """Encode texts to L2-normalised vectors with an exported model in ONNX Runtime (CPU)."""

    def __init__(
        self, model_path: Path, fingerprint: str, backend: str, *, threads: int | None = None
    ) -> None:
        if backend not in ONNX_BACKENDS:
            raise ConfigError(f"unknown onnx backend {backend!r} ({', '.join(ONNX_BACKENDS)})")
        self.max_seq_length, self.dimensions = read_config(model_path)
        try:
            from tokenizers import Tokenizer
        except ImportError as err:
            raise ConfigError(INSTALL_HINT) from err
        self.path = ensure_model(model_path, fingerprint, backend)
        self.session = cpu_session(self.path, threads)
        self.tokenizer = Tokenizer.from_file(str(model_path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_seq_length)
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Word-piece ids per text (special tokens in, cut at ``max_seq_length``); texts are
        stripped first, as sentence-transformers does."""
        encoded = self.tokenizer.encode_batch([text.strip() for text in texts])
        return [e.ids for e in encoded]

    @staticmethod
    def batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
        """Indices of the batches: longest first, so each batch pads to near-equal lengths."""
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
        return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]

    def encode(self, texts: Sequence[str], batch_size: int) -> NDArray[np.float32]:
        """Normalised vectors, shape ``(len(texts), dimensions)``, in the order of ``texts``."""
        import numpy as np

        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        ids = self.token_ids(texts)
        for batch in self.batches([len(i) for i in ids], batch_size):
            width = max(len(ids[i]) for i in batch)
            input_ids = np.full((len(batch), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                input_ids[row, : len(ids[i])] = ids[i]
                mask[row, : len(ids[i])] = 1
            feeds = {
                "input_ids": input_ids,
                "attention_mask": mask,
                "token_type_ids": np.zeros_like(input_ids),
            }
            out[batch] = self.session.run(None, feeds)[0]
        return out
