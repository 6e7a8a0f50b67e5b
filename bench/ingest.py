"""Ingest throughput: argkb's loader against a naive per-record loop and neo4j-admin import.

    python -m bench ingest                      # 400k arguments, naive on 10k, memory at 100k/400k
    python -m bench ingest --quick              # 20k / 2k / memory at 5k and 20k: a sanity run
    python -m bench ingest --arguments 200000 --sizes 50000,200000 --skip-admin

A synthetic args.me corpus (:mod:`synthcorpus`) goes through

(a) argkb's loader (``argkb.loaders.reader("argsme")`` + :func:`argkb.ingest.load_records`) into a
    fresh managed Neo4j with the schema (``init_schema``), whole corpus (a large input into an empty
    graph is a bulk load: full-text indexes built after the writes, phase ``index``);
(a') the same loader on the first ``--naive-arguments`` arguments, the data of (b);
(b) the baseline the style guide warns about: one ``session.run`` (one auto-commit transaction) per
    record, writing the same graph shape (argument, conclusion and premise units with their
    labels, CONCLUDES, PREMISE_OF {stance}, FROM source; REUSES with argkb's query at the end);
(c) ``neo4j-admin database import full`` of CSV files holding exactly the graph of (a) (REUSES
    computed in Python), into a fresh stopped instance; only the import command is timed, the CSV
    export and the schema/index build after the import are reported beside it. The imported
    database is started and its node and relationship counts are compared with (a)'s.

Elements are nodes + relationships created (from the query counters; for (c) the rows imported).
Each load runs in a child process, so its peak RSS (``getrusage``) is its own; the memory rows
repeat (a) per ``--sizes`` with :mod:`tracemalloc` on (slower, so their seconds are not the
throughput). Every instance lives under /tmp on a free port and is deleted at the end.

The CSV export of (c) is :mod:`bench.ingest_csv`; the tables and goals, :mod:`bench.ingest_report`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import (
    admin_import,
    child,
    driver,
    graph_totals,
    instance,
    load_average,
    machine,
    process_cpu_seconds,
    rss_peak_mib,
    schema_after_import,
)
from bench.ingest_csv import accepted_records, write_csv
from bench.ingest_report import report

# The naive baseline: one statement per argument, the graph shape of cypher/ingest/arguments.cypher.
NAIVE_ARGUMENT = """
MERGE (a:Argument {aid: $aid})
SET a.stance = $stance, a.corpus = $cid
MERGE (c:Unit {uid: $conclusion.uid})
  ON CREATE SET c.text = $conclusion.text, c.corpus = $cid
SET c:Claim
MERGE (a)-[:CONCLUDES]->(c)
WITH a
UNWIND $premises AS p
MERGE (u:Unit {uid: p.uid})
  ON CREATE SET u.text = p.text, u.corpus = $cid
SET u:Premise
MERGE (u)-[r:PREMISE_OF]->(a)
SET r.stance = $stance
WITH DISTINCT a
WHERE $source IS NOT NULL
MERGE (s:Source {sid: $source})
MERGE (a)-[:FROM]->(s)
"""
NAIVE_SOURCE = """
MERGE (s:Source {sid: $sid})
SET s += $props, s.corpus = coalesce(s.corpus, $cid)
"""


# -- work done in child processes ----------------------------------------------------------------


def _measured(spec: dict[str, Any], work: Any) -> dict[str, Any]:
    """Run ``work()`` with optional tracemalloc, CPU clocks of client and server, wall time."""
    import tracemalloc

    rss_before = rss_peak_mib()
    server_cpu = process_cpu_seconds(spec["server_pid"]) if spec.get("server_pid") else 0.0
    if spec.get("trace"):
        tracemalloc.start()
    cpu, started = time.process_time(), time.perf_counter()
    out = work()
    out["wall"] = time.perf_counter() - started
    out["client_cpu"] = time.process_time() - cpu
    if spec.get("server_pid"):
        out["server_cpu"] = process_cpu_seconds(spec["server_pid"]) - server_cpu
    if spec.get("trace"):
        out["traced_peak_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    out["rss_before_mib"] = rss_before
    out["rss_peak_mib"] = rss_peak_mib()
    return out


def work_argkb(spec: dict[str, Any]) -> dict[str, Any]:
    from argkb.ingest import load_records
    from argkb.loaders import reader

    path = Path(spec["path"])
    with driver(spec["uri"], instance_dir=spec["instance"]) as drv:
        drv.verify_connectivity()

        def work() -> dict[str, Any]:
            s = load_records(drv, "argsme", [path], reader("argsme")([path]))
            return {
                "arguments": s.arguments,
                "units": s.units,
                "sources": s.sources,
                "reuse_edges": s.reuse_edges,
                "nodes": s.nodes_created,
                "relationships": s.relationships_created,
                "phases": s.seconds,
                "bulk": s.bulk,
            }

        return _measured(spec, work)


def work_naive(spec: dict[str, Any]) -> dict[str, Any]:
    from argkb.db import cypher
    from argkb.loaders.records import ArgumentRecord, SourceRecord

    path, cid = Path(spec["path"]), "argsme:naive"
    with driver(spec["uri"], instance_dir=spec["instance"]) as drv:
        drv.verify_connectivity()

        def work() -> dict[str, Any]:
            nodes = rels = arguments = 0
            with drv.session() as session:
                for record in accepted_records(path):
                    if isinstance(record, SourceRecord):
                        params: dict[str, Any] = {
                            "sid": record.sid,
                            "props": dict(record.properties),
                            "cid": cid,
                        }
                        counters = session.run(NAIVE_SOURCE, params).consume().counters
                    elif isinstance(record, ArgumentRecord):
                        arguments += 1
                        premises: dict[str, dict[str, str]] = {}
                        for p in record.premises:  # one row per uid, first text wins
                            premises.setdefault(p.uid, {"uid": p.uid, "text": p.text})
                        params = {
                            "aid": record.aid,
                            "stance": record.stance,
                            "cid": cid,
                            "conclusion": {
                                "uid": record.conclusion.uid,
                                "text": record.conclusion.text,
                            },
                            "premises": list(premises.values()),
                            "source": record.source,
                        }
                        counters = session.run(NAIVE_ARGUMENT, params).consume().counters
                    else:
                        continue
                    nodes += counters.nodes_created
                    rels += counters.relationships_created
                started = time.perf_counter()
                reuse = session.run(cypher.load("ingest/reuse")).consume().counters
                reuse_seconds = time.perf_counter() - started
            return {
                "arguments": arguments,
                "nodes": nodes,
                "relationships": rels + reuse.relationships_created,
                "reuse_edges": reuse.relationships_created,
                "reuse_seconds": reuse_seconds,
            }

        return _measured(spec, work)


def work_csv(spec: dict[str, Any]) -> dict[str, Any]:
    """Write argkb's graph of ``path`` as neo4j-admin CSV files (two streaming passes)."""
    from argkb.ingest import content_hash

    path, out = Path(spec["path"]), Path(spec["out"])
    out.mkdir(parents=True, exist_ok=True)
    cid = f"argsme:{content_hash([path])[:24]}"
    return _measured(spec, lambda: write_csv(path, out, cid))


WORKERS = {"argkb": work_argkb, "naive": work_naive, "csv": work_csv}


def in_child(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one worker in a fresh Python process (so its peak RSS is its own)."""
    done = subprocess.run(
        **child("bench.ingest", "--worker", json.dumps(spec)),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"worker {spec['mode']} failed with exit code {done.returncode}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


# -- orchestration -------------------------------------------------------------------------------


def corpus(workdir: Path, n: int, seed: int) -> Path:
    """The synthetic args.me JSON of ``n`` arguments (written once, reused by later runs)."""
    import synthcorpus

    path = workdir / f"argsme-{n}-seed{seed}.json"
    if not path.exists():
        started = time.perf_counter()
        synthcorpus.write_json(path, n, seed)
        size = path.stat().st_size / 2**20
        seconds = time.perf_counter() - started
        print(f"wrote {path} ({size:,.0f} MiB) in {seconds:.0f} s", flush=True)
    return path


def subset(big: Path, n: int) -> Path:
    """The first ``n`` arguments of ``big`` as their own args.me JSON file."""
    import ijson

    path = big.with_name(f"{big.stem}-first{n}.json")
    if not path.exists():
        with big.open("rb") as src, path.open("w", encoding="utf-8") as dst:
            dst.write('{"arguments": [\n')
            for i, obj in enumerate(ijson.items(src, "arguments.item", use_float=True)):
                if i == n:
                    break
                dst.write((",\n" if i else "") + json.dumps(obj, ensure_ascii=False))
            dst.write("\n]}\n")
    return path


def load_with(mode: str, path: Path, *, keep: bool, trace: bool = False) -> dict[str, Any]:
    """Fresh instance, schema, one load in a child process; graph counts afterwards."""
    from argkb.db.schema import init_schema

    with instance(mode, keep=keep) as inst, inst.driver() as drv:
        init_schema(drv)
        drv.execute_query("CALL db.awaitIndexes(600)")
        load_before = load_average()
        spec = {
            "mode": mode,
            "uri": inst.uri,
            "instance": str(inst.home),
            "path": str(path),
            "trace": trace,
            "server_pid": inst.pid,
        }
        result = in_child(spec)
        result["load"] = f"{load_before} -> {load_average()}"
        result["graph"] = graph_totals(drv)
        result["store_mib"] = _du_mib(inst.home / "data")
    return result


def _du_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def admin(path: Path, workdir: Path, *, keep: bool) -> dict[str, Any]:
    """(c): CSV export in a child, neo4j-admin import full, start, schema, counts."""
    out = workdir / f"csv-{path.stem}"
    shutil.rmtree(out, ignore_errors=True)
    load_before = load_average()
    exported = in_child({"mode": "csv", "path": str(path), "out": str(out)})
    with instance("admin", keep=keep, start=False) as inst:
        args = [f"--nodes={f}" for f in exported["node_files"]]
        args += [f"--relationships={f}" for f in exported["rel_files"]]
        if exported["multiline_files"]:
            args += [
                "--multiline-fields-format=v2",
                "--multiline-fields=" + ",".join(exported["multiline_files"]),
            ]
        load_import = load_average()
        done = admin_import(inst, args)
        if done.returncode != 0:
            print(done.log[-4000:], file=sys.stderr)
            raise RuntimeError(f"neo4j-admin import failed with exit code {done.returncode}")
        load_after = load_average()
        inst.start()
        with inst.driver() as drv:
            schema_seconds, graph = schema_after_import(drv)
        store = _du_mib(inst.home / "data")
    shutil.rmtree(out, ignore_errors=True)
    return {
        **exported,
        "csv_seconds": exported["wall"],
        "import_seconds": done.seconds,
        "import_rss_mib": done.peak_rss_mib,
        "schema_seconds": schema_seconds,
        "graph": graph,
        "store_mib": store,
        "load": f"{load_before} (csv) / {load_import} -> {load_after} (import)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--arguments", type=int, default=400_000, help="corpus size for (a), (c)")
    parser.add_argument("--naive-arguments", type=int, default=10_000, help="subset for (a'), (b)")
    parser.add_argument(
        "--sizes",
        default="100000,400000",
        help="comma-separated corpus sizes for the traced memory rows ('' skips)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="sanity run: 20k arguments, naive 2k, memory at 5k and 20k",
    )
    parser.add_argument("--skip-admin", action="store_true", help="no (c)")
    parser.add_argument("--skip-naive", action="store_true", help="no (a') and (b)")
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path("/tmp/argkb-bench-ingest"),
        help="corpora and CSV files (default /tmp/argkb-bench-ingest)",
    )
    parser.add_argument("--keep-data", action="store_true", help="keep the corpora in --workdir")
    parser.add_argument("--keep-instances", action="store_true", help="keep instance folders")
    args = parser.parse_args(argv)
    if args.quick:
        args.arguments, args.naive_arguments, args.sizes = 20_000, 2_000, "5000,20000"
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    keep = args.keep_instances
    args.workdir.mkdir(parents=True, exist_ok=True)

    print(f"date: {datetime.date.today()}; machine: {machine()}")
    print(f"command: python -m bench ingest {' '.join(argv if argv is not None else sys.argv[1:])}")
    print(f"load average at start (1/5/15 min): {load_average()}\n", flush=True)

    big = corpus(args.workdir, args.arguments, args.seed)
    results: dict[str, dict[str, Any]] = {}
    print(f"(a) argkb loader, {args.arguments:,} arguments ...", flush=True)
    results["a"] = load_with("argkb", big, keep=keep)
    if not args.skip_naive:
        small = subset(big, args.naive_arguments)
        print(f"(a') argkb loader, first {args.naive_arguments:,} arguments ...", flush=True)
        results["a_small"] = load_with("argkb", small, keep=keep)
        print(f"(b) naive loop, first {args.naive_arguments:,} arguments ...", flush=True)
        results["b"] = load_with("naive", small, keep=keep)
    if not args.skip_admin:
        print(f"(c) CSV + neo4j-admin import, {args.arguments:,} arguments ...", flush=True)
        results["c"] = admin(big, args.workdir, keep=keep)
    memory: list[tuple[int, dict[str, Any]]] = []
    for size in sizes:
        print(f"memory: argkb loader with tracemalloc, {size:,} arguments ...", flush=True)
        memory.append(
            (size, load_with("argkb", corpus(args.workdir, size, args.seed), keep=keep, trace=True))
        )

    report(results, memory)
    if not args.keep_data:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        spec = json.loads(sys.argv[2])
        print(json.dumps(WORKERS[spec["mode"]](spec)))
        sys.exit(0)
    sys.exit(main())
