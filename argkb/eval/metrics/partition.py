"""Agreement of two partitions (clusterings): adjusted Rand index, NMI and B-cubed."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, NamedTuple

from argkb.eval.metrics.ranking import MetricInputError

if TYPE_CHECKING:
    from scipy.sparse import coo_matrix


class BCubedScores(NamedTuple):
    """B-cubed precision, recall and their harmonic mean (Bagga & Baldwin, 1998)."""

    precision: float
    recall: float
    f1: float


def _codes(labels: Iterable[Hashable]) -> tuple[list[int], int]:
    """Integer codes for arbitrary hashable labels, and the number of distinct labels."""
    index: dict[Hashable, int] = {}
    codes = [index.setdefault(label, len(index)) for label in labels]
    return codes, len(index)


def _contingency(
    labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]
) -> tuple[coo_matrix, int]:
    """Sparse contingency table (rows: true classes, columns: predicted clusters) and n."""
    true_codes, n_true = _codes(labels_true)
    pred_codes, n_pred = _codes(labels_pred)
    if len(true_codes) != len(pred_codes):
        raise MetricInputError(
            f"label sequences differ in length: {len(true_codes)} and {len(pred_codes)}"
        )
    if not true_codes:
        raise MetricInputError("label sequences are empty")
    import numpy as np
    from scipy.sparse import coo_matrix

    table = coo_matrix(
        (
            np.ones(len(true_codes), dtype=np.int64),
            (np.asarray(true_codes), np.asarray(pred_codes)),
        ),
        shape=(n_true, n_pred),
    )
    table.sum_duplicates()
    return table, len(true_codes)


def adjusted_rand_index(labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]) -> float:
    """Adjusted Rand index of two partitions of the same items (Hubert & Arabie, 1985).

    With ``n_ij`` the contingency table, ``a_i`` and ``b_j`` its row and column sums and
    ``N = C(n, 2)``: ``ARI = (sum C(n_ij,2) - E) / ((sum C(a_i,2) + sum C(b_j,2)) / 2 - E)`` with
    ``E = sum C(a_i,2) * sum C(b_j,2) / N``. Computed in exact integer arithmetic. The index is
    symmetric and invariant under renaming of labels.

    Parameters
    ----------
    labels_true, labels_pred : iterable of hashable
        Cluster label of each item, same items in the same order.

    Returns
    -------
    float
        ARI in [-1, 1]; 1 for identical partitions, about 0 for independent ones. When the
        denominator vanishes (only if both partitions are all-singletons or both one cluster, or
        n = 1) the partitions agree and 1.0 is returned, as scikit-learn does.
    """
    table, n = _contingency(labels_true, labels_pred)

    def pairs(counts: Iterable[int]) -> int:
        return sum(int(c) * (int(c) - 1) // 2 for c in counts)

    together_both = pairs(table.data)
    together_true = pairs(table.sum(axis=1).A1)
    together_pred = pairs(table.sum(axis=0).A1)
    total = n * (n - 1) // 2
    numerator = 2 * (together_both * total - together_true * together_pred)
    denominator = total * (together_true + together_pred) - 2 * together_true * together_pred
    if denominator == 0:
        return 1.0
    return numerator / denominator


def normalized_mutual_information(
    labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]
) -> float:
    """Normalised mutual information with arithmetic-mean normalisation.

    ``NMI = I(U; V) / ((H(U) + H(V)) / 2)``, the normalisation of Manning, Raghavan & Schutze,
    IIR (2008), sec. 16.3, and of scikit-learn's default ``average_method="arithmetic"``. The
    logarithm base cancels. Symmetric and invariant under renaming of labels.

    Parameters
    ----------
    labels_true, labels_pred : iterable of hashable
        Cluster label of each item, same items in the same order.

    Returns
    -------
    float
        NMI in [0, 1]. 1.0 when both partitions are a single cluster (both entropies 0, as
        scikit-learn does); 0.0 when exactly one of them is.
    """
    table, n = _contingency(labels_true, labels_pred)
    n_true, n_pred = table.shape
    if n_true == 1 and n_pred == 1:
        return 1.0
    import numpy as np

    rows = table.sum(axis=1).A1.astype(float)
    cols = table.sum(axis=0).A1.astype(float)
    cells = table.data.astype(float)
    entropy_true = -float(np.sum(rows / n * np.log(rows / n)))
    entropy_pred = -float(np.sum(cols / n * np.log(cols / n)))
    mutual = float(
        np.sum(
            cells / n * (np.log(cells) + math.log(n) - np.log(rows[table.row] * cols[table.col]))
        )
    )
    # Rounding can push an exactly-zero mutual information slightly below 0.
    mutual = max(mutual, 0.0)
    return mutual / ((entropy_true + entropy_pred) / 2.0)


def bcubed(labels_true: Iterable[Hashable], labels_pred: Iterable[Hashable]) -> BCubedScores:
    """B-cubed precision, recall and F1 of a clustering against a reference (Bagga & Baldwin, 1998).

    Per item ``e`` with predicted cluster ``C(e)`` and reference class ``L(e)``:
    ``precision(e) = |C(e) & L(e)| / |C(e)|`` and ``recall(e) = |C(e) & L(e)| / |L(e)|``; both are
    averaged over all items with equal weight, and F1 is the harmonic mean of the two averages
    (Amigo et al., Information Retrieval 12, 2009). Via the contingency table:
    ``precision = sum_ij n_ij^2 / |C_j| / n`` and ``recall = sum_ij n_ij^2 / |L_i| / n``.

    Parameters
    ----------
    labels_true : iterable of hashable
        Reference class of each item.
    labels_pred : iterable of hashable
        Predicted cluster of each item, same items in the same order.

    Returns
    -------
    BCubedScores
        ``precision``, ``recall`` and ``f1``, each in (0, 1]. Swapping the arguments swaps
        precision and recall.
    """
    table, n = _contingency(labels_true, labels_pred)
    rows = table.sum(axis=1).A1.astype(float)
    cols = table.sum(axis=0).A1.astype(float)
    squared = table.data.astype(float) ** 2
    precision = float((squared / cols[table.col]).sum()) / n
    recall = float((squared / rows[table.row]).sum()) / n
    f1 = 2 * precision * recall / (precision + recall)
    return BCubedScores(precision, recall, f1)
