"""Write a synthetic args.me corpus and report how fast (and how lean) the generator is.

    python -m bench synth --arguments 400000 --seed 0 --out /tmp/argsme-400k.json
    python -m bench synth --arguments 100000 --out /tmp/c.jsonl --jsonl --truth
    python -m bench synth --arguments 100000 --out /dev/null --memory

Prints a table: the file write, and as baseline in the same run the generator alone (no JSON
encoding, no I/O), so the cost of serialisation is visible. ``--memory`` adds the peak memory
traced by :mod:`tracemalloc` for both (slower: tracing costs about 2-3x). The corpus shape and
its sources are documented in :mod:`synthcorpus`.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from collections.abc import Callable


def _measure(work: Callable[[], int], memory: bool) -> tuple[int, float, float | None]:
    """Run ``work``; return its count, wall seconds and (with ``memory``) peak MiB traced."""
    if memory:
        tracemalloc.start()
    start = time.perf_counter()
    count = work()
    seconds = time.perf_counter() - start
    peak = None
    if memory:
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return count, seconds, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--arguments", type=int, required=True, help="number of arguments")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", required=True, help="output file (/dev/null to time only)")
    parser.add_argument("--jsonl", action="store_true", help="one argument per line")
    parser.add_argument("--truth", action="store_true", help="add _cluster ground-truth fields")
    parser.add_argument("--memory", action="store_true", help="trace peak memory (slower)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the generator-only row")
    args = parser.parse_args(argv)
    import synthcorpus as synth

    writer = synth.write_jsonl if args.jsonl else synth.write_json
    fmt = "jsonl" if args.jsonl else "json"

    def write() -> int:
        return writer(args.out, args.arguments, args.seed, truth=args.truth)

    def generate_only() -> int:
        return sum(1 for _ in synth.generate(args.arguments, seed=args.seed, truth=args.truth))

    rows = [(f"write {fmt}", *_measure(write, args.memory))]
    if not args.no_baseline:
        rows.append(("generate only (baseline)", *_measure(generate_only, args.memory)))

    size = os.path.getsize(args.out) if os.path.isfile(args.out) else None
    print(f"{'phase':<26} {'arguments':>10} {'seconds':>8} {'args/s':>9} {'peak MiB':>9}")
    for name, count, seconds, peak in rows:
        peak_text = f"{peak:9.2f}" if peak is not None else f"{'-':>9}"
        print(f"{name:<26} {count:>10} {seconds:8.2f} {count / seconds:9.0f} {peak_text}")
    if size is not None:
        print(f"wrote {args.out}: {size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
