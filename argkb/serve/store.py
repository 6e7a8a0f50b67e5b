"""The Neo4j reads of ``argkb serve``, every one under a timeout.

:class:`TimedDriver` wraps the shared driver so that each ``execute_query`` runs its text as a
``neo4j.Query`` with a transaction timeout: the browse reads here and the query engine's own reads
(through :func:`argkb.db.cypher.read`) alike. A read that runs past it fails on the server, which
the application answers with 504.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from argkb.db import cypher
from argkb.errors import ArgKBError
from argkb.errors import NotFound as NotFound  # defined with the family; importable from here too

if TYPE_CHECKING:
    import neo4j


class TimedDriver:
    """A driver whose ``execute_query`` always carries a transaction timeout.

    Everything else (sessions, ``verify_connectivity``, ``close``) goes to the wrapped driver.
    A query passed as a ``neo4j.Query`` keeps its own timeout.
    """

    def __init__(self, driver: neo4j.Driver, timeout: float) -> None:
        if timeout <= 0:
            raise ArgKBError(f"the database timeout must be positive, got {timeout}")
        self.wrapped = driver
        self.timeout = timeout

    def execute_query(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        from neo4j import Query

        if isinstance(query, str):
            query = Query(query, timeout=self.timeout)
        return self.wrapped.execute_query(query, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)

    def as_driver(self) -> neo4j.Driver:
        """This object typed as the driver it stands in for (the query engine's argument)."""
        return cast("neo4j.Driver", self)


EDGES_PER_NODE = 20
"""Edges a hop of :meth:`Store.graph` reads per unit it may keep (parallel arguments between
two units are an edge each)."""


class Store:
    """The reads behind the browse endpoints, on one (timed) driver and database."""

    def __init__(self, driver: neo4j.Driver, database: str | None = None) -> None:
        self.driver = driver
        self.database = database

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return [r.data() for r in cypher.read(self.driver, name, database=self.database, **params)]

    def ping(self) -> None:
        self._read("serve/ping")

    def status(self) -> dict[str, int]:
        return self._read("serve/status")[0]

    def unit(self, key: str, limit: int) -> dict[str, Any]:
        rows = self._read("serve/unit", key=key, limit=limit)
        if not rows:
            raise NotFound(f"no unit with key {key!r}: keys are the `key` fields of query results")
        return rows[0]

    def claim_arguments(self, key: str, limit: int) -> dict[str, Any]:
        rows = self._read("serve/claim_arguments", key=key, limit=limit)
        if not rows:
            raise NotFound(f"no unit with key {key!r}: keys are the `key` fields of query results")
        row = rows[0]
        if row["total"] == 0:
            raise NotFound(
                f"unit {key!r} is not a claim: no argument concludes it "
                f"(GET /api/v1/units/{key} lists the arguments it is a premise of)"
            )
        row["arguments"] = [a for a in row["arguments"] if a.get("aid") is not None]
        return row

    def cluster(self, cid: str, limit: int) -> dict[str, Any]:
        rows = self._read("serve/cluster", cid=cid, limit=limit)
        if not rows:
            raise NotFound(
                f"no cluster {cid!r}: cluster ids look like 'claim:12' or 'premise:7' "
                "(see a unit's `clusters`); run `argkb cluster` if there are none"
            )
        row = rows[0]
        row["members"] = [m for m in row["members"] if m.get("key") is not None]
        return row

    def graph(self, key: str, depth: int, max_nodes: int) -> dict[str, Any]:
        """The neighbourhood of unit ``key``: units within ``depth`` hops, and their edges.

        Breadth first, one read per hop of at most ``EDGES_PER_NODE * max_nodes`` edges; stops
        adding units at ``max_nodes``. ``truncated``: either limit cut the neighbourhood short
        (a hop that read as many edges as it may can have left edges, and units, unread).
        Edges are premise -> conclusion (one per argument; an undercut's premise -> the
        conclusion of the argument it attacks) and SAME_AS; only edges between kept
        units are returned.
        """
        start = self._read("serve/graph_start", key=key)
        if not start:
            raise NotFound(f"no unit with key {key!r}: keys are the `key` fields of query results")
        origin = start[0]["id"]
        hops: dict[str, int] = {origin: 0}
        edges: dict[tuple[str, str, str, str | None], dict[str, Any]] = {}
        frontier = [origin]
        truncated = False
        for hop in range(1, depth + 1):
            if not frontier:
                break
            cap = max_nodes * EDGES_PER_NODE
            rows = self._read("serve/graph_expand", ids=frontier, limit=cap)
            truncated = truncated or len(rows) >= cap
            following: list[str] = []
            for row in rows:
                for end in (row["source"], row["target"]):
                    if end in hops:
                        continue
                    if len(hops) >= max_nodes:
                        truncated = True
                        continue
                    hops[end] = hop
                    following.append(end)
                if row["source"] in hops and row["target"] in hops:
                    edges[(row["source"], row["target"], row["type"], row["argument"])] = row
            frontier = following
        nodes = {row["id"]: row for row in self._read("serve/graph_nodes", ids=list(hops))}
        keys = {eid: node["key"] for eid, node in nodes.items()}
        return {
            "key": key,
            "depth": depth,
            "truncated": truncated,
            "nodes": [
                {
                    "id": node["key"],
                    "text": node["text"],
                    "kind": _kind(node["is_claim"], node["is_premise"]),
                    "pagerank": node["pagerank"],
                    "depth": hops[eid],
                }
                for eid, node in sorted(nodes.items(), key=lambda item: (hops[item[0]], item[0]))
            ],
            "edges": [
                {
                    "source": keys[edge["source"]],
                    "target": keys[edge["target"]],
                    "type": edge["type"],
                    "stance": edge["stance"],
                    "argument": edge["argument"],
                }
                for edge in edges.values()
                if edge["source"] in keys and edge["target"] in keys
            ],
        }


def _kind(is_claim: bool, is_premise: bool) -> str:
    if is_claim and is_premise:
        return "claim+premise"
    return "claim" if is_claim else "premise" if is_premise else "unit"
