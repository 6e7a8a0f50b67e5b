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
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import (
    admin_import,
    child,
    driver,
    fmt_float,
    fmt_int,
    graph_totals,
    instance,
    load_average,
    machine,
    markdown_table,
    process_cpu_seconds,
    rss_peak_mib,
    schema_after_import,
)

GOAL_RATE = 15_000  # elements per second, argkb's loader
GOAL_ADMIN_FACTOR = 5  # argkb within 5x of neo4j-admin import
GOAL_FLAT = 1.5  # peak traced memory may grow at most this much from the smallest to largest size

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


def accepted_records(path: Path) -> Iterator[Any]:
    """The loader records of ``path`` that argkb's load writes: valid, argument ids first seen.

    For the baselines (b) and (c), so that they write exactly argkb's graph. The set of seen ids
    grows with the corpus; that is fine for a baseline, not for argkb's loader.
    """
    from argkb.ingest import DEFAULT_MAX_TEXT, validate
    from argkb.loaders import reader
    from argkb.loaders.records import ArgumentRecord, Rejected

    seen: set[str] = set()
    for record in reader("argsme")([path]):
        if isinstance(record, Rejected) or validate(record, DEFAULT_MAX_TEXT):
            continue
        if isinstance(record, ArgumentRecord):  # argkb refuses repeated ids
            if record.aid in seen:
                continue
            seen.add(record.aid)
        yield record


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
    from argkb.loaders.records import ArgumentRecord, SourceRecord

    path, out = Path(spec["path"]), Path(spec["out"])
    out.mkdir(parents=True, exist_ok=True)
    cid = f"argsme:{content_hash([path])[:24]}"

    def work() -> dict[str, Any]:
        # pass 1: which units are claims / premises, and which arguments conclude each claim
        claim, premise = 1, 2
        role: dict[str, int] = {}
        concluders: dict[str, list[str]] = {}
        for record in accepted_records(path):
            if isinstance(record, ArgumentRecord):
                uid = record.conclusion.uid
                role[uid] = role.get(uid, 0) | claim
                concluders.setdefault(uid, []).append(record.aid)
                for p in record.premises:
                    role[p.uid] = role.get(p.uid, 0) | premise
        # pass 2: the rows, in argkb's write order (first text seen wins, as ON CREATE SET)
        names = [
            "units",
            "arguments",
            "sources",
            "corpus",
            "concludes",
            "premise_of",
            "from",
            "reuses",
        ]
        handles = {n: (out / f"{n}.csv").open("w", encoding="utf-8", newline="") for n in names}
        writers = {n: csv.writer(h, lineterminator="\n") for n, h in handles.items()}
        headers = {
            "units": ["uid:ID(Unit)", "text", "corpus", ":LABEL"],
            "arguments": ["aid:ID(Argument)", "stance", "corpus", ":LABEL"],
            "sources": ["sid:ID(Source)", "title", "url", "discussion", "corpus", ":LABEL"],
            "corpus": [
                "cid:ID(Corpus)",
                "format",
                "name",
                "status",
                "arguments",
                "units",
                "sources",
                "reuse_edges",
                ":LABEL",
            ],
            "concludes": [":START_ID(Argument)", ":END_ID(Unit)", ":TYPE"],
            "premise_of": [":START_ID(Unit)", ":END_ID(Argument)", "stance", ":TYPE"],
            "from": [":START_ID(Argument)", ":END_ID(Source)", ":TYPE"],
            "reuses": [":START_ID(Argument)", ":END_ID(Argument)", ":TYPE"],
        }
        for name, header in headers.items():
            writers[name].writerow(header)
        rows = dict.fromkeys(names, 0)
        multiline: set[str] = set()
        written_units: set[str] = set()
        sources: set[str] = set()
        n_arguments = reuse_edges = 0

        def unit(uid: str, text: str) -> None:
            if uid in written_units:
                return
            written_units.add(uid)
            labels = (
                "Unit"
                + (";Claim" if role[uid] & claim else "")
                + (";Premise" if role[uid] & premise else "")
            )
            if "\n" in text or "\r" in text:
                multiline.add("units")
            writers["units"].writerow([uid, text, cid, labels])
            rows["units"] += 1

        for record in accepted_records(path):
            if isinstance(record, SourceRecord):
                if record.sid in sources:
                    continue
                sources.add(record.sid)
                props = dict(record.properties)
                values = [props.get(k, "") for k in ("title", "url", "discussion")]
                if any("\n" in str(v) or "\r" in str(v) for v in values):
                    multiline.add("sources")
                writers["sources"].writerow([record.sid, *values, cid, "Source"])
                rows["sources"] += 1
                continue
            if not isinstance(record, ArgumentRecord):
                continue
            n_arguments += 1
            aid = record.aid
            writers["arguments"].writerow([aid, record.stance, cid, "Argument"])
            rows["arguments"] += 1
            unit(record.conclusion.uid, record.conclusion.text)
            writers["concludes"].writerow([aid, record.conclusion.uid, "CONCLUDES"])
            rows["concludes"] += 1
            reused: set[str] = set()
            first: dict[str, Any] = {}
            for p in record.premises:
                first.setdefault(p.uid, p)
            for p in first.values():
                unit(p.uid, p.text)
                writers["premise_of"].writerow([p.uid, aid, record.stance, "PREMISE_OF"])
                rows["premise_of"] += 1
                reused.update(a for a in concluders.get(p.uid, ()) if a != aid)
            for target in reused:
                writers["reuses"].writerow([aid, target, "REUSES"])
            rows["reuses"] += len(reused)
            reuse_edges += len(reused)
            if record.source is not None:
                if record.source not in sources:
                    sources.add(record.source)
                    writers["sources"].writerow([record.source, "", "", "", cid, "Source"])
                    rows["sources"] += 1
                writers["from"].writerow([aid, record.source, "FROM"])
                rows["from"] += 1
        counts = [n_arguments, len(written_units), len(sources), reuse_edges]
        writers["corpus"].writerow([cid, "argsme", path.name, "complete", *counts, "Corpus"])
        rows["corpus"] = 1
        for handle in handles.values():
            handle.close()
        node_files = ["units", "arguments", "sources", "corpus"]
        return {
            "arguments": n_arguments,
            "nodes": sum(rows[n] for n in node_files),
            "relationships": sum(rows[n] for n in names if n not in node_files),
            "node_files": [str(out / f"{n}.csv") for n in node_files],
            "rel_files": [str(out / f"{n}.csv") for n in names if n not in node_files],
            "multiline_files": [str(out / f"{n}.csv") for n in sorted(multiline)],
            "bytes": sum((out / f"{n}.csv").stat().st_size for n in names),
            "reuse_edges": reuse_edges,
        }

    return _measured(spec, work)


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


def _rate(elements: float, seconds: float) -> float:
    return elements / seconds if seconds > 0 else float("nan")


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

    report(args, results, memory)
    if not args.keep_data:
        shutil.rmtree(args.workdir, ignore_errors=True)
    return 0


def report(
    args: argparse.Namespace,
    results: dict[str, dict[str, Any]],
    memory: list[tuple[int, dict[str, Any]]],
) -> None:
    def elements(r: dict[str, Any]) -> int:
        return int(r["nodes"]) + int(r["relationships"])

    c = results.get("c")
    c_rate = _rate(elements(c), c["import_seconds"]) if c else None
    rows = []

    def row(name: str, r: dict[str, Any], seconds: float) -> float:
        rate = _rate(elements(r), seconds)
        traced = r.get("traced_peak_mib")
        rows.append(
            [
                name,
                fmt_int(r["arguments"]),
                fmt_int(elements(r)),
                fmt_float(seconds),
                fmt_int(rate),
                fmt_float(traced) if traced else "-",
                fmt_float(r["rss_peak_mib"]),
                f"{rate / c_rate:.3f}" if c_rate else "-",
            ]
        )
        return rate

    a = results["a"]
    a_rate = row("(a) argkb `load_records`", a, a["wall"])
    if "a_small" in results:
        row(
            "(a') argkb `load_records`, naive's subset",
            results["a_small"],
            results["a_small"]["wall"],
        )
        row("(b) naive: one `session.run` per record", results["b"], results["b"]["wall"])
    if c:
        row("(c) `neo4j-admin database import full` (import only)", c, c["import_seconds"])
        c_all = c["csv_seconds"] + c["import_seconds"] + c["schema_seconds"]
        row("(c) incl. CSV export and schema/index build", c, c_all)
    for size, r in memory:
        row(f"memory: (a) with tracemalloc, {size:,} arguments", r, r["wall"])
    headers = [
        "run",
        "arguments",
        "elements",
        "seconds",
        "elements/s",
        "peak Python MiB (tracemalloc)",
        "peak RSS MiB",
        "speed vs (c)",
    ]
    print("\n" + markdown_table(headers, rows))

    phases = a["phases"]
    write_el = a["nodes"] + a["relationships"] - a["reuse_edges"]
    prow = [
        ["hash (content hash of the file)", "0", fmt_float(phases["hash"]), "-"],
        [
            "write (records -> UNWIND batches)",
            fmt_int(write_el),
            fmt_float(phases["write"]),
            fmt_int(_rate(write_el, phases["write"])),
        ],
        [
            "reuse (REUSES edges)",
            fmt_int(a["reuse_edges"]),
            fmt_float(phases["reuse"]),
            fmt_int(_rate(a["reuse_edges"], phases["reuse"])),
        ],
        *(
            [
                [
                    "index (full-text indexes built after a bulk load)",
                    "0",
                    fmt_float(phases["index"]),
                    "-",
                ]
            ]
            if "index" in phases
            else []
        ),
        ["count (corpus summary)", "0", fmt_float(phases["count"]), "-"],
        [
            "total",
            fmt_int(elements(a)),
            fmt_float(phases["total"]),
            fmt_int(_rate(elements(a), phases["total"])),
        ],
    ]
    print("\nphases of (a):\n")
    print(markdown_table(["phase", "elements", "seconds", "elements/s"], prow))

    print("\nnotes:")
    print(
        f"- (a) graph: {a['arguments']:,} arguments, {a['units']:,} units, {a['sources']:,} "
        f"sources, {a['reuse_edges']:,} reuse edges; store {a['store_mib']:,.0f} MiB; "
        f"client CPU {a['client_cpu']:.0f} s, server CPU {a['server_cpu']:.0f} s over "
        f"{a['wall']:.0f} s wall; bulk mode (full-text indexes built after the load): "
        f"{'yes' if a.get('bulk') else 'no'}; load average {a['load']}"
    )
    for key, label in (("a_small", "(a')"), ("b", "(b)")):
        if key in results:
            r = results[key]
            extra = f"; REUSES query {r['reuse_seconds']:.1f} s" if key == "b" else ""
            print(
                f"- {label}: client CPU {r['client_cpu']:.1f} s, server CPU "
                f"{r['server_cpu']:.1f} s over {r['wall']:.1f} s wall{extra}; "
                f"load average {r['load']}"
            )
    if c:
        print(
            f"- (c): CSV export {c['csv_seconds']:.1f} s ({c['bytes'] / 2**20:,.0f} MiB, "
            f"peak Python RSS {c['rss_peak_mib']:,.0f} MiB), import {c['import_seconds']:.1f} s "
            f"(JVM peak RSS {c['import_rss_mib']:,.0f} MiB, --max-off-heap-memory=4G, "
            f"2 threads), schema + index population after start {c['schema_seconds']:.1f} s; "
            f"multiline CSV files: {len(c['multiline_files'])}; load average {c['load']}"
        )
        same = {
            k: (a["graph"].get(k), c["graph"].get(k))
            for k in sorted(set(a["graph"]) | set(c["graph"]))
        }
        print(
            "- counts, (a) argkb vs (c) imported: "
            + ", ".join(
                f"{k} {x:,} vs {y:,}" if x == y else f"{k} {x} vs {y} DIFFER"
                for k, (x, y) in same.items()
            )
        )
        equal = all(x == y for x, y in same.values())
        print(
            "- graphs of (a) and (c) have equal node and relationship counts: "
            + ("yes" if equal else "NO")
        )
    for size, r in memory:
        phases = ", ".join(f"{k} {v:.1f} s" for k, v in r["phases"].items())
        print(
            f"- memory {size:,}: traced peak {r['traced_peak_mib']:.1f} MiB, RSS before load "
            f"{r['rss_before_mib']:.0f} MiB, peak {r['rss_peak_mib']:.0f} MiB; phases {phases}; "
            f"client CPU {r['client_cpu']:.0f} s, server CPU {r['server_cpu']:.0f} s; "
            f"load average {r['load']}"
        )

    print("\ngoals:")
    print(
        f"- argkb sustains >= {GOAL_RATE:,} elements/s: {a_rate:,.0f} -> "
        f"{'met' if a_rate >= GOAL_RATE else 'NOT met'}"
    )
    if c_rate:
        factor = c_rate / a_rate
        print(
            f"- argkb within {GOAL_ADMIN_FACTOR}x of neo4j-admin import: (c) is {factor:.1f}x "
            f"faster -> {'met' if factor <= GOAL_ADMIN_FACTOR else 'NOT met'}"
        )
    if len(memory) >= 2:
        (s0, m0), (s1, m1) = memory[0], memory[-1]
        growth = m1["traced_peak_mib"] / m0["traced_peak_mib"]
        rss_growth = (m1["rss_peak_mib"] - m1["rss_before_mib"]) / max(
            m0["rss_peak_mib"] - m0["rss_before_mib"], 1e-9
        )
        print(
            f"- memory flat in corpus size (traced peak grows <= {GOAL_FLAT}x from "
            f"{s0:,} to {s1:,} arguments): {m0['traced_peak_mib']:.1f} -> "
            f"{m1['traced_peak_mib']:.1f} MiB ({growth:.2f}x; RSS growth during the load "
            f"{rss_growth:.2f}x) -> {'met' if growth <= GOAL_FLAT else 'NOT met'}"
        )
    print(f"\nload average at end (1/5/15 min): {load_average()}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        spec = json.loads(sys.argv[2])
        print(json.dumps(WORKERS[spec["mode"]](spec)))
        sys.exit(0)
    sys.exit(main())
