"""``argkb.ranking.Ranking``: deduplication and the views, by property (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from argkb.ranking import Ranking

BOUNDED = settings(max_examples=100, deadline=1000)

# few distinct ids, so repeats within and across clusters are common
CLUSTERS = st.lists(st.lists(st.sampled_from("abcdefg"), min_size=1, max_size=4), max_size=7)


@st.composite
def rankings(draw: st.DrawFn) -> Ranking:
    clusters = draw(CLUSTERS)
    scores = draw(
        st.none()
        | st.lists(st.floats(allow_nan=False), min_size=len(clusters), max_size=len(clusters))
    )
    return Ranking(clusters, scores)


@BOUNDED
@given(rankings())
def test_deduplicated_keeps_each_document_where_it_first_appears(ranking: Ranking) -> None:
    clean = ranking.deduplicated()
    first_cluster: dict[str, int] = {}
    for index, cluster in enumerate(ranking.clusters):
        for doc in cluster:
            first_cluster.setdefault(doc, index)
    kept = [
        (index, tuple(doc for doc in dict.fromkeys(cluster) if first_cluster[doc] == index))
        for index, cluster in enumerate(ranking.clusters)
    ]
    kept = [(index, cluster) for index, cluster in kept if cluster]
    assert clean.clusters == tuple(cluster for _, cluster in kept)
    if ranking.scores is None:
        assert clean.scores is None
    else:
        assert clean.scores == tuple(ranking.scores[index] for index, _ in kept)
    assert clean.documents == list(dict.fromkeys(ranking.documents))


@BOUNDED
@given(rankings())
def test_deduplicated_is_idempotent_and_a_no_op_without_repeats(ranking: Ranking) -> None:
    clean = ranking.deduplicated()
    assert clean.deduplicated() == clean
    if len(set(ranking.documents)) == len(ranking.documents):
        assert clean == ranking
    else:
        assert len(clean.documents) < len(ranking.documents)


@BOUNDED
@given(rankings(), st.integers(0, 9))
def test_views_agree_with_the_clusters(ranking: Ranking, k: int) -> None:
    assert ranking.representatives == [cluster[0] for cluster in ranking.clusters]
    assert ranking.documents == [doc for cluster in ranking.clusters for doc in cluster]
    assert ranking.clustered == any(len(cluster) > 1 for cluster in ranking.clusters)
    head = ranking.head(k)
    assert head.clusters == ranking.clusters[:k]
    assert head.scores == (None if ranking.scores is None else ranking.scores[:k])
    flat = Ranking.from_ids(ranking.documents)
    assert not flat.clustered and flat.representatives == ranking.documents
