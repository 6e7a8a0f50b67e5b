"""Fit the coreset ranker's relevance filter on ArgKP train (never dev) and choose its alpha.

    python -m bench train_relevance --data ../shared/data/argkp-2021 [--uri bolt://...] [--write]

Loads ArgKP train into a throw-away managed instance (or uses --uri, which must hold train
loaded, embedded and clustered), asks the query engine for each of the 48 train queries' coreset
candidate pools, and labels each candidate premise relevant when the ArgKP qrels say it matches a
key point of the query (topic and stance). Then:

1. leave-one-topic-out over the 24 train topics: for each topic a model fitted on the other 23
   scores that topic's candidates; reported as the mean ranking AUC and as Task B alpha-nDCG@10
   of the coreset ranker for each alpha (so alpha is chosen on held-out topics, too);
2. with --write, the model fitted on all train topics goes to
   ``argkb/retrieve/relevance_model.json``, with the chosen alpha and these numbers.

The feature definitions are in :mod:`argkb.retrieve.relevance`.
"""

from __future__ import annotations

import datetime
import sys
from typing import Any

ALPHAS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
L2 = 1.0


def auc(scores: Any, labels: Any) -> float:
    """Probability that a random positive outranks a random negative (ties count half)."""
    import numpy as np
    from scipy.stats import rankdata

    y = np.asarray(labels, dtype=bool)
    positives, negatives = int(y.sum()), int((~y).sum())
    if positives == 0 or negatives == 0:
        return float("nan")
    ranks = rankdata(scores)
    return float((ranks[y].sum() - positives * (positives + 1) / 2) / (positives * negatives))


Pools = dict[str, list[tuple[Any, Any]]]  # topic -> [(features, labels)], one per candidate pool


def candidate_pools(engine: Any, benchmark: Any, settings: Any) -> Pools:
    """Each train query's coreset candidate pools: premise features, and labels from the qrels."""
    import numpy as np

    from argkb.retrieve.relevance import premise_features

    topic_of = {q.qid: q.qid.split("-")[0] for q in benchmark.queries}
    rows: Pools = {}
    for query in benchmark.queries:
        grades = benchmark.qrels.get(query.qid, {})
        own = benchmark.doc_ids.get(query.qid, {})
        for pool in engine.coreset_pools(query.text, query.stance or "both").values():
            x = premise_features(
                pool.cosine, pool.claim_mass, pool.similarity, pool.pfidf, pool.words,
                same_within=1.0 - settings.premise_cut,
            )  # fmt: skip
            docs = [own.get(k) or benchmark.fallback_doc_ids.get(k) or k for k in pool.keys]
            y = np.asarray([grades.get(d, 0.0) > 0 for d in docs], dtype=float)
            rows.setdefault(topic_of[query.qid], []).append((x, y))
    return rows


def fit(rows: Pools, on: list[str]) -> Any:
    """The relevance model fitted on the pools of the topics ``on``."""
    import numpy as np

    from argkb.retrieve.relevance import RelevanceModel, fit_logistic

    x = np.vstack([x for t in on for x, _ in rows[t]])
    y = np.concatenate([y for t in on for _, y in rows[t]])
    w, b = fit_logistic(x, y, l2=L2)
    return RelevanceModel([float(v) for v in w], b)


def held_out_aucs(rows: Pools, held_out: dict[str, Any]) -> dict[str, list[float]]:
    """Per candidate pool, the AUC of the model that did not see its topic and of each feature
    alone; printed as a table of means."""
    import numpy as np

    from argkb.retrieve.relevance import FEATURES

    aucs: dict[str, list[float]] = {name: [] for name in ("learned", *FEATURES)}
    for t in sorted(rows):
        for x, y in rows[t]:
            aucs["learned"].append(auc(held_out[t].score(x), y))
            for i, name in enumerate(FEATURES):
                aucs[name].append(auc(x[:, i], y))
    print("| scorer | mean AUC per candidate pool (held-out topics) |\n|---|---:|")
    for name, values in aucs.items():
        print(f"| {name} | {np.nanmean(values):.3f} |")
    return aucs


def alpha_table(
    driver: Any, embedder: Any, benchmark: Any, held_out: dict[str, Any]
) -> dict[float, float]:
    """The coreset ranker per alpha, with the held-out learned filter and with cosine; printed,
    and the learned filter's TaskB@10 per alpha returned."""
    from argkb.eval.adapters import EngineRanker
    from argkb.eval.harness import Query, Ranking, evaluate
    from argkb.query import QueryEngine, QuerySettings

    topic_of = {q.qid: q.qid.split("-")[0] for q in benchmark.queries}

    class HeldOut(EngineRanker):
        def rank(self, query: Query, k: int) -> Ranking:
            self.engine.rankers["coreset"]._model = held_out[topic_of[query.qid]]
            return super().rank(query, k)

    print("\n| alpha | relevance | TaskB@10 | nDCG@10 | P@10 |\n|---:|---|---:|---:|---:|")
    task_b: dict[float, float] = {}
    for alpha in ALPHAS:
        for relevance in ("learned", "cosine"):
            tuned = QueryEngine(
                driver, embedder,
                settings=QuerySettings(coreset_alpha=alpha, coreset_relevance=relevance,
                                  alignment="always"),
            )  # fmt: skip
            ranker_type = HeldOut if relevance == "learned" else EngineRanker
            result = evaluate(benchmark, {"c": [ranker_type(tuned, "coreset")]})[0]
            m = result.scores.mean
            if relevance == "learned":
                task_b[alpha] = m["task_b@10"]
            print(
                f"| {alpha} | {relevance} | {m['task_b@10']:.4f} | {m['ndcg@10']:.4f} | "
                f"{m['p@10']:.4f} |",
                flush=True,
            )
    return task_b


def main() -> int:
    from bench.common import data_parser

    parser = data_parser(__doc__)
    parser.add_argument("--write", action="store_true", help="save the model fitted on all train")
    args = parser.parse_args()

    import numpy as np

    from argkb.embed.model import Embedder
    from argkb.eval.argkp import build_benchmark
    from argkb.loaders.argkp import load_split
    from argkb.query import QueryEngine, QuerySettings
    from argkb.retrieve.relevance import FEATURES, MODEL_FILE
    from bench.common import database, prepare_argkp

    split = load_split(args.data, "train")
    benchmark = build_benchmark(split)
    embedder = Embedder()
    with database(args.uri, "relevance") as driver:
        if args.uri is None:
            prepare_argkp(driver, args.data, "train", embedder)
        # every claim aligned: the engine's default when the shipped filter was fitted
        settings = QuerySettings(alignment="always")
        engine = QueryEngine(driver, embedder, settings=settings)
        rows = candidate_pools(engine, benchmark, settings)
        topics = sorted(rows)
        n_examples = sum(len(y) for pairs in rows.values() for _, y in pairs)
        n_positive = int(sum(y.sum() for pairs in rows.values() for _, y in pairs))
        print(
            f"## ArgKP train: {len(benchmark.queries)} queries, {len(topics)} topics, "
            f"{n_examples:,} candidate premises ({n_positive:,} relevant)\n"
        )

        # -- 1. leave one topic out ---------------------------------------------------
        held_out = {t: fit(rows, [o for o in topics if o != t]) for t in topics}
        aucs = held_out_aucs(rows, held_out)
        task_b = alpha_table(driver, embedder, benchmark, held_out)
        best_alpha = max(ALPHAS, key=lambda a: (task_b[a], -abs(a - 0.7)))
        print(f"\nbest alpha on held-out topics: {best_alpha} (TaskB@10 {task_b[best_alpha]:.4f})")

        # -- 2. the shipped model -----------------------------------------------------
        final = fit(rows, topics)
        final.trained_on = {
            "data": "IBM ArgKP-2021 train (arg_kp_train.csv, key_points_train.csv, labels)",
            "date": datetime.date.today().isoformat(),
            "queries": len(benchmark.queries),
            "topics": len(topics),
            "candidates": n_examples,
            "relevant": n_positive,
            "l2": L2,
            "alpha": best_alpha,
            "held_out_auc": round(float(np.nanmean(aucs["learned"])), 4),
            "held_out_task_b@10": {str(a): round(v, 4) for a, v in task_b.items()},
            "script": "bench/train_relevance.py",
        }
        print("\nweights: " + ", ".join(
            f"{n} {w:+.3f}" for n, w in zip(FEATURES, final.weights, strict=True)
        ) + f"; bias {final.bias:+.3f}")  # fmt: skip
        if args.write:
            final.save(MODEL_FILE)
            print(f"wrote {MODEL_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
