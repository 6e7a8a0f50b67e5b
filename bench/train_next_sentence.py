"""Train the next-sentence model that the sentence-pair pipeline's ``nsp`` pairing uses.

    python -m bench train_next_sentence --data ../shared/data [--out FILE]

No BERT next-sentence-prediction weights can be downloaded here (Wenzlitschke & Sülzle paired
sentences with bert-base-uncased's NSP head). The substitute: a logistic regression on the
all-MiniLM-L6-v2 embeddings ``u`` of a sentence and ``v`` of a candidate that may follow it, as
``[u, v, u * v, |u - v|]``, trained on the premises of Webis-ArgQuality-20 (real args.me posts,
split by argkb's splitter): positives are consecutive sentences ``(s_i, s_i+1)``; negatives are,
for each positive, the reversed pair ``(s_i+1, s_i)``, a non-adjacent sentence of the same
premise and a sentence of another premise (the pairing chooses among a premise's sentences, so
the first two are the ones that matter).

Scored on the SIGIR-19 dev premises (other posts, other topics; never trained on): the AUC over
the same kinds of pairs, and the task the pairing solves, picking a sentence's successor among
the other sentences of its premise, with cosine similarity (the paper's SBERT pairing) and
chance as baselines in the same run. ``--out`` defaults to argkb/sentences/next_sentence.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def premises(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(dict.fromkeys(row["Premise"] for row in csv.DictReader(handle)
                                  if row["Premise"].strip()))  # fmt: skip


def split(texts: list[str]) -> list[list[str]]:
    from argkb.sentences.split import split_sentences

    return [[s.text for s in split_sentences(t)] for t in texts]


def pairs(docs: list[list[str]], seed: int) -> tuple[list[tuple[str, str]], list[int]]:
    """Consecutive pairs (1) and, for each, a reversed, a non-adjacent and a foreign pair (0)."""
    rng = random.Random(seed)
    every = [s for doc in docs for s in doc]
    found: list[tuple[str, str]] = []
    labels: list[int] = []
    for doc in docs:
        for i in range(len(doc) - 1):
            found += [(doc[i], doc[i + 1]), (doc[i + 1], doc[i])]
            labels += [1, 0]
            far = [j for j in range(len(doc)) if j not in (i, i + 1)]
            if far:
                found.append((doc[i], doc[rng.choice(far)]))
                labels.append(0)
            found.append((doc[i], rng.choice(every)))
            labels.append(0)
    return found, labels


def features(vectors: dict[str, np.ndarray], found: list[tuple[str, str]]) -> np.ndarray:
    u = np.stack([vectors[a] for a, _ in found])
    v = np.stack([vectors[b] for _, b in found])
    return np.hstack([u, v, u * v, np.abs(u - v)])


def successor_accuracy(docs: list[list[str]], vectors: dict[str, np.ndarray], model: object
                       ) -> dict[str, float]:  # fmt: skip
    """For every sentence with a successor in a premise of 3+ sentences: is the successor the
    best-scored of the premise's other sentences? By the model, by cosine, by chance."""
    from argkb.sentences.next_sentence import NextSentence

    assert isinstance(model, NextSentence)
    hits = {"model": 0, "cosine": 0, "chance": 0.0}
    total = 0
    for doc in docs:
        if len(doc) < 3:
            continue
        matrix = np.stack([vectors[s] for s in doc])
        for i in range(len(doc) - 1):
            others = [j for j in range(len(doc)) if j != i]
            scores = model.probabilities(np.repeat(matrix[i : i + 1], len(others), 0),
                                         matrix[others])  # fmt: skip
            hits["model"] += others[int(np.argmax(scores))] == i + 1
            hits["cosine"] += others[int(np.argmax(matrix[others] @ matrix[i]))] == i + 1
            hits["chance"] += 1.0 / len(others)
            total += 1
    return {name: value / total for name, value in hits.items()} | {"sentences": total}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=REPO / "argkb/sentences/next_sentence.json")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    from argkb.embed.model import Embedder
    from argkb.sentences.next_sentence import NextSentence

    train = split(premises(args.data / "webis-argquality-20" / "webis-argquality20-arguments.csv"))
    test = split(premises(args.data / "webis-sigir19-dev" / "arguments.csv"))
    texts = sorted({s for doc in train + test for s in doc})
    print(f"{len(train)} training premises, {len(test)} test premises, {len(texts)} sentences",
          flush=True)  # fmt: skip
    vectors = dict(zip(texts, np.asarray(Embedder().embed(texts), np.float32), strict=True))
    train_pairs, train_labels = pairs(train, args.seed)
    test_pairs, test_labels = pairs(test, args.seed)
    classifier = LogisticRegression(C=1.0, max_iter=3000)
    classifier.fit(features(vectors, train_pairs), train_labels)
    model = NextSentence(tuple(float(w) for w in classifier.coef_[0]),
                         float(classifier.intercept_[0]))  # fmt: skip
    predicted = model.probabilities(
        np.stack([vectors[a] for a, _ in test_pairs]), np.stack([vectors[b] for _, b in test_pairs])
    )
    print(f"train: {len(train_pairs)} pairs ({sum(train_labels)} consecutive); "
          f"test (SIGIR-19 dev): {len(test_pairs)} pairs, AUC "
          f"{roc_auc_score(test_labels, predicted):.3f}")  # fmt: skip
    picked = successor_accuracy(test, vectors, model)
    print(f"picking the successor among a premise's other sentences ({picked['sentences']:.0f} "
          f"sentences of SIGIR-19 dev premises of 3+ sentences): model {picked['model']:.3f}, "
          f"cosine {picked['cosine']:.3f}, chance {picked['chance']:.3f}")  # fmt: skip
    payload = {
        "about": "next-sentence model (bench/train_next_sentence.py): P(b follows a) = "
        "sigmoid(weights . [a, b, a*b, |a-b|] + bias) over all-MiniLM-L6-v2 embeddings",
        "model": "all-MiniLM-L6-v2",
        "trained_on": f"consecutive sentences of {len(train)} Webis-ArgQuality-20 premises",
        "weights": list(model.weights),
        "bias": model.bias,
    }
    args.out.write_text(json.dumps(payload) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
