"""Train the argumentativeness prior that the hybrid ranker's ``argument`` route ranks by.

    python -m bench train_argument_prior --data ../shared/data [--out FILE]

A logistic regression on a premise's all-MiniLM-L6-v2 embedding and ``log(1 + words) / 5``,
fitted on every "Is Argument?" judgement of Webis-ArgQuality-20 (1,610 premises, 339 not
arguments: debate openers, acceptances, forfeits) and of the SIGIR-19 dev half (255 rows, 38
spam or not an argument), classes balanced. Embeddings are unit length, so the embedding's part
of the logit is ``|w| * (2 s - 1)`` with ``s`` Neo4j's ``vector.similarity.cosine`` of the
embedding and ``w / |w|``: the query computes it on the server and no vector travels
(``cypher/query/premise_edges.cypher``, :mod:`argkb.retrieve.argument_prior`).

``--out`` defaults to argkb/retrieve/argument_prior.json. Prints a topic-group cross-validated
AUC (folds: ArgQuality topics and SIGIR-19 issues, never a
group in both the training and the test part) before fitting on everything.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=REPO / "argkb/retrieve/argument_prior.json")
    args = parser.parse_args()

    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    from argkb.embed.model import Embedder
    from bench.ranker_study import fit_prior, labelled_arguments, prior_features

    labelled = labelled_arguments(args.data)
    vectors = np.asarray(Embedder().embed(labelled.texts), np.float32)
    words = np.asarray([len(t.split()) for t in labelled.texts], float)
    labels = labelled.labels
    groups = np.asarray(labelled.groups)
    predicted = np.zeros(len(labels))
    for train, test in GroupKFold(n_splits=5).split(vectors, labels, groups):
        model = fit_prior(vectors[train], words[train], labels[train])
        predicted[test] = model.predict_proba(prior_features(vectors[test], words[test]))[:, 1]
    benchmarks = np.asarray([g.split(":")[0] for g in labelled.groups])
    for name in ("argquality", "sigir19"):
        rows = benchmarks == name
        print(f"{name}: {rows.sum()} premises, {int((~labels[rows]).sum())} not arguments, "
              f"grouped 5-fold AUC {roc_auc_score(labels[rows], predicted[rows]):.3f}")  # fmt: skip
    print(f"all: grouped 5-fold AUC {roc_auc_score(labels, predicted):.3f}")

    model = fit_prior(vectors, words, labels)
    weights = model.coef_[0]
    direction = weights[:-1]
    norm = float(np.linalg.norm(direction))
    payload = {
        "about": "argumentativeness prior (bench/train_argument_prior.py): logit = "
        "norm * (2 * cosine01(embedding, direction) - 1) + length * log(1 + words) / 5 + bias",
        "model": "all-MiniLM-L6-v2",
        "trained_on": "Is Argument? of Webis-ArgQuality-20 (1,610) and SIGIR-19 dev (255)",
        "direction": [float(x) for x in direction / norm],
        "norm": norm,
        "length": float(weights[-1]) / 5.0,
        "bias": float(model.intercept_[0]),
    }
    args.out.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
