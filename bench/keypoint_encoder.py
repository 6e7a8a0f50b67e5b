"""A key point encoder: arguments embedded near the key points they match, measured for selection.

    python -m bench keypoint_encoder --data ../shared/data/argkp-2021 --out DIR --device cuda
    python -m bench keypoint_encoder --data ../shared/data/argkp-2021 --out DIR --score

Issue 32's generated key points miss the coverage goal mostly because two picks restate one
gold key point, which all-MiniLM-L6-v2's cosines do not separate (docs/results/keypoints.md).
This trains the sentence encoder itself for that separation: all-MiniLM-L6-v2 with rank-8
adapters (the stance cross-encoder's :func:`argkb.stance.cross._attach`), mean pooling and
unit length as the shipped embedder, and a multiple-negatives ranking loss (scale 20) over
(argument, key point it matches) pairs of ArgKP *train*, no key point twice in a batch, so that
the other key points of a batch are its negatives.

Training writes, into ``--out``, the vectors of every text the selection and the matching read
(topic, arguments, key points, candidate sentences) for four encoders:

* ``base``: the encoder untrained (this module's pooling; the baseline of the same run);
* ``fold0`` / ``fold1``: trained on half of the train topics (every other one, sorted), each
  embedding the *other* half, so that train is scored on topics its encoder never saw;
* ``full``: trained on all train topics, embedding dev.

``--score``: gold key point coverage at k = gold (by label, as ``argkb eval kpa --coverage``)
with :mod:`bench.keypoint_selection`'s variants on each encoder's vectors, and Track 1 mAP of
the cosine between an argument and a key point, on train (fold encoders) and dev (``full``).
docs/results/keypoints.md has the run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

SCALE = 20.0
MAX_LENGTH = 128


def splits(data: str) -> dict[str, Any]:
    from argkb.keypoints.evaluate import load_split

    return {name: load_split(data, name) for name in ("train", "dev")}


def topic_folds(train: Any) -> list[list[str]]:
    topics = sorted(train.topics)
    return [topics[0::2], topics[1::2]]


def pairs_of(split: Any, topics: Sequence[str]) -> list[tuple[str, str, str]]:
    """(argument, key point, key point id) of every labelled match of ``topics``."""
    args = {a.arg_id: a.text for items in split.arguments.values() for a in items}
    kps = {k.kp_id: (k.text, k.topic) for items in split.key_points.values() for k in items}
    wanted = set(topics)
    return [(args[m.arg_id], kps[m.kp_id][0], m.kp_id) for m in split.matches
            if m.label == 1 and kps[m.kp_id][1] in wanted]  # fmt: skip


def batches(pairs: list[tuple[str, str, str]], size: int, rng: random.Random) -> list[list[Any]]:
    """Shuffled batches in which no key point appears twice (its other arguments would be
    counted as negatives)."""
    rng.shuffle(pairs)
    out: list[list[Any]] = []
    open_: list[tuple[list[Any], set[str]]] = []
    for pair in pairs:
        for batch, kps in open_:
            if pair[2] not in kps:
                batch.append(pair)
                kps.add(pair[2])
                break
        else:
            open_.append(([pair], {pair[2]}))
        full = [i for i, (batch, _) in enumerate(open_) if len(batch) == size]
        for i in reversed(full):
            out.append(open_.pop(i)[0])
    out.extend(batch for batch, _ in open_ if len(batch) > 1)
    return out


def embed(encoder: Any, tokenizer: Any, texts: Sequence[str], device: str) -> Any:
    """Mean-pooled, unit-length vectors (a torch tensor; gradients where the encoder has them)."""
    import torch

    batch = tokenizer(list(texts), truncation=True, max_length=MAX_LENGTH, padding=True,
                      return_tensors="pt").to(device)  # fmt: skip
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=device.startswith("cuda")):
        hidden = encoder(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(pooled.float(), dim=-1)


def train_encoder(pairs: list[tuple[str, str, str]], device: str, epochs: int = 3,
                  seed: int = 0) -> tuple[Any, Any]:  # fmt: skip
    """The base encoder with adapters fitted on ``pairs`` (module docstring)."""
    import torch

    from argkb.stance.cross import CrossConfig, _attach, _base, warm_then_decay

    torch.manual_seed(seed)
    rng = random.Random(seed)
    encoder, tokenizer = _base(device)
    for weight in encoder.parameters():
        weight.requires_grad = False
    adapters = _attach(encoder, CrossConfig(), device)
    trainable = [w for a in adapters for w in (a.a, a.b)]
    optimiser = torch.optim.AdamW(trainable, lr=5e-4, weight_decay=0.01)
    schedule = warm_then_decay(optimiser, epochs * math.ceil(len(pairs) / 64))
    encoder.train()
    for _ in range(epochs):
        for batch in batches(list(pairs), 64, rng):
            args = embed(encoder, tokenizer, [a for a, _, _ in batch], device)
            kps = embed(encoder, tokenizer, [k for _, k, _ in batch], device)
            target = torch.arange(len(batch), device=device)
            loss = torch.nn.functional.cross_entropy(SCALE * args @ kps.T, target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    encoder.eval()
    return encoder, tokenizer


def texts_of(split: Any, topics: Sequence[str] | None = None) -> list[str]:
    """Every text the selection and the matching read for the groups of ``topics``."""
    from argkb.keypoints import generate
    from argkb.keypoints.match import Task

    out: list[str] = []
    for group in Task.from_split(split).groups:
        if topics is not None and group.topic not in topics:
            continue
        out += [group.topic, *(t for _, t in group.arguments), *(t for _, t in group.key_points)]
        out += [t for t, _ in generate.candidates(group.arguments)]
    return list(dict.fromkeys(out))


def write_vectors(out: Path, name: str, encoder: Any, tokenizer: Any, texts: list[str],
                  device: str) -> None:  # fmt: skip
    import torch

    with torch.inference_mode():
        chunks = [embed(encoder, tokenizer, texts[i : i + 256], device).cpu().numpy()
                  for i in range(0, len(texts), 256)]  # fmt: skip
    np.savez_compressed(out / f"vectors-{name}.npz", vectors=np.vstack(chunks).astype(np.float16))
    (out / f"texts-{name}.json").write_text(json.dumps(texts))
    print(f"{name}: {len(texts)} texts", flush=True)


def train_all(data: str, out: Path, device: str) -> None:
    from argkb.stance.cross import _base

    out.mkdir(parents=True, exist_ok=True)
    loaded = splits(data)
    train, dev = loaded["train"], loaded["dev"]
    folds = topic_folds(train)
    encoder, tokenizer = _base(device)
    encoder.eval()
    write_vectors(out, "base", encoder, tokenizer, texts_of(train) + texts_of(dev), device)
    for index, held in enumerate(folds):
        fitted = [t for t in train.topics if t not in held]
        pairs = pairs_of(train, fitted)
        print(f"fold{index}: {len(pairs)} pairs from {len(fitted)} topics", flush=True)
        encoder, tokenizer = train_encoder(pairs, device)
        write_vectors(out, f"fold{index}", encoder, tokenizer, texts_of(train, held), device)
    encoder, tokenizer = train_encoder(pairs_of(train, train.topics), device)
    write_vectors(out, "full", encoder, tokenizer, texts_of(dev), device)


def vectors(out: Path, name: str) -> dict[str, Any]:
    texts = json.loads((out / f"texts-{name}.json").read_text())
    found = np.load(out / f"vectors-{name}.npz")["vectors"].astype(np.float32)
    return dict(zip(texts, found, strict=True))


def score(data: str, out: Path) -> None:
    base = vectors(out, "base")
    trained = {**vectors(out, "fold0"), **vectors(out, "fold1")}
    encoders = {"train": {"base": base, "trained (other fold)": trained},
                "dev": {"base": base, "trained (all train)": vectors(out, "full")}}  # fmt: skip
    score_vectors(data, encoders)


def score_vectors(data: str, encoders: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Print Track 1 mAP of the cosine and the selection variants' coverage at k = gold, for
    each split (``train``, ``dev``) and each encoder's vectors (text -> unit vector)."""
    from argkb.keypoints.evaluate import split_ids, track1
    from argkb.keypoints.match import Task, cosine_scores
    from bench.keypoint_selection import Prepared, coverage, variants

    loaded = splits(data)
    rows: dict[str, dict[str, str]] = {}
    for split_name, by_encoder in encoders.items():
        split = loaded[split_name]
        task = Task.from_split(split)
        groups = [g for g in task.groups if g.key_points]
        arguments, key_points, labels = split_ids(split)
        for encoder, found in by_encoder.items():
            column = f"{split_name}, {encoder}"
            result = track1(arguments, key_points, labels, cosine_scores(task, found))
            rows.setdefault("Track 1 mAP strict / relaxed of the cosine", {})[column] = (
                f"{result.map_strict:.3f} / {result.map_relaxed:.3f}"
            )
            prepared = [Prepared(g, found) for g in groups]
            for name, pick in variants().items():
                if name.startswith(("facility", "max coverage, cosine", "cluster")):
                    value = coverage(prepared, labels, pick)
                    rows.setdefault(f"coverage: {name}", {})[column] = f"{value:.3f}"
            print(f"scored {column}", flush=True)
    columns = list(next(iter(rows.values())))
    print("| measure | " + " | ".join(columns) + " |\n|---|" + "---:|" * len(columns))
    for name, cells in rows.items():
        print(f"| {name} | " + " | ".join(cells.get(c, "-") for c in columns) + " |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="the ArgKP-2021 folder")
    parser.add_argument("--out", type=Path, required=True, help="the vectors' folder")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--score", action="store_true", help="score the written vectors")
    args = parser.parse_args(argv)
    if args.score:
        score(args.data, args.out)
    else:
        train_all(args.data, args.out, args.device)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
