"""Train the matching model (:mod:`argkb.keypoints.model`) on ArgKP-2021 **train** only.

``python -m argkb.keypoints.train --data DIR [--out FILE] [--folds 4]``

``python -m argkb.keypoints.train --data DIR --cross [--pairs N] [--epochs E] [--seed S]
[--device cuda] [--out-dir DIR] [--base NAME [--base-folder DIR]]`` trains the cross-encoder
matcher instead (``cross_match.safetensors``/``.json``, in the package or in ``--out-dir``):
LoRA adapters on all-MiniLM-L6-v2 (or on ``--base``, e.g. ``all-mpnet-base-v2`` as
:mod:`argkb.stance.mpnet` installs it, read from ``--base-folder`` on a machine where it lies
elsewhere) with :func:`argkb.stance.cross.train`, key point as the first text and argument as
the second, ``--epochs`` (1) over ``--pairs`` labelled train pairs drawn at random (seed 0; 0
takes them all), at most 96 tokens, no negation augmentation. On this two-core CPU one epoch
over 12,000 pairs took 36 minutes; on a GPU, pass ``--device cuda``.

The train split's topics are cut into ``--folds`` topic-disjoint folds; each candidate
configuration is trained on the other folds and scored with Track 1 mAP (strict) on the held-out
one (the labels of train, never dev). The best configuration is refit on all of train and saved.
Pairs without a label (undecided) are left out of training.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from argkb.keypoints.evaluate import load_split, split_ids, track1
from argkb.keypoints.match import Task, embed_texts
from argkb.keypoints.model import MODEL_FILE, MatchModel, pair_features

CONFIGS: tuple[dict[str, Any], ...] = (
    {"kind": "logistic", "C": 1.0},
    {"kind": "mlp", "hidden": (32,), "alpha": 1e-2},
    {"kind": "mlp", "hidden": (64, 16), "alpha": 1e-2},
)


def fit(config: dict[str, Any], features: Any, labels: Any, seed: int = 0) -> MatchModel:
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier

    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale == 0] = 1
    x = (features - mean) / scale
    if config["kind"] == "logistic":
        clf = LogisticRegression(C=config["C"], max_iter=2000)
        clf.fit(x, labels)
        weights = [clf.coef_.T.astype(np.float32)]
        biases = [clf.intercept_.astype(np.float32)]
    else:
        clf = MLPClassifier(
            hidden_layer_sizes=config["hidden"],
            alpha=config["alpha"],
            early_stopping=True,
            validation_fraction=0.1,
            max_iter=300,
            random_state=seed,
        )
        clf.fit(x, labels)
        weights = [w.astype(np.float32) for w in clf.coefs_]
        biases = [b.astype(np.float32) for b in clf.intercepts_]
    return MatchModel(mean.astype(np.float32), scale.astype(np.float32), weights, biases)


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", default=str(MODEL_FILE))
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--cross", action="store_true", help="train the cross-encoder matcher")
    parser.add_argument("--pairs", type=int, default=12000, help="0: every labelled pair")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="the cross-encoder's training seed")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out-dir", help="write the cross-encoder here, not into the package")
    parser.add_argument("--base", default="", help="the cross-encoder's encoder (default: MiniLM)")
    parser.add_argument("--base-folder", help="read --base's encoder from this folder")
    args = parser.parse_args(argv)
    if args.pairs < 0 or args.epochs < 1:
        parser.error("--pairs must be 0 (all) or more, --epochs 1 or more")
    if args.base_folder and not args.base:
        parser.error("--base-folder needs --base, the encoder's name the model is saved under")
    if args.cross:
        return train_cross(args)

    from argkb.embed.model import Embedder

    split = load_split(args.data, "train")
    task = Task.from_split(split)
    arguments, key_points, labels = split_ids(split)
    started = time.time()
    vectors = embed_texts(task, Embedder())
    print(f"embedded {len(vectors)} texts in {time.time() - started:.0f}s", file=sys.stderr)
    keys, features = pair_features(task, vectors)
    topic_of = {arg_id: g.topic for g in task.groups for arg_id, _ in g.arguments}
    labelled = np.array([k in labels for k in keys])
    y = np.array([labels.get(k, 0) for k in keys])
    topics = sorted({g.topic for g in task.groups})
    fold_of = {t: i % args.folds for i, t in enumerate(topics)}
    pair_fold = np.array([fold_of[topic_of[a]] for a, _ in keys])

    best: tuple[float, dict[str, Any]] | None = None
    for config in CONFIGS:
        maps = []
        for fold in range(args.folds):
            train = labelled & (pair_fold != fold)
            model = fit(config, features[train], y[train])
            scores: dict[str, dict[str, float]] = {}
            held = np.flatnonzero(pair_fold == fold)
            for i, p in zip(held, model.predict(features[held]), strict=True):
                scores.setdefault(keys[i][0], {})[keys[i][1]] = float(p)
            held_args = {key: ids for key, ids in arguments.items() if fold_of[key[0]] == fold}
            maps.append(track1(held_args, key_points, labels, scores))
        strict = sum(m.map_strict for m in maps) / len(maps)
        relaxed = sum(m.map_relaxed for m in maps) / len(maps)
        print(f"{config}: topic-held-out mAP strict {strict:.3f} relaxed {relaxed:.3f}")
        if best is None or strict > best[0]:
            best = (strict, config)
    assert best is not None
    print(f"refit on all of train: {best[1]}")
    model = fit(best[1], features[labelled], y[labelled])
    model.save(args.out)
    print(f"saved {args.out}")
    return 0


def train_cross(args: argparse.Namespace) -> int:
    import random
    from pathlib import Path

    from argkb.keypoints.match import CROSS_INFO, CROSS_WEIGHTS
    from argkb.stance.cross import CrossConfig, CrossStanceModel, train

    split = load_split(args.data, "train")
    texts = {a.arg_id: a.text for items in split.arguments.values() for a in items}
    kps = {k.kp_id: k.text for items in split.key_points.values() for k in items}
    rows = [(kps[m.kp_id], texts[m.arg_id], bool(m.label)) for m in split.matches]
    random.Random(0).shuffle(rows)
    rows = rows[: args.pairs or None]
    config = CrossConfig(
        base=args.base_folder or args.base,  # trained on the folder's encoder, saved naming --base
        epochs=args.epochs,
        max_length=96,
        negation_augment=False,
        seed=args.seed,
        trained_on={"data": "ArgKP-2021 train", "pairs": len(rows), "device": args.device},
    )
    started = time.time()
    tensors = train([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], config,
                    device=args.device)  # fmt: skip
    print(f"trained on {len(rows)} pairs in {time.time() - started:.0f}s", file=sys.stderr)
    config.base = args.base
    weights, info = CROSS_WEIGHTS, CROSS_INFO
    if args.out_dir:
        Path(args.out_dir).mkdir(parents=True, exist_ok=True)
        weights, info = Path(args.out_dir) / weights.name, Path(args.out_dir) / info.name
    CrossStanceModel.save(tensors, config, weights, info)
    print(f"saved {weights}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
