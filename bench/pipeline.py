"""The whole pipeline on args.me-length corpora: load, embed, cluster, pagerank, query (issue 16).

    python -m bench pipeline --sizes 50000,100000,400000 [--out results.json]

For each size a synthetic args.me corpus with args.me-like text lengths (synthcorpus's default
:class:`~synthcorpus.Shape`: 20 % single sentences, otherwise log-normal with median 8 and
sigma 0.9, capped at 150; the distribution and its sources are documented in synthcorpus) goes
through every stage in a fresh managed Neo4j under /tmp:

Every stage but the model's embedding is the :mod:`argkb.pipeline` function its command runs.

* **load**: ``pipeline.load`` (what ``argkb load`` runs).
* **embed**: two numbers, because the real model cannot embed 400k posts on this CPU (a few
  units per second):
  - *model (extrapolated)*: the default :class:`~argkb.embed.model.Embedder` (what ``argkb
    embed`` runs, disk cache off) times a uniform random sample of ``--sample`` units and of
    claims' negations; seconds per text times the number of texts. Stated as extrapolated.
  - *store (measured)*: ``pipeline.embed`` (units and negations) runs in full with a stand-in
    embedder (:class:`WordVectorProxy`) that returns, for each text, the SIF-weighted mean of
    the model's own vectors of its words. The stand-in costs little, so this measures argkb's
    side of the stage (paging texts out of Neo4j, writing vectors and the vector indexes).
    How close the stand-in's vectors are to the model's is measured on the sample and printed
    (cosine to the model's vector; correlation of pairwise similarities).
* **cluster**: ``pipeline.cluster`` rebuilding claim and premise clusters (neighbours by
  ``--knn``, default ``auto`` as ``argkb cluster``), then SAME_AS edges (``argkb cluster
  --rebuild``), on the stand-in vectors.
* **pagerank**: ``pipeline.pagerank`` (``argkb pagerank``).
* **query**: ``--queries`` queries after ``--warmup`` with the default ranker (hybrid, model
  alignment, as ``argkb query``), the same ranker reading every claim of the retrieved claim
  clusters (the engine before ``QuerySettings.cluster_claims``) and BM25-only, alternating in the
  same run, as in bench/query.py. Query
  texts are embedded by the real model (ONNX Runtime where installed); stored vectors are the
  stand-in's.

Per stage: seconds, and the peak resident memory of this process (the client) and of the Neo4j
process during the stage (sampled every 0.2 s from /proc). With two or more sizes, the growth
exponent ``b`` of ``seconds ~ a * arguments^b`` (least squares on logs) per stage.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import statistics
import threading
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


class WordVectorProxy:
    """A cheap stand-in for the embedder, built from the model's vectors of single words.

    Each distinct lower-cased word is embedded once by the real model (a one-word "sentence").
    A text's raw vector is the SIF-weighted sum of its word vectors (Arora et al. 2017: weight
    ``a / (a + p(w))``, ``p`` the word's frequency in the fitting sample, ``a = 1e-3``). Raw sums
    all point one way (mean pairwise similarity about .85, against .27 for the model), so
    :meth:`fit` centres them, removes their first principal component, normalises, and adds
    ``c`` times the model's mean direction, with ``c`` chosen so that the share of text pairs at
    similarity >= .60 (where clustering and SAME_AS work) matches the model's on the sample.
    Word order is lost; paraphrases that share or swap words stay close.
    """

    def __init__(self, model: Any, *, a: float = 1e-3) -> None:
        self.model = model
        self.model_id = model.model_id
        self.dimensions = model.dimensions
        self.device = "stand-in"
        self.loaded = True
        self.a = a
        self.vectors: dict[str, np.ndarray] = {}
        self.counts: Counter[str] = Counter()
        self.total = 1
        self.word_seconds = 0.0
        self.centre = np.zeros(self.dimensions)
        self.component = np.zeros(self.dimensions)
        self.direction = np.zeros(self.dimensions)
        self.c = 0.0

    def _raw(self, texts: Sequence[str]) -> np.ndarray:
        tokenised = [_WORDS.findall(text.lower()) for text in texts]
        new = sorted({w for words in tokenised for w in words} - self.vectors.keys())
        if new:
            clock = time.perf_counter()
            for word, vector in zip(new, self.model.embed(new, use_cache=False), strict=True):
                self.vectors[word] = vector
            self.word_seconds += time.perf_counter() - clock
        out = np.zeros((len(texts), self.dimensions))
        for row, words in enumerate(tokenised):
            if words:
                weights = np.array([self.a / (self.a + self.counts[w] / self.total) for w in words])
                out[row] = weights @ np.vstack([self.vectors[w] for w in words])
        return out

    def _finish(self, raw: np.ndarray, c: float) -> np.ndarray:
        x = raw - self.centre
        x -= np.outer(x @ self.component, self.component)
        x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
        x += c * self.direction
        return (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)).astype(np.float32)

    def fit(self, texts: Sequence[str], real: np.ndarray, pairs: np.ndarray) -> None:
        for text in texts:
            self.counts.update(_WORDS.findall(text.lower()))
        self.total = max(1, sum(self.counts.values()))
        raw = self._raw(texts)
        self.centre = raw.mean(axis=0)
        self.component = np.linalg.svd(raw - self.centre, full_matrices=False)[2][0]
        mean = real.mean(axis=0)
        self.direction = mean / np.linalg.norm(mean)
        target = np.mean(np.sum(real[pairs[:, 0]] * real[pairs[:, 1]], axis=1) >= 0.60)
        low, high = 0.0, 4.0
        for _ in range(30):  # the share of pairs >= .60 grows with c
            self.c = (low + high) / 2
            v = self._finish(raw, self.c)
            share = np.mean(np.sum(v[pairs[:, 0]] * v[pairs[:, 1]], axis=1) >= 0.60)
            low, high = (self.c, high) if share < target else (low, self.c)

    def embed(self, texts: Sequence[str], **_: Any) -> np.ndarray:
        return self._finish(self._raw(texts), self.c)


class TimedQueries:
    """The stand-in for query texts, after the real query embedder has embedded them too, so that
    a query's time includes the model's work while its vector lives in the stand-in's space."""

    def __init__(self, asker: Any, proxy: WordVectorProxy) -> None:
        self.asker, self.proxy = asker, proxy

    def __getattr__(self, name: str) -> Any:
        return getattr(self.proxy, name)

    def embed(self, texts: Sequence[str], **kwargs: Any) -> np.ndarray:
        self.asker.embed(texts, **kwargs)
        return self.proxy.embed(texts)


class PeakRss:
    """Samples VmRSS of some processes every ``interval`` seconds; ``peaks()`` since ``reset()``."""

    def __init__(self, pids: dict[str, int], interval: float = 0.2) -> None:
        self.pids, self.interval = pids, interval
        self._peak = dict.fromkeys(pids, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def rss_kib(pid: int) -> int:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            for name, pid in self.pids.items():
                self._peak[name] = max(self._peak[name], self.rss_kib(pid))

    def reset(self) -> None:
        self._peak = {name: self.rss_kib(pid) for name, pid in self.pids.items()}

    def peaks(self) -> dict[str, float]:
        return {name: kib / 1024 for name, kib in self._peak.items()}

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def calibrate(model: Any, proxy: WordVectorProxy, texts: list[str], seed: int) -> dict[str, float]:
    """Embed ``texts`` with the model (timed); fit the stand-in on half, compare on the other."""
    clock = time.perf_counter()
    real = model.embed(texts, use_cache=False)
    seconds = time.perf_counter() - clock
    half = len(texts) // 2
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, half, size=(40_000, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    proxy.fit(texts[:half], real[:half], pairs)
    real, stand_in = real[half:], proxy.embed(texts[half:])
    pairs = pairs[(pairs < len(real)).all(axis=1)]
    real_sim = np.sum(real[pairs[:, 0]] * real[pairs[:, 1]], axis=1)
    proxy_sim = np.sum(stand_in[pairs[:, 0]] * stand_in[pairs[:, 1]], axis=1)
    from scipy.stats import spearmanr

    return {
        "texts": len(texts),
        "model seconds per text": seconds / len(texts),
        "c": proxy.c,
        "cosine stand-in vs model (mean)": float(np.mean(np.sum(real * stand_in, axis=1))),
        "pairwise similarity Spearman": float(spearmanr(real_sim, proxy_sim).statistic),
        "pairs >= .60, model": float(np.mean(real_sim >= 0.60)),
        "pairs >= .60, stand-in": float(np.mean(proxy_sim >= 0.60)),
        "mean pairwise similarity, model": float(np.mean(real_sim)),
        "mean pairwise similarity, stand-in": float(np.mean(proxy_sim)),
    }


def growth(sizes: Sequence[int], seconds: Sequence[float]) -> float | None:
    """Least-squares slope of log(seconds) on log(size)."""
    points = [(math.log(n), math.log(s)) for n, s in zip(sizes, seconds, strict=True) if s > 0]
    if len(points) < 2:
        return None
    mx = statistics.mean(x for x, _ in points)
    my = statistics.mean(y for _, y in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


def sample_texts(driver: Any, label: str, n: int, seed: int) -> list[str]:
    """Texts of ``n`` units with ``label``, drawn by ``seed`` (the same draw on the same graph)."""
    ids = sorted(r["id"] for r in driver.execute_query(
        f"MATCH (u:{label}) RETURN id(u) AS id").records)  # fmt: skip
    chosen = random.Random(seed).sample(ids, min(max(1, n), len(ids)))
    rows = driver.execute_query(
        "UNWIND $ids AS i MATCH (u:Unit) WHERE id(u) = i RETURN u.text AS text", ids=chosen
    ).records
    return [r["text"] for r in rows]


def measure_queries(driver: Any, proxy: WordVectorProxy, args: argparse.Namespace) -> dict:
    """p50 / p95 ms of the default ranker (as ``argkb query`` runs it), of the same ranker
    reading every claim of each retrieved claim cluster (``QuerySettings(cluster_claims=0)``, the
    engine before the cap) and of BM25-only, over ``args.queries`` queries after ``args.warmup``,
    alternating per query; with each ranker's median and largest candidate count."""
    from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]

    from argkb.db import cypher
    from argkb.embed.model import Embedder
    from argkb.query import QueryEngine, QuerySettings
    from argkb.query.alignment import model_alignment
    from argkb.retrieve.lucene import lucene_query
    from bench import common

    queries = common.benchmark_queries(driver, args.queries + args.warmup, args.seed)
    proxy.embed(queries)  # the stand-in learns the queries' words now, not while timed
    asker = TimedQueries(Embedder.for_queries(cache=False), proxy)
    alignment = model_alignment(asker)  # type: ignore[arg-type]
    every = QuerySettings(cluster_claims=0)
    engines = {
        "default": QueryEngine(driver, asker, alignment=alignment),  # type: ignore[arg-type]
        "every claim": QueryEngine(driver, asker, alignment=alignment, settings=every),  # type: ignore[arg-type]
    }
    bm25 = cypher.load("query/premises_fulltext")
    ms: dict[str, list[float]] = {name: [] for name in (*engines, "bm25")}
    candidates: dict[str, list[int]] = {name: [] for name in engines}
    # one BLAS thread, as argkb query and argkb serve run (argkb.blas.one_blas_thread)
    with threadpool_limits(1):
        for position, text in enumerate(queries):
            for name, engine in engines.items():
                clock = time.perf_counter()
                answer = engine.query(text, k=args.k, ranker="hybrid")
                if position >= args.warmup:
                    ms[name].append(1000 * (time.perf_counter() - clock))
                    candidates[name].append(answer.candidates)
            clock = time.perf_counter()
            driver.execute_query(bm25, {"text": lucene_query(text), "k": args.k})
            if position >= args.warmup:
                ms["bm25"].append(1000 * (time.perf_counter() - clock))
    result: dict[str, Any] = {
        name: {"p50": common.percentile(v, 50), "p95": common.percentile(v, 95)}
        for name, v in ms.items()
    }
    for name, counts in candidates.items():
        result[name]["candidates p50"] = statistics.median(counts)
        result[name]["candidates max"] = max(counts)
    print("  query " + ", ".join(f"{name} p50/p95 {r['p50']:.0f}/{r['p95']:.0f} ms"
                                 for name, r in result.items()), flush=True)  # fmt: skip
    return result


def query_only(args: argparse.Namespace, model: Any) -> int:
    """The query stage alone on a kept instance (``--keep``), with today's code: the stand-in
    is fitted again on the same sample (``--seed``) before the queries."""
    from bench import common

    inst = common.reuse_instance(args.reuse, heap=args.heap, pagecache=args.pagecache)
    driver = inst.driver()
    try:
        proxy = WordVectorProxy(model)
        calibration = calibrate(model, proxy, sample_texts(driver, "Unit", args.sample, args.seed),
                                args.seed)  # fmt: skip
        units = driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
        load = os.getloadavg()[0]
        measured = measure_queries(driver, proxy, args)
        print(f"{units:,} units in {args.reuse}; stand-in cosine to model "
              f"{calibration['cosine stand-in vs model (mean)']:.3f}; load average {load:.1f} "
              f"before, {os.getloadavg()[0]:.1f} after; {json.dumps(measured)}")  # fmt: skip
    finally:
        driver.close()
        inst.stop()
    return 0


def model_extrapolated(
    driver: Any, model: Any, args: argparse.Namespace, result: dict[str, Any]
) -> WordVectorProxy:
    """The embed stage with the real model, extrapolated from ``--sample`` units and a quarter
    as many claims' negations (into ``result``); returns the stand-in, fitted on the sample."""
    from argkb.stance.features import negate

    arguments, units, claims = result["arguments"], result["units"], result["claims"]
    sample = sample_texts(driver, "Unit", args.sample, args.seed)
    negations = [negate(t) for t in sample_texts(driver, "Claim", args.sample // 4, args.seed)]
    proxy = WordVectorProxy(model)
    result["calibration"] = calibrate(model, proxy, sample, args.seed)
    clock = time.perf_counter()
    model.embed(negations, use_cache=False)
    per_negation = (time.perf_counter() - clock) / len(negations)
    per_unit = result["calibration"]["model seconds per text"]
    result["stages"]["embed, model (extrapolated)"] = {
        "seconds": per_unit * units + per_negation * claims,
        "extrapolated from": f"{len(sample)} units, {len(negations)} negations",
    }
    print(f"  {arguments:>7,} embed, model (extrapolated) "
          f"{result['stages']['embed, model (extrapolated)']['seconds']:8.0f} s "
          f"({per_unit * 1000:.0f} ms per unit)", flush=True)  # fmt: skip
    return proxy


def store_mib(home: Path) -> float:
    """MiB of the instance's data folder (the store and its indexes)."""
    return sum(f.stat().st_size for f in (home / "data").rglob("*") if f.is_file()) / 2**20


def run_size(
    args: argparse.Namespace, arguments: int, model: Any, done: list[dict[str, Any]]
) -> dict[str, Any]:
    from argkb import pipeline
    from argkb.db.schema import init_schema
    from bench import common
    from synthcorpus import Shape, write_json

    result: dict[str, Any] = {"arguments": arguments, "stages": {}, "load average": []}
    corpus = args.workdir / f"synth-long-{arguments}-{args.seed}.json"
    if not corpus.exists():
        write_json(corpus, arguments, seed=args.seed, shape=Shape())
    result["corpus MiB"] = corpus.stat().st_size / 2**20
    result["load average"].append(os.getloadavg()[0])

    with common.instance(f"pipeline-{arguments}", heap=args.heap, pagecache=args.pagecache,
                         keep=args.keep) as inst:  # fmt: skip
        driver = inst.driver()
        rss = PeakRss({"client": os.getpid(), "neo4j": inst.pid or 0})

        @contextmanager
        def stage(name: str) -> Any:
            while args.pause_file and args.pause_file.exists():  # between stages, not timed
                time.sleep(5)
            rss.reset()
            clock = time.perf_counter()
            yield
            seconds = time.perf_counter() - clock
            peaks = rss.peaks()
            memory = {f"{who} MiB": mib for who, mib in peaks.items()}
            result["stages"][name] = {"seconds": seconds, **memory}
            if args.out:  # after every stage, so that a run cut short leaves what it measured
                args.out.write_text(json.dumps([*done, result], indent=1, default=str))
            print(
                f"  {arguments:>7,} {name:<24} {seconds:8.1f} s  client "
                f"{peaks['client']:6.0f} MiB  neo4j {peaks['neo4j']:6.0f} MiB",
                flush=True,
            )

        try:
            init_schema(driver, dimensions=model.dimensions)
            with stage("load"):
                # the schema is made above, with the model's vector size
                summary = pipeline.load(driver, None, "argsme", [corpus], init=False)
            units = driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n").records[0]["n"]
            claims = driver.execute_query("MATCH (c:Claim) RETURN count(c) AS n").records[0]["n"]
            result.update(units=units, claims=claims, loaded_arguments=summary.arguments)

            # embed: the real model on a sample (extrapolated), the stand-in for every unit
            proxy = model_extrapolated(driver, model, args, result)
            with stage("embed, store (stand-in)"):
                pipeline.embed(driver, None, proxy)  # type: ignore[arg-type]
            result["stand-in word seconds"] = proxy.word_seconds
            result["stand-in words"] = len(proxy.vectors)

            with stage("cluster"):
                clustered = pipeline.cluster(driver, None, rebuild=True, knn_method=args.knn)
                for run in clustered.runs:
                    result[f"{run.kind} clusters"] = run.stats
                    result[f"{run.kind} cluster seconds"] = run.seconds
                    result[f"{run.kind} knn"] = run.knn
                result["same_as seconds"] = clustered.same_as_seconds
                print(f"  {arguments:>7,} cluster: claims {result['claim knn']} "
                      f"{result['claim cluster seconds']['knn']:.0f} s, premises "
                      f"{result['premise knn']} {result['premise cluster seconds']['knn']:.0f} s "
                      f"(neighbours); SAME_AS {result['same_as seconds']:.0f} s",
                      flush=True)  # fmt: skip
            with stage("pagerank"):
                pipeline.pagerank(driver, None)
            result["load average"].append(os.getloadavg()[0])

            with stage("query (all)"):
                result["query"] = measure_queries(driver, proxy, args)
            result["store MiB"] = store_mib(inst.home)
        finally:
            rss.close()
            driver.close()
    result["load average"].append(os.getloadavg()[0])
    return result


def report(results: list[dict[str, Any]]) -> str:
    from bench import common

    sizes = [r["arguments"] for r in results]
    stages = list(results[0]["stages"])
    lines = [common.markdown_table(
        ["stage", *[f"{n:,} s" for n in sizes], "growth b", "peak client MiB", "peak Neo4j MiB"],
        [[name,
          *[f"{r['stages'][name]['seconds']:.1f}" for r in results],
          common.fmt_float(growth(sizes, [r["stages"][name]["seconds"] for r in results]), 2),
          " / ".join(f"{r['stages'][name].get('client MiB', float('nan')):.0f}" for r in results),
          " / ".join(f"{r['stages'][name].get('neo4j MiB', float('nan')):.0f}" for r in results)]
         for name in stages],
    )]  # fmt: skip
    lines.append("")
    lines.append(common.markdown_table(
        ["arguments", "units", "claims", "corpus MiB", "store MiB", "default p50/p95 ms",
         "every claim p50/p95 ms", "BM25 p50/p95 ms", "stand-in cos to model",
         "pairwise Spearman", "load avg"],
        [[f"{r['arguments']:,}", f"{r['units']:,}", f"{r['claims']:,}", f"{r['corpus MiB']:.0f}",
          f"{r['store MiB']:.0f}",
          f"{r['query']['default']['p50']:.0f} / {r['query']['default']['p95']:.0f}",
          " / ".join(f"{r['query'].get('every claim', {}).get(q, float('nan')):.0f}"
                     for q in ("p50", "p95")),
          f"{r['query']['bm25']['p50']:.0f} / {r['query']['bm25']['p95']:.0f}",
          f"{r['calibration']['cosine stand-in vs model (mean)']:.3f}",
          f"{r['calibration']['pairwise similarity Spearman']:.3f}",
          " -> ".join(f"{x:.1f}" for x in r["load average"])]
         for r in results],
    ))  # fmt: skip
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50000,100000,400000", help="arguments, comma-separated")
    parser.add_argument("--sample", type=int, default=400, help="units embedded by the model")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/argkb-bench-pipeline"))
    parser.add_argument("--heap", default="4g")
    parser.add_argument("--pagecache", default="4g")
    parser.add_argument("--keep", action="store_true", help="keep the instance folders")
    parser.add_argument(
        "--knn",
        default="auto",
        choices=["auto", "exact", "gds", "index"],
        help="how cluster_units finds neighbours (argkb cluster --knn)",
    )
    parser.add_argument(
        "--pause-file",
        type=Path,
        help="while this file exists, wait before the next stage (untimed; frees the machine "
        "for another benchmark)",
    )
    parser.add_argument(
        "--reuse",
        type=Path,
        help="a kept instance folder: run only the query stage on it, with today's code",
    )
    parser.add_argument("--out", type=Path, help="also write the results as JSON")
    args = parser.parse_args()

    from argkb.embed.model import Embedder
    from bench import common

    args.workdir.mkdir(parents=True, exist_ok=True)
    model = Embedder(cache=False)
    model.embed(["The model loads before anything is timed."], use_cache=False)
    print(common.machine(), flush=True)
    if args.reuse:
        return query_only(args, model)
    results: list[dict[str, Any]] = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        results.append(run_size(args, size, model, results))
        if args.out:
            args.out.write_text(json.dumps(results, indent=1, default=str))
    print()
    print(report(results))
    for r in results:
        print(
            f"\n{r['arguments']:,} arguments: calibration {json.dumps(r['calibration'])}; "
            f"claim clusters ({r.get('claim knn')}) {r['claim clusters']}; premise clusters "
            f"({r.get('premise knn')}) {r['premise clusters']}; cluster seconds: claims "
            f"{r.get('claim cluster seconds')}, premises {r.get('premise cluster seconds')}, "
            f"SAME_AS {r.get('same_as seconds')}; "
            f"stand-in words {r['stand-in words']:,} embedded in "
            f"{r['stand-in word seconds']:.0f} s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
