"""Helpers shared by the integration tests: load a file with argkb's loader, build the sample
corpus's graph, snapshot the graph, run a CLI command that must succeed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from neo4j import Driver

from argkb.ingest import LoadSummary, load_records
from argkb.loaders import reader

VOLATILE = {"created", "started", "finished", "load"}  # per-run markers: timestamps, run token
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"


def argkb_ok(neo4j_uri: str, *args: str) -> Any:
    """``argkb ARGS`` in process against ``neo4j_uri``; it must exit 0 without a traceback."""
    from click.testing import CliRunner

    from argkb.cli import main

    result = CliRunner().invoke(main, list(args), env={"NEO4J_URI": neo4j_uri})
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def load(driver: Driver, fmt: str, *paths: Path, **options: Any) -> LoadSummary:
    return load_records(driver, fmt, list(paths), reader(fmt)(list(paths)), **options)


def demo_graph(driver: Driver, embedder: Any, *, same_as: bool = False) -> Driver:
    """The sample corpus as ``make demo`` builds it: loaded, embedded, clustered (claims and
    premises; SAME_AS edges when ``same_as``) and ranked by PageRank. Returns ``driver``."""
    from argkb.cluster.store import cluster_units, link_same_as
    from argkb.db.schema import init_schema
    from argkb.embed.store import embed_units
    from argkb.rank.store import run_pagerank

    init_schema(driver)
    load(driver, "argsme", DEMO)
    embed_units(driver, embedder)
    cluster_units(driver, kind="claim")
    cluster_units(driver, kind="premise")
    if same_as:
        link_same_as(driver)
    run_pagerank(driver)
    return driver


def snapshot(driver: Driver) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The whole graph as sorted, comparable tuples (node keys instead of internal ids)."""
    nodes = driver.execute_query(
        "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props"
    ).records
    rels = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN coalesce(a.uid, a.aid, a.sid, a.cid) AS a, type(r) AS t, "
        "properties(r) AS props, coalesce(b.uid, b.aid, b.sid, b.cid) AS b"
    ).records
    node_rows = sorted(
        (tuple(sorted(r["labels"])),
         tuple(sorted((k, str(v)) for k, v in r["props"].items() if k not in VOLATILE)))
        for r in nodes
    )  # fmt: skip
    rel_rows = sorted((r["a"], r["t"], r["b"], tuple(sorted(r["props"].items()))) for r in rels)
    return tuple(node_rows), tuple(rel_rows)


def kill_load_midway(
    driver: Driver,
    neo4j_uri: str,
    script: str,
    corpus: Path,
    at: int = 500,
    env: dict[str, str] | None = None,
) -> int:
    """Run ``script`` (a load of ``corpus``) in a child process; SIGKILL it once ``at``
    arguments are in the graph. Returns how many were written when it was killed. ``env``:
    the child's environment (default: this one with ``NEO4J_URI``)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = env if env is not None else {**os.environ, "NEO4J_URI": neo4j_uri}
    proc = subprocess.Popen([sys.executable, "-c", script, str(corpus)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 120
    written = 0
    while time.monotonic() < deadline and proc.poll() is None:
        written = driver.execute_query("MATCH (a:Argument) RETURN count(a) AS n").records[0]["n"]
        if written >= at:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the load finished before it could be killed; use a larger corpus"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return int(written)
