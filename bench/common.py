"""Helpers the benchmarks share: a throw-away Neo4j, neo4j-admin import, timing, memory, tables.

Every benchmark starts its own managed instances on free ports in folders under ``/tmp`` (never
the user's instance on 7687) and deletes them afterwards unless asked to keep them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEAP = "4g"
PAGECACHE = "4g"
REPO = Path(__file__).resolve().parents[1]


def child(module: str, *args: str) -> dict[str, Any]:
    """``subprocess.run`` arguments that run bench module ``module`` (``bench.ingest``) again in
    a fresh Python process (``python -m``, from the repository root so that ``bench`` imports)."""
    return {"args": [sys.executable, "-m", module, *args], "cwd": REPO}


def data_parser(doc: str | None) -> argparse.ArgumentParser:
    """A script's parser with ``--data`` (a folder, required) and ``--uri`` (default: a
    throw-away instance, :func:`database`); the description is the docstring's first line."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--uri")
    return parser


def load_average() -> str:
    """The 1/5/15-minute load average, for table notes (the machine is shared)."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


def machine() -> str:
    """Cores, memory, Python, Java and the Neo4j/GDS versions argkb installs."""
    from argkb.db.distribution import GDS_VERSION, NEO4J_VERSION

    meminfo = Path("/proc/meminfo").read_text().splitlines()
    mem = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal")) / 2**20
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    java_line = java.splitlines()[0] if java else "java ?"
    return (
        f"{os.cpu_count()} cores, {mem:.0f} GiB RAM, Python {platform.python_version()}, "
        f"{java_line}, Neo4j {NEO4J_VERSION} Community (+ GDS {GDS_VERSION})"
    )


def rss_peak_mib(who: int = resource.RUSAGE_SELF) -> float:
    """High-water mark of the resident set (Linux reports KiB)."""
    return resource.getrusage(who).ru_maxrss / 1024


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` by nearest rank: a measured value, not interpolated."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def fmt_int(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def fmt_float(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "") -> str:
    """A GitHub markdown table; ``align`` has one of ``l``/``r`` per column (default: l, then r)."""
    align = align or "l" + "r" * (len(headers) - 1)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (from /proc; 0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Instance:
    """A managed Neo4j in its own folder; ``server.start()`` is up to the caller."""

    server: Any  # argkb.db.server.LocalServer
    home: Path

    @property
    def uri(self) -> str:
        return str(self.server.config.uri)

    @property
    def pid(self) -> int | None:
        return self.server.state().pid

    def start(self) -> float:
        return float(self.server.start(timeout=600).seconds)

    def driver(self) -> Any:
        """A driver for this instance, with the password argkb generated for it."""
        return driver(self.uri, instance_dir=self.home)

    def stop(self) -> None:
        self.server.stop(timeout=300)


@contextlib.contextmanager
def instance(
    name: str,
    *,
    keep: bool = False,
    heap: str = HEAP,
    pagecache: str = PAGECACHE,
    start: bool = True,
) -> Iterator[Instance]:
    """A fresh managed Neo4j under /tmp on a free port; stopped and deleted on exit."""
    from argkb.db.distribution import default_distribution
    from argkb.db.server import LocalServer, ServerConfig, free_port

    home = Path(tempfile.mkdtemp(prefix=f"argkb-bench-{name}-", dir="/tmp"))
    config = ServerConfig(home, bolt_port=free_port(), heap=heap, pagecache=pagecache)
    inst = Instance(LocalServer(default_distribution(), config), home)
    try:
        if start:
            inst.start()
        else:
            inst.server.write_config()
        yield inst
    finally:
        inst.stop()
        if keep:
            print(f"kept instance folder {home}", flush=True)
        else:
            shutil.rmtree(home, ignore_errors=True)


def reuse_instance(folder: Path, *, heap: str = HEAP, pagecache: str = PAGECACHE) -> Instance:
    """The managed instance kept in ``folder`` (a benchmark's workdir), started on a free port
    unless it already runs; the caller stops it."""
    import json

    from argkb.db.distribution import default_distribution
    from argkb.db.server import LocalServer, ServerConfig, free_port

    config = ServerConfig(folder, bolt_port=free_port(), heap=heap, pagecache=pagecache)
    if LocalServer(default_distribution(), config).state().running:  # keep its port
        port = int(json.loads(config.pid_file.read_text())["port"])
        config = ServerConfig(folder, bolt_port=port, heap=heap, pagecache=pagecache)
    inst = Instance(LocalServer(default_distribution(), config), folder)
    if not inst.server.state().running:
        inst.start()
    return inst


def benchmark_queries(drv: Any, count: int, seed: int, *, embedded: bool = True) -> list[str]:
    """``count`` distinct query texts near, but not equal to, stored claims: claims of the graph
    (with a vector, unless ``embedded`` is False), lower-cased, with their last word dropped."""
    import random

    conclusions = sorted({r["text"] for r in drv.execute_query(
        "MATCH (c:Claim) WHERE c.embedding IS NOT NULL OR NOT $embedded "
        "RETURN c.text AS text LIMIT 20000", embedded=embedded,
    ).records})  # fmt: skip
    picked = random.Random(seed).sample(conclusions, count)
    return [" ".join(text.lower().split()[:-1]) or text for text in picked]


def driver(uri: str, *, instance_dir: Path | str | None = None) -> Any:
    """A driver without server notifications (``id()`` deprecation, new property keys).

    Credentials: those of the managed instance in ``instance_dir`` (its generated password, read
    by :func:`argkb.db.server.managed_auth` as every argkb command does); for a ``uri`` given on
    the command line, what the argkb CLI would send (``NEO4J_USERNAME``/``NEO4J_PASSWORD``, or the
    managed default instance's password when the URI names it).
    """
    from neo4j import GraphDatabase

    if instance_dir is not None:
        from argkb.db.server import managed_auth

        auth = managed_auth(Path(instance_dir))
    else:
        from argkb.db.connect import resolve_target

        user, password = os.environ.get("NEO4J_USERNAME"), os.environ.get("NEO4J_PASSWORD")
        auth = resolve_target(uri, user, password, None, insecure=True).auth
    return GraphDatabase.driver(uri, auth=auth, notifications_min_severity="OFF")


@dataclass
class AdminImport:
    seconds: float
    returncode: int
    peak_rss_mib: float
    log: str


def admin_import(inst: Instance, args: Sequence[str], *, max_off_heap: str = "4G") -> AdminImport:
    """``neo4j-admin database import full <args> neo4j`` into a stopped, configured instance.

    Runs the import tool from the distribution's jars (``org.neo4j.cli.AdminTool``) with the
    instance as NEO4J_HOME; only the command itself is timed. The JVM's peak RSS comes from
    ``wait4``.
    """
    java = shutil.which("java")
    if java is None:
        raise RuntimeError("java is not on PATH")
    lib = inst.server.distribution.lib
    env = dict(os.environ, NEO4J_HOME=str(inst.home), NEO4J_CONF=str(inst.home / "conf"))
    cmd = [
        java,
        "-Xmx2g",
        "-cp",
        f"{lib}/*",
        "org.neo4j.cli.AdminTool",
        "database",
        "import",
        "full",
        "neo4j",
        f"--max-off-heap-memory={max_off_heap}",
        f"--report-file={inst.home / 'import.report'}",
        *args,
    ]
    log_path = inst.home / "import.log"
    with log_path.open("w") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return AdminImport(seconds, proc.returncode, usage.ru_maxrss / 1024, log_path.read_text())


def graph_totals(drv: Any) -> dict[str, int]:
    """Nodes per label and relationships per type (from the count store) plus totals."""
    from argkb.db.schema import graph_counts

    counts = graph_counts(drv)
    out = {f"node:{k}": v for k, v in counts["labels"].items()}
    out |= {f"rel:{k}": v for k, v in counts["relationships"].items()}
    out["nodes"] = drv.execute_query("MATCH (n) RETURN count(n) AS n").records[0]["n"]
    out["relationships"] = drv.execute_query("MATCH ()-[r]->() RETURN count(r) AS n").records[0][
        "n"
    ]
    return out


def schema_after_import(drv: Any) -> tuple[float, dict[str, int]]:
    """argkb's schema on an imported database, indexes populated: ``(seconds, graph_totals)``."""
    from argkb.db.schema import init_schema

    started = time.perf_counter()
    init_schema(drv)
    drv.execute_query("CALL db.awaitIndexes(3600)")
    seconds = time.perf_counter() - started
    return seconds, graph_totals(drv)


@contextlib.contextmanager
def database(
    uri: str | None, name: str, *, heap: str = "2g", pagecache: str = "1g"
) -> Iterator[Any]:
    """A driver for ``uri``, or for a throw-away instance (see :func:`instance`) when None."""
    if uri is not None:
        with driver(uri) as drv:
            yield drv
        return
    with instance(name, heap=heap, pagecache=pagecache) as inst, inst.driver() as drv:
        yield drv


def prepare_argkp(
    drv: Any, data: Path, split: str, embedder: Any, *, premise_cut: float | None = None
) -> None:
    """ArgKP ``split`` loaded, its units embedded, claims and premises clustered again from
    scratch (``argkb cluster --rebuild``, without SAME_AS edges, which queries do not read)."""
    from argkb import pipeline
    from argkb.embed.store import embed_collection
    from argkb.eval.argkp import collection, load_argkp

    load_argkp(drv, data, split=split)
    embed_collection(drv, embedder, collection(split))
    pipeline.cluster(drv, None, cuts={"premise": premise_cut}, rebuild=True, skip_same_as=True)
