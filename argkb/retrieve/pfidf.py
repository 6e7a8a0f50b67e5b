"""Ranking premise clusters by frequency and specificity (Dumani, Neumann & Schenkel, ECIR 2020).

Pure functions over the candidate set of one query; no Neo4j here.

Inputs are *edges*: premise ``p`` is used with stance ``s`` (pro/con) for claim ``c``. Each premise
belongs to a premise cluster ``pi(p)``, each claim to a claim cluster ``gamma(c)``.

* Premise frequency (Sec. 4.2, i): ``pf(p^s, c) = |{p'^s -> c' : p' in pi(p), c' in gamma(c)}|``,
  counted over the candidate edges, which hold every premise of every claim of each retrieved
  claim cluster, so the count is exact.
* Inverse claim frequency (ii): ``icf(p^s) = log(|Gamma| / cf_s(pi(p)))`` where ``cf_s`` is the
  number of claim clusters of the whole corpus that premises of ``pi(p)`` support (``s = pro``) or
  attack (``con``), precomputed per cluster by ``argkb cluster``.
* Eq. 5: ``P(p^s|c) = pf * icf / Z_c^s``, normalised over the premises used with stance ``s`` for
  claim ``c`` (a proper distribution per claim; the paper leaves ``Z`` open as it does not
  change the ranking for one claim, but it does across claims).
* Eq. 2: ``P(p^+|q) = sum_c P(c|q) (a_c P(p^+|c) + (1 - a_c) P(p^-|c))`` with the stance alignment
  ``a_c = P(q aligned c)``; symmetric for ``P(p^-|q)``.
* Eq. 3: ``P(pi^s|q) = sum_{p in pi} P(p^s|q)``; Eq. 4: ``P(pi|q)`` is their mean.

``P(c|q)`` is given per *claim* by the caller (see :mod:`argkb.retrieve.claims`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True)
class ClusterScores:
    """Per premise cluster (``clusters`` are the cluster labels used in the input)."""

    clusters: NDArray[np.int64]
    pro: NDArray[np.float64]  # P(pi^+|q), Eq. 3
    con: NDArray[np.float64]  # P(pi^-|q)
    both: NDArray[np.float64]  # P(pi|q), Eq. 4


@dataclass(frozen=True)
class EdgeTerms:
    """The numbers behind each candidate edge, for ``--explain``."""

    pf: NDArray[np.float64]
    icf: NDArray[np.float64]
    p_premise_given_claim: NDArray[np.float64]  # P(p^s|c), Eq. 5
    contribution: NDArray[np.float64]  # P(c|q) * P(p^s|c) (before alignment)


def edge_terms(
    premise_cluster: ArrayLike,
    claim: ArrayLike,
    claim_cluster: ArrayLike,
    stance_pro: ArrayLike,
    cluster_cf_pro: ArrayLike,
    cluster_cf_con: ArrayLike,
    n_claim_clusters: int,
    p_claim: ArrayLike,
) -> EdgeTerms:
    """pf, icf and P(p^s|c) for every candidate edge (one row per premise-claim-stance edge).

    Parameters
    ----------
    premise_cluster, claim, claim_cluster : array_like of int, shape (m,)
        Labels of each edge's premise cluster, claim and claim cluster.
    stance_pro : array_like of bool, shape (m,)
        True where the premise supports the claim, False where it attacks it.
    cluster_cf_pro, cluster_cf_con : array_like of float, shape (m,)
        Claim frequency ``cf_s`` of the edge's premise cluster (corpus-wide, Sec. 4.2 ii).
    n_claim_clusters : int
        ``|Gamma|``, the number of claim clusters in the corpus.
    p_claim : array_like of float, shape (m,)
        ``P(c|q)`` of the edge's claim.
    """
    import numpy as np

    pi = np.asarray(premise_cluster, dtype=np.int64)
    c = np.asarray(claim, dtype=np.int64)
    gamma = np.asarray(claim_cluster, dtype=np.int64)
    pro = np.asarray(stance_pro, dtype=bool)
    m = len(pi)
    if m == 0:
        empty = np.zeros(0)
        return EdgeTerms(empty, empty, empty, empty)
    # pf: edges sharing (premise cluster, claim cluster, stance)
    key = np.stack([pi, gamma, pro.astype(np.int64)], axis=1)
    _, group, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    pf = counts[group.ravel()].astype(np.float64)
    cf = np.where(pro, np.asarray(cluster_cf_pro, float), np.asarray(cluster_cf_con, float))
    cf = np.clip(cf, 1.0, None)  # the edge itself proves cf >= 1
    icf = np.log(max(n_claim_clusters, 1) / cf)
    # icf is 0 for a premise used for every claim cluster; keep a floor so such a premise is not
    # erased when it is the only one a claim has (log(|Gamma|/cf) >= log(1) = 0)
    icf = np.maximum(icf, 1e-6)
    weight = pf * icf
    # Z_c^s over the edges of the same claim and stance
    zkey = np.stack([c, pro.astype(np.int64)], axis=1)
    _, zgroup = np.unique(zkey, axis=0, return_inverse=True)
    z = np.bincount(zgroup.ravel(), weights=weight)
    p_given_claim = weight / z[zgroup.ravel()]
    contribution = np.asarray(p_claim, dtype=np.float64) * p_given_claim
    return EdgeTerms(pf, icf, p_given_claim, contribution)


def cluster_scores(
    premise_cluster: ArrayLike,
    stance_pro: ArrayLike,
    terms: EdgeTerms,
    alignment: ArrayLike | float = 1.0,
) -> ClusterScores:
    """Eq. 2-4: P(pi^+|q), P(pi^-|q) and P(pi|q) for every premise cluster among the edges.

    ``alignment`` is ``P(q aligned c)`` per edge (or one number); 1.0 treats every retrieved
    claim as having the query's stance, as Dumani et al. do in their experiments.
    """
    import numpy as np

    pi = np.asarray(premise_cluster, dtype=np.int64)
    pro = np.asarray(stance_pro, dtype=bool)
    a = np.broadcast_to(np.asarray(alignment, dtype=np.float64), pi.shape)
    contribution = terms.contribution
    # a supporting edge adds a * P(p+|c) to P(p+|q) and (1-a) * P(p+|c) to P(p-|q)
    to_pro = np.where(pro, a, 1.0 - a) * contribution
    to_con = np.where(pro, 1.0 - a, a) * contribution
    clusters, index = np.unique(pi, return_inverse=True)
    score_pro = np.bincount(index.ravel(), weights=to_pro, minlength=len(clusters)).astype(float)
    score_con = np.bincount(index.ravel(), weights=to_con, minlength=len(clusters)).astype(float)
    return ClusterScores(clusters, score_pro, score_con, (score_pro + score_con) / 2.0)
