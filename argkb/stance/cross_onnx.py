"""The cross-encoder stance model run by ONNX Runtime instead of torch (CPU).

The merged model (MiniLM with the adapters folded in, mean pooling and the linear head) is
exported once to ONNX and kept under ``cache_root()/onnx/stance-cross-<fingerprint>-r<RECIPE>/``,
where the fingerprint covers the base weights, the adapters and their configuration: a retrained
model gets a new folder. ``onnx-int8`` is that graph with its matrix products quantised by
:func:`argkb.embed.onnx.quantize`, the embedder's recipe. On the 2-core machine the int8 graph
answers a query's alignment pairs in about half the time torch takes; docs/results/stance.md
gives its accuracy next to torch's (the decisions differ on a few pairs near P = .5).

Export and quantisation reuse :mod:`argkb.embed.onnx` (atomic writes, telemetry off); at run time
only ``onnxruntime`` and numpy are needed beyond the tokenizer the model already holds.
"""

from __future__ import annotations

import hashlib
import logging
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.embed.onnx import INSTALL_HINT, disable_telemetry, quantize, write_atomically
from argkb.errors import ConfigError
from argkb.paths import cache_root

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.stance.cross import CrossStanceModel

logger = logging.getLogger(__name__)

BACKENDS = ("torch", "onnx", "onnx-int8")
RECIPE = "1"  # bumped when the export or the quantisation changes
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def fingerprint(files: list[Path]) -> str:
    """A short hash of the files that make the model: the bytes of the adapters and their
    configuration, the size of the base weights (as the embedder tells base models apart)."""
    digest = hashlib.sha256()
    for path in files:
        size = path.stat().st_size
        digest.update(path.read_bytes() if size < 2**24 else f"{path.name}:{size}".encode())
    return digest.hexdigest()[:16]


def ensure_graph(model: CrossStanceModel, key: str, backend: str) -> Path:
    """The ``.onnx`` file of ``backend`` for the model fingerprinted ``key``, made on first use."""
    folder = cache_root() / "onnx" / f"stance-cross-{key}-r{RECIPE}"
    fp32 = folder / "model.onnx"
    target = fp32 if backend == "onnx" else folder / "model-int8.onnx"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
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

    ids = torch.ones((2, 8), dtype=torch.long)
    dynamic: dict[str, dict[int, str]] = {name: {0: "batch", 1: "sequence"} for name in INPUTS}
    dynamic["logit"] = {0: "batch"}
    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation notices
        torch.onnx.export(
            Pooled(model.encoder, model.head).eval(),
            (ids, torch.ones_like(ids), torch.zeros_like(ids)),
            str(target),
            input_names=list(INPUTS),
            output_names=["logit"],
            dynamic_axes=dynamic,
            opset_version=17,
            dynamo=False,
        )


class OnnxCross:
    """One ONNX Runtime session over an exported cross-encoder graph."""

    def __init__(self, path: Path, *, threads: int | None = None) -> None:
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
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self.path = path
        self.session = ort.InferenceSession(str(path), options,
                                            providers=["CPUExecutionProvider"])  # fmt: skip

    def logits(self, batch: dict[str, Any]) -> NDArray[np.float32]:
        """The logit of each pair of a tokenised batch (numpy arrays)."""
        import numpy as np

        feeds = {name: np.asarray(batch[name], dtype=np.int64) for name in INPUTS}
        return np.asarray(self.session.run(None, feeds)[0], dtype=np.float32)
