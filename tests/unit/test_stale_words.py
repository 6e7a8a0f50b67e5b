"""``argkb update``'s stale counts in words (its dry run and its progress lines)."""

from __future__ import annotations


def test_stale_counts_in_words_are_singular_for_one() -> None:
    from argkb.pipeline import describe

    assert describe({"units_without_embedding": 1, "corpora_since_sentences": 1}) == (
        "1 unit without embedding, 1 corpus since sentences"
    )
    assert describe({"premises_without_sentences": 2, "cluster_runs_interrupted": 1}) == (
        "2 premises without sentences, 1 cluster run interrupted"
    )
    assert describe({"corpora_since_cluster": 1_234}) == "1,234 corpora since cluster"
