"""The PageRank row under other modelling choices, computed in process on the exported graph."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from argkb.eval.argrank.scoring import (
    AGGREGATIONS,
    Shared,
    aggregate,
    conclusion_taus,
    mean_tau,
    per_premise,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from argkb.loaders.argrank import BenchmarkArgument


@dataclass
class Variant:
    """PageRank computed another way, scored like the PageRank row (mean tau per aggregation)."""

    key: str
    description: str
    tau: dict[str, float]
    iterations: int = 0


@dataclass
class GraphArrays:
    """The unit graph as arrays (:class:`argkb.rank.store.UnitGraph` fields that matter here)."""

    n_units: int
    conclusions: NDArray[np.int64]
    premise_indptr: NDArray[np.int64]
    premise_units: NDArray[np.int64]


def pagerank_variants(
    graph: GraphArrays,
    arguments: Sequence[BenchmarkArgument],
    index_of: Mapping[int, int],
    frequency: Mapping[int, int],
    premise_uses: Mapping[int, int],
    *,
    alpha: float = 0.85,
    shared: Shared = "pool",
    tol: float = 1e-12,
) -> list[Variant]:
    """The PageRank row under other modelling choices, computed in process on the same graph.

    Parameters
    ----------
    graph : GraphArrays
        The unit graph exported from Neo4j (dense unit indices).
    arguments : sequence of BenchmarkArgument
    index_of : mapping of int to int
        Webis-ArgRank-17 unit id -> dense unit index in ``graph``.
    frequency : mapping of int to int
        ``f(u)``, the number of AIFdb maps of each benchmark premise unit.
    premise_uses : mapping of int to int
        Number of arguments each benchmark premise unit is a premise of.
    alpha, shared : float, {"pool", "split"}
        The settings of the main run; each variant changes one thing (two for the last one).

    Returns
    -------
    list of Variant
        The main run recomputed in process with :func:`argkb.rank.pagerank.argument_pagerank`
        (it must match the Neo4j round trip), then one change each.
    """
    import numpy as np

    from argkb.rank.pagerank import argument_pagerank

    specs = _variant_specs(graph, alpha=alpha, shared=shared)

    computed: dict[str, tuple[NDArray[np.float64], int]] = {}

    def pagerank(changes: dict[str, Any]) -> tuple[NDArray[np.float64], int]:
        key = repr(
            sorted((k, id(v) if isinstance(v, np.ndarray) else v) for k, v in changes.items())
        )
        if key not in computed:
            options: dict[str, Any] = {
                "alpha": alpha,
                "shared": shared,
                "tol": tol,
                "max_iter": 20_000,
                **changes,
            }
            conclusions = options.pop("conclusions", graph.conclusions)
            indptr = options.pop("premise_indptr", graph.premise_indptr)
            result = argument_pagerank(
                graph.n_units, conclusions, indptr, graph.premise_units, **options
            )
            computed[key] = (result.scores, result.iterations)
        return computed[key]

    divisors = {
        "maps": {u: max(frequency[u], 1) for u in frequency},
        "uses": {u: max(premise_uses[u], 1) for u in frequency},
        "none": dict.fromkeys(frequency, 1),
    }
    variants = []
    for key, description, changes, norm in specs:
        scores, iterations = pagerank(changes)
        unit_score = {u: float(scores[index_of[u]]) / d for u, d in divisors[norm].items()}
        premise = per_premise(arguments, unit_score)
        tau = {
            agg: mean_tau(conclusion_taus(arguments, aggregate(premise, agg)))
            for agg in AGGREGATIONS
        }
        variants.append(Variant(key, description, tau, iterations))
    return variants


def _variant_specs(
    graph: GraphArrays, *, alpha: float, shared: Shared
) -> list[tuple[str, str, dict[str, Any], str]]:
    """The variants of :func:`pagerank_variants`: (key, description, changes to the PageRank
    arguments, premise normalisation "maps", "uses" or "none"), the main run first."""
    import numpy as np

    other: Shared = "split" if shared == "pool" else "pool"
    single_premise = {  # one argument per premise: the benchmark's premise sets split too
        "conclusions": np.repeat(graph.conclusions, np.diff(graph.premise_indptr)),
        "premise_indptr": np.arange(graph.premise_units.size + 1, dtype=np.int64),
    }
    in_argument = np.zeros(graph.n_units, dtype=np.float64)
    in_argument[graph.conclusions] = 1.0
    in_argument[graph.premise_units] = 1.0
    # (key, description, changes to the PageRank, premise normalisation)
    specs: list[tuple[str, str, dict[str, Any], str]] = [
        ("main", f"main run recomputed in process (shared={shared}, p(u) / f(u))", {}, "maps"),
        ("raw", "p(u) not divided by f(u)", {}, "none"),
        ("per_use", "p(u) divided by its number of premise uses instead of f(u)", {}, "uses"),
        (f"shared_{other}", f"shared={other}", {"shared": other}, "maps"),
        (
            f"shared_{other}_raw",
            f"shared={other} and p(u) not divided by f(u)",
            {"shared": other},
            "none",
        ),
        (
            "dangling_drop",
            "dangling mass dropped (the literal formula)",
            {"dangling": "drop"},
            "maps",
        ),
        (
            "edges_only",
            "one argument per edge, benchmark premise sets split too",
            single_premise,
            "maps",
        ),
        (
            "ground_in_arguments",
            f"ground relevance only on the {int(in_argument.sum()):,} units in some argument "
            f"(not on all {graph.n_units:,})",
            {"ground": in_argument},
            "maps",
        ),
    ]
    specs += [
        (f"alpha={a}", f"alpha = {a}", {"alpha": a}, "maps")
        for a in (0.5, 0.7, 0.9, 0.99)
        if not math.isclose(a, alpha)
    ]
    return specs
