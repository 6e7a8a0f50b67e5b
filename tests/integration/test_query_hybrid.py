"""The hybrid ranker and stance alignment on the demo corpus, on a real Neo4j.

Premises are clustered with a very wide cut here, so that premise clusters are far fewer than
candidate premises: the case where a list could come back short.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
QUERY = "We should abandon fossil fuels"


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder()


@pytest.fixture(scope="module")
def wide_db(db, embedder):
    from argkb.cluster.store import cluster_units
    from argkb.embed.store import embed_units

    init_schema(db)
    load_records(db, "argsme", [DEMO], reader("argsme")([DEMO]))
    embed_units(db, embedder)
    cluster_units(db, kind="claim")
    cluster_units(db, kind="premise", cut=1.5)  # complete linkage: merges most neighbours
    return db


def _engine(db, embedder, **kwargs):
    from argkb.query import QueryEngine, QuerySettings

    # the reciprocal rank fusion unless a test says otherwise (the linear fusion's own test
    # is test_the_claim_feature_is_the_best_conclusions_cosine_on_that_side)
    kwargs.setdefault("settings", QuerySettings(alignment="always", fusion="rrf"))
    return QueryEngine(db, embedder, **kwargs)


def test_hybrid_lists_never_shorter_than_candidates_allow(wide_db, embedder) -> None:
    engine = _engine(wide_db, embedder)
    # with k = 1 the single entry holds the whole first cluster; with a deep k, every candidate
    # is shown, so the members of all entries are the pro candidates
    everything = engine.query(QUERY, k=1000, ranker="hybrid", stance="pro", explain=True)
    candidates = sum(c.size for c in everything.pro)
    names = {c.explain["cluster"] for c in everything.pro}
    assert len(names) < candidates, "the fixture needs fewer clusters than candidates"
    for k in (1, len(names), len(names) + 1, candidates - 1, candidates, candidates + 5):
        result = engine.query(QUERY, k=k, ranker="hybrid", stance="pro")
        assert len(result.pro) == min(k, candidates), k
        keys = [m.key for c in result.pro for m in c.members]
        assert len(keys) == len(set(keys)), "a premise is shown twice"
        if k >= len(names):
            assert len(keys) == candidates
        scores = [c.score for c in result.pro]
        assert scores == sorted(scores, reverse=True)


def test_hybrid_explains_each_cluster_by_route(wide_db, embedder) -> None:
    result = _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid", explain=True)
    assert result.pro and result.con
    for cluster in result.pro + result.con:
        routes = cluster.explain["routes"]
        assert set(routes) == {"claims", "bm25", "cosine"}
        fused = sum(r["contribution"] for r in routes.values())
        assert fused == pytest.approx(cluster.explain["fused"])
        if not cluster.explain["promoted"]:  # a cluster's score is its fused score
            assert cluster.score == pytest.approx(cluster.explain["fused"])
        else:  # a member shown on its own to fill the list ranks below every cluster
            assert cluster.score < min(
                c.score
                for c in result.pro + result.con
                if c.stance == cluster.stance and not c.explain["promoted"]
            )


def test_hybrid_finds_premises_without_a_similar_claim(wide_db, embedder) -> None:
    # no claim of the demo is about tidal power, but a premise mentions wind and solar
    engine = _engine(wide_db, embedder)
    pfidf = engine.query("wind and solar power are cheap", k=5, ranker="pfidf")
    hybrid = engine.query("wind and solar power are cheap", k=5, ranker="hybrid")
    texts = [m.text.lower() for c in hybrid.pro + hybrid.con for m in c.members]
    assert any("solar" in t for t in texts)
    assert hybrid.candidates >= pfidf.candidates


def test_collection_restricts_candidates(wide_db, embedder) -> None:
    engine = _engine(wide_db, embedder)
    result = engine.query(QUERY, k=50, ranker="hybrid", collection="argsme:d1a2b3c4")
    members = [m for c in result.pro + result.con for m in c.members]
    assert members
    allowed = {
        r["aid"]
        for r in wide_db.execute_query(
            "MATCH (a:Argument)-[:FROM]->(s:Source) WHERE s.sid STARTS WITH 'argsme:d1a2b3c4' "
            "RETURN a.aid AS aid"
        ).records
    }
    assert all(set(m.arguments) <= allowed for m in members)
    unscoped = engine.query(QUERY, k=50, ranker="hybrid")
    assert len([m for c in unscoped.pro + unscoped.con for m in c.members]) > len(members)


class _Recorder:
    """A stance alignment that records what it was asked and says every claim opposes."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    def __call__(
        self, query: str, claims: list[str], contrast: Sequence[float | None] | None = None
    ) -> list[float]:
        self.queries.append(query)
        return [0.0] * len(claims)


@pytest.mark.parametrize("ranker", ["pfidf", "hybrid"])
def test_alignment_receives_the_query_and_flips_sides(wide_db, embedder, ranker) -> None:
    from argkb.query import QuerySettings

    # only the claim route: the alignment speaks of retrieved claims, and premises found
    # directly keep the stance towards their own conclusion (argkb.query.rankers.hybrid)
    claims_only = QuerySettings(alignment="always", bm25_depth=0, vector_depth=0)
    aligned = _engine(wide_db, embedder, settings=claims_only).query(QUERY, k=3, ranker=ranker)
    recorder = _Recorder()
    opposed = _engine(wide_db, embedder, settings=claims_only, alignment=recorder).query(
        QUERY, k=3, ranker=ranker
    )
    assert recorder.queries and set(recorder.queries) == {QUERY}
    # every claim opposes the query: what argued for it now argues against it
    assert {c.representative.key for c in opposed.con} == {
        c.representative.key for c in aligned.pro
    }
    assert {c.representative.key for c in opposed.pro} == {
        c.representative.key for c in aligned.con
    }


def test_query_opposing_the_demo_claim_puts_its_reasons_on_the_con_side(wide_db) -> None:
    """`argkb query` with the default stance alignment (the model) on a negated demo claim."""
    import json

    from click.testing import CliRunner

    from argkb.cli import main

    out = CliRunner().invoke(
        main, ["query", "We should not abandon fossil fuels", "--k", "10", "--json"]
    )
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["claims"][0]["text"] == "We should abandon fossil fuels"
    sides = {
        side: {m["text"] for c in result[side] for m in c["members"]} for side in ("pro", "con")
    }
    # arguments for abandoning fossil fuels now argue against the query, and the reverse
    assert "Burning fossil fuels drives climate change." in sides["con"]
    assert "Burning fossil fuels drives climate change." not in sides["pro"]
    assert "Abandoning fossil fuels would put millions of workers out of a job." in sides["pro"]
    members = [m for side in ("pro", "con") for c in result[side] for m in c["members"]]
    assert {m["stance_source"] for m in members} == {"data"}


def _cli_sides(*args: str) -> dict[str, set[str]]:
    """The member texts on each side of ``argkb query ARGS --json``."""
    import json

    from click.testing import CliRunner

    from argkb.cli import main

    out = CliRunner().invoke(main, ["query", *args, "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)  # stderr may say that a model is prepared (once)
    return {
        side: {m["text"] for c in result[side] for m in c["members"]} for side in ("pro", "con")
    }


def test_cross_alignment_puts_the_good_sides_of_social_media_on_the_con_side(wide_db) -> None:
    """Issue 28, item 4: "Social media does more harm than good" listed two premises about
    staying in touch as PRO: one argues against "Social media is bad for society", the other for
    "Social media helps people stay connected", and the word-list alignment (the default) judged
    the first claim opposed to the query and the second aligned. With ``--alignment cross`` both
    land on the con side; and "We should not abandon fossil fuels" still puts the reasons for
    abandoning them on the con side (its claims differ from it in negation: the model decides)."""
    sides = _cli_sides("Social media does more harm than good", "--k", "20", "--alignment", "cross")
    for text in ("Platforms make it easy to stay connected with people you would otherwise "
                 "lose contact with.",
                 "Thanks to social networks, I can talk to relatives on the other side of the "
                 "world every day."):  # fmt: skip
        assert text in sides["con"]
        assert text not in sides["pro"]
    sides = _cli_sides("We should not abandon fossil fuels", "--k", "10", "--alignment", "cross")
    assert "Burning fossil fuels drives climate change." in sides["con"]
    assert "Abandoning fossil fuels would put millions of workers out of a job." in sides["pro"]


def test_stored_negation_vectors_give_the_aligner_its_contrast(wide_db, embedder) -> None:
    """`argkb embed` stores each claim's negation vector; the engine then reads the contrast
    cos(q, c) - cos(q, not c) from the server instead of embedding claims per query, and the
    stance-alignment model gives the same probabilities and sides."""
    from argkb.db import cypher
    from argkb.embed.store import count_negations, embed_negations
    from argkb.query.alignment import model_alignment
    from argkb.stance.alignment import alignment_features

    before = _engine(wide_db, embedder, alignment=model_alignment(embedder))
    negated_query = "We should not abandon fossil fuels"
    expected = before.query(negated_query, k=5, ranker="hybrid")
    claims = wide_db.execute_query("MATCH (c:Claim) RETURN id(c) AS id ORDER BY id").records
    ids = [r["id"] for r in claims]
    vector = [float(x) for x in embedder.embed([negated_query], use_cache=False)[0]]
    missing = cypher.read_columns(wide_db, "query/alignment_inputs", ids=ids, vector=vector)
    assert not any(missing["known"]), "no negation vectors before they are embedded"

    assert count_negations(wide_db) == len(ids)
    assert embed_negations(wide_db, embedder) == len(ids)
    assert count_negations(wide_db) == 0
    assert embed_negations(wide_db, embedder) == 0, "a second run embeds nothing"

    inputs = cypher.read_columns(wide_db, "query/alignment_inputs", ids=ids, vector=vector)
    assert all(inputs["known"]) and len(inputs["id"]) == len(ids)
    on_server = alignment_features(embedder, negated_query, inputs["text"], inputs["contrast"])
    embedded = alignment_features(embedder, negated_query, inputs["text"])
    assert len(on_server) == len(ids)
    for server_row, local_row in zip(on_server, embedded, strict=True):
        assert server_row == pytest.approx(local_row, abs=1e-4)
    assert any(abs(row[1]) > 0.01 for row in on_server), "contrasts are not all zero"

    after = _engine(wide_db, embedder, alignment=model_alignment(embedder))
    result = after.query(negated_query, k=5, ranker="hybrid")
    for side in ("pro", "con"):
        assert [c.representative.key for c in getattr(result, side)] == [
            c.representative.key for c in getattr(expected, side)
        ]


def test_missing_indexes_degrade_the_answer_with_a_note(wide_db, embedder) -> None:
    """A killed bulk load leaves the full-text indexes dropped: a query answers from the
    vector routes and says what it did without, instead of failing (issue 13)."""
    complete = _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid")
    assert not complete.notes
    for name in ("claim_text", "premise_text"):
        wide_db.execute_query(f"DROP INDEX {name}")
    try:
        for ranker in ("hybrid", "pfidf"):
            result = _engine(wide_db, embedder).query(QUERY, k=3, ranker=ranker)
            assert result.pro and result.con, ranker
            assert any("claim_text" in note for note in result.notes), result.notes
            if ranker == "hybrid":
                assert any("premise_text" in note for note in result.notes), result.notes
        wide_db.execute_query("DROP INDEX premise_embedding")
        result = _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid")
        assert result.pro and any("premise_embedding" in n for n in result.notes)
    finally:
        init_schema(wide_db)
    assert not _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid").notes


def test_a_query_that_nothing_matches_says_so(wide_db, embedder) -> None:
    """From a UX audit (2026-11-28): gibberish got ten confident pro and con premises and no
    word that nothing matched."""
    from argkb.query.rankers.hybrid import UNMATCHED

    result = _engine(wide_db, embedder).query("zzzz qqqq", k=3, ranker="hybrid")
    assert result.pro and UNMATCHED in result.notes  # the nearest in meaning, said to be so
    assert UNMATCHED not in _engine(wide_db, embedder).query(QUERY, k=3).notes


def test_a_failure_that_names_no_index_is_put_down_to_the_index_state(wide_db) -> None:
    """A full-text query running while a bulk load drops its index can fail with Neo4j's
    "unexpected error", which names no index (behind the driver's ResultFailedError): the route
    counts as unavailable when, asked after the failure, one of its indexes is not online."""
    from neo4j.exceptions import Neo4jError, ResultFailedError

    from argkb.retrieve.routes import route_failed_for_index

    unexpected = Neo4jError._hydrate_neo4j(
        code="Neo.DatabaseError.General.UnknownError",
        message="Unexpected error has occurred. See debug log for details.",
    )
    try:
        raise ResultFailedError(None, "The result has failed.") from unexpected
    except ResultFailedError as err:
        failed = err
    both = ["premise_text", "premise_embedding"]
    assert not route_failed_for_index(failed, wide_db, both, None)  # both online: a real error
    wide_db.execute_query("DROP INDEX premise_text")
    try:
        assert route_failed_for_index(failed, wide_db, both, None)
        assert route_failed_for_index(unexpected, wide_db, ["premise_text"], None)
        assert not route_failed_for_index(failed, wide_db, ["premise_embedding"], None)
        assert not route_failed_for_index(ValueError("boom"), wide_db, both, None)  # not Neo4j's
    finally:
        init_schema(wide_db)
    assert not route_failed_for_index(failed, wide_db, both, None)


def test_a_route_without_its_index_answers_empty_with_one_note(wide_db) -> None:
    """The error names the missing index (behind the driver's ResultFailedError): the route
    answers nothing and one note, however often it is asked."""
    from neo4j.exceptions import Neo4jError, ResultFailedError

    from argkb.retrieve.routes import unless_index_missing

    missing = Neo4jError._hydrate_neo4j(
        code="Neo.ClientError.Procedure.ProcedureCallFailed",
        message="There is no such fulltext schema index: premise_text",
    )
    notes: list[str] = []

    def read() -> dict[int, float]:
        raise ResultFailedError(None, "The result has failed.") from missing

    assert unless_index_missing(read, "premise_text", notes, wide_db, None) == {}
    assert unless_index_missing(read, "premise_text", notes, wide_db, None) == {}
    assert len(notes) == 1 and "premise_text" in notes[0]


def test_a_route_failing_otherwise_raises(wide_db) -> None:
    """A server error that names no index, while the route's index is online, is raised."""
    from neo4j.exceptions import Neo4jError, ResultFailedError

    from argkb.retrieve.routes import unless_index_missing

    syntax = Neo4jError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError", message="bad")

    def read() -> dict[int, float]:
        raise ResultFailedError(None, "The result has failed.") from syntax

    with pytest.raises(ResultFailedError):
        unless_index_missing(read, "premise_text", [], wide_db, None)


def test_a_missing_vector_index_leaves_the_lexical_routes(wide_db, embedder) -> None:
    """Both claim routes, and both premise routes, are read in one query each; with one index
    missing, that query fails and the routes are asked one at a time: the other route answers."""
    complete = _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid")
    for name in ("claim_embedding", "premise_embedding"):
        wide_db.execute_query(f"DROP INDEX {name}")
    try:
        result = _engine(wide_db, embedder).query(QUERY, k=3, ranker="hybrid")
        assert result.pro and result.con
        assert {c["key"] for c in result.claims} & {c["key"] for c in complete.claims}
        assert all(c["cosine"] is not None for c in result.claims)  # computed on the server
        for name in ("claim_embedding", "premise_embedding"):
            assert any(name in note for note in result.notes), result.notes
    finally:
        init_schema(wide_db)


def test_the_argument_route_computes_the_prior_on_the_server(wide_db, embedder) -> None:
    """With ``weight_argument`` > 0 each candidate's prior logit comes from the server's
    similarity; it equals the logistic regression computed here from the stored embedding."""
    import numpy as np

    from argkb.query import QuerySettings
    from argkb.retrieve import argument_prior

    engine = _engine(
        wide_db,
        embedder,
        settings=QuerySettings(alignment="always", fusion="rrf", weight_argument=1.0),
    )
    pools = engine.hybrid_pools(QUERY)
    assert pools
    prior = argument_prior.load()
    direction = np.asarray(prior.direction)
    for pool in pools.values():
        assert pool.argument is not None
        rows = wide_db.execute_query(
            "UNWIND $ids AS i MATCH (u:Unit) WHERE id(u) = i RETURN u.embedding AS e",
            ids=pool.premises,
        ).records
        x = np.asarray([r["e"] for r in rows], np.float64)
        expected = prior.norm * (x @ direction) + prior.length * np.log1p(pool.words) + prior.bias
        assert np.allclose(pool.argument, expected, atol=1e-4)
    # without the argument route (RRF, weight 0) no prior is read
    assert all(p.argument is None for p in _engine(wide_db, embedder).hybrid_pools(QUERY).values())
    explained = engine.query(QUERY, k=3, ranker="hybrid", explain=True)
    assert all("argument" in c.explain["routes"] for c in explained.pro + explained.con)


def test_the_claim_feature_is_the_best_conclusions_cosine_on_that_side(wide_db, embedder) -> None:
    """``SidePool.claim_cos`` (read on the server with the edges) equals the cosine, computed
    here from the stored embeddings, of the query with the most similar conclusion that each
    candidate serves on that side; and the linear fusion explains each answer by its weighted
    features, which add up to its score."""
    import numpy as np

    from argkb.query import QuerySettings

    settings = QuerySettings(alignment="always", fusion="linear", linear_bm25=1.0,
                             linear_cosine=0.5, linear_claim=1.0, linear_support=0.0,
                             linear_length=0.25, linear_argument=0.0)  # fmt: skip
    engine = _engine(wide_db, embedder, settings=settings)
    query = np.asarray(embedder.embed([QUERY], use_cache=False)[0], np.float64)
    pools = engine.hybrid_pools(QUERY)
    assert set(pools) == {"pro", "con"}
    for side, pool in pools.items():
        assert pool.claim_cos is not None and pool.bm25_max > 0
        rows = wide_db.execute_query(
            "UNWIND $ids AS i MATCH (p:Unit)-[r:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(c:Unit) "
            "WHERE id(p) = i AND r.stance = $side RETURN i AS id, c.embedding AS e",
            ids=pool.premises, side=side,
        ).records  # fmt: skip
        best: dict[int, float] = {}
        for r in rows:
            e = np.asarray(r["e"], np.float64)
            cos = float(e @ query / (np.linalg.norm(e) * np.linalg.norm(query)))
            best[r["id"]] = max(best.get(r["id"], -1.0), cos)
        # always aligned: a premise's side is its stance; one found only directly may be used
        # on the other side too, which this side's claim feature does not count
        expected = [best.get(p, 0.0) for p in pool.premises]
        assert np.allclose(pool.claim_cos, expected, atol=1e-4)
    result = engine.query(QUERY, k=3, ranker="hybrid", explain=True)
    assert result.pro and result.con
    for cluster in result.pro + result.con:
        routes = cluster.explain["routes"]
        assert set(routes) == {"bm25", "cosine", "claim", "length"}
        if not cluster.explain["promoted"]:
            total = sum(r["contribution"] for r in routes.values())
            assert cluster.score == pytest.approx(total)


def test_the_default_reads_the_prior_and_explains_every_weighted_feature(wide_db, embedder) -> None:
    """The default (linear fusion with the argumentativeness prior) reads each candidate's
    prior on the server, and its explanation names every feature it weighs."""
    from argkb.query import DEFAULT
    from argkb.query.rankers.hybrid_fusion import LINEAR_FEATURES

    engine = _engine(wide_db, embedder, settings=DEFAULT)
    pools = engine.hybrid_pools(QUERY)
    assert pools and all(p.argument is not None for p in pools.values())
    result = engine.query(QUERY, k=3, explain=True)
    weighted = {name for name in LINEAR_FEATURES if getattr(DEFAULT, f"linear_{name}")}
    assert result.pro and result.con
    for cluster in result.pro + result.con:
        assert set(cluster.explain["routes"]) == weighted


def test_a_route_does_not_wait_for_an_index_that_is_still_populating(wide_db) -> None:
    """``db.index.fulltext.queryNodes`` waits until a populating index is online (minutes after
    a large bulk load; the driver drops a connection silent for 120 s): a route asks the index's
    state first and answers without it, with its note, while the index is still populating."""
    from argkb.retrieve.routes import unless_index_missing

    def read() -> dict[int, float]:
        records = wide_db.execute_query(
            "CALL db.index.fulltext.queryNodes('populating_probe', 'probe') YIELD node, score "
            "RETURN id(node) AS id, score LIMIT 5"
        ).records
        return {r["id"]: r["score"] for r in records}

    with wide_db.session() as session:
        session.run(
            "UNWIND range(1, 400000) AS i CREATE (:PopulatingProbe {text: 'probe number ' "
            "+ toString(i) + ' of an index that takes a while to populate'})"
        ).consume()
    wide_db.execute_query(
        "CREATE FULLTEXT INDEX populating_probe FOR (n:PopulatingProbe) ON EACH [n.text]"
    )
    notes: list[str] = []
    try:
        found = unless_index_missing(read, "populating_probe", notes, wide_db, None)
        [state] = wide_db.execute_query(
            "SHOW INDEXES YIELD name, state WHERE name = 'populating_probe' RETURN state"
        ).records
        assert state["state"] == "POPULATING"  # the route did not wait for it
        assert found == {} and len(notes) == 1 and "populating_probe" in notes[0]
    finally:
        wide_db.execute_query("DROP INDEX populating_probe IF EXISTS")
        with wide_db.session() as session:
            session.run(
                "MATCH (n:PopulatingProbe) CALL (n) { DETACH DELETE n } "
                "IN TRANSACTIONS OF 50000 ROWS"
            ).consume()


def test_an_index_state_that_cannot_be_read_does_not_keep_a_route_from_its_index(wide_db) -> None:
    """Where Neo4j refuses ``SHOW INDEXES`` (a user without the privilege; here a database it
    does not have), the check cannot tell and lets the read decide, as before the check."""
    from neo4j.exceptions import ClientError

    from argkb.retrieve.routes import indexes_online, indexes_ready

    with pytest.raises(ClientError):
        indexes_online(wide_db, ["premise_text"], "no-such-database")
    assert indexes_ready(wide_db, ["premise_text"], "no-such-database")
    assert not indexes_ready(wide_db, ["no_such_index"], None)
