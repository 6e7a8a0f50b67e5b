"""Which long-text strategy to embed with: truncate, window or sentences (Dumani 2020, Sec. 5).

    python -m bench long_text --data ../shared/data/webis-argquality-20

Webis-ArgQuality-20's premises are args.me posts, many longer than the model's 256 word pieces.
For each strategy the same corpus is embedded and scored with the harness's cosine baseline
(nDCG@5/10 against the graded relevance); BM25 is printed as the reference from the same run.
Runs against a throw-away managed instance (or --uri).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    from bench.common import data_parser, database

    args = data_parser(__doc__).parse_args()

    from argkb.embed.model import Embedder
    from argkb.eval.argquality import run_argquality
    from argkb.eval.harness import HarnessOptions

    rows = []
    with database(args.uri, "longtext") as driver:
        for strategy in ("truncate", "window", "sentences"):
            started = time.perf_counter()
            report = run_argquality(
                driver,
                args.data,
                options=HarnessOptions(
                    rankers=["cosine", "bm25"],
                    baselines=False,
                    out=Path(tempfile.mkdtemp(prefix=f"argkb-longtext-{strategy}-")),
                    make_embedder=lambda s=strategy: Embedder(long_text=s),  # type: ignore[misc]
                ),
            )
            seconds = time.perf_counter() - started
            for result in report.results:
                m = result.scores.mean
                name = f"{result.name} ({strategy})" if result.name == "cosine" else "bm25"
                rows.append((name, m["ndcg@5"], m["ndcg@10"], seconds))
    print("| system | nDCG@5 | nDCG@10 | seconds (embed + rank) |\n|---|---:|---:|---:|")
    seen = set()
    for name, n5, n10, seconds in rows:
        if name in seen:
            continue
        seen.add(name)
        print(f"| {name} | {n5:.4f} | {n10:.4f} | {seconds:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
