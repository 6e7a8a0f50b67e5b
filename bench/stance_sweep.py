"""Score variants of the cross-encoder stance recipe on the same topic-disjoint splits.

    python -m bench train_cross_stance --data ../shared/data --export-pairs pairs.jsonl
    python -m bench stance_sweep --pairs pairs.jsonl --device cuda --workers 8 \
        --variant base='{}' --variant augq='{"augment_questions": true}' --out sweep.json

A variant is a name and a JSON object of :class:`argkb.stance.cross.CrossConfig` fields, plus
``quality_repeat`` (how many times each ArgQuality training pair is shown; 1 by default) and
``train_sets`` (the datasets it trains on: ``argkp`` = ArgKP train, ``argquality``, ``aif``,
``sigir19``; ArgKP train and ArgQuality by default). ``--folds-over D`` (``argquality`` by
default) names the dataset whose five topic-disjoint folds give the held-out estimate: a variant
that trains on D is trained once per fold (on its other sets and the other four folds of D). Each
variant is also trained once on all its sets: the *final* model, scored on ArgKP dev and on every
dataset it never trained on (ArgQuality, the AIF maps, SIGIR-19 dev, when the pairs have them).
A variant that does not train on D gets D's row from its final model. The trainings run in
parallel worker processes, which share one GPU well: MiniLM at batch 32 leaves most of an H100
idle. As each training ends, ``<out>.partial.json`` gets its probabilities.

The output JSON has, per variant, the held-out score on D with per-topic accuracy, the final
model's scores, and the held-out probabilities; ``--save-models DIR`` also writes each variant's
final model there (``<variant>.safetensors`` / ``<variant>.json``).

``--combine A.json B.json ...`` reads earlier outputs (one variant each, say, run one after the
other) and writes one report from them, nested estimate included.

``--nested`` adds the *nested* estimate on D: for each fold, the variant with the best
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
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import fields
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bench.train_cross_stance import read_pairs, rounded, scores

SCRIPT_OPTIONS = ("quality_repeat", "train_sets")
FOLDABLE = ("argquality", "aif", "sigir19")  # datasets that can be trained on or held out
DEFAULT_TRAIN = ("argkp", "argquality")
# one training: variant options, training pairs, test lists, device, where to save it (or None)
Job = tuple[dict[str, Any], list[Any], list[list[Any]], str, str | None]


def config_of(options: dict[str, Any]) -> Any:
    from argkb.stance.cross import CrossConfig

    known = {f.name for f in fields(CrossConfig)}
    unknown = set(options) - known - set(SCRIPT_OPTIONS)
    if unknown:
        raise SystemExit(f"unknown variant options: {', '.join(sorted(unknown))}")
    train_sets(options)
    return CrossConfig(**{k: v for k, v in options.items() if k in known})


def train_sets(options: dict[str, Any]) -> list[str]:
    """The datasets a variant trains on (``argkp`` is ArgKP train); checked."""
    chosen = list(options.get("train_sets", DEFAULT_TRAIN))
    unknown = set(chosen) - {"argkp", *FOLDABLE}
    if unknown:
        raise SystemExit(f"unknown train_sets: {', '.join(sorted(unknown))}")
    return chosen


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


def nested(pairs: list[Any], folds: list[list[int]], probs: dict[str, Any]) -> dict[str, Any]:
    """Per fold, the variant best on the other folds, scored on this fold."""
    import numpy as np

    y = np.asarray([p.pro for p in pairs])
    chosen, right = [], np.zeros(len(pairs), dtype=bool)
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

    report: dict[str, Any] = {"variants": {}, "results": {}}
    over = "argquality"
    seen = set()
    for part in parts:
        loaded = json.loads(part.read_text(encoding="utf-8"))
        over = loaded.get("folds_over", "argquality")
        seen.add(over)
        report["variants"].update(loaded["variants"])
        report["results"].update(loaded["results"])
    if len(seen) > 1:
        raise SystemExit(f"the parts were folded over different datasets: {sorted(seen)}")
    held = [p for p in read_pairs(pairs_file) if p.dataset == over]
    probs = {v: np.asarray(r[over]["p_pro"]) for v, r in report["results"].items()}
    report[f"nested_{over}"] = nested(held, topic_folds(held, 5), probs)
    for name, row in report["results"].items():
        print(name, {d: round(r["accuracy"], 4) for d, r in row.items() if isinstance(r, dict)})
    print("nested", report[f"nested_{over}"])
    out.write_text(json.dumps(report), encoding="utf-8")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, required=True, help="from --export-pairs")
    parser.add_argument("--variant", action="append", default=[], help="NAME=JSON")
    parser.add_argument("--combine", type=Path, nargs="+", help="merge these outputs")
    held_out = "the dataset whose topic folds give the held-out estimate"
    parser.add_argument("--folds-over", choices=FOLDABLE, default="argquality", help=held_out)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=int, help="at most this many pairs per list (a dry run)")
    parser.add_argument("--save-models", type=Path)
    parser.add_argument("--nested", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    return parser


def final_tests(options: dict[str, Any]) -> list[str]:
    """The lists a variant's final model is scored on: ArgKP dev and every set it never saw."""
    trained = train_sets(options)
    return ["kp_dev"] + [d for d in FOLDABLE if d not in trained]


def plan(
    args: argparse.Namespace,
    variants: dict[str, dict[str, Any]],
    splits: dict[str, list[Any]],
    folds: list[list[int]],
) -> tuple[list[Job], list[tuple[str, int | str]]]:
    """Per variant, one training per fold of ``--folds-over`` (when the variant trains on that
    dataset) and the final one; the jobs and their keys (variant, fold number or ``"final"``)."""
    over = args.folds_over
    jobs: list[Job] = []
    keys: list[tuple[str, int | str]] = []
    for name, options in variants.items():
        trained = train_sets(options)
        rest = [p for d in trained if d != over for p in splits[d]]
        if over in trained:
            for k, fold in enumerate(folds):
                held = set(fold)
                train = rest + [p for i, p in enumerate(splits[over]) if i not in held]
                jobs.append((options, train, [[splits[over][i] for i in fold]], args.device, None))
                keys.append((name, k))
        save = str(args.save_models / name) if args.save_models else None
        train = [p for d in trained for p in splits[d]]
        tests = [splits[d] for d in final_tests(options)]
        jobs.append((options, train, tests, args.device, save))
        keys.append((name, "final"))
    return jobs, keys


def score_row(pairs: Sequence[Any], prob: Any) -> dict[str, Any]:
    import numpy as np

    return {
        **scores(list(pairs), prob),
        "per_topic": per_topic(pairs, list(prob)),
        "p_pro": np.round(np.asarray(prob), 4).tolist(),
    }


def variant_row(
    name: str,
    results: dict[Any, Any],
    splits: dict[str, list[Any]],
    folds: list[list[int]],
    over: str,
    options: dict[str, Any],
) -> tuple[dict[str, Any], Any]:
    """One variant's report row and its held-out probabilities on ``over`` (all folds)."""
    import numpy as np

    final, seconds = results[(name, "final")]
    row: dict[str, Any] = {}
    for dataset, prob in zip(final_tests(options), final, strict=True):
        if splits[dataset]:
            row["argkp_dev" if dataset == "kp_dev" else dataset] = score_row(splits[dataset], prob)
    held = np.zeros(len(splits[over]))
    if over in train_sets(options):
        for k, fold in enumerate(folds):
            held[fold] = results[(name, k)][0][0]
        row[over] = score_row(splits[over], held)
    else:
        held = np.asarray(row[over]["p_pro"]) if over in row else held
    row["train_seconds"] = round(seconds, 1)
    return row, held


def read_splits(path: Path, limit: int | None) -> dict[str, list[Any]]:
    """The pairs per training or test list: ArgKP train and dev, and the other datasets."""
    pairs = read_pairs(path)
    splits = {
        "argkp": [p for p in pairs if p.dataset == "argkp" and p.split == "train"],
        "kp_dev": [p for p in pairs if p.dataset == "argkp" and p.split == "dev"],
        **{d: [p for p in pairs if p.dataset == d] for d in FOLDABLE},
    }
    return {k: v[:limit] for k, v in splits.items()} if limit else splits


def run_jobs(args: argparse.Namespace, jobs: list[Job], keys: list[Any]) -> dict[Any, Any]:
    """Run the trainings; as each ends, ``<out>.partial.json`` gets its probabilities, so a run
    stopped early (a lent GPU's time is short) keeps what it finished."""
    partial = args.out.with_suffix(".partial.json")
    results: dict[Any, Any] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
        running = {pool.submit(job, j): key for j, key in zip(jobs, keys, strict=True)}
        failed = []
        for done in as_completed(running):
            try:
                results[running[done]] = done.result()
            except Exception as err:  # keep what the other trainings finish
                failed.append(f"{running[done]}: {err}")
                continue
            print(f"{running[done]} done at {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip
            partial.write_text(json.dumps([[list(k), v] for k, v in results.items()]))
    if failed:
        raise SystemExit(f"{len(failed)} trainings failed (the others are in {partial}): "
                         + "; ".join(failed))  # fmt: skip
    print(f"{len(jobs)} trainings in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return results


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
    splits = read_splits(args.pairs, args.limit)
    over = args.folds_over
    folds = topic_folds(splits[over], 5)
    if args.save_models:
        args.save_models.mkdir(parents=True, exist_ok=True)
    jobs, keys = plan(args, variants, splits, folds)
    results = run_jobs(args, jobs, keys)
    report: dict[str, Any] = {"variants": variants, "folds_over": over, "folds": len(folds),
                              "results": {}}  # fmt: skip
    held_probs = {}
    for name, options in variants.items():
        row, held_probs[name] = variant_row(name, results, splits, folds, over, options)
        report["results"][name] = row
        summary = {d: rounded({m: v for m, v in r.items() if m != "per_topic"})
                   for d, r in row.items() if isinstance(r, dict)}  # fmt: skip
        print(name, json.dumps(summary))
    if args.nested and len(variants) > 1:
        report[f"nested_{over}"] = nested(splits[over], folds, held_probs)
        print("nested", report[f"nested_{over}"])
    args.out.write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
