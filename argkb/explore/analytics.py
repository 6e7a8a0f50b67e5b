"""``argkb analytics``: graph analytics with Neo4j GDS, written back for Bloom and Browser.

On the unit graph (units joined premise - conclusion through their arguments, and by SAME_AS):
Louvain communities (``Unit.community``), weakly connected components (``Unit.component``) and
betweenness centrality (``Unit.betweenness``); arguments take the community and component of their
conclusion. GDS PageRank (``Unit.gds_pagerank``) runs on the directed conclusion -> premise graph
of exact reuse, and its rank correlation with argkb's own ``Unit.pagerank`` is reported
(:func:`rank_correlation`). The projected GDS graphs are dropped afterwards, also on failure.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.db import cypher
from argkb.errors import ExploreError, ServerVersionError

if TYPE_CHECKING:
    import neo4j
    import neo4j.exceptions

logger = logging.getLogger(__name__)

PROCEDURES = (
    "gds.graph.project",
    "gds.graph.drop",
    "gds.louvain.write",
    "gds.wcc.write",
    "gds.betweenness.write",
    "gds.pageRank.write",
)
"""The GDS procedures argkb analytics calls (``gds.graph.project`` is the Cypher aggregation)."""

UNIT_PROPERTIES = ("community", "component", "betweenness", "gds_pagerank")
ARGUMENT_PROPERTIES = ("community", "component")


@dataclass(frozen=True)
class Correlation:
    """Rank agreement of two scores over the same units."""

    units: int
    kendall_tau: float
    spearman_rho: float


@dataclass(frozen=True)
class AnalyticsRun:
    units: int
    links: int
    communities: int
    modularity: float | None  # None where Louvain has no links to score (GDS gives NaN)
    components: int
    max_betweenness: float
    pagerank_iterations: int
    pagerank_converged: bool
    arguments: int
    correlation: Correlation | None


COMMUNITY_CONCURRENCY = 4  # GDS Community's limit on threads per algorithm


def _number(value: Any) -> float | None:
    """A float, or None for NaN (which JSON cannot carry)."""
    number = float(value)
    return None if math.isnan(number) else number


def rank_correlation(x: Sequence[float], y: Sequence[float]) -> Correlation | None:
    """Kendall's tau-b and Spearman's rho between two scores of the same items (SciPy).

    Both correct for ties. ``None`` when fewer than two items, or when either score is constant
    (no ranking to compare).
    """
    from scipy.stats import kendalltau, spearmanr

    if len(x) != len(y):
        raise ExploreError(f"rank_correlation needs equal lengths, got {len(x)} and {len(y)}")
    if len(x) < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    tau = kendalltau(x, y, variant="b").statistic
    rho = spearmanr(x, y).statistic
    return Correlation(len(x), float(tau), float(rho))


def _one(driver: neo4j.Driver, name: str, database: str | None, **params: Any) -> dict[str, Any]:
    from neo4j.exceptions import Neo4jError

    try:
        rows = cypher.read(driver, name, database=database, **params)
    except Neo4jError as err:
        raise _step_failed(name, err) from err
    return rows[0].data() if rows else {}


def _write(driver: neo4j.Driver, name: str, database: str | None, **params: Any) -> dict[str, Any]:
    from neo4j.exceptions import Neo4jError

    cypher.log_query(name, params)
    try:
        records, _, _ = driver.execute_query(cypher.load(name), params, database_=database)
    except Neo4jError as err:
        raise _step_failed(name, err) from err
    return records[0].data() if records else {}


def _step_failed(name: str, err: neo4j.exceptions.Neo4jError) -> ExploreError:
    """One line for a failed step (the server's Java text spans lines)."""
    return ExploreError(f"analytics step {name} failed: {' '.join(str(err.message).split())}")


def check_gds(driver: neo4j.Driver, database: str | None = None) -> None:
    """Fail with what to do when the server lacks a GDS procedure argkb analytics needs."""
    found = set(
        _one(driver, "analytics/procedures", database, needed=list(PROCEDURES)).get("found", [])
    )
    missing = [name for name in PROCEDURES if name not in found]
    if missing:
        raise ServerVersionError(
            f"the server lacks Graph Data Science ({', '.join(missing)}): install the GDS plugin "
            "(`argkb server install` does for the managed server) or use a server that has it"
        )


def run_analytics(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    damping: float = 0.85,
    tolerance: float = 1e-10,
    concurrency: int = 4,
    echo: Callable[[str], None] = lambda _msg: None,
) -> AnalyticsRun:
    """Run the analytics on the server and write their properties (see the module docstring)."""
    check_gds(driver, database)
    if concurrency > COMMUNITY_CONCURRENCY and not _one(driver, "analytics/licensed",
                                                        database).get("licensed"):  # fmt: skip
        raise ExploreError(f"concurrency {concurrency}: this server's GDS (Community) runs at "
                           f"most {COMMUNITY_CONCURRENCY} threads an algorithm")  # fmt: skip
    units = int(_one(driver, "analytics/unit_count", database).get("units", 0))
    if units == 0:
        raise ExploreError("the graph has no units: load a corpus first (argkb load ...)")
    token = uuid.uuid4().hex[:12]
    links_graph, support_graph = f"argkb-links-{token}", f"argkb-support-{token}"
    try:
        echo(f"projecting the unit graph ({units:,} units)")
        projected = _write(driver, "analytics/project_links", database, graph=links_graph)
        echo(f"  {projected['relationships'] // 2:,} links")
        echo("Louvain communities")
        louvain = _write(
            driver, "analytics/louvain", database, graph=links_graph, concurrency=concurrency
        )
        echo("weakly connected components")
        wcc = _write(driver, "analytics/wcc", database, graph=links_graph, concurrency=concurrency)
        echo("betweenness of units")
        between = _write(
            driver, "analytics/betweenness", database, graph=links_graph, concurrency=concurrency
        )
        _write(driver, "analytics/drop", database, graph=links_graph)
        echo("GDS PageRank")
        _write(driver, "analytics/project_support", database, graph=support_graph)
        pagerank = _write(
            driver, "analytics/pagerank", database, graph=support_graph, damping=damping,
            tolerance=tolerance, concurrency=concurrency,
        )  # fmt: skip
        arguments = _write(driver, "analytics/arguments", database)
    finally:
        for graph in (links_graph, support_graph):
            try:
                _write(driver, "analytics/drop", database, graph=graph)
            except ExploreError as err:  # the run's own error matters more than this one
                logger.warning("could not drop GDS graph %s: %s", graph, err)
    scores = cypher.read(driver, "analytics/scores", database=database)
    correlation = rank_correlation([r["argkb"] for r in scores], [r["gds"] for r in scores])
    return AnalyticsRun(
        units=units,
        links=int(projected["relationships"]) // 2,
        communities=int(louvain["communities"]),
        modularity=_number(louvain["modularity"]),
        components=int(wcc["components"]),
        max_betweenness=float(between["max"] or 0.0),
        pagerank_iterations=int(pagerank["iterations"]),
        pagerank_converged=bool(pagerank["converged"]),
        arguments=int(arguments.get("arguments", 0)),
        correlation=correlation,
    )
