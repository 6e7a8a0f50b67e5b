"""Additions to the linear fusion that were measured and not adopted: MMR, prevalence, sentences,
pseudo-relevance feedback, pairwise learning to rank, debate meta-talk, the best sentence's
cosine, claim-premise products, a judged-quality prior.

    python -m bench linear_extras --study /tmp/study --data ../shared/data \\
        [--only mmr|size|sentence|prf|ltr|meta|maxsent|product|quality|gated|norm|coverage] \\
        [--top 5]

On the pools recorded for ``bench/linear_study.py`` (same ``--study`` folder):

* ``mmr``: maximal marginal relevance over the cluster representatives of each side's linear
  list (the fine grid's best weights, the default of commit 660096e), trade-offs 1 (plain
  relevance), .9, .8, .7 and .5, with ``bench/ranker_study.py``'s MMR over the recorded
  embeddings;
* ``size``: a prevalence feature, log(1 + the premise cluster's candidates on that side) over
  the side's largest, on top of the shipped weights (with fold priors, as ``linear_study
  --grid prior``): its weight at 0 to 1, and which weight each benchmark gets when it is left
  out (the others' best mean over a small grid);
* ``sentence``: the candidate's best sentence by BM25 for the query
  (:func:`bench.text_features.best_sentence`; the focus that the sentence-pair pipeline gets
  from ranking sentences), over the query's best,
  with BM25 at 0 or .25 and the prior at .25 to 1 around the shipped weights: its weight at 0 to
  2, and each benchmark's leave-one-out choice.
* ``prf``: pseudo-relevance feedback over the embeddings (:func:`centroid_cosine`): the cosine
  to the centroid of the query's ``--top`` candidates by the shipped fusion, at 0 to 1.5 with
  cosine at .5 or 1, and each benchmark's leave-one-out choice.
* ``ltr``: the fusion's weights learnt instead of searched: a logistic regression on feature
  differences of candidate pairs of one query with different grades (RankNet's linear case, no
  intercept, at most 4,000 pairs per query, each query and each benchmark weighing the same),
  fitted leaving each benchmark out (ArgQuality long and short as one), with fold priors.
* ``meta``: the share of a candidate's sentences that talk about the debate rather than the
  issue (:data:`bench.text_features.META_TALK`: rounds, acceptance, thanks, votes, the
  opponent, rebuttals), at weight 0 to -1.5 with BM25 at 0 or .25 and the prior at .25 to 1,
  and each benchmark's leave-one-out choice.
* ``maxsent``: the cosine of the candidate's best sentence
  (:func:`bench.text_features.best_sentence_cosine`) beside the mean-of-sentences cosine, at 0 to
  2 with BM25 at 0 or .25 and cosine at .5 or 1;
* ``product``: ``claim`` times ``cosine``, ``bm25`` or ``argument`` (the claim route's credit
  only where the premise matches too, or is argumentative), each at 0 to 3 with BM25 at 0 to .5
  and claim 1 or 1.5;
* ``gated``: diversity only where the query is a claim of the graph (ECIR 2021's setting: the
  claim is given, its premises are to be covered): MMR (= the biased coreset's Algorithm 1)
  over the shipped fusion's cluster representatives at trade-off 1 - (1 - lam) * g, with the
  gate g the share of the side's ten best representatives whose best conclusion has a cosine of
  at least tau with the query (tau None: g = 1, plain MMR), each side's scores kept for the
  merge of the two sides; also on ArgKP train (``argkp-train.pkl`` in ``--study``, the kept
  ArgKP test's stand-in) where it was recorded;
* ``norm``: the cosine feature min-max scaled over each side's candidates (as BM25 is scaled by
  the query's best), at cosine weight .5 / 1 / 1.5 with the rest shipped, beside the plain
  cosine; also on ArgKP train where it was recorded;
* ``coverage``: the share of the query's distinct content terms that occur in the candidate
  (:func:`bench.text_features.term_coverage`), at 0 to 1.5 with BM25 at .25 or .5 and cosine
  at 1 or 1.5, the rest as shipped now (:func:`current_weights`; the other runs read
  :data:`SHIPPED`, the weights shipped until session 34), and each benchmark's leave-one-out
  choice;
* ``quality``: a prior of judged quality (:func:`quality_prior`, the argument prior's folds) at
  0 to 2 with BM25 at 0 or .25 and the argument prior at 0 to .5.

docs/results/answer-quality.md reports both ("What this shows").
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from bench.linear_study import Replay, read_pools, with_fold_priors
from bench.ranker_study import build, spec
from bench.text_features import (
    best_sentence,
    best_sentence_cosine,
    meta_talk,
    recording,
    term_coverage,
)

NAMES = ("argkp-dev", "aq-long", "aq-short", "microtexts", "sigir19-dev")
FINE_BEST = {"cosine": 1.0, "claim": 1.5, "support": 0.1, "length": 0.75}
SHIPPED = {"bm25": 0.25, "cosine": 1.0, "claim": 1.5, "support": 0.1, "length": 0.75,
           "argument": 0.25}  # fmt: skip
"""The weights shipped until 2026-12-03 (session 34), which every run but ``coverage`` reads."""


def current_weights() -> dict[str, float]:
    """The linear weights ``argkb query`` ships now (:data:`argkb.query.settings.DEFAULT`)."""
    from argkb.query.settings import DEFAULT

    return {f: float(getattr(DEFAULT, f"linear_{f}")) for f in LTR_FEATURES}


def with_size(features: dict[str, Any], labels: Any) -> dict[str, Any]:
    """``features`` plus ``size``: log(1 + candidates of the premise's cluster) over the side's
    largest."""
    _, inverse, counts = np.unique(labels, return_inverse=True, return_counts=True)
    size = np.log1p(counts[inverse])
    return {**features, "size": size / size.max() if size.max() > 0 else size}


def score(name: str, data: Path, ranker: Replay) -> float:
    from argkb.eval.harness import evaluate

    result = evaluate(build(name, data), {"v": [ranker]}, depth=100)[0]
    return float(result.scores.mean.get(spec(name)[0], 0.0))


@contextmanager
def features_changed(change: Callable[[dict[str, Any], Any], dict[str, Any]]) -> Iterator[None]:
    """Inside the block the linear fusion reads ``change(features, pool)`` in place of each
    pool's features (:func:`argkb.query.rankers.hybrid_fusion.premise_features`)."""
    import argkb.query.rankers.hybrid_fusion as hybrid

    plain = hybrid.premise_features
    hybrid.premise_features = lambda pool: change(plain(pool), pool)
    try:
        yield
    finally:
        hybrid.premise_features = plain


def leave_one_out(
    table: dict[str, dict[Any, float]], names: Sequence[str], grid: Sequence[Any]
) -> Iterator[tuple[str, Any]]:
    """Each of ``names`` with the grid point the others choose (the best mean over the other
    benchmark groups; ArgQuality long and short are one group)."""
    for n in names:
        train = [m for m in names if spec(m)[1] != spec(n)[1]]
        yield n, max(grid, key=lambda g: _group_mean(table, train, g))


def recorded_vectors(study: Path, name: str) -> dict[str, dict[str, Any]]:
    """qid -> side -> the recorded embeddings of the side's candidates (``name``'s recording)."""
    return {q: {s: np.asarray(r["sides"][s]["embeddings"], np.float32) for s in r["sides"]}
            for q, r in recording(study, name).items()}  # fmt: skip


def recorded_with_stand_ins(study: Path, data: Path) -> dict[str, dict[str, Any]]:
    """The recorded pools (with fold priors) of the stand-ins (ArgKP train) and the benchmarks
    recorded in ``study``, by name."""
    from bench.ranker_study import STAND_INS

    names = [n for n in (*STAND_INS, *NAMES) if (study / f"{n}.pkl").exists()]
    pools = {n: read_pools(study / f"{n}.pkl") for n in names}
    with_fold_priors(pools, study, data)
    return pools


def run_mmr(study: Path, data: Path) -> None:
    print("| benchmark | MMR 1 (none) | .9 | .8 | .7 | .5 |\n|---|---:|---:|---:|---:|---:|")
    for name in NAMES:
        pools = read_pools(study / f"{name}.pkl")
        vectors = recorded_vectors(study, name)
        row = [score(name, data, Replay(pools, FINE_BEST, mmr=lam, vectors=vectors))
               for lam in (1.0, 0.9, 0.8, 0.7, 0.5)]  # fmt: skip
        print(f"| {name} | " + " | ".join(f"{v:.4f}" for v in row) + " |", flush=True)


class GatedReplay(Replay):
    """:class:`Replay` with the ``gated`` diversity of the module docstring."""

    def __init__(
        self, pools: dict[str, Any], weights: dict[str, float],
        vectors: dict[str, dict[str, Any]], lam: float, tau: float | None,
    ) -> None:  # fmt: skip
        super().__init__(pools, weights)
        self.embeddings, self.lam, self.tau = vectors, lam, tau
        self.gates: list[float] = []

    def rank(self, query: Any, k: int) -> Any:
        from argkb.query.rankers.hybrid_fusion import fuse_pool
        from argkb.ranking import Ranking
        from bench.ranker_study import _mmr

        entries = []
        for side, (pool, keys) in self.pools.get(query.qid, {}).items():
            listed = [(e.score, e.members) for e in fuse_pool(pool, self.fusion, 3 * k, "longest")]
            if listed and self.lam < 1:
                heads = [members[0] for _, members in listed[:10]]
                near = pool.claim_cos if pool.claim_cos is not None else np.zeros(len(keys))
                gate = 1.0 if self.tau is None else float(np.mean(near[heads] >= self.tau))
                self.gates.append(gate)
                if gate > 0:
                    lam = 1 - (1 - self.lam) * gate
                    order = _mmr(listed, self.embeddings[query.qid][side], lam, k)
                    scores = sorted((s for s, _ in listed), reverse=True)
                    listed = [(scores[i], m) for i, (_, m) in enumerate(order)]
            entries += [(score, [keys[i] for i in m]) for score, m in listed[:k]]
        entries.sort(key=lambda e: -e[0])
        return Ranking([m for _, m in entries[:k]], [s for s, _ in entries[:k]])


def run_gated(study: Path, data: Path) -> None:
    from argkb.eval.harness import evaluate

    pools = recorded_with_stand_ins(study, data)
    names = list(pools)
    benchmarks = {n: build(n, data) for n in names}
    vectors = {n: recorded_vectors(study, n) for n in names}
    print("| lam | tau | " + " | ".join(names) + " |\n|---|---|" + "---:|" * len(names))
    for lam, tau in [(1.0, None), *itertools.product((0.9, 0.8, 0.7, 0.6, 0.5), (None, 0.8, 0.9))]:
        cells = []
        for n in names:
            ranker = GatedReplay(pools[n], SHIPPED, vectors[n], lam, tau)
            mean = evaluate(benchmarks[n], {"v": [ranker]}, depth=100)[0].scores.mean
            gate = float(np.mean(ranker.gates)) if ranker.gates else 0.0
            cells.append(f"{mean.get(spec(n)[0], 0.0):.4f} (g {gate:.2f})")
        print(f"| {lam:g} | {tau} | " + " | ".join(cells) + " |", flush=True)


def run_size(study: Path, data: Path) -> None:
    grid = list(itertools.product((1.0, 1.5, 2.0), (0.1, 0.25), (0.5, 0.75), (0.25, 0.5),
                                  (0.0, 0.1, 0.25, 0.5, 1.0)))  # fmt: skip
    names = ("claim", "support", "length", "argument", "size")
    _extra_feature(study, data, "size", lambda pools: lambda f, pool: with_size(f, pool.labels),
                   names, grid, (1.5, 0.1, 0.75, 0.25))  # fmt: skip


def run_size_now(study: Path, data: Path) -> None:
    """``size`` on the weights shipped now, ArgKP train (the kept test's stand-in) beside the
    five: the feature's weight alone, the rest as shipped."""
    pools = recorded_with_stand_ins(study, data)
    base = current_weights()
    print("| size weight (shipped now) | " + " | ".join(pools) + " |\n|---|" + "---:|" * len(pools))
    with features_changed(lambda features, pool: with_size(features, pool.labels)):
        for weight in (0.0, 0.1, 0.25, 0.5, 1.0):
            cells = [f"{score(n, data, Replay(by_query, {**base, 'size': weight})):.4f}"
                     for n, by_query in pools.items()]  # fmt: skip
            print(f"| {weight:g} | " + " | ".join(cells) + " |", flush=True)


def run_sentence(study: Path, data: Path) -> None:
    grid = list(itertools.product((0.0, 0.25), (0.25, 0.5, 1.0),
                                  (0.0, 0.25, 0.5, 1.0, 1.5, 2.0)))  # fmt: skip
    _extra_feature(study, data, "sentence", lambda pools: best_sentence(study, pools),
                   ("bm25", "argument", "sentence"), grid, (0.25, 0.25))  # fmt: skip


def run_prf(study: Path, data: Path, top: int = 5) -> None:
    grid = list(itertools.product((0.5, 1.0), (0.0, 0.25, 0.5, 1.0, 1.5)))
    _extra_feature(study, data, "prf", lambda pools: centroid_cosine(study, pools, top),
                   ("cosine", "prf"), grid, (1.0,))  # fmt: skip


def centroid_cosine(study: Path, pools: dict[str, Any], top: int) -> Any:
    """``prf``: pseudo-relevance feedback over the embeddings (Rocchio's term on its own): each
    candidate's cosine to the centroid of the query's ``top`` candidates (both sides) by the
    shipped fusion, each candidate scored with its fold prior."""
    import argkb.query.rankers.hybrid_fusion as hybrid

    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        raw = recording(study, name)
        for qid, record in raw.items():
            sides = by_query.get(qid, {})
            scored, vectors = [], []
            for side, (pool, _) in sides.items():
                features = hybrid.premise_features(pool)
                fused = sum(SHIPPED[f] * v for f, v in features.items() if f in SHIPPED)
                scored.append(np.asarray(fused, np.float64))
                vectors.append(np.asarray(record["sides"][side]["embeddings"], np.float64))
            if not scored:
                continue
            every, matrix = np.concatenate(scored), np.vstack(vectors)
            centroid = matrix[np.argsort(-every, kind="stable")[:top]].mean(axis=0)
            centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
            for (pool, _), m in zip(sides.values(), vectors, strict=True):
                values[id(pool)] = m @ centroid
    return lambda features, pool: {**features, "prf": values[id(pool)]}


def run_meta(study: Path, data: Path) -> None:
    grid = list(itertools.product((0.0, 0.25), (0.25, 0.5, 1.0),
                                  (0.0, -0.25, -0.5, -1.0, -1.5)))  # fmt: skip
    _extra_feature(study, data, "meta", lambda pools: meta_talk(study, pools),
                   ("bm25", "argument", "meta"), grid, (0.25, 0.25))  # fmt: skip


def run_coverage(study: Path, data: Path) -> None:
    base = current_weights()
    grid = list(itertools.product((0.25, 0.5), (1.0, 1.5), (0.0, 0.25, 0.5, 1.0, 1.5)))
    _extra_feature(study, data, "coverage", lambda pools: term_coverage(study, pools),
                   ("bm25", "cosine", "coverage"), grid, (base["bm25"], base["cosine"]),
                   base)  # fmt: skip


def run_maxsent(study: Path, data: Path) -> None:
    grid = list(itertools.product((0.0, 0.25), (0.5, 1.0), (0.0, 0.25, 0.5, 1.0, 1.5, 2.0)))
    _extra_feature(study, data, "maxsent", lambda pools: best_sentence_cosine(study, pools),
                   ("bm25", "cosine", "maxsent"), grid, (0.25, 1.0))  # fmt: skip


def run_product(study: Path, data: Path) -> None:
    """``claim_cosine`` and ``claim_bm25``: the claim route's credit only where the premise
    matches the query too; ``claim_argument``: only where the premise is argumentative
    (products of the features), each at 0 to 3 beside BM25 and claim."""
    grid = list(itertools.product((0.0, 0.25, 0.5), (1.0, 1.5), (0.0, 0.5, 1.0, 2.0, 3.0)))
    for feature, other in (("claim_cosine", "cosine"), ("claim_bm25", "bm25"),
                           ("claim_argument", "argument")):  # fmt: skip

        def product(pools: Any, o: str = other, f: str = feature) -> Any:
            return lambda x, pool: {**x, f: x["claim"] * x[o]}

        _extra_feature(study, data, feature, product, ("bm25", "claim", feature), grid,
                       (0.25, 1.5))  # fmt: skip


def run_norm(study: Path, data: Path) -> None:
    def scaled(values: Any) -> Any:
        span = float(values.max() - values.min()) if len(values) else 0.0
        return (values - values.min()) / span if span > 0 else np.zeros(len(values))

    def min_max(features: dict[str, Any], pool: Any) -> dict[str, Any]:
        return {**features, "cosine": scaled(features["cosine"])}

    pools = recorded_with_stand_ins(study, data)
    names = list(pools)
    print("| cosine | weight | " + " | ".join(names) + " |\n|---|---|" + "---:|" * len(names))
    for label, change in (("plain", lambda features, pool: features), ("min-max", min_max)):
        with features_changed(change):
            for weight in (0.5, 1.0, 1.5):
                row = [score(n, data, Replay(pools[n], {**SHIPPED, "cosine": weight}))
                       for n in names]  # fmt: skip
                print(f"| {label} | {weight:g} | " + " | ".join(f"{v:.4f}" for v in row) + " |")


def run_claim_floor(study: Path, data: Path) -> None:
    """``claim-floor``: the claim feature as max(0, cos - t) / (1 - t), so that a conclusion that
    shares only the query's template ("We should ... X") lends nothing; t and the claim weight
    on a grid, the rest as shipped now; each benchmark's leave-one-out choice."""
    pools = recorded_with_stand_ins(study, data)
    base = current_weights()
    floors, weights = (0.0, 0.3, 0.5, 0.6, 0.7), (1.0, 1.5, 2.0, 3.0, 4.0)
    grid = list(itertools.product(floors, weights))
    table: dict[str, dict[tuple[float, float], float]] = {n: {} for n in pools}
    for t in floors:

        def floored(features: dict[str, Any], pool: Any, t: float = t) -> dict[str, Any]:
            return {**features, "claim": np.maximum(features["claim"] - t, 0) / (1 - t)}

        with features_changed(floored):
            for weight in weights:
                for n in pools:
                    replay = Replay(pools[n], {**base, "claim": weight})
                    table[n][(t, weight)] = score(n, data, replay)
    head = "| floor t | claim weight | " + " | ".join(pools) + " |"
    print(head + "\n|---|---|" + "---:|" * len(pools))
    for key in grid:
        cells = " | ".join(f"{table[n][key]:.4f}" for n in pools)
        print(f"| {key[0]:g} | {key[1]:g} | {cells} |")
    for n, best in leave_one_out(table, [n for n in pools if n in NAMES], grid):
        print(f"{n} left out: t {best[0]:g}, claim {best[1]:g}, score {table[n][best]:.4f}")


def run_floor(study: Path, data: Path) -> None:
    """``floor``: candidates with weak evidence of matching the query sunk below every other (the
    answer would leave them out): cosine to the query under c, or under c with no BM25 either;
    the weights shipped now."""
    pools = recorded_with_stand_ins(study, data)
    base = current_weights()
    rules = [("none", 0.0, False)] + [
        (f"cosine < {c:g}{', no BM25' if need else ''}", c, need)
        for c in (0.15, 0.2, 0.25, 0.3, 0.4) for need in (False, True)
    ]  # fmt: skip
    print("| rule | " + " | ".join(pools) + " |\n|---|" + "---:|" * len(pools))
    for label, c, need in rules:

        def sunk(features: dict[str, Any], pool: Any, c: float = c,
                 need: bool = need) -> dict[str, Any]:  # fmt: skip
            weak = features["cosine"] < c
            if need:
                weak &= features["bm25"] <= 0
            return {**features, "floor": weak.astype(np.float64)}

        with features_changed(sunk):
            cells = [f"{score(n, data, Replay(pools[n], {**base, 'floor': -100.0})):.4f}"
                     for n in pools]  # fmt: skip
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


def run_quality(study: Path, data: Path) -> None:
    grid = list(itertools.product((0.0, 0.25), (0.0, 0.25, 0.5),
                                  (0.0, 0.25, 0.5, 1.0, 1.5, 2.0)))  # fmt: skip
    _extra_feature(study, data, "quality", lambda pools: quality_prior(study, data, pools),
                   ("bm25", "argument", "quality"), grid, (0.25, 0.25))  # fmt: skip


def judged_quality(data: Path) -> tuple[list[str], Any, list[str]]:
    """Texts, judged quality and topic groups of ArgQuality ("Combined Quality") and SIGIR-19
    dev (mean of logical, rhetorical and dialectical quality), each z-scored in its dataset; a
    text judged spam or not an argument gets half a deviation below the dataset's lowest."""
    import csv

    from argkb.eval.sigir19 import topic_issues

    def z(values: list[float], bad: list[bool]) -> Any:
        v, b = np.asarray(values), np.asarray(bad)
        good = v[~b]
        out = (v - good.mean()) / good.std()
        out[b] = (good.min() - good.mean()) / good.std() - 0.5
        return out

    aq = list(csv.DictReader((data / "webis-argquality-20" / "webis-argquality20-arguments.csv")
                             .open(encoding="utf-8")))  # fmt: skip
    s19 = list(
        csv.DictReader((data / "webis-sigir19-dev" / "arguments.csv").open(encoding="utf-8"))
    )
    issues = topic_issues(data / "webis-sigir19-dev")
    dims = ("Logical Quality", "Rhetorical Quality", "Dialectical Quality")
    s19_quality = [float(np.mean([float(r[d]) for d in dims])) for r in s19]
    aq_quality = [float(r["Combined Quality"]) for r in aq]
    texts = [r["Premise"] for r in aq] + [r["Premise"] for r in s19]
    labels = np.concatenate([z(aq_quality, [q <= -3.9 for q in aq_quality]),
                             z(s19_quality, [q < 0 for q in s19_quality])])  # fmt: skip
    groups = [f"argquality:{r['Topic ID']}" for r in aq] + [
        f"sigir19:{issues.get(str(int(r['Topic ID'])), r['Topic ID'])}" for r in s19
    ]
    return texts, labels, groups


def quality_prior(study: Path, data: Path, pools: dict[str, Any]) -> Any:
    """``quality``: a ridge regression (alpha 10) from a text's vector and log length to its
    judged quality (:func:`judged_quality`), as a probability (logistic of the prediction);
    each query's model never saw a topic group that shares a text with its candidates (the
    argument prior's folds, ``linear_study``)."""
    from sklearn.linear_model import Ridge

    from argkb.embed.model import Embedder
    from bench.ranker_study import GroupFolds, prior_features

    texts, labels, groups = judged_quality(data)
    x = prior_features(np.asarray(Embedder().embed(texts), np.float32),
                       np.asarray([len(t.split()) for t in texts], float))  # fmt: skip
    folds = GroupFolds(texts, groups, lambda keep: Ridge(alpha=10.0).fit(x[keep], labels[keep]))
    values: dict[int, Any] = {}
    for name, by_query in pools.items():
        for qid, record in recording(study, name).items():
            model = folds.model_for(t for s in record["sides"].values() for t in s["texts"])
            for side, (pool, _) in by_query[qid].items():
                raw = record["sides"][side]
                own = prior_features(
                    np.asarray(raw["embeddings"], np.float32),
                    np.asarray([len(t.split()) for t in raw["texts"]], float),
                )
                values[id(pool)] = 1.0 / (1.0 + np.exp(-model.predict(own)))
    return lambda features, pool: {**features, "quality": values[id(pool)]}


def _extra_feature(
    study: Path,
    data: Path,
    feature: str,
    make: Any,
    names: Sequence[str],
    grid: Sequence[tuple[float, ...]],
    shipped: tuple[float, ...],
    base: dict[str, float] | None = None,
) -> None:
    """Score ``grid`` (weights of ``names``, the rest ``base``, default :data:`SHIPPED`) with
    ``feature`` added to the premise features by ``make(pools)(features, pool)``, fold priors as
    ``linear_study --grid prior``; print the feature's weight on the shipped weights and each
    benchmark's leave-one-out choice."""
    pools = {n: read_pools(study / f"{n}.pkl") for n in NAMES}
    with_fold_priors(pools, study, data)
    table: dict[str, dict[tuple[float, ...], float]] = {n: {} for n in NAMES}
    with features_changed(make(pools)):
        for key in grid:
            weights = {**(base or SHIPPED), **dict(zip(names, key, strict=True))}
            for n in NAMES:
                table[n][key] = score(n, data, Replay(pools[n], weights))
    print(f"| {feature} weight (shipped weights) | " + " | ".join(NAMES) + " |")
    for weight in sorted({key[-1] for key in grid}):
        key = (*shipped, weight)
        print(f"| {weight:g} | " + " | ".join(f"{table[n][key]:.4f}" for n in NAMES) + " |")
    for n, best in leave_one_out(table, NAMES, grid):
        print(f"{n} left out: {feature} weight {best[-1]:g}, score {table[n][best]:.4f}")


LTR_FEATURES = ("bm25", "cosine", "claim", "support", "length", "argument")


def run_ltr(study: Path, data: Path) -> None:
    from sklearn.linear_model import LogisticRegression

    pools = {n: read_pools(study / f"{n}.pkl") for n in NAMES}
    with_fold_priors(pools, study, data)
    pairs = {n: graded_pairs(n, data, pools[n]) for n in NAMES}
    print("| left out | held out | weights fitted on the others |\n|---|---:|---|")
    for n in NAMES:
        groups: dict[str, list[str]] = {}
        for m in NAMES:
            if spec(m)[1] != spec(n)[1]:
                groups.setdefault(spec(m)[1], []).append(m)
        x = np.vstack([pairs[m][0] for ms in groups.values() for m in ms])
        w = np.concatenate([pairs[m][1] / len(ms) / len(groups)
                            for ms in groups.values() for m in ms])  # fmt: skip
        model = LogisticRegression(fit_intercept=False, max_iter=5000)
        model.fit(np.vstack([x, -x]), np.repeat([1, 0], len(x)),
                  sample_weight=np.concatenate([w, w]) * len(w))  # fmt: skip
        weights = dict(zip(LTR_FEATURES, model.coef_[0].tolist(), strict=True))
        held = score(n, data, Replay(pools[n], weights))
        shown = ", ".join(f"{k} {v:.2f}" for k, v in weights.items())
        print(f"| {n} | {held:.4f} | {shown} |", flush=True)


def graded_pairs(name: str, data: Path, pools: dict[str, Any]) -> tuple[Any, Any]:
    """Feature differences (better minus worse) of a benchmark's candidate pairs, and weights
    that make each query count the same."""
    from argkb.query.rankers.hybrid_fusion import premise_features
    from argkb.ranking import Ranking

    benchmark = build(name, data)
    diffs, weights = [], []
    for qid, sides in pools.items():
        judged = benchmark.qrels.get(qid, {})
        rows, grades = [], []
        for pool, keys in sides.values():
            features = premise_features(pool)
            rows.append(np.column_stack([features[f] for f in LTR_FEATURES]))
            for key in keys:
                docs = benchmark.to_documents(qid, Ranking.from_ids([key])).representatives
                grades.append(max([max(0.0, float(judged.get(d, 0.0))) for d in docs] or [0.0]))
        g = np.asarray(grades)
        better, worse = np.nonzero(g[:, None] > g[None, :])
        if not rows or not len(better):
            continue
        if len(better) > 4000:
            keep = np.random.default_rng(0).choice(len(better), 4000, replace=False)
            better, worse = better[keep], worse[keep]
        x = np.vstack(rows)
        diffs.append(x[better] - x[worse])
        weights.append(np.full(len(better), 1.0 / len(better)))
    return np.vstack(diffs), np.concatenate(weights) / len(diffs)


def _group_mean(table: dict[str, dict[Any, float]], names: list[str], key: Any) -> float:
    groups: dict[str, list[float]] = {}
    for n in names:
        groups.setdefault(spec(n)[1], []).append(table[n][key])
    return float(np.mean([np.mean(v) for v in groups.values()]))


def main(argv: Sequence[str] | None = None) -> int:
    runs: dict[str, Any] = {
        "mmr": run_mmr, "size": run_size, "sentence": run_sentence, "prf": run_prf,
        "ltr": run_ltr, "maxsent": run_maxsent, "product": run_product, "quality": run_quality,
        "meta": run_meta, "gated": run_gated, "norm": run_norm, "coverage": run_coverage,
        "size-now": run_size_now, "claim-floor": run_claim_floor,
        "floor": run_floor,
    }  # fmt: skip
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True, help="the recordings' folder")
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--only", choices=list(runs))
    parser.add_argument("--top", type=int, default=5, help="prf: pseudo-relevant candidates")
    args = parser.parse_args(argv)
    for name, run in runs.items():
        if args.only in (None, name):
            run(args.study, args.data, *([args.top] if name == "prf" else []))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
