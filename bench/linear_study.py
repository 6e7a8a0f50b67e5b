"""Fit the hybrid's linear fusion leaving each benchmark out, on pools recorded from real runs.

    python -m bench linear_study --study /tmp/study --data ../shared/data

Each benchmark is first run once with ``argkb eval ... --ranker bench.study_recorder:recorder``
on a brand-new database (see that module): the harness loads, embeds and clusters it and scores
BM25 and cosine in the same run, and the recorder keeps every query's candidate pool
(:class:`argkb.query.rankers.hybrid.SidePool`, with each premise's features). Here every weight
setting of the grid re-ranks those pools with the product's own ``fuse_pool`` (so a setting's
score is what ``argkb eval`` reports for ``QuerySettings(fusion="linear", linear_*=...)`` on that
database) and is scored with the harness's metrics.

The ``argument`` feature (the argumentativeness prior) is trained on labels of two of the
benchmarks ("Is Argument?" of ArgQuality and SIGIR-19 dev), so here it is never the shipped
model: each query's prior is fitted by ``bench/ranker_study.py``'s ``assign_priors`` without
every labelled topic group that shares a text with the query's candidates (for SIGIR-19 dev that
is all of SIGIR-19 and the ArgQuality texts it shares), as a grid with a non-zero ``argument``
weight asks.

Protocol: **leave one benchmark out**. For each benchmark the setting is the one with the best
mean primary metric over the *other* benchmarks (each weighing the same; ArgQuality long and
short count as one benchmark, their mean), and it is scored on the held-out one, query by query
against BM25 and cosine of the same recorded run (wins/ties/losses, mean difference, 95 %
bootstrap interval; SIGIR-19's issues are resampled whole). ``--grid all`` searches the three
grids' settings together, so that the choice among the grids is made without the held-out
benchmark too (the grids themselves were designed after seeing every benchmark). The setting
fitted on all benchmarks is printed last: it is the candidate default, to be scored on the
benchmarks kept outside the repository.

``--by-winner`` adds, per benchmark, the held-out setting's queries split by which baseline
scores higher on them (cosine-favoured; BM25-favoured, ties included): the mean of each ranker
on each part and the held-out setting's wins/ties/losses against that part's better baseline.
The split is chosen by the baselines' own scores, so the part's winner is favoured by it; a
fused ranker that still beats it there is robust to which baseline a collection favours (the
SIGIR-19 issues kept outside the repository favour cosine, .725 against BM25's .660).
"""

from __future__ import annotations

import argparse
import itertools
import json
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from argkb.query.rankers.hybrid_fusion import LINEAR_FEATURES
from bench.ranker_study import BENCHMARKS, baseline_scores, build, spec

FEATURES = LINEAR_FEATURES  # weights of a Setting, in this order
GRIDS = {
    "coarse": {
        "bm25": (0.0, 0.5, 1.0, 2.0),
        "cosine": (0.0, 0.5, 1.0, 2.0),
        "claim": (0.0, 0.5, 1.0, 2.0),
        "support": (0.0, 0.25, 0.5, 1.0, 2.0),
        "length": (0.0, 0.25, 0.5, 1.0),
        "argument": (0.0,),
    },
    # around the coarse grid's best settings (docs/results/answer-quality.md)
    "fine": {
        "bm25": (0.0, 0.25, 0.5, 1.0),
        "cosine": (0.5, 1.0, 1.5, 2.0),
        "claim": (0.5, 1.0, 1.5, 2.0),
        "support": (0.0, 0.1, 0.25, 0.5, 1.0, 2.0),
        "length": (0.5, 0.75, 1.0, 1.5),
        "argument": (0.0,),
    },
    # the argumentativeness prior beside the fine grid's best region (its argument = 0 part is
    # a subset of the fine grid)
    "prior": {
        "bm25": (0.0, 0.25, 0.5),
        "cosine": (1.0, 1.5),
        "claim": (1.0, 1.5, 2.0),
        "support": (0.1, 0.25),
        "length": (0.5, 0.75, 1.0),
        "argument": (0.0, 0.25, 0.5, 1.0),
    },
}
Setting = tuple[float, ...]  # weights in FEATURES order


def with_fold_priors(pools: dict[str, dict[str, dict[str, Any]]], study: Path, data: Path) -> None:
    """Each candidate's prior logit from a model that never saw the query's topic groups
    (module docstring), into every recorded pool."""
    from dataclasses import replace

    from bench.ranker_study import assign_priors
    from bench.ranker_study import read_pools as read_sides

    sides = {n: read_sides(study / f"{n}.pkl") for n in pools}
    assign_priors(sides, data)
    for n, by_query in pools.items():
        for qid, by_side in by_query.items():
            for side, (pool, keys) in list(by_side.items()):
                prob = np.clip(sides[n][qid].sides[side].argument, 1e-6, 1.0 - 1e-6)
                logits = np.log(prob / (1.0 - prob))
                by_side[side] = (replace(pool, argument=logits), keys)


def read_pools(path: Path) -> dict[str, dict[str, Any]]:
    """qid -> side -> (SidePool over candidate positions, unit keys)."""
    from argkb.query.rankers.hybrid_fusion import SidePool

    with path.open("rb") as handle:
        records = pickle.load(handle)
    out: dict[str, dict[str, Any]] = {}
    for qid, record in records.items():
        sides = {}
        for side, raw in record["sides"].items():
            pool = dict(raw["pool"])
            pool["premises"] = list(range(len(raw["keys"])))
            arrays: dict[str, Any] = {
                k: np.asarray(v) if isinstance(v, list) and k != "premises" else v
                for k, v in pool.items()
            }
            arrays["argument"] = None
            sides[side] = (SidePool(**arrays), raw["keys"])
        out[qid] = sides
    return out


class Replay:
    """A harness ranker that answers from the recorded pools with the linear fusion's
    ``weights`` (feature -> weight). With ``mmr`` < 1 each side's list is re-ranked by maximal
    marginal relevance at that trade-off over the recorded embeddings ``vectors`` (qid -> side
    -> array), as bench/linear_extras.py measures."""

    name = "replay"

    def __init__(self, pools: dict[str, dict[str, Any]], weights: dict[str, float],
                 rep: str = "longest", *, mmr: float = 1.0,
                 vectors: dict[str, dict[str, Any]] | None = None) -> None:  # fmt: skip
        from argkb.query.rankers.hybrid_fusion import Fusion

        self.pools, self.representative, self.mmr, self.vectors = pools, rep, mmr, vectors
        self.fusion = Fusion(0.0, 0.0, 0.0, 10.0, 0.0, weights)

    def rank(self, query: Any, k: int) -> Any:
        from argkb.query.rankers.hybrid_fusion import fuse_pool
        from argkb.ranking import Ranking
        from bench.ranker_study import _mmr

        entries = []
        depth = k if self.mmr >= 1 else 3 * k
        for side, (pool, keys) in self.pools.get(query.qid, {}).items():
            side_entries = [
                (e.score, e.members)
                for e in fuse_pool(pool, self.fusion, depth, self.representative)
            ]
            if self.mmr < 1 and side_entries:
                assert self.vectors is not None
                side_entries = _mmr(side_entries, self.vectors[query.qid][side], self.mmr, k)
            entries += [(score, [keys[i] for i in members]) for score, members in side_entries[:k]]
        entries.sort(key=lambda e: -e[0])  # stable: pro before con on ties, as the engine
        return Ranking([m for _, m in entries[:k]], [s for s, _ in entries[:k]])


def label(setting: Setting) -> str:
    return " ".join(f"{name} {w:g}" for name, w in zip(FEATURES, setting, strict=True) if w)


def score_all(
    benchmark: Any, pools: dict[str, dict[str, Any]], settings: list[Setting], metric: str
) -> dict[Setting, dict[str, float]]:
    """Per setting, per query the primary metric."""
    from argkb.eval.harness import evaluate

    out = {}
    for setting in settings:
        ranker = Replay(pools, dict(zip(FEATURES, setting, strict=True)))
        result = evaluate(benchmark, {"v": [ranker]}, depth=100)[0]
        out[setting] = {q: s.get(metric, 0.0) for q, s in result.scores.per_query.items()}
    return out


def grid(name: str = "coarse") -> list[Setting]:
    """The settings of grid ``name``; ``all``: every setting of the three grids, once (so that
    leaving a benchmark out also chooses among the grids without it)."""
    names = list(GRIDS) if name == "all" else [name]
    settings = {tuple(values) for n in names for values in itertools.product(*GRIDS[n].values())}
    return sorted(s for s in settings if any(s[:2]))  # some premise evidence (BM25 or cosine)


def group_mean(table: dict[str, dict[Setting, float]], names: list[str], s: Setting) -> float:
    by_group: dict[str, list[float]] = {}
    for n in names:
        by_group.setdefault(spec(n)[1], []).append(table[n][s])
    return float(np.mean([np.mean(v) for v in by_group.values()]))


def compare_line(
    mine: dict[str, float], base: dict[str, dict[str, float]], groups: dict[str, str] | None = None
) -> str:
    """Against BM25 and cosine: W/T/L, mean difference, 95 % interval (``groups``: qid ->
    group, resampled whole, as SIGIR-19's issues)."""
    from argkb.eval.compare import paired

    parts = []
    for name in ("bm25", "cosine"):
        if name not in base:
            continue
        runs = {"me": {q: {"m": v} for q, v in mine.items()},
                name: {q: {"m": v} for q, v in base[name].items()}}  # fmt: skip
        p = paired("me", name, runs, "m", groups=groups)
        parts.append(f"{p.wins}/{p.ties}/{p.losses}, {p.mean_difference:+.3f} "
                     f"[{p.low:+.3f}, {p.high:+.3f}]")  # fmt: skip
    return " | ".join(parts)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", type=Path, required=True, help="the recordings' folder")
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    parser.add_argument("--grid", choices=[*sorted(GRIDS), "all"], default="coarse")
    parser.add_argument("--out", type=Path, help="write the table and fits as JSON here")
    split_help = "split each held-out row by the baseline that wins each query"
    parser.add_argument("--by-winner", action="store_true", help=split_help)
    return parser


def by_winner_lines(
    name: str, mine: dict[str, float], base: dict[str, dict[str, float]]
) -> list[str]:
    """Markdown rows: the held-out setting on the queries where cosine, then BM25, scores higher."""
    if "bm25" not in base or "cosine" not in base:
        return []
    lines = []
    for part, favoured in (("cosine", lambda q: base["cosine"][q] > base["bm25"][q]),
                           ("bm25", lambda q: base["cosine"][q] <= base["bm25"][q])):  # fmt: skip
        queries = [q for q in mine if q in base["bm25"] and q in base["cosine"] and favoured(q)]
        if not queries:
            continue
        diffs = [mine[q] - base[part][q] for q in queries]
        wins, ties = sum(d > 0 for d in diffs), sum(d == 0 for d in diffs)
        losses = len(queries) - wins - ties
        lines.append(f"| {name} | {part}-favoured | {len(queries)} | "
                     f"{np.mean([mine[q] for q in queries]):.4f} | "
                     f"{np.mean([base['bm25'][q] for q in queries]):.4f} | "
                     f"{np.mean([base['cosine'][q] for q in queries]):.4f} | "
                     f"{wins}/{ties}/{losses}, {np.mean(diffs):+.3f} |")  # fmt: skip
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    names = [n for n in BENCHMARKS if (args.study / f"{n}.pkl").exists()]
    settings = grid(args.grid)
    print(f"{len(settings)} settings x {len(names)} benchmarks", flush=True)
    per_query: dict[str, dict[Setting, dict[str, float]]] = {}
    table: dict[str, dict[Setting, float]] = {}
    base: dict[str, dict[str, dict[str, float]]] = {}
    pools = {n: read_pools(args.study / f"{n}.pkl") for n in names}
    if any(s[FEATURES.index("argument")] for s in settings):
        with_fold_priors(pools, args.study, args.data)
    groups: dict[str, dict[str, str] | None] = {}
    for n in names:
        metric = spec(n)[0]
        benchmark = build(n, args.data)
        groups[n] = benchmark.notes.get("issues")
        per_query[n] = score_all(benchmark, pools[n], settings, metric)
        table[n] = {s: float(np.mean(list(v.values()))) for s, v in per_query[n].items()}
        base[n] = baseline_scores(args.study, n, metric)
        print(f"scored {n}", flush=True)
    print("\n| benchmark | fitted without it | score | recorded default | BM25 | cosine "
          "| vs BM25 W/T/L, diff [95% CI] | vs cosine |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---|---|")
    fits: dict[str, dict[str, Any]] = {}
    for n in names:
        train = [m for m in names if spec(m)[1] != spec(n)[1]]
        best = max(settings, key=lambda s: group_mean(table, train, s))
        fits[n] = {"setting": dict(zip(FEATURES, best, strict=True)), "score": table[n][best]}
        means = {k: float(np.mean(list(v.values()))) for k, v in base[n].items()}
        default = means.get("bench.study_recorder:recorder", float("nan"))
        print(f"| {n} | {label(best)} | {table[n][best]:.4f} | {default:.4f} | "
              f"{means.get('bm25', float('nan')):.4f} | {means.get('cosine', float('nan')):.4f} "
              f"| {compare_line(per_query[n][best], base[n], groups[n])} |")  # fmt: skip
    if args.by_winner:
        print("\n| benchmark | queries | n | held out | BM25 | cosine "
              "| vs the part's better baseline W/T/L, mean diff |")  # fmt: skip
        print("|---|---|---:|---:|---:|---:|---|")
        for n in names:
            best_n = tuple(fits[n]["setting"][f] for f in FEATURES)
            for line in by_winner_lines(n, per_query[n][best_n], base[n]):
                print(line)
    best = max(settings, key=lambda s: group_mean(table, names, s))
    print(f"\nfitted on all: {label(best)}: "
          + ", ".join(f"{n} {table[n][best]:.4f}" for n in names))  # fmt: skip
    top = sorted(settings, key=lambda s: -group_mean(table, names, s))[:15]
    print("\n| setting | " + " | ".join(names) + " | mean |")
    for s in top:
        print(f"| {label(s)} | " + " | ".join(f"{table[n][s]:.4f}" for n in names)
              + f" | {group_mean(table, names, s):.4f} |")  # fmt: skip
    if args.out:
        args.out.write_text(json.dumps({
            "fits": fits, "all": dict(zip(FEATURES, best, strict=True)),
            "table": {n: {label(s) or "-": v for s, v in t.items()} for n, t in table.items()},
        }, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
