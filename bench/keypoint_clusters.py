"""Premise clusters from key points: do they match ArgKP's gold key points better than embedding
clusters?

    python -m bench keypoint_clusters --data ../shared/data/argkp-2021

Per (topic, stance) of ArgKP train and dev, the arguments are partitioned three ways:

* complete-linkage clusters of their all-MiniLM-L6-v2 vectors cut at cosine distance .3 / .4 /
  .5 (argkb's premise clustering cuts at .4, chosen on ArgKP train);
* by key point: k key points generated as ``argkb keypoints`` does (k = 5, its default, 10, or
  the group's gold count), each argument in the cluster of its best key point by the matching
  model when its probability is at least .5 (else alone), or at any probability;
* the same key points, each argument with its nearest key point by cosine.

Scored against the gold partition (arguments that match exactly one gold key point): adjusted
Rand index, normalised mutual information and B-cubed precision, recall and F1 (argkb's
:mod:`argkb.eval.metrics`), averaged over the groups.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench.keypoint_selection import Prepared, facility, prepare

Partition = dict[str, object]  # arg id -> cluster label (absent: alone)


def linkage_clusters(p: Prepared, cut: float) -> Partition:
    from scipy.cluster.hierarchy import fcluster, linkage

    labels = fcluster(linkage(p.args, "complete", metric="cosine"), cut, "distance")
    return {
        arg_id: int(label) for (arg_id, _), label in zip(p.group.arguments, labels, strict=True)
    }


def key_point_clusters(p: Prepared, k: int) -> dict[str, Partition]:
    """The three key point partitions with ``k`` generated key points."""
    from bench.keypoint_selection import model_matrix

    chosen = facility(p, k=k)
    probs = model_matrix(p, chosen, p.group.arguments)  # arguments x key points
    best = probs.argmax(axis=1)
    nearest = p.sim[chosen].argmax(axis=0)
    ids = [arg_id for arg_id, _ in p.group.arguments]
    return {
        "model p >= .5": {
            a: int(b) for a, b, q in zip(ids, best, probs.max(axis=1), strict=True) if q >= 0.5
        },
        "model, any p": {a: int(b) for a, b in zip(ids, best, strict=True)},
        "nearest by cosine": {a: int(n) for a, n in zip(ids, nearest, strict=True)},
    }


def partitions(p: Prepared) -> dict[str, Partition]:
    out = {f"complete linkage, cut {cut:g}": linkage_clusters(p, cut) for cut in (0.3, 0.4, 0.5)}
    for name, k in (("5", 5), ("10", 10), ("gold", p.k)):
        for how, partition in key_point_clusters(p, k).items():
            out[f"key points k = {name}, {how}"] = partition
    return out


def scores(p: Prepared, labels: dict[tuple[str, str], int], partition: Partition) -> Any:
    from argkb.eval.metrics import adjusted_rand_index, bcubed, normalized_mutual_information

    gold = {}
    for arg_id, _ in p.group.arguments:
        matched = [kp for kp, _ in p.group.key_points if labels.get((arg_id, kp)) == 1]
        if len(matched) == 1:
            gold[arg_id] = matched[0]
    items = list(gold)
    truth = [gold[a] for a in items]
    predicted = [partition.get(a, f"alone:{a}") for a in items]
    b3 = bcubed(truth, predicted)
    return np.array([adjusted_rand_index(truth, predicted),
                     normalized_mutual_information(truth, predicted),
                     b3.precision, b3.recall, b3.f1])  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the ArgKP-2021 folder")
    args = parser.parse_args(argv)
    for split in ("train", "dev"):
        prepared, labels = prepare(args.data, split)
        rows: dict[str, list[Any]] = {}
        for p in prepared:
            for name, partition in partitions(p).items():
                rows.setdefault(name, []).append(scores(p, labels, partition))
        print(f"\n{split} ({len(prepared)} topic-stance groups, means)\n")
        print("| partition | ARI | NMI | B-cubed P | R | F1 |\n|---|---:|---:|---:|---:|---:|")
        for name, values in rows.items():
            print(f"| {name} | " + " | ".join(f"{x:.3f}" for x in np.mean(values, axis=0)) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
