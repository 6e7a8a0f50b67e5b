"""CPU embedding backends of argkb's Embedder, interleaved with the torch baseline in one run.

    python -m bench embed_backends --data ../shared/data/webis-argquality-20 --limit 200 \\
        --runs onnx:64,onnx-int8:64,openvino:64 --rounds 3
    python -m bench embed_backends --synthetic 20000 --limit 200 \\
        --runs onnx-int8:32,onnx-int8:64,onnx-int8:128,torch:32,torch:128
    python -m bench embed_backends --data DIR --limit 200 --runs torch:64:truncate,onnx-int8:64

Texts as in bench/embed_throughput.py (``--data``: Webis-ArgQuality-20 premises, real args.me
posts; ``--synthetic N``: synthcorpus premises with args.me-like lengths; ``--limit``: the first
texts). A run spec is ``BACKEND:BATCH[:LONG_TEXT]``: ``torch``, ``onnx``, ``onnx-int8`` are
argkb's (``Embedder(backend=...)``); ``openvino`` is a what-if row, not in argkb: the exported
fp32 ONNX graph compiled by OpenVINO's CPU plugin, with argkb's ONNX tokenizing and batching
(``openvino`` must be importable; its telemetry package ``openvino-telemetry`` should not be
installed, without it OpenVINO sends nothing). The baseline ``torch:64:sentences`` (argkb's
default) is always run first in each round.

Each round runs every spec once, in order, so a shared machine's load falls on all of them
alike; the load average is read before and after each timed embed. Per spec: the median of the
rounds' seconds, and the median over rounds of (baseline seconds / this spec's seconds) from
the same round. Vectors are compared with the baseline of the same long-text strategy (or the
default one), mean and min cosine over the texts.

Work: pieces (what the model encodes: whole texts, and the sentences of long texts), tokens
(word pieces, special tokens in, cut at 256), pad % (padding's share of the batch slots each
backend forms: sentence-transformers sorts each call's pieces by characters, argkb's ONNX path by
tokens). Arithmetic: all-MiniLM-L6-v2 (6 layers, hidden 384, feed-forward 1,536, 12 heads)
costs 2 x 6 x (4 x 384^2 + 2 x 384 x 1,536) = 21.2 MFLOP per token in its matrix products, plus
4 x 6 x 384 x L FLOP per token for attention over L positions; embeddings, layer norms, softmax,
GELU and pooling are left out (under 2 %). GFLOP/s "useful" counts the real tokens, "done" the
padded batches the backend computes. The CPU's limit is measured in the same run (the best of
a few float32 2,048^2 matrix products in numpy) and given next to the theoretical peak passed
with ``--peak-gflops`` (see docs/benchmarks.md for how it is derived from lscpu).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from bench.common import fmt_float, fmt_int, markdown_table
from bench.embed_throughput import PAGE, argquality_texts, cosines, model_batches, synthetic_texts

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Backend, Embedder, LongText

BASELINE = "torch:64:sentences"
LINEAR_FLOP = 2 * 6 * (4 * 384**2 + 2 * 384 * 1536)  # per token, the matrix products
ATTENTION_FLOP = 4 * 6 * 384  # per token and attended position (QK^T and AV)


@dataclass(frozen=True)
class Spec:
    backend: str
    batch: int
    long_text: str

    @property
    def label(self) -> str:
        return f"{self.backend}:{self.batch}:{self.long_text}"


@dataclass
class Measured:
    spec: Spec
    seconds: list[float] = field(default_factory=list)
    loads: list[tuple[float, float]] = field(default_factory=list)
    vectors: Any = None
    pieces: int = 0
    tokens: int = 0
    slots: int = 0
    useful_flop: float = 0.0
    done_flop: float = 0.0


def parse(spec: str) -> Spec:
    parts = spec.split(":")
    backend = parts[0]
    batch = int(parts[1]) if len(parts) > 1 and parts[1] else 64
    long_text = parts[2] if len(parts) > 2 else "sentences"
    return Spec(backend, batch, long_text)


class OpenVinoSession:
    """``session.run(None, feeds)`` of ONNX Runtime, answered by an OpenVINO compiled model."""

    def __init__(self, onnx_file: Path) -> None:
        import openvino as ov

        core = ov.Core()
        core.set_property("CPU", {"PERFORMANCE_HINT": "LATENCY"})
        self.compiled = core.compile_model(core.read_model(str(onnx_file)), "CPU")
        self.request = self.compiled.create_infer_request()

    def run(self, _outputs: object, feeds: dict[str, Any]) -> list[Any]:
        result = self.request.infer(feeds)
        return [next(iter(result.values()))]


def make_embedder(spec: Spec) -> Embedder:
    from argkb.embed.model import Embedder

    backend = cast("Backend", "onnx" if spec.backend == "openvino" else spec.backend)
    long_text = cast("LongText", spec.long_text)
    embedder = Embedder(long_text=long_text, backend=backend, batch_size=spec.batch, cache=False)
    if spec.backend == "torch":
        embedder.model.float()
    elif spec.backend == "openvino":
        embedder.model.session = OpenVinoSession(embedder.model.path)
    return embedder


def onnx_batches(embedder: Embedder, split: Sequence[list[str]], batch: int) -> list[list[int]]:
    """Token counts of the batches argkb's ONNX path forms: ``PAGE`` texts per ``embed()``
    call, ``16 * batch`` texts per encode, pieces sorted by tokens within it."""
    from argkb.embed.onnx import OnnxEncoder

    encoder = embedder.model
    out = []
    for page in range(0, len(split), PAGE):
        page_split = split[page : page + PAGE]
        for start in range(0, len(page_split), 16 * batch):
            flat = [p for parts in page_split[start : start + 16 * batch] for p in parts]
            lengths = [len(ids) for ids in encoder.token_ids(flat)]
            out += [[lengths[i] for i in b] for b in OnnxEncoder.batches(lengths, batch)]
    return out


def account(result: Measured, embedder: Embedder, texts: Sequence[str], tokenize: Any) -> None:
    """Pieces, tokens, padded slots and FLOPs of the batches this backend forms."""
    # truncate encodes each text whole (cut at 256 word pieces); _split would give windows
    if result.spec.long_text == "truncate":
        split = [[text] for text in texts]
    else:
        split = [embedder._split(text) for text in texts]
    if result.spec.backend == "torch":
        batches = [
            [len(ids) for ids in tokenize(pieces)]
            for pieces in model_batches(split, result.spec.batch)
        ]
    else:
        batches = onnx_batches(embedder, split, result.spec.batch)
    for lengths in batches:
        width = max(lengths)
        result.pieces += len(lengths)
        result.tokens += sum(lengths)
        result.slots += width * len(lengths)
        result.useful_flop += sum(n * LINEAR_FLOP + n * n * ATTENTION_FLOP for n in lengths)
        result.done_flop += len(lengths) * (width * LINEAR_FLOP + width**2 * ATTENTION_FLOP)


def sgemm_gflops(repeats: int = 5, size: int = 2048) -> float:
    """The best float32 matrix-product rate numpy reaches now (all cores)."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - started)
    return 2 * size**3 / best / 1e9


def timed(embedder: Embedder, texts: Sequence[str]) -> tuple[float, NDArray[np.float32]]:
    import numpy as np

    started = time.perf_counter()
    parts = [
        embedder.embed(texts[i : i + PAGE], use_cache=False) for i in range(0, len(texts), PAGE)
    ]
    return time.perf_counter() - started, np.vstack(parts)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", type=Path, help="Webis-ArgQuality-20 folder (or its csv)")
    source.add_argument("--synthetic", type=int, metavar="N", help="an N-argument synthcorpus")
    parser.add_argument("--seed", type=int, default=0, help="synthcorpus seed")
    parser.add_argument("--limit", type=int, default=200, help="keep the first texts only")
    parser.add_argument("--runs", default="onnx:64,onnx-int8:64", help="BACKEND:BATCH[:LONG],...")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument(
        "--peak-gflops", type=float, default=156.5, help="theoretical fp32 peak of the CPU"
    )
    return parser


def load_embedders(specs: list[Spec], texts: Sequence[str]) -> dict[tuple[str, str], Embedder]:
    """One warmed-up Embedder per backend and long-text strategy (batch sizes share it)."""
    embedders: dict[tuple[str, str], Embedder] = {}
    for spec in specs:
        key = (spec.backend, spec.long_text)
        if key not in embedders:
            started = time.perf_counter()
            embedders[key] = make_embedder(spec)
            embedders[key].embed(texts[:8], use_cache=False)  # load and warm up
            print(f"# {spec.backend} ({spec.long_text}) ready in "
                  f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    return embedders


def run_rounds(
    specs: list[Spec],
    embedders: dict[tuple[str, str], Embedder],
    texts: Sequence[str],
    rounds: int,
) -> dict[str, Measured]:
    """``rounds`` rounds of every spec in order, each timed with the load before and after."""
    results = {spec.label: Measured(spec) for spec in specs}
    for round_ in range(rounds):
        for spec in specs:
            embedder = embedders[(spec.backend, spec.long_text)]
            embedder.batch_size = spec.batch
            before = os.getloadavg()[0]
            seconds, vectors = timed(embedder, texts)
            result = results[spec.label]
            result.seconds.append(seconds)
            result.loads.append((before, os.getloadavg()[0]))
            result.vectors = vectors
            print(f"# round {round_ + 1} {spec.label}: {seconds:.1f} s, load {before:.2f} -> "
                  f"{os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
    return results


def table(results: dict[str, Measured], texts: Sequence[str], peak_gflops: float) -> str:
    """One row per spec: work, medians, speed against the baseline, FLOP rates, cosines."""
    base = results[BASELINE]
    headers = ["run", "pieces", "tokens", "pad %", "s (median)", "s per round", "texts/s",
               "tokens/s", "x torch:64", "GFLOP/s useful / done", "% of peak (useful)",
               "cos to torch, mean / min", "load before -> after"]  # fmt: skip
    rows = []
    for result in results.values():
        median = statistics.median(result.seconds)
        ratio = statistics.median(b / s for b, s in zip(base.seconds, result.seconds, strict=True))
        same = results.get(f"torch:64:{result.spec.long_text}", base)
        mean, low = cosines(result.vectors, same.vectors)
        useful = result.useful_flop / median / 1e9
        loads = ", ".join(f"{a:.1f}->{b:.1f}" for a, b in result.loads)
        rows.append([
            result.spec.label, fmt_int(result.pieces), fmt_int(result.tokens),
            fmt_float(100 * (1 - result.tokens / result.slots)), fmt_float(median),
            " / ".join(f"{s:.1f}" for s in result.seconds), fmt_float(len(texts) / median, 2),
            fmt_int(result.tokens / median), f"{ratio:.2f}",
            f"{useful:.1f} / {result.done_flop / median / 1e9:.1f}",
            fmt_float(100 * useful / peak_gflops),
            "reference" if result is same else f"{mean:.4f} / {low:.4f}"
            + ("" if same.spec.long_text == result.spec.long_text else " (vs sentences)"),
            loads,
        ])  # fmt: skip
    return markdown_table(headers, rows)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as argkb's Embedder sets it
    if args.data:
        texts, name = argquality_texts(args.data), "Webis-ArgQuality-20 premises"
    else:
        texts = synthetic_texts(args.synthetic, args.seed)
        name = f"premises of synthcorpus {args.synthetic:,} arguments, seed {args.seed}"
    texts = texts[: args.limit]
    specs = [parse(BASELINE)] + [s for s in map(parse, filter(None, args.runs.split(",")))
                                 if s.label != BASELINE]  # fmt: skip
    words = sorted(len(t.split()) for t in texts)
    print(f"# load at start {os.getloadavg()}, {os.cpu_count()} cores", flush=True)
    print(f"# texts: {len(texts):,} ({name}); words per text: median {words[len(words) // 2]}, "
          f"mean {sum(words) / len(words):.0f}, max {words[-1]}", flush=True)  # fmt: skip
    gflops_before = sgemm_gflops()
    print(f"# numpy sgemm now: {gflops_before:.1f} GFLOP/s", flush=True)

    embedders = load_embedders(specs, texts)
    torch_tokenizer = embedders[("torch", "sentences")].model.tokenizer

    def tokenize(pieces: list[str]) -> list[list[int]]:
        encoded = torch_tokenizer(pieces, truncation=True, max_length=256, verbose=False)
        return list(encoded["input_ids"])

    results = run_rounds(specs, embedders, texts, args.rounds)
    gflops_after = sgemm_gflops()
    print(f"# numpy sgemm at the end: {gflops_after:.1f} GFLOP/s; load {os.getloadavg()}")
    for result in results.values():
        embedder = embedders[(result.spec.backend, result.spec.long_text)]
        account(result, embedder, texts, tokenize)

    print(table(results, texts, args.peak_gflops))
    at_peak = args.peak_gflops * 1e9 / (LINEAR_FLOP + 32 * ATTENTION_FLOP)
    print(f"\nnumpy sgemm {gflops_before:.1f} GFLOP/s before, {gflops_after:.1f} after; "
          f"theoretical fp32 peak {args.peak_gflops:.1f}; tokens/s at the theoretical peak with "
          f"L = 32: {at_peak:,.0f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
