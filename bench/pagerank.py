"""Argument PageRank: argkb's compute and round trip against the mat-vec bound, networkx and GDS.

    python -m bench pagerank                 # ArgRank-17 and 1,000,000 units / 5,000,000 edges
    python -m bench pagerank --quick         # ArgRank-17 and 50,000 units / 250,000 edges
    python -m bench pagerank --skip-argrank --units 200000 --edges 1000000 --arguments 400000

Per graph, one run of

(a) argkb's compute: :func:`argkb.rank.pagerank.build_argument_transition` and
    :func:`~argkb.rank.pagerank.power_iteration` (alpha 0.85, L1 tol 1e-10), timed separately;
(b) the lower bound for any power iteration on that matrix: iterations of (a) x the median time
    of one ``transition.matrix @ x`` (SciPy CSR mat-vec), on the matrix as built or on its
    canonical copy with parallel entries summed, whichever is faster;
(c) :func:`networkx.pagerank` (classic PageRank) on the same unit graph: edges conclusion ->
    premise with weight ``1 / |P_i|``, parallel edges summed (this equals argkb's adapted PageRank;
    the scores are compared), ``tol = 1e-10 / n`` (networkx stops at ``n * tol``), in a child
    process whose peak RSS is reported; ``--nx-max-edges`` caps it to the first arguments;
(d) GDS on the managed server: a Cypher projection (``gds.graph.project`` aggregation over
    ``(c)<-[:CONCLUDES]-(a)<-[:PREMISE_OF]-(p)`` with weight ``1 / |P_a|``) then
    ``gds.pageRank.write``, timed separately;
(e) argkb end to end: :func:`argkb.rank.store.run_pagerank` (export, build, iterate, write back).

Graphs: Webis-ArgRank-17 loaded with argkb's loader (``--argrank``), and a synthetic graph made
with NumPy (seeded): ``--units`` units of which ``--claim-share`` are claims, ``--arguments``
arguments with a conclusion drawn Zipf-skewed over the claims and a geometric number of premises
(``--edges`` in total, mean edges/arguments), each premise with probability ``--reuse-rate`` a
claim drawn Zipf-skewed (the reuse of conclusions as premises, EACL 2017 Fig. 3a), else a leaf
unit drawn uniformly; no self-loops, no repeated premise in an argument. It reaches Neo4j through
``neo4j-admin database import full`` (CSV) as ``(:Unit {uid})``, ``(:Argument {aid, stance})``,
CONCLUDES and PREMISE_OF {stance}; unit and argument texts are left out (PageRank never reads
them). Every instance lives under /tmp on a free port and is deleted at the end. The table and
goal lines of each graph are written by :mod:`bench.pagerank_report`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import (
    admin_import,
    child,
    instance,
    load_average,
    machine,
    rss_peak_mib,
    schema_after_import,
)
from bench.pagerank_report import table

ALPHA, TOL, MAX_ITER = 0.85, 1e-10, 200
GDS_GRAPH = "argkb-bench-units"

GDS_PROJECT = """
MATCH (c:Unit)
OPTIONAL MATCH (c)<-[:CONCLUDES]-(a:Argument)<-[:PREMISE_OF]-(p:Unit)
WITH c, p, CASE WHEN a IS NULL THEN 0.0 ELSE 1.0 / COUNT { (a)<-[:PREMISE_OF]-() } END AS w
WITH gds.graph.project($name, c, p, {relationshipProperties: {w: w}}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
"""
GDS_WRITE = """
CALL gds.pageRank.write($name, {relationshipWeightProperty: 'w', dampingFactor: $alpha,
                                maxIterations: $max_iter, tolerance: $tol,
                                writeProperty: 'pagerank_gds'})
YIELD ranIterations, didConverge, preProcessingMillis, computeMillis, writeMillis
RETURN ranIterations, didConverge, preProcessingMillis, computeMillis, writeMillis
"""
TOP = "MATCH (u:Unit) WHERE u[$p] IS NOT NULL RETURN u.uid AS uid ORDER BY u[$p] DESC LIMIT 100"
WARM = "MATCH (:Unit)<-[:CONCLUDES]-(a:Argument)<-[:PREMISE_OF]-(:Unit) RETURN count(*) AS n"


# -- the graph as arrays -----------------------------------------------------------------------


class Graph:
    """Units ``0..n-1``; argument ``i`` concludes ``conclusions[i]`` from a CSR premise set."""

    def __init__(self, n: int, conclusions: Any, indptr: Any, premises: Any) -> None:
        self.n, self.conclusions, self.indptr, self.premises = n, conclusions, indptr, premises

    @property
    def arguments(self) -> int:
        return int(self.conclusions.size)

    @property
    def edges(self) -> int:
        return int(self.premises.size)


def synthetic(
    n: int,
    edges: int,
    arguments: int,
    seed: int,
    *,
    claim_share: float,
    reuse_rate: float,
    conclusion_zipf: float,
    reuse_zipf: float,
) -> Graph:
    """The synthetic reuse graph described in the module docstring, exactly ``edges`` edges."""
    import numpy as np

    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)  # unit ids carry no rank order
    n_claims = max(1, int(n * claim_share))
    claims, leaves = perm[:n_claims], perm[n_claims:]
    sizes = rng.geometric(arguments / edges, arguments).astype(np.int64)
    while (diff := edges - int(sizes.sum())) != 0:  # adjust to exactly `edges`
        pool = np.flatnonzero(sizes > 1) if diff < 0 else np.arange(arguments)
        pick = rng.choice(pool, min(abs(diff), pool.size), replace=False)
        sizes[pick] += 1 if diff > 0 else -1

    def zipf(count: int, exponent: float) -> Any:
        weights = 1.0 / np.arange(1, n_claims + 1, dtype=np.float64) ** exponent
        cdf = np.cumsum(weights)
        return np.searchsorted(cdf, rng.random(count) * cdf[-1])

    conclusions = claims[zipf(arguments, conclusion_zipf)]
    owner = np.repeat(np.arange(arguments, dtype=np.int64), sizes)
    reuse = rng.random(edges) < reuse_rate
    premises = leaves[rng.integers(0, leaves.size, edges)]
    premises[reuse] = claims[zipf(int(reuse.sum()), reuse_zipf)]
    for _ in range(100):  # redraw self-loops and repeats within an argument as leaves
        bad = premises == conclusions[owner]
        key = owner * n + premises
        order = np.argsort(key, kind="stable")
        repeat = np.zeros(edges, dtype=bool)
        repeat[order[1:]] = key[order[1:]] == key[order[:-1]]
        bad |= repeat
        if not bad.any():
            break
        premises[bad] = leaves[rng.integers(0, leaves.size, int(bad.sum()))]
    indptr = np.zeros(arguments + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    return Graph(n, conclusions.astype(np.int64), indptr, premises.astype(np.int64))


def write_csv(graph: Graph, out: Path) -> tuple[list[str], list[str]]:
    """neo4j-admin CSV files of the graph in argkb's data model; returns node and rel files."""
    import numpy as np

    out.mkdir(parents=True, exist_ok=True)
    is_claim = np.zeros(graph.n, dtype=bool)
    is_claim[graph.conclusions] = True
    is_premise = np.zeros(graph.n, dtype=bool)
    is_premise[graph.premises] = True
    labels = np.array(["Unit", "Unit;Claim", "Unit;Premise", "Unit;Claim;Premise"])
    unit_labels = labels[is_claim.astype(int) + 2 * is_premise.astype(int)]
    owner = np.repeat(np.arange(graph.arguments), np.diff(graph.indptr))
    chunk = 1_000_000

    def dump(name: str, header: str, count: int, line: Any) -> str:
        path = out / f"{name}.csv"
        with path.open("w") as handle:
            handle.write(header + "\n")
            for start in range(0, count, chunk):
                handle.write("".join(line(start, min(start + chunk, count))))
        return str(path)

    nodes = [
        dump(
            "units",
            "uid:ID(Unit),:LABEL",
            graph.n,
            lambda a, b: (f"u{i},{unit_labels[i]}\n" for i in range(a, b)),
        ),
        dump(
            "arguments",
            "aid:ID(Argument),stance,:LABEL",
            graph.arguments,
            lambda a, b: (f"a{i},pro,Argument\n" for i in range(a, b)),
        ),
    ]
    conclusions, premises = graph.conclusions.tolist(), graph.premises.tolist()
    owners = owner.tolist()
    rels = [
        dump(
            "concludes",
            ":START_ID(Argument),:END_ID(Unit),:TYPE",
            graph.arguments,
            lambda a, b: (f"a{i},u{conclusions[i]},CONCLUDES\n" for i in range(a, b)),
        ),
        dump(
            "premise_of",
            ":START_ID(Unit),:END_ID(Argument),stance,:TYPE",
            graph.edges,
            lambda a, b: (f"u{premises[j]},a{owners[j]},pro,PREMISE_OF\n" for j in range(a, b)),
        ),
    ]
    return nodes, rels


# -- the measurements --------------------------------------------------------------------------


def compute(graph: Graph, repeats: int) -> dict[str, Any]:
    """(a) build and iterate, median of ``repeats``; (b) iterations x median mat-vec."""
    import numpy as np

    from argkb.rank.pagerank import build_argument_transition, power_iteration

    builds, iterates = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        transition = build_argument_transition(
            graph.n, graph.conclusions, graph.indptr, graph.premises
        )
        builds.append(time.perf_counter() - started)
        started = time.perf_counter()
        result = power_iteration(transition, alpha=ALPHA, tol=TOL, max_iter=MAX_ITER)
        iterates.append(time.perf_counter() - started)
    x = np.asarray(result.scores).copy()
    # The built matrix keeps parallel entries (see build_argument_transition); its canonical
    # copy (parallel entries summed, columns sorted) has fewer nonzeros. The bound takes the
    # faster of the two mat-vecs, so keeping parallel entries cannot loosen it.
    canonical = transition.matrix.copy()
    canonical.sum_duplicates()

    def median_matvec(matrix: Any) -> float:
        matvecs = []
        for _ in range(max(30, result.iterations)):
            started = time.perf_counter()
            matrix @ x
            matvecs.append(time.perf_counter() - started)
        return float(np.median(matvecs))

    matvec_built, matvec_canonical = median_matvec(transition.matrix), median_matvec(canonical)
    matvec = min(matvec_built, matvec_canonical)
    return {
        "build": float(np.median(builds)),
        "iterate": float(np.median(iterates)),
        "iterations": result.iterations,
        "residual": result.residual,
        "matvec": matvec,
        "matvec_built": matvec_built,
        "matvec_canonical": matvec_canonical,
        "bound": result.iterations * matvec,
        "nnz": int(transition.matrix.nnz),
        "nnz_canonical": int(canonical.nnz),
        "scores": result.scores,
        "load": load_average(),
    }


def compute_worker(npz: str, repeats: int) -> dict[str, Any]:
    """(a) in a child process (with OPENBLAS_NUM_THREADS=1, see :func:`compute_one_thread`)."""
    import numpy as np

    data = np.load(npz)
    graph = Graph(int(data["n"]), data["conclusions"], data["indptr"], data["premises"])
    result = compute(graph, repeats)
    return {k: v for k, v in result.items() if k != "scores"}


def compute_one_thread(graph: Graph, repeats: int, workdir: Path) -> dict[str, Any]:
    """(a) again in a child whose OpenBLAS runs one thread: a diagnostic, not argkb's default."""
    import numpy as np

    npz = workdir / "graph.npz"
    np.savez(
        npz, n=graph.n, conclusions=graph.conclusions, indptr=graph.indptr, premises=graph.premises
    )
    done = subprocess.run(
        **child("bench.pagerank", "--compute-worker", str(npz), str(repeats)),
        stdout=subprocess.PIPE,
        text=True,
        check=True,
        env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
    )
    npz.unlink()
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def nx_worker(npz: str, out: str) -> dict[str, Any]:
    """(c) in a child process: build a networkx DiGraph, run networkx.pagerank, save scores."""
    import networkx as nx
    import numpy as np

    data = np.load(npz)
    n = int(data["n"])
    started = time.perf_counter()
    graph: nx.DiGraph[int] = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(
        zip(data["src"].tolist(), data["dst"].tolist(), data["w"].tolist(), strict=True)
    )
    build = time.perf_counter() - started
    started = time.perf_counter()
    ranks = nx.pagerank(graph, alpha=ALPHA, tol=TOL / n, max_iter=1000, weight="weight")
    seconds = time.perf_counter() - started
    scores = np.zeros(n)
    scores[np.fromiter(ranks.keys(), dtype=np.int64)] = np.fromiter(ranks.values(), dtype=float)
    np.save(out, scores)
    return {"build": build, "pagerank": seconds, "rss_peak_mib": rss_peak_mib()}


def networkx_run(graph: Graph, max_edges: int, workdir: Path) -> dict[str, Any]:
    """(c): unit edges (aggregated parallel edges) to a child running networkx; compare scores."""
    import numpy as np

    from argkb.rank.pagerank import unit_edges

    sub, note = graph, ""
    if max_edges and graph.edges > max_edges:
        keep = int(np.searchsorted(graph.indptr, max_edges, side="right")) - 1
        sub = Graph(
            graph.n,
            graph.conclusions[:keep],
            graph.indptr[: keep + 1],
            graph.premises[: graph.indptr[keep]],
        )
        note = f"capped: first {keep:,} arguments, {sub.edges:,} edges"
    edges = unit_edges(sub.n, sub.conclusions, sub.indptr, sub.premises)
    key = edges.sources * sub.n + edges.targets
    pairs, inverse = np.unique(key, return_inverse=True)
    weights = np.bincount(inverse, weights=edges.weights)
    npz, out = workdir / "nx-graph.npz", workdir / "nx-scores.npy"
    np.savez(npz, n=sub.n, src=pairs // sub.n, dst=pairs % sub.n, w=weights)
    load_before = load_average()
    done = subprocess.run(
        **child("bench.pagerank", "--nx-worker", str(npz), str(out)),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return {"failed": f"networkx child exited with {done.returncode} (memory?)", "note": note}
    result = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    result.update(note=note, nx_edges=int(pairs.size), load=f"{load_before} -> {load_average()}")
    nx_scores = np.load(out)
    if sub is not graph:  # argkb on the same capped graph, for the comparison of scores and time
        result["capped"] = compute(sub, 1)
    result["nx_scores"] = nx_scores
    return result


def gds_run(drv: Any) -> dict[str, Any]:
    """(d): Cypher projection, then pageRank.write; the in-memory graph is dropped after."""
    drv.execute_query("CALL gds.graph.drop($name, false) YIELD graphName", name=GDS_GRAPH)
    load_before = load_average()
    started = time.perf_counter()
    projected = drv.execute_query(GDS_PROJECT, name=GDS_GRAPH).records[0]
    project = time.perf_counter() - started
    started = time.perf_counter()
    written = drv.execute_query(
        GDS_WRITE, name=GDS_GRAPH, alpha=ALPHA, max_iter=MAX_ITER, tol=TOL
    ).records[0]
    write = time.perf_counter() - started
    drv.execute_query("CALL gds.graph.drop($name, false) YIELD graphName", name=GDS_GRAPH)
    return {
        "project": project,
        "write_call": write,
        "nodes": projected["nodes"],
        "relationships": projected["relationships"],
        **written.data(),
        "load": f"{load_before} -> {load_average()}",
    }


def argkb_run(drv: Any) -> dict[str, Any]:
    """(e): run_pagerank end to end."""
    from argkb.rank.store import run_pagerank

    load_before = load_average()
    started = time.perf_counter()
    run = run_pagerank(drv, alpha=ALPHA, tol=TOL, max_iter=MAX_ITER)
    total = time.perf_counter() - started
    return {"run": run, "total": total, "load": f"{load_before} -> {load_average()}"}


def top_overlap(drv: Any) -> int:
    ours = {r["uid"] for r in drv.execute_query(TOP, p="pagerank").records}
    theirs = {r["uid"] for r in drv.execute_query(TOP, p="pagerank_gds").records}
    return len(ours & theirs)


def measure(
    name: str, graph: Graph, drv: Any, args: argparse.Namespace, workdir: Path
) -> dict[str, Any]:
    """All five measurements on one graph whose Neo4j copy ``drv`` reaches."""
    import numpy as np

    repeats = 5 if graph.edges < 1_000_000 else 1
    print(f"[{name}] (a)/(b) compute, {repeats} run(s) ...", flush=True)
    res: dict[str, Any] = {"graph": graph, "repeats": repeats, "a": compute(graph, repeats)}
    res["a1"] = compute_one_thread(graph, repeats, workdir)
    if not args.skip_networkx:
        print(f"[{name}] (c) networkx ...", flush=True)
        res["c"] = networkx_run(graph, args.nx_max_edges, workdir)
        c = res["c"]
        if "nx_scores" in c:
            ref = res["a"]["scores"] if "capped" not in c else c["capped"]["scores"]
            c["max_abs_diff"] = float(np.abs(c.pop("nx_scores") - ref).max())
    drv.execute_query(WARM)  # the page cache holds the graph for (d) and (e) alike
    if not args.skip_gds:
        print(f"[{name}] (d) GDS ...", flush=True)
        res["d"] = gds_run(drv)
    print(f"[{name}] (e) argkb run_pagerank ...", flush=True)
    res["e"] = argkb_run(drv)
    if "d" in res:
        res["overlap"] = top_overlap(drv)
    return res


# -- the graphs ----------------------------------------------------------------------------------


def argrank_graph(drv: Any, data: Path) -> tuple[Graph, float]:
    """Load Webis-ArgRank-17 with argkb's loader; the graph as argkb exports it."""
    from argkb.ingest import load_records
    from argkb.loaders import reader
    from argkb.rank.store import export_graph

    started = time.perf_counter()
    load_records(
        drv,
        "argrank",
        [data],
        reader("argrank")([data]),
        on_error="skip",
        reject_report=Path(tempfile.mkstemp(suffix=".jsonl")[1]),
    )
    seconds = time.perf_counter() - started
    exported = export_graph(drv)
    graph = Graph(
        exported.n_nodes, exported.conclusions, exported.premise_indptr, exported.premise_units
    )
    return graph, seconds


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--units", type=int, default=1_000_000)
    parser.add_argument("--edges", type=int, default=5_000_000, help="premise -> argument edges")
    parser.add_argument("--arguments", type=int, default=2_000_000)
    parser.add_argument("--claim-share", type=float, default=0.2)
    parser.add_argument("--reuse-rate", type=float, default=0.3)
    parser.add_argument("--conclusion-zipf", type=float, default=0.8)
    parser.add_argument("--reuse-zipf", type=float, default=1.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="50k units, 250k edges, 100k args")
    parser.add_argument("--argrank", type=Path, default=Path("/work/shared/data/webis-argrank-17"))
    parser.add_argument("--skip-argrank", action="store_true")
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--skip-networkx", action="store_true")
    parser.add_argument("--skip-gds", action="store_true")
    parser.add_argument(
        "--nx-max-edges",
        type=int,
        default=0,
        help="run networkx on the first arguments up to this many edges (0: all)",
    )
    parser.add_argument("--keep-instances", action="store_true")
    return parser


def run_argrank(args: argparse.Namespace, workdir: Path) -> str:
    """Webis-ArgRank-17 through argkb's loader into a fresh instance, measured; its table."""
    from argkb.db.schema import init_schema

    with instance("argrank", keep=args.keep_instances) as inst, inst.driver() as drv:
        init_schema(drv)
        graph, seconds = argrank_graph(drv, args.argrank)
        print(f"[ArgRank-17] loaded with argkb's loader in {seconds:.1f} s", flush=True)
        res = measure("ArgRank-17", graph, drv, args, workdir)
    return table("Webis-ArgRank-17", res)


def run_synthetic(args: argparse.Namespace, workdir: Path) -> str:
    """The synthetic graph through neo4j-admin import into a fresh instance, measured; its table."""
    started = time.perf_counter()
    graph = synthetic(
        args.units,
        args.edges,
        args.arguments,
        args.seed,
        claim_share=args.claim_share,
        reuse_rate=args.reuse_rate,
        conclusion_zipf=args.conclusion_zipf,
        reuse_zipf=args.reuse_zipf,
    )
    made = time.perf_counter() - started
    started = time.perf_counter()
    nodes, rels = write_csv(graph, workdir / "csv")
    csv_s = time.perf_counter() - started
    with instance("pagerank", keep=args.keep_instances, start=False) as inst:
        done = admin_import(
            inst,
            [*(f"--nodes={f}" for f in nodes), *(f"--relationships={f}" for f in rels)],
        )
        if done.returncode != 0:
            print(done.log[-4000:], file=sys.stderr)
            raise RuntimeError(f"neo4j-admin import failed ({done.returncode})")
        shutil.rmtree(workdir / "csv")
        inst.start()
        with inst.driver() as drv:
            schema_s, counts = schema_after_import(drv)
            print(
                f"[synthetic] arrays {made:.1f} s, CSV {csv_s:.1f} s, neo4j-admin "
                f"import {done.seconds:.1f} s, schema {schema_s:.1f} s; in Neo4j: "
                f"{counts['node:Unit']:,} units, {counts['node:Argument']:,} arguments, "
                f"{counts['rel:PREMISE_OF']:,} PREMISE_OF, {counts['rel:CONCLUDES']:,} "
                "CONCLUDES",
                flush=True,
            )
            assert counts["node:Unit"] == graph.n
            assert counts["rel:PREMISE_OF"] == graph.edges
            res = measure("synthetic", graph, drv, args, workdir)
    return table("Synthetic reuse graph", res)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.quick:
        args.units, args.edges, args.arguments = 50_000, 250_000, 100_000

    print(f"date: {datetime.date.today()}; machine: {machine()}")
    given = " ".join(argv if argv is not None else sys.argv[1:])
    print(f"command: python -m bench pagerank {given}")
    print(f"load average at start (1/5/15 min): {load_average()}\n", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="argkb-bench-pagerank-", dir="/tmp"))
    out: list[str] = []
    try:
        if not args.skip_argrank:
            out.append(run_argrank(args, workdir))
            print("\n" + out[-1] + "\n", flush=True)
        if not args.skip_synthetic:
            out.append(run_synthetic(args, workdir))
            print("\n" + out[-1] + "\n", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print("\n\n".join(out))
    print(f"\nload average at end (1/5/15 min): {load_average()}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compute-worker":
        print(json.dumps(compute_worker(sys.argv[2], int(sys.argv[3]))))
        sys.exit(0)
    if len(sys.argv) == 4 and sys.argv[1] == "--nx-worker":
        print(json.dumps(nx_worker(sys.argv[2], sys.argv[3])))
        sys.exit(0)
    sys.exit(main())
