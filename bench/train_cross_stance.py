"""Train the cross-encoder stance model and score it on held-out topics.

    python -m bench train_cross_stance --data ../shared/data [--device cuda] [--write]
    python -m bench train_cross_stance --data ../shared/data --export-pairs pairs.jsonl
        (every labelled pair: ArgKP, ArgQuality, the AIF maps and SIGIR-19 dev)
    python -m bench train_cross_stance --pairs pairs.jsonl --device cuda --out-dir DIR
    python -m bench train_cross_stance --pairs pairs.jsonl --device cuda --skip-folds \
        --base all-mpnet-base-v2 --base-folder /tmp/mpnet --epochs 1 --out-dir DIR
        (the shipped model's recipe; --base-folder: where the encoder is on a machine without
        its PyPI pieces, a copy of the model folder, float16 is enough)

The recipe is :mod:`argkb.stance.cross` with its default :class:`CrossConfig` (``--base``,
``--epochs`` and ``--seed`` change those fields). Splits are the
linear model's (:mod:`argkb.stance.evaluate`), all topic-disjoint:

1. *ArgQuality*: 5 leave-topics-out folds (topic ``i`` in fold ``i mod 5``), each trained on
   ArgKP train and the other four folds (``--skip-folds`` leaves this out: 5 trainings);
2. *final*: trained on ArgKP train and all of ArgQuality (never ArgKP dev, never AIF), scored on
   ArgKP dev (4 unseen topics) and, when the pairs include them, on the AIF maps and SIGIR-19
   dev (never trained on); with ``--write`` it is saved as the shipped model of its encoder
   (``cross_model`` on all-mpnet-base-v2, ``cross_minilm`` on MiniLM), with these scores as
   provenance.

Time: on one H100 a training takes about 40 s; on the 2-core CPU of docs/benchmarks.md about
35 minutes (estimated from a timed subset), which is why ``--pairs`` exists: export the pairs
where the data is, train where a GPU is. ``--out-dir`` writes the model and a JSON of the scores
and predictions there instead of into the package.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any


def export(data: Path, out: Path) -> None:
    from argkb.stance.data import read_pairs as read_dataset
    from bench.train_stance import read_all  # the linear model's reader: same pairs

    pairs = read_all(data) + read_dataset("sigir19", data / "webis-sigir19-dev")
    with out.open("w", encoding="utf-8") as f:
        for p in pairs:
            f.write(json.dumps(asdict(p)) + "\n")


def read_pairs(path: Path) -> list[Any]:
    from argkb.stance.data import StancePair

    with path.open(encoding="utf-8") as f:
        return [StancePair(**json.loads(line)) for line in f if line.strip()]


def scores(pairs: list[Any], prob: Any) -> dict[str, float]:
    import numpy as np

    from argkb.stance.evaluate import classification_scores

    y = np.asarray([p.pro for p in pairs], dtype=bool)
    acc, f1 = classification_scores(y, np.asarray(prob) >= 0.5)
    majority, majority_f1 = classification_scores(y, np.full(len(y), y.mean() >= 0.5))
    return {"pairs": len(pairs), "topics": len({p.group for p in pairs}),
            "pro_share": float(y.mean()), "accuracy": acc,
            "macro_f1": f1, "majority": majority, "majority_macro_f1": majority_f1}  # fmt: skip


def rounded(row: dict[str, Any]) -> dict[str, Any]:
    """A score row for the model's provenance: floats to 4 places, without the predictions."""
    return {m: round(v, 4) if isinstance(v, float) else v for m, v in row.items() if m != "p_pro"}


def fit(train: list[Any], device: str, config: Any) -> dict[str, Any]:
    from argkb.stance.cross import train as train_cross

    started = time.perf_counter()
    tensors = train_cross([p.conclusion for p in train], [p.premise for p in train],
                          [p.pro for p in train], config, device=device)  # fmt: skip
    print(f"  trained on {len(train)} pairs in {time.perf_counter() - started:.0f} s",
          file=sys.stderr, flush=True)  # fmt: skip
    return tensors


def predict(tensors: dict[str, Any], config: Any, test: list[Any], device: str, tmp: Path) -> Any:
    from argkb.stance.cross import CrossStanceModel

    CrossStanceModel.save(tensors, config, tmp / "m.safetensors", tmp / "m.json")
    model = CrossStanceModel.load(tmp / "m.safetensors", tmp / "m.json", device=device)
    return model.probability([p.conclusion for p in test], [p.premise for p in test])


def build_parser() -> argparse.ArgumentParser:
    from argkb.stance.cross import CrossConfig

    defaults = CrossConfig()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="the shared/data folder")
    parser.add_argument("--pairs", type=Path, help="pairs exported with --export-pairs")
    parser.add_argument("--export-pairs", type=Path, help="write the labelled pairs and stop")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--skip-folds", action="store_true", help="only the final model")
    parser.add_argument("--write", action="store_true", help="save the final model in argkb/")
    parser.add_argument("--out-dir", type=Path, help="save model and scores here instead")
    parser.add_argument("--base", default="", help="CrossConfig.base (default: MiniLM)")
    parser.add_argument("--base-folder", help="read --base's encoder from this folder")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    return parser


def save(
    tensors: Any, config: Any, report: dict[str, Any], out_dir: Path | None, *,
    write: bool = False, base: str = "",
) -> None:  # fmt: skip
    """Into ``out_dir`` (``--out-dir``, with the scores), or with ``write`` (``--write``) as the
    shipped model of its encoder (``cross_model`` for another ``base``, ``cross_minilm`` for
    MiniLM)."""
    from argkb.stance.cross import SHIPPED, CrossStanceModel

    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        weights, info = SHIPPED["cross"]  # the file names only
        CrossStanceModel.save(tensors, config, out_dir / weights.name,
                              out_dir / info.name)  # fmt: skip
        (out_dir / "cross_scores.json").write_text(json.dumps(report), encoding="utf-8")
    elif write:
        weights, info = SHIPPED["cross" if base else "cross-minilm"]
        CrossStanceModel.save(tensors, config, weights, info)
        print(f"wrote {weights} and {info}")


def main() -> int:
    args = build_parser().parse_args()
    if args.export_pairs:
        export(args.data, args.export_pairs)
        return 0
    import tempfile

    import numpy as np

    from argkb.stance.cross import CrossConfig
    from argkb.stance.data import without_texts_of
    from argkb.stance.evaluate import topic_folds

    if args.pairs:
        pairs = read_pairs(args.pairs)
    else:
        from bench.train_stance import read_all

        pairs = read_all(args.data)
    # trained and scored with the encoder read from --base-folder; saved naming --base
    config = CrossConfig(base=args.base_folder or args.base, epochs=args.epochs, seed=args.seed)
    kp_train = [p for p in pairs if p.dataset == "argkp" and p.split == "train"]
    kp_dev = [p for p in pairs if p.dataset == "argkp" and p.split == "dev"]
    quality = [p for p in pairs if p.dataset == "argquality"]
    aif = [p for p in pairs if p.dataset == "aif"]
    report: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp())
    if not args.skip_folds and quality:
        probs = np.zeros(len(quality))
        for k, fold in enumerate(topic_folds(quality, 5)):
            held = set(fold)
            train = kp_train + [p for i, p in enumerate(quality) if i not in held]
            print(f"ArgQuality fold {k + 1}/5", file=sys.stderr, flush=True)
            probs[fold] = predict(fit(train, args.device, config), config,
                                  [quality[i] for i in fold], args.device, tmp)  # fmt: skip
        report["argquality"] = {"split": "leave-topics-out, 5 folds", **scores(quality, probs)}
        report["argquality"]["p_pro"] = probs.round(4).tolist()
        print("argquality", {k: v for k, v in report["argquality"].items() if k != "p_pro"})
    sigir = [p for p in pairs if p.dataset == "sigir19"]
    # never a text that is scored below: ArgQuality shares 22 premise texts with SIGIR-19 dev
    train = without_texts_of(kp_train + quality, kp_dev + aif + sigir)
    print(f"final model: ArgKP train + ArgQuality ({len(train)} pairs; "
          f"{len(kp_train) + len(quality) - len(train)} whose text is scored left out)",
          file=sys.stderr, flush=True)  # fmt: skip
    tensors = fit(train, args.device, config)
    splits = {"argkp": "dev", "aif": "all maps (never trained on)",
              "sigir19": "dev, by issue (never trained on)"}  # fmt: skip
    for name, test in (("argkp", kp_dev), ("aif", aif), ("sigir19", sigir)):
        if test:
            prob = predict(tensors, config, test, args.device, tmp)
            report[name] = {"split": splits[name], **scores(test, prob)}
            print(name, report[name])
    config.base = args.base
    config.trained_on = {
        "data": "IBM ArgKP-2021 train (24 topics), Webis-ArgQuality-20 (20 topics); "
        "never ArgKP dev, AIF or SIGIR-19, nor a premise text they hold",
        "date": datetime.date.today().isoformat(),
        "pairs": len(train),
        "device": args.device,
        "held_out": {k: rounded(r) for k, r in report.items()},
        "script": "bench/train_cross_stance.py",
    }
    save(tensors, config, report, args.out_dir, write=args.write, base=args.base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
