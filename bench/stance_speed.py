"""Stance inference speed on the CPU: milliseconds per pair at batch 32, per backend.

    python -m bench stance_speed --data ../shared/data [--pairs 256] [--repeats 3]

Issue 29 asks for at most 20 ms per pair at batch 32 on the CPU. The shipped cross-encoders
(``argkb stance``'s default on all-mpnet-base-v2, and ``--kind cross-minilm``) answer two sets
of ``--pairs`` pairs each:

* *short*: ArgKP dev arguments against their topic (at most about 50 words);
* *long*: SIGIR-19 dev's args.me posts against their debate title, cut at the model's 256
  tokens, as ``argkb stance`` cuts them (pairs repeated in order to reach ``--pairs``).

Backends: ``torch`` (what ``argkb stance`` runs), and for the MiniLM model (ONNX export takes
BERT encoders only) ``onnx`` (fp32 ONNX Runtime, the same model) and ``onnx-int8`` (the
embedder's dynamic int8 recipe; its answers depend a little on the batch,
docs/results/stance.md says why), each through :meth:`CrossStanceModel.probability` at
``batch_size=32``. The baseline, measured in the same run, is the linear model (``argkb stance
--kind linear``): embedding both texts (and the negated conclusion) with all-MiniLM-L6-v2, then
its logistic regression, with the embedding cache off (every pass embeds).

Each cell is the median over ``--repeats`` timed passes after one untimed warm-up pass, in ms per
pair; ``agree`` is the share of pairs on which the backend's side (P >= .5) is the same model's
on torch. The ONNX
graphs are exported on first use and cached (``~/.cache/argkb/onnx``); export time is not timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BATCH = 32


def pair_sets(data: Path, n: int) -> dict[str, tuple[list[str], list[str]]]:
    """``name -> (conclusions, premises)`` of ``n`` pairs each (see the module docstring)."""
    from argkb.stance.data import read_pairs

    short = [p for p in read_pairs("argkp", data / "argkp-2021") if p.split == "dev"]
    long = read_pairs("sigir19", data / "webis-sigir19-dev")
    out = {}
    for name, pairs in (("short", short), ("long", long)):
        chosen = [pairs[i % len(pairs)] for i in range(n)]
        out[name] = ([p.conclusion for p in chosen], [p.premise for p in chosen])
    return out


def timed(run: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median seconds of ``repeats`` calls after one warm-up, and the last answer."""
    answer = run()
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        answer = run()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds), answer


def cross_rows(sets: dict[str, Any], repeats: int) -> list[dict[str, Any]]:
    import numpy as np

    from argkb.stance.cross import SHIPPED, CrossStanceModel

    rows = []
    models = (("cross (all-mpnet-base-v2)", *SHIPPED["cross"], ("torch",)),
              ("cross-minilm", *SHIPPED["cross-minilm"],
               ("torch", "onnx", "onnx-int8")))  # fmt: skip
    for label, weights, info, backends in models:
        reference: dict[str, Any] = {}
        for backend in backends:
            model = CrossStanceModel.load(weights, info).use_backend(backend)
            for name, (conclusions, premises) in sets.items():

                def run(m: Any = model, c: list[str] = conclusions, p: list[str] = premises) -> Any:
                    return m.probability(c, p, batch_size=BATCH)

                seconds, prob = timed(run, repeats)
                side = np.asarray(prob) >= 0.5
                reference.setdefault(name, side)
                rows.append({"model": f"{label}, {backend}", "set": name,
                             "ms_per_pair": 1000 * seconds / len(premises),
                             "agree": float((side == reference[name]).mean())})  # fmt: skip
    return rows


def linear_rows(sets: dict[str, Any], repeats: int) -> list[dict[str, Any]]:
    from argkb.embed.model import Embedder
    from argkb.stance.model import StanceModel

    model = StanceModel.load()
    embedder = Embedder(long_text=model.long_text, cache=False)  # type: ignore[arg-type]  # every pass embeds
    rows = []
    for name, (conclusions, premises) in sets.items():

        def run(c: Sequence[str] = conclusions, p: Sequence[str] = premises) -> Any:
            return [model.predict(embedder, p[i : i + BATCH], c[i : i + BATCH])
                    for i in range(0, len(p), BATCH)]  # fmt: skip

        seconds, _ = timed(run, repeats)
        rows.append({"model": "linear (baseline)", "set": name,
                     "ms_per_pair": 1000 * seconds / len(premises), "agree": None})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared/data folder")
    parser.add_argument("--pairs", type=int, default=256, help="pairs per set")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sets = pair_sets(args.data, args.pairs)
    rows = linear_rows(sets, args.repeats) + cross_rows(sets, args.repeats)
    print(f"\n{args.pairs} pairs per set, batch {BATCH}, median of {args.repeats} passes; "
          f"load average {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    print("| model | set | ms per pair | same side as torch |\n|---|---|---:|---:|")
    for r in rows:
        agree = "" if r["agree"] is None else f"{r['agree']:.3f}"
        print(f"| {r['model']} | {r['set']} | {r['ms_per_pair']:.1f} | {agree} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
