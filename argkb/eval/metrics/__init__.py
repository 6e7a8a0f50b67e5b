"""Ranking and clustering metrics for evaluating argument retrieval.

Everything here is a pure function over plain Python sequences, mappings or numpy arrays; nothing
touches Neo4j. numpy and scipy are imported inside the functions that need them so that importing
this package (and therefore ``argkb --help``) stays instant.

Modules: :mod:`~argkb.eval.metrics.ranking` (DCG, nDCG@k, P@k, Kendall's tau),
:mod:`~argkb.eval.metrics.clusters` (Task A / Task B nDCG of Dumani et al., modified nDCG of
Fromm et al.) and :mod:`~argkb.eval.metrics.partition` (ARI, NMI, B-cubed); everything public is
re-exported here.

Two discounts are in use, and every nDCG function says which one it applies:

``"log2(i+1)"``
    The now-standard discount ``1 / log2(i + 1)`` for 1-based rank ``i`` (Burges et al., ICML 2005),
    used by :func:`ndcg_at_k` and :func:`modified_ndcg_at_k`.
``"log2(i)"``
    The discount of the original DCG of Jarvelin & Kekalainen (TOIS 2002) with log base 2: rank 1
    is not discounted and rank ``i >= 2`` is divided by ``log2(i)``, so ranks 1 and 2 both weigh 1.
    This is the discount of Dumani, Neumann & Schenkel, ECIR 2020, sec. 6.2 ("the discount for
    rank i is 1/log2(i) if i >= 2 and 1 otherwise"), the only one of the two that reproduces their
    worked example (nDCG = 0.92), and the default of :func:`task_b_ndcg_at_k` and
    :func:`task_a_ndcg_at_k`.

References
----------
Dumani, Neumann & Schenkel, "A Framework for Argument Retrieval: Ranking Argument Clusters by
Frequency and Specificity", ECIR 2020 (``papers/003``), sec. 6.2: Task A and Task B.
Fromm et al., "Diversity Aware Relevance Learning for Argument Search", ECIR 2021
(``papers/000``), sec. 4 and Table 1: the modified nDCG.
Wachsmuth, Stein & Ajjour, "PageRank for Argument Relevance", EACL 2017 (``papers/004``), sec. 6
and Table 2: Kendall's tau against the benchmark rankings.
Hubert & Arabie, "Comparing partitions", J. Classification 2 (1985): adjusted Rand index.
Bagga & Baldwin, "Algorithms for scoring coreference chains", LREC 1998 workshop: B-cubed.
Manning, Raghavan & Schutze, "Introduction to Information Retrieval" (2008), sec. 16.3: NMI.
"""

from argkb.eval.metrics.clusters import (
    TaskAScores,
    first_occurrence_gains,
    ideal_cluster_gains,
    modified_ndcg_at_k,
    task_a_ndcg_at_k,
    task_b_ndcg_at_k,
)
from argkb.eval.metrics.partition import (
    BCubedScores,
    adjusted_rand_index,
    bcubed,
    normalized_mutual_information,
)
from argkb.eval.metrics.ranking import (
    Discount,
    MetricInputError,
    dcg,
    kendall_tau,
    ndcg_at_k,
    precision_at_k,
)

__all__ = [
    "BCubedScores",
    "Discount",
    "MetricInputError",
    "TaskAScores",
    "adjusted_rand_index",
    "bcubed",
    "dcg",
    "first_occurrence_gains",
    "ideal_cluster_gains",
    "kendall_tau",
    "modified_ndcg_at_k",
    "ndcg_at_k",
    "normalized_mutual_information",
    "precision_at_k",
    "task_a_ndcg_at_k",
    "task_b_ndcg_at_k",
]
