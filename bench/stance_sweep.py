"""Score variants of the cross-encoder stance recipe on the same topic-disjoint splits.

    python -m bench train_cross_stance --data ../shared/data --export-pairs pairs.jsonl
    python -m bench stance_sweep --pairs pairs.jsonl --device cuda --workers 8 \
        --variant base='{}' --variant augq='{"augment_questions": true}' --out sweep.json

A variant is a name and a JSON object of :class:`argkb.stance.cross.CrossConfig` fields, plus
``quality_repeat`` (how many times each ArgQuality training pair is shown; 1 by default). Each
variant is trained six times, as in ``bench/train_cross_stance.py``: once per ArgQuality
leave-topics-out fold (trained on ArgKP train and the other four folds) and once on ArgKP train
and all of ArgQuality (the *final* model, scored on ArgKP dev and, when the pairs have them, on
the AIF maps; never trained on either). The trainings run in parallel worker processes, which
share one GPU well: MiniLM at batch 32 leaves most of an H100 idle.

The output JSON has, per variant, the ArgQuality score over all folds with per-topic accuracy,
the final model's ArgKP dev and AIF scores, and the held-out probabilities; ``--save-models DIR``
also writes each variant's final model there (``<variant>.safetensors`` / ``<variant>.json``).

``--combine A.json B.json ...`` reads earlier outputs (one variant each, say, run one after the
other) and writes one report from them, nested estimate included.

``--nested`` adds the *nested* ArgQuality estimate: for each fold, the variant with the best
accuracy on the other four folds is taken and scored on this fold, so no fold's score helped
choose the variant it is scored with (the cost of having looked at several variants).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bench.train_cross_stance import read_pairs, rounded, scores

SCRIPT_OPTIONS = ("quality_repeat",)
# one training: variant options, training pairs, test lists, device, where to save it (or None)
Job = tuple[dict[str, Any], list[Any], list[list[Any]], str, str | None]


def config_of(options: dict[str, Any]) -> Any:
    from argkb.stance.cross import CrossConfig

    known = {f.name for f in fields(CrossConfig)}
    unknown = set(options) - known - set(SCRIPT_OPTIONS)
    if unknown:
        raise SystemExit(f"unknown variant options: {', '.join(sorted(unknown))}")
    return CrossConfig(**{k: v for k, v in options.items() if k in known})


def job(args: Job) -> Any:
    """Train one model; return its probabilities on each test list (and save it if asked)."""
    options, train, tests, device, save_as = args
    from argkb.stance.cross import CrossStanceModel
    from argkb.stance.cross import train as train_cross

    config = config_of(options)
    repeat = int(options.get("quality_repeat", 1))
    train = [p for p in train for _ in range(repeat if p.dataset == "argquality" else 1)]
    started = time.perf_counter()
    tensors = train_cross([p.conclusion for p in train], [p.premise for p in train],
                          [p.pro for p in train], config, device=device)  # fmt: skip
    seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        weights, info = Path(tmp) / "m.safetensors", Path(tmp) / "m.json"
        if save_as:
            weights, info = Path(save_as + ".safetensors"), Path(save_as + ".json")
        CrossStanceModel.save(tensors, config, weights, info)
        model = CrossStanceModel.load(weights, info, device=device)
        probs = [model.probability([p.conclusion for p in t], [p.premise for p in t]).tolist()
                 for t in tests]  # fmt: skip
    return probs, seconds


def per_topic(pairs: Sequence[Any], prob: Sequence[float]) -> dict[str, float]:
    groups: dict[str, list[bool]] = {}
    for p, q in zip(pairs, prob, strict=True):
        groups.setdefault(p.group, []).append((q >= 0.5) == p.pro)
    return {g: sum(v) / len(v) for g, v in sorted(groups.items())}


def nested(quality: list[Any], folds: list[list[int]], probs: dict[str, Any]) -> dict[str, Any]:
    """Per fold, the variant best on the other folds, scored on this fold."""
    import numpy as np

    y = np.asarray([p.pro for p in quality])
    chosen, right = [], np.zeros(len(quality), dtype=bool)
    for k, fold in enumerate(folds):
        others = [i for j, f in enumerate(folds) if j != k for i in f]
        best = max(probs, key=lambda v: float(((probs[v][others] >= 0.5) == y[others]).mean()))
        chosen.append(best)
        right[fold] = (probs[best][fold] >= 0.5) == y[fold]
    return {"accuracy": float(right.mean()), "chosen_per_fold": chosen}


def combine(pairs_file: Path, parts: list[Path], out: Path) -> int:
    """One report from several: variants and results merged, the nested estimate recomputed."""
    import numpy as np

    from argkb.stance.evaluate import topic_folds

    quality = [p for p in read_pairs(pairs_file) if p.dataset == "argquality"]
    report: dict[str, Any] = {"variants": {}, "results": {}}
    for part in parts:
        loaded = json.loads(part.read_text(encoding="utf-8"))
        report["variants"].update(loaded["variants"])
        report["results"].update(loaded["results"])
    probs = {v: np.asarray(r["argquality"]["p_pro"]) for v, r in report["results"].items()}
    report["nested_argquality"] = nested(quality, topic_folds(quality, 5), probs)
    for name, row in report["results"].items():
        print(name, {d: round(r["accuracy"], 4) for d, r in row.items() if isinstance(r, dict)})
    print("nested", report["nested_argquality"])
    out.write_text(json.dumps(report), encoding="utf-8")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, required=True, help="from --export-pairs")
    parser.add_argument("--variant", action="append", default=[], help="NAME=JSON")
    parser.add_argument("--combine", type=Path, nargs="+", help="merge these outputs")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=int, help="at most this many pairs per list (a dry run)")
    parser.add_argument("--save-models", type=Path)
    parser.add_argument("--nested", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    return parser


def plan(
    args: argparse.Namespace,
    variants: dict[str, dict[str, Any]],
    splits: dict[str, list[Any]],
    folds: list[list[int]],
) -> tuple[list[Job], list[tuple[str, int | str]]]:
    """Per variant, one training per ArgQuality fold and the final one; the jobs and their keys
    (variant, fold number or ``"final"``)."""
    kp_train, quality = splits["kp_train"], splits["quality"]
    jobs: list[Job] = []
    keys: list[tuple[str, int | str]] = []
    for name, options in variants.items():
        for k, fold in enumerate(folds):
            held = set(fold)
            train = kp_train + [p for i, p in enumerate(quality) if i not in held]
            jobs.append((options, train, [[quality[i] for i in fold]], args.device, None))
            keys.append((name, k))
        save = str(args.save_models / name) if args.save_models else None
        jobs.append((options, kp_train + quality, [splits["kp_dev"], splits["aif"]],
                     args.device, save))  # fmt: skip
        keys.append((name, "final"))
    return jobs, keys


def variant_row(
    name: str, results: dict[Any, Any], splits: dict[str, list[Any]], folds: list[list[int]]
) -> tuple[dict[str, Any], Any]:
    """One variant's report row and its held-out ArgQuality probabilities (all folds)."""
    import numpy as np

    quality, kp_dev, aif = splits["quality"], splits["kp_dev"], splits["aif"]
    prob = np.zeros(len(quality))
    for k, fold in enumerate(folds):
        prob[fold] = results[(name, k)][0][0]
    (dev_prob, aif_prob), seconds = results[(name, "final")]
    row = {
        "argquality": {
            **scores(quality, prob),
            "per_topic": per_topic(quality, prob.tolist()),
            "p_pro": prob.round(4).tolist(),
        },
        "argkp_dev": {
            **scores(kp_dev, dev_prob),
            "per_topic": per_topic(kp_dev, dev_prob),
            "p_pro": np.round(dev_prob, 4).tolist(),
        },
        "train_seconds": round(seconds, 1),
    }
    if aif:
        row["aif"] = {**scores(aif, aif_prob), "p_pro": np.round(aif_prob, 4).tolist()}
    return row, prob


def main() -> int:
    args = build_parser().parse_args()

    from argkb.stance.evaluate import topic_folds

    if args.combine:
        return combine(args.pairs, args.combine, args.out)

    variants = {}
    for spec in args.variant:
        name, _, text = spec.partition("=")
        variants[name] = json.loads(text or "{}")
        config_of(variants[name])  # fail before any training
    pairs = read_pairs(args.pairs)
    splits = {
        "kp_train": [p for p in pairs if p.dataset == "argkp" and p.split == "train"],
        "kp_dev": [p for p in pairs if p.dataset == "argkp" and p.split == "dev"],
        "quality": [p for p in pairs if p.dataset == "argquality"],
        "aif": [p for p in pairs if p.dataset == "aif"],
    }
    if args.limit:
        splits = {k: v[: args.limit] for k, v in splits.items()}
    quality = splits["quality"]
    folds = topic_folds(quality, 5)
    if args.save_models:
        args.save_models.mkdir(parents=True, exist_ok=True)
    jobs, keys = plan(args, variants, splits, folds)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        results = dict(zip(keys, pool.map(job, jobs), strict=True))
    print(f"{len(jobs)} trainings in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    report: dict[str, Any] = {"variants": variants, "folds": len(folds), "results": {}}
    quality_probs = {}
    for name in variants:
        row, quality_probs[name] = variant_row(name, results, splits, folds)
        report["results"][name] = row
        summary = {d: rounded({m: v for m, v in r.items() if m != "per_topic"})
                   for d, r in row.items() if isinstance(r, dict)}  # fmt: skip
        print(name, json.dumps(summary))
    if args.nested and len(variants) > 1:
        report["nested_argquality"] = nested(quality, folds, quality_probs)
        print("nested", report["nested_argquality"])
    args.out.write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
