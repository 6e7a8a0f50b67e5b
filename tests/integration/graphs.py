"""Helpers shared by the ingest tests: load a file with argkb's loader, snapshot the graph."""

from __future__ import annotations

from pathlib import Path

from argkb.ingest import load_records
from argkb.loaders import reader

VOLATILE = {"created", "started", "finished", "load"}  # per-run markers: timestamps, run token


def load(driver, fmt: str, *paths: Path, **options):  # type: ignore[no-untyped-def]
    return load_records(driver, fmt, list(paths), reader(fmt)(list(paths)), **options)


def snapshot(driver) -> tuple:  # type: ignore[no-untyped-def]
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
