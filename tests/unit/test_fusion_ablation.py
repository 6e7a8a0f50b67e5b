"""bench/fusion_ablation.py: the ablation's rows and the query-by-query lead."""

from __future__ import annotations

from argkb.query.rankers.hybrid_fusion import LINEAR_FEATURES
from argkb.query.settings import DEFAULT
from bench.fusion_ablation import lead, settings


def test_rows_are_the_shipped_weights_each_feature_alone_and_each_left_out() -> None:
    rows = settings()
    shipped = tuple(getattr(DEFAULT, f"linear_{n}") for n in LINEAR_FEATURES)
    assert rows["shipped"] == shipped
    for i, name in enumerate(LINEAR_FEATURES):
        alone = rows[f"{name} alone"]
        assert alone[i] == 1.0 and sum(alone) == 1.0
        if shipped[i]:
            without = rows[f"without {name}"]
            assert without[i] == 0.0
            assert [w for j, w in enumerate(without) if j != i] == [
                w for j, w in enumerate(shipped) if j != i
            ]
        else:
            assert f"without {name}" not in rows


def test_lead_counts_wins_ties_losses_and_the_mean_difference() -> None:
    shipped = {"q1": 0.5, "q2": 0.4, "q3": 0.3, "q4": 0.2}
    other = {"q1": 0.25, "q2": 0.4, "q3": 0.5}  # q4 missing from the other run: it scores 0
    # differences +.25, 0, -.2, +.2: mean +.0625
    assert lead(shipped, other) == "2/1/1 +0.062"
