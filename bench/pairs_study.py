"""Sentence-pair pipeline study: a grid of the pipeline's parts on the proxy benchmarks, fitted
on one benchmark and scored on the other, with the baselines of the same run.

    # each benchmark on a brand-new database (argkb server stop; rm -rf DATA; start; init)
    python -m bench pairs_study record --benchmark argquality --data ../shared/data \\
        --out /tmp/pairs/argquality.json
    python -m bench pairs_study record --benchmark sigir19 --data ../shared/data \\
        --out /tmp/pairs/sigir19.json
    python -m bench pairs_study report /tmp/pairs/argquality.json /tmp/pairs/sigir19.json

``record`` loads the benchmark with argkb's loader, embeds it, splits its premises into
sentences (the product's steps) and scores every setting of the grid with the proxy of
:mod:`argkb.eval.pairs` (ArgQuality with its long queries). The argumentativeness prior is
**retrained without the scored benchmark** (ArgQuality is scored with a prior fitted on SIGIR-19's
"Is Argument?" only, and the other way round), so no setting sees the labels it is scored on.
The database reads of a query are cached across the grid's settings (same answers, faster).

``report`` prints, for each benchmark, the held-out scores of two ways of fitting the grid:
**topic-group folds** over both benchmarks pooled (each query scored by the setting that is best
without its topic group: an ArgQuality topic, a SIGIR-19 issue) and **cross-dataset** (the
setting best on the *other* benchmark), then the setting best in-sample, the shipped
``argkb.sentences.pipeline.DEFAULT``, the baselines (BM25 / DirichletLM top sentence + next),
an ablation (each part of the default switched off alone, and cosine pairing), and per-query
wins/ties/losses with a 95 % bootstrap interval against BM25 top + next.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

BENCHMARKS = ("argquality", "sigir19")
GRID = {
    "model": ("bm25", "dirichlet"),
    "clean": (False, True),
    "topic": (0.0, 0.5, 1.0, 2.0),
    "argument": (0.0, 0.5, 1.0),
    "claim": (0.0, 0.5, 1.0),
    "distinct": (False, True),
}
# with --sentence-features (the benchmark's sentences embedded): one pair per premise only (the
# grid above never picks it off), and the sentence's own topic and argumentativeness
SENTENCE_GRID = {**GRID, "distinct": (True,), "sentence_topic": (0.0, 0.5, 1.0),
                 "sentence_argument": (0.0, 0.5, 1.0)}  # fmt: skip


def setting_name(settings: Any) -> str:
    name = ("{model} clean={clean:d} topic={topic:g} argument={argument:g} claim={claim:g} "
            "distinct={distinct:d} pairing={pairing}").format(**asdict(settings))  # fmt: skip
    if settings.reads_sentences:
        name += (f" sentence_topic={settings.sentence_topic:g}"
                 f" sentence_argument={settings.sentence_argument:g}")  # fmt: skip
    return name


def grid(values: dict[str, tuple[Any, ...]] = GRID) -> list[Any]:
    from argkb.sentences.pipeline import PairSettings

    keys = list(values)
    parts: list[dict[str, Any]] = [dict(zip(keys, chosen, strict=True))
                                   for chosen in itertools.product(*values.values())]  # fmt: skip
    return [PairSettings(**p) for p in parts]


def ablation() -> dict[str, Any]:
    """The shipped default, each of its parts switched off alone, cosine pairing, baselines."""
    from argkb.sentences.pipeline import BASELINE, DEFAULT

    rows = {
        "default": DEFAULT,
        "- preprocessing": replace(DEFAULT, clean=False),
        "- topic": replace(DEFAULT, topic=0.0),
        "- argumentativeness": replace(DEFAULT, argument=0.0),
        "- claim": replace(DEFAULT, claim=0.0),
        "- one pair per premise": replace(DEFAULT, distinct=False),
        "DirichletLM first stage": replace(DEFAULT, model="dirichlet"),
        "cosine pairing": replace(DEFAULT, pairing="cosine"),
        "next-sentence model pairing": replace(DEFAULT, pairing="nsp"),
        "+ sentence topic .5": replace(DEFAULT, sentence_topic=0.5),
        "+ sentence argumentativeness .5": replace(DEFAULT, sentence_argument=0.5),
        "BM25 top + next (baseline)": BASELINE,
        "BM25 top + next, one pair per premise": replace(BASELINE, distinct=True),
        "DirichletLM top + next (baseline)": replace(BASELINE, model="dirichlet"),
    }
    return rows


# -- record -------------------------------------------------------------------------------------


def held_out_prior(data: Path, benchmark: str, embedder: Any) -> Any:
    """The argumentativeness prior fitted on the *other* benchmark's "Is Argument?" labels."""
    from argkb.retrieve.argument_prior import ArgumentPrior
    from bench.ranker_study import fit_prior, labelled_arguments

    labelled = labelled_arguments(data)
    keep = np.asarray([not g.startswith(f"{benchmark}:") for g in labelled.groups])
    texts = [t for t, k in zip(labelled.texts, keep, strict=True) if k]
    vectors = np.asarray(embedder.embed(texts), np.float32)
    words = np.asarray([len(t.split()) for t in texts], float)
    model = fit_prior(vectors, words, labelled.labels[keep])
    weights = model.coef_[0]
    direction = weights[:-1]
    norm = float(np.linalg.norm(direction))
    return ArgumentPrior(tuple(float(x) for x in direction / norm), norm,
                         float(weights[-1]) / 5.0, float(model.intercept_[0]))  # fmt: skip


def prepare(driver: Any, benchmark: str, data: Path, embedder: Any) -> Any:
    """Load, embed and split the benchmark; its proxy (:class:`argkb.eval.pairs.PairBenchmark`)."""
    from argkb.eval.pairs import load_benchmark

    folder = "webis-argquality-20" if benchmark == "argquality" else "webis-sigir19-dev"
    return load_benchmark(driver, benchmark, data / folder, embedder)


def cached_reads() -> None:
    """Cache the pipeline's database reads per query across the grid (same values, read once)."""
    from argkb.sentences import pipeline

    def memo(original: Any, key: Any) -> Any:
        cache: dict[Any, Any] = {}

        def read(*args: Any, **kwargs: Any) -> Any:
            at = key(*args, **kwargs)
            if at not in cache:
                cache[at] = original(*args, **kwargs)
            return list(cache[at]) if isinstance(cache[at], list) else cache[at]

        return read

    pipeline.rank_sentences = memo(
        pipeline.rank_sentences, lambda driver, query, **kw: (query, *sorted(kw.items()))
    )
    pipeline.read_neighbours = memo(
        pipeline.read_neighbours, lambda driver, uids, database=None: tuple(uids)
    )

    def features_key(driver: Any, ranked: Any, vector: Any, prior: Any, database: Any) -> Any:
        return (tuple(sorted(s.uid for s in ranked)),
                tuple(np.round(np.asarray(vector, float), 6).tolist()), id(prior))  # fmt: skip

    pipeline._premise_features = memo(pipeline._premise_features, features_key)
    pipeline._sentence_features = memo(pipeline._sentence_features, features_key)


def record(args: argparse.Namespace) -> int:
    from argkb.embed.model import Embedder
    from argkb.eval.pairs import evaluate_pairs
    from argkb.sentences.pipeline import pipeline_pairs
    from bench.common import driver as make_driver

    embedder = Embedder()
    drv = make_driver(args.uri, instance_dir=args.instance)
    proxy = prepare(drv, args.benchmark, args.data, embedder)
    if args.sentence_features:
        from argkb.embed.store import embed_sentences

        embed_sentences(drv, embedder)
    prior = held_out_prior(args.data, args.benchmark, embedder)
    queries = proxy.benchmark.queries
    vectors = {q.text: embedder.embed([q.text], use_cache=False)[0] for q in queries}
    cached_reads()
    settings = {setting_name(s): s for s in grid(SENTENCE_GRID if args.sentence_features
                                                 else GRID)}  # fmt: skip
    settings.update({f"ablation: {name}": s for name, s in ablation().items()})

    def system(s: Any) -> Any:
        return lambda text: pipeline_pairs(drv, text, s, k=10, embedder=embedder,
                                           vector=vectors[text], prior=prior)  # fmt: skip

    per_query = evaluate_pairs(proxy, {name: system(s) for name, s in settings.items()})
    payload = {"benchmark": args.benchmark, "settings": {n: asdict(s) for n, s in settings.items()},
               "per_query": per_query}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload))
    print(f"{args.benchmark}: {len(settings)} settings, {len(next(iter(per_query.values())))} "
          f"queries -> {args.out}")  # fmt: skip
    return 0


# -- report -------------------------------------------------------------------------------------


def mean(per_query: dict[str, dict[str, float]], metric: str) -> float:
    return float(np.mean([q[metric] for q in per_query.values()]))


def best_in(run: dict[str, Any], names: list[str]) -> str:
    """The setting with the best mean rel@10 on one benchmark (in-sample there)."""
    return max(names, key=lambda n: (mean(run["per_query"][n], "rel@10"), n))


def fold_choice(runs: dict[str, Any], names: list[str], groups: dict[str, dict[str, str]]) -> Any:
    """Per benchmark and query, the setting with the best mean rel@10 over both benchmarks
    (each weighted equally) without the query's topic group (an ArgQuality topic, a SIGIR-19
    issue): leave-one-topic-group-out over the pooled benchmarks."""

    def pooled(name: str, left_out: tuple[str, str] | None) -> float:
        return float(np.mean([
            np.mean([s["rel@10"] for q, s in run["per_query"][name].items()
                     if (b, groups[b].get(q, q)) != left_out])
            for b, run in runs.items()
        ]))  # fmt: skip

    chosen: dict[str, dict[str, str]] = {}
    for b, run in runs.items():
        for qid in run["per_query"][names[0]]:
            group = (b, groups[b].get(qid, qid))

            def held_out(name: str, group: tuple[str, str] = group) -> tuple[float, str]:
                return pooled(name, group), name

            best = max(names, key=held_out)
            chosen.setdefault(b, {})[qid] = best
    overall = max(names, key=lambda n: (pooled(n, None), n))
    return chosen, overall


def report(args: argparse.Namespace) -> int:
    from argkb.eval.compare import paired
    from argkb.eval.pairs import METRICS
    from argkb.eval.sigir19 import topic_issues
    from bench.common import markdown_table

    runs = {r["benchmark"]: r for r in (json.loads(Path(p).read_text()) for p in args.files)}
    names = [n for n in next(iter(runs.values()))["per_query"] if not n.startswith("ablation")]
    best = {b: best_in(runs[b], names) for b in runs}
    groups = {"argquality": {}, "sigir19": topic_issues(args.data / "webis-sigir19-dev")}
    folds, overall = fold_choice(runs, names, groups)
    print(f"best over both benchmarks (in-sample): {overall}")
    baseline = "ablation: BM25 top + next (baseline)"
    for name, run in runs.items():
        per_query = dict(run["per_query"])
        per_query["folds"] = {q: per_query[n][q] for q, n in folds[name].items()}
        other = next((b for b in runs if b != name), None)
        rows = []
        chosen = {"topic-group folds over both (held out)": "folds"}
        if other:
            chosen[f"fitted on {other} (held out): {best[other]}"] = best[other]
        chosen[f"best here (in-sample): {best[name]}"] = best[name]
        chosen.update({n.removeprefix("ablation: "): n for n in per_query
                       if n.startswith("ablation")})  # fmt: skip
        for label, key in chosen.items():
            p = paired(key, baseline, per_query, "rel@10")
            rows.append([label, *(f"{mean(per_query[key], m):.4f}" for m in METRICS),
                         f"{p.mean_difference:+.3f} {p.wins}/{p.ties}/{p.losses} "
                         f"[{p.low:+.3f}, {p.high:+.3f}]"])  # fmt: skip
        queries = len(next(iter(per_query.values())))
        print(f"\n## {name} ({queries} queries)\n")
        versus = "rel@10 vs BM25 top + next: diff W/T/L [95% CI]"
        print(markdown_table(["setting", *METRICS, versus], rows))
        picked = sorted(set(folds[name].values()))
        print(f"\nsettings the folds picked: {'; '.join(picked)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--benchmark", choices=BENCHMARKS, required=True)
    rec.add_argument("--data", type=Path, required=True)
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument(
        "--sentence-features",
        action="store_true",
        help="embed the sentences too, and add their features to the grid",
    )
    rec.add_argument("--uri", default="bolt://127.0.0.1:7687")
    rec.add_argument("--instance", type=Path,
                     default=Path.home() / ".cache/argkb/instances/default")  # fmt: skip
    rep = sub.add_parser("report")
    rep.add_argument("files", nargs="+", type=Path)
    rep.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = parser.parse_args()
    return record(args) if args.command == "record" else report(args)


if __name__ == "__main__":
    sys.exit(main())
