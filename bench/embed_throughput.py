"""Embedding throughput of argkb's Embedder on long args.me texts, per device and batch size.

    python -m bench embed_throughput --data ../shared/data/webis-argquality-20 \\
        --runs cpu:32,cpu:128 --limit 300 --save /tmp/cpu-vectors.npz
    python -m bench embed_throughput --data DIR --runs cuda:32,cuda:128,cuda:512 \\
        --compare /tmp/cpu-vectors.npz
    python -m bench embed_throughput --synthetic 20000 --runs cuda:128

Texts: with ``--data``, the distinct premises of Webis-ArgQuality-20 (real args.me posts, read
from the folder at run time, in file order); with ``--synthetic N``, the premises of an N-argument
:mod:`synthcorpus` corpus (args.me-like lengths: a fifth single sentences, the rest log-normal
around 8 sentences; deterministic by ``--seed``). ``--limit`` keeps the first texts.

Each run embeds them as ``argkb embed`` does: ``Embedder(long_text="sentences")`` (the default:
texts over ``max_words`` words are split into sentences, each embedded, then averaged), the disk
cache off, ``--page`` texts per ``embed()`` call as ``embed_units`` pages them. A run spec is
``DEVICE:BATCH``; ``cuda-fp16`` loads the model on cuda and casts it to half precision, which
argkb does not do (a what-if row). The model loads and embeds a few texts before the clock starts.

Baseline in the same run: the first ``--reference`` texts embedded on this machine's CPU at
argkb's default batch size; every run's vectors are compared to it (mean and min cosine over the
texts both have). ``--save`` writes the reference vectors with the texts' hashes; ``--compare``
reads such a file from another machine and adds its cosines (texts matched by hash).

Columns: texts; pieces (what the model encodes: whole texts and sentences); tokens (word pieces
the model sees, special tokens included, cut at ``max_seq_length``); pad % (share of the padded
batch slots that are padding, estimated by batching the pieces as sentence-transformers does:
sorted by characters within each ``encode`` call); seconds; texts/s; tokens/s.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib.metadata
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.common import fmt_float, fmt_int, load_average, markdown_table

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder

DEFAULT_BATCH = 64  # Embedder's default batch size
PAGE = 512  # texts per embed() call in argkb.embed.store.embed_units
ARGQUALITY_FILE = "webis-argquality20-arguments.csv"


@dataclass(frozen=True)
class Run:
    label: str
    device: str
    batch: int
    half: bool
    texts: int


@dataclass
class Result:
    run: Run
    pieces: int
    tokens: int
    slots: int
    seconds: float
    vectors: NDArray[np.float32]
    parts: tuple[float, float, float] | None = None  # split, tokenize, model seconds


def argquality_texts(path: Path) -> list[str]:
    """Distinct premises of Webis-ArgQuality-20, in file order (a folder or the csv itself)."""
    file = path / ARGQUALITY_FILE if path.is_dir() else path
    with file.open(newline="", encoding="utf-8") as handle:
        return list(dict.fromkeys(row["Premise"] for row in csv.DictReader(handle)))


def synthetic_texts(n_arguments: int, seed: int) -> list[str]:
    """The premise texts of a synthcorpus corpus of ``n_arguments`` (about 1.25 each).

    The corpus size shapes the corpus (topics, debates), so a subset is taken with ``--limit``
    from one size, never by generating a smaller corpus: the first texts then stay the same.
    """
    from synthcorpus import generate

    return [
        p["text"] for argument in generate(n_arguments, seed=seed) for p in argument["premises"]
    ]


def parse_runs(spec: str, default_texts: int) -> list[Run]:
    runs = []
    for item in filter(None, spec.split(",")):
        device, _, batch = item.partition(":")
        half = device.endswith("-fp16")
        runs.append(
            Run(
                label=item,
                device=device.removesuffix("-fp16"),
                batch=int(batch or DEFAULT_BATCH),
                half=half,
                texts=default_texts,
            )
        )
    return runs


def pieces_of(embedder: Embedder, texts: Sequence[str]) -> list[list[str]]:
    """What the Embedder encodes for each text (its own split, so the counts cannot drift)."""
    return [embedder._split(text) for text in texts]


def token_counts(embedder: Embedder, pieces: Sequence[str]) -> list[int]:
    """Word pieces per piece as the model sees them: special tokens in, cut at max_seq_length."""
    model = embedder.model
    encoded = model.tokenizer(
        list(pieces), truncation=True, max_length=int(model.max_seq_length), verbose=False
    )
    return [len(ids) for ids in encoded["input_ids"]]


def model_batches(split: Sequence[list[str]], batch: int) -> list[list[str]]:
    """The pieces in the batches the model gets, as argkb and sentence-transformers form them.

    ``embed()`` gets ``PAGE`` texts and encodes them ``16 * batch`` texts at a time;
    sentence-transformers sorts each call's pieces by characters, longest first, and cuts
    batches in that order (an estimate: it interleaves instead for models that run without
    padding, which the load line reports as ``unpadded``).
    """
    import numpy as np

    batches = []
    for page in range(0, len(split), PAGE):
        page_split = split[page : page + PAGE]
        for start in range(0, len(page_split), 16 * batch):
            flat = [p for parts in page_split[start : start + 16 * batch] for p in parts]
            order = np.argsort([-len(p) for p in flat], kind="stable")
            ordered = [flat[i] for i in order]
            batches += [ordered[b : b + batch] for b in range(0, len(ordered), batch)]
    return batches


def embed_timed(embedder: Embedder, texts: Sequence[str]) -> tuple[float, NDArray[np.float32]]:
    import numpy as np

    started = time.perf_counter()
    parts = [
        embedder.embed(texts[i : i + PAGE], use_cache=False) for i in range(0, len(texts), PAGE)
    ]
    seconds = time.perf_counter() - started  # embed() returns numpy: the device has finished
    return seconds, np.vstack(parts)


def breakdown(embedder: Embedder, texts: Sequence[str], batch: int) -> tuple[float, float, float]:
    """Seconds in sentence splitting, tokenizing, and the model (to the device, forward,
    normalise, back to the host) for the batches ``embed()`` forms; the rest of a run is
    sentence-transformers' and argkb's own Python (sorting, averaging, stacking)."""
    import torch
    from sentence_transformers.util import batch_to_device

    model = embedder.model
    tokenize = getattr(model, "preprocess", None) or model.tokenize
    started = time.perf_counter()
    split = pieces_of(embedder, texts)
    split_s = time.perf_counter() - started
    batches = model_batches(split, batch)
    started = time.perf_counter()
    features = [tokenize(pieces) for pieces in batches]
    tokenize_s = time.perf_counter() - started
    started = time.perf_counter()
    with torch.inference_mode():
        for feature in features:
            out = model(batch_to_device(feature, model.device))["sentence_embedding"]
            torch.nn.functional.normalize(out, p=2, dim=1).cpu()  # .cpu() waits for the device
    return split_s, tokenize_s, time.perf_counter() - started


def load(model: Path | None, device: str, half: bool) -> Embedder:
    from argkb.embed.model import Embedder

    embedder = Embedder(model, device=device, cache=False)
    # fp32 as argkb runs the bundled model, also from a folder whose weights are stored in fp16
    # (transformers then loads them as fp16 unless the config says otherwise)
    if half:
        embedder.model.half()
    else:
        embedder.model.float()
    return embedder


def run_one(embedder: Embedder, run: Run, texts: Sequence[str], *, profile: bool) -> Result:
    embedder.batch_size = run.batch
    warm = 32 if run.device == "cpu" else 512  # a GPU's first batches pay for kernel set-up
    embedder.embed(texts[:warm], use_cache=False)
    seconds, vectors = embed_timed(embedder, texts)
    tokens = slots = pieces = 0
    for pieces_batch in model_batches(pieces_of(embedder, texts), run.batch):
        counts = token_counts(embedder, pieces_batch)
        pieces += len(counts)
        tokens += sum(counts)
        slots += len(counts) * max(counts)
    return Result(
        run=run,
        pieces=pieces,
        tokens=tokens,
        slots=slots,
        seconds=seconds,
        vectors=vectors,
        parts=breakdown(embedder, texts, run.batch) if profile else None,
    )


def cosines(a: NDArray[np.float32], b: NDArray[np.float32]) -> tuple[float, float]:
    """Mean and min cosine of row pairs (the vectors are L2-normalised)."""
    import numpy as np

    n = min(len(a), len(b))
    if n == 0:
        return float("nan"), float("nan")
    dots = np.einsum("ij,ij->i", a[:n].astype(np.float64), b[:n].astype(np.float64))
    return float(dots.mean()), float(dots.min())


def hashes(texts: Sequence[str]) -> list[str]:
    return [hashlib.sha256(t.encode()).hexdigest()[:16] for t in texts]


def environment() -> str:
    import torch

    versions = ", ".join(
        f"{name} {importlib.metadata.version(name)}"
        for name in ("torch", "sentence-transformers", "transformers")
    )
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    return (
        f"{platform.node()}: {os.cpu_count()} cores ({torch.get_num_threads()} torch threads), "
        f"{gpu}; Python {platform.python_version()}, {versions}; load {load_average()}"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", type=Path, help="Webis-ArgQuality-20 folder (or its csv)")
    source.add_argument("--synthetic", type=int, metavar="N", help="an N-argument synthcorpus")
    parser.add_argument("--seed", type=int, default=0, help="synthcorpus seed")
    parser.add_argument("--limit", type=int, help="keep the first texts only")
    parser.add_argument("--runs", default="", help="DEVICE:BATCH,... (cpu, cuda, cuda-fp16)")
    parser.add_argument(
        "--reference", type=int, default=300, help="texts for the CPU baseline (0: none)"
    )
    parser.add_argument("--model", type=Path, help="model folder (default: the bundled one)")
    parser.add_argument("--save", type=Path, help="write the reference vectors (.npz)")
    parser.add_argument("--compare", type=Path, help="reference vectors from another machine")
    parser.add_argument(
        "--breakdown", action="store_true", help="also time splitting, tokenizing, the model"
    )
    return parser


def measure_runs(args: argparse.Namespace, runs: list[Run], texts: list[str]) -> list[Result]:
    """Every run in order; a device's model is loaded once, on its first run."""
    embedders: dict[tuple[str, bool], Any] = {}
    results: list[Result] = []
    for run in runs:
        key = (run.device, run.half)
        if key not in embedders:
            started = time.perf_counter()
            embedders[key] = load(args.model, run.device, run.half)
            model = embedders[key].model
            unpadded = getattr(model, "_can_flatten_inputs", lambda: False)()
            print(
                f"# {run.device}{' fp16' if run.half else ''}: model loaded in "
                f"{time.perf_counter() - started:.1f} s, weights {next(model.parameters()).dtype}"
                f"{', unpadded batches' if unpadded else ''}",
                flush=True,
            )
        subset = texts[: run.texts]
        result = run_one(embedders[key], run, subset, profile=args.breakdown)
        results.append(result)
        print(
            f"# {run.label}: {len(subset):,} texts in {result.seconds:.1f} s "
            f"({len(subset) / result.seconds:,.1f} texts/s)",
            flush=True,
        )
    return results


def table(
    results: list[Result],
    reference: NDArray[np.float32] | None,
    other: NDArray[np.float32] | None,
    *,
    breakdown: bool,
) -> str:
    """One row per run; cosines to this run's CPU reference and to ``--compare``'s vectors
    (``other``, None when absent or for other texts), the time breakdown if measured."""
    headers = ["run", "texts", "pieces", "tokens", "pad %", "seconds", "texts/s", "tokens/s"]
    if reference is not None:
        headers += ["cos mean (n)", "cos min"]
    if other is not None:
        headers += ["cos mean, --compare (n)", "cos min, --compare"]
    if breakdown:
        headers += ["split s", "tokenize s", "model s", "tokens/s in the model"]
    rows = []
    for result in results:
        n = len(result.vectors)
        row = [
            result.run.label,
            fmt_int(n),
            fmt_int(result.pieces),
            fmt_int(result.tokens),
            fmt_float(100 * (1 - result.tokens / result.slots)),
            fmt_float(result.seconds),
            fmt_float(n / result.seconds),
            fmt_int(result.tokens / result.seconds),
        ]
        if reference is not None:
            mean, low = cosines(result.vectors, reference)
            row += [f"{mean:.7f} ({min(n, len(reference))})", f"{low:.7f}"]
        if other is not None:
            mean, low = cosines(result.vectors, other)
            row += [f"{mean:.7f} ({min(n, len(other))})", f"{low:.7f}"]
        if result.parts is not None:
            split_s, tokenize_s, model_s = result.parts
            row += [fmt_float(split_s, 2), fmt_float(tokenize_s, 2), fmt_float(model_s, 2)]
            row += [fmt_int(result.tokens / model_s)]
        rows.append(row)
    return markdown_table(headers, rows)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    import numpy as np

    if args.data:
        texts, name = argquality_texts(args.data), "Webis-ArgQuality-20 premises"
    else:
        texts = synthetic_texts(args.synthetic, args.seed)
        name = f"premises of synthcorpus {args.synthetic:,} arguments, seed {args.seed}"
    texts = texts[: args.limit] if args.limit else texts
    runs = parse_runs(args.runs, len(texts))
    if args.reference:
        baseline = Run("cpu:64 (baseline)", "cpu", DEFAULT_BATCH, False, args.reference)
        runs.insert(0, baseline)
    print(f"# {environment()}", flush=True)
    words = sorted(len(t.split()) for t in texts)
    print(
        f"# texts: {len(texts):,} ({name}); words per text: median {words[len(words) // 2]}, "
        f"mean {sum(words) / len(words):.0f}, max {words[-1]}",
        flush=True,
    )

    other: tuple[NDArray[np.float32], list[str]] | None = None
    if args.compare:
        stored = np.load(args.compare)
        other = (stored["vectors"], [str(h) for h in stored["hashes"]])

    results = measure_runs(args, runs, texts)

    reference = results[0].vectors if args.reference else None
    if args.save and reference is not None:
        n = len(reference)
        np.savez(args.save, vectors=reference, hashes=np.array(hashes(texts[:n])))
    other_ok = other is not None and other[1][: len(texts)] == hashes(texts[: len(other[1])])
    if other is not None and not other_ok:
        print("# --compare: the texts differ from this run's; no cosines", file=sys.stderr)
    other_vectors = other[0] if other is not None and other_ok else None
    print(table(results, reference, other_vectors, breakdown=args.breakdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
