"""The shipped stance models on the SIGIR-19 dev half: stance of a premise towards its conclusion.

    python -m bench stance_sigir19 --data ../shared/data/webis-sigir19-dev [--kind cross|linear]

SIGIR-19 judges each args.me argument's stance towards its own conclusion (the debate title):
Pro, Con or Not specified. No shipped model was trained on this data, so every argument is held
out. Each argument counts once (an argument judged for both topics of an issue is one pair);
"Not specified" is left out. Prints accuracy, macro-F1, the majority class, a 95 % bootstrap
interval of the accuracy (2,000 resamples of arguments, seed 0) and the accuracy per issue
(topic group, :func:`argkb.eval.sigir19.topic_issues`).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--kind", choices=["cross", "linear"], default="cross")
    args = parser.parse_args()

    from argkb.embed.model import Embedder
    from argkb.eval.sigir19 import topic_issues
    from argkb.loaders.sigir19 import load_judgements
    from argkb.stance.store import load_model

    data = load_judgements(args.data)
    issues = topic_issues(data)
    pairs: dict[
        tuple[int, int], tuple[str, str, str, str]
    ] = {}  # key -> conclusion, premise, label, issue
    for topic, judgements in data.judgements.items():
        for j in judgements:
            if j.stance in ("pro", "con") and j.key not in pairs:
                pairs[j.key] = (j.conclusion, j.premise, j.stance, issues[str(topic)])
    keys = sorted(pairs)
    conclusions = [pairs[k][0] for k in keys]
    premises = [pairs[k][1] for k in keys]
    gold = np.asarray([pairs[k][2] == "pro" for k in keys])
    model = load_model(args.kind)
    embedder = Embedder(long_text=model.long_text)  # type: ignore[arg-type]
    predicted = np.asarray(model.predict(embedder, premises, conclusions)) >= 0.5
    correct = predicted == gold
    f1 = []
    for positive in (True, False):
        tp = int(((predicted == positive) & (gold == positive)).sum())
        fp = int(((predicted == positive) & (gold != positive)).sum())
        fn = int(((predicted != positive) & (gold == positive)).sum())
        f1.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    rng = np.random.default_rng(0)
    boot = [correct[rng.integers(0, len(correct), len(correct))].mean() for _ in range(2000)]
    lo, hi = np.percentile(boot, [2.5, 97.5])
    majority = max(gold.mean(), 1 - gold.mean())
    print(f"model {model.model_id}: {len(keys)} arguments ({int(gold.sum())} pro)")
    print(f"accuracy {correct.mean():.3f} [{lo:.3f}, {hi:.3f}], macro-F1 {np.mean(f1):.3f}, "
          f"majority {majority:.3f}")  # fmt: skip
    by_issue: dict[str, list[bool]] = defaultdict(list)
    for k, ok in zip(keys, correct.tolist(), strict=True):
        by_issue[pairs[k][3]].append(ok)
    print("| issue | arguments | accuracy |\n|---|---:|---:|")
    for issue in sorted(by_issue, key=int):
        values = by_issue[issue]
        print(f"| {issue} | {len(values)} | {np.mean(values):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
