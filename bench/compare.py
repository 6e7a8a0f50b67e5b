"""Per-query wins / ties / losses and a 95 % bootstrap interval against a baseline.

    python -m bench compare argkb-eval/argkp/results.json --metric task_b@10 [--baseline bm25]

Reads the ``results.json`` an ``argkb eval`` command writes and prints one row per system:
queries won, tied and lost against the baseline on the metric, the mean difference, and its
95 % interval (:mod:`argkb.eval.compare`). Several files may be given (one table each).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+")
    parser.add_argument("--metric", required=True)
    parser.add_argument("--baseline", action="append", default=None)
    args = parser.parse_args()

    from argkb.eval.compare import paired

    for path in args.results:
        data = json.loads(path.read_text(encoding="utf-8"))
        per_query = {s["tag"]: s["per_query"] for s in data["systems"]}
        baselines = args.baseline or ["bm25", "cosine"]
        print(f"\n{data['benchmark']} ({path}), {args.metric}\n")
        print("| system | vs | queries | wins | ties | losses | mean diff | 95% interval |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        for baseline in baselines:
            for system in per_query:
                if system == baseline or system in baselines or "random" in system:
                    continue
                p = paired(system, baseline, per_query, args.metric)
                print(
                    f"| {system} | {baseline} | {p.queries} | {p.wins} | {p.ties} | {p.losses} "
                    f"| {p.mean_difference:+.4f} | [{p.low:+.4f}, {p.high:+.4f}] |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
