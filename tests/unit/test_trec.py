"""Reading and writing evaluation files: topics, qrels, ground-truth clusters, runs.

By example, and by property: whatever argkb writes, it reads back (hypothesis). The same files
against ir_measures' readers are in test_metric_oracles.py.
"""

from __future__ import annotations

import string
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argkb.eval.trec import (
    EvalFileError,
    Run,
    read_clusters,
    read_qrels,
    read_run,
    read_topics,
    write_clusters,
    write_qrels,
    write_run,
    write_topics,
)
from argkb.ranking import Query, Ranking

TREC = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "trec"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- topics ------------------------------------------------------------------------------------


def test_tsv_topics_with_header_and_stances() -> None:
    topics = read_topics(TREC / "topics.tsv")
    assert topics == [
        Query("q1", "We should ban school uniforms", "pro"),
        Query("q2", "The death penalty should be abolished", None),
        Query("q3", "An unjudged query", "con"),
    ]


def test_json_and_jsonl_topics(tmp_path: Path) -> None:
    js = write(
        tmp_path,
        "t.json",
        '{"topics": [{"id": 7, "query": "Ban cars", "stance": "-1"}, {"qid": "b", "text": "x"}]}',
    )
    assert read_topics(js) == [Query("7", "Ban cars", "con"), Query("b", "x", None)]
    jl = write(tmp_path, "t.jsonl", '{"qid": "a", "text": "one", "stance": "+1"}\n\n')
    assert read_topics(jl) == [Query("a", "one", "pro")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1\tA text\tmaybe\n", r"t\.tsv:line 1: unknown stance 'maybe'"),
        ("q1\tone\tpro\textra\n", r"t\.tsv:line 1: expected 2 or 3 tab-separated columns"),
        ("q1\tone\nq1\ttwo\n", r"t\.tsv:line 2: duplicate qid 'q1' \(first at line 1\)"),
        ("only-one-column\n", r"t\.tsv:line 1: expected 2 or 3"),
        ("", r"t\.tsv: no topics"),
    ],
)
def test_malformed_tsv_topics(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EvalFileError, match=message):
        read_topics(write(tmp_path, "t.tsv", text))


def test_malformed_json_topics(tmp_path: Path) -> None:
    with pytest.raises(EvalFileError, match=r"t\.json: entry 1: missing 'text'"):
        read_topics(write(tmp_path, "t.json", '[{"qid": 1, "text": "a"}, {"qid": 2}]'))
    with pytest.raises(EvalFileError, match=r"t\.jsonl:line 2: invalid JSON"):
        read_topics(write(tmp_path, "t.jsonl", '{"qid": 1, "text": "a"}\n{oops\n'))


def test_topics_round_trip(tmp_path: Path) -> None:
    queries = [Query("1", "tabs\tand\nnewlines are spaces", "pro"), Query("2", "plain", None)]
    path = tmp_path / "topics.tsv"
    write_topics(path, queries)
    assert read_topics(path) == [
        Query("1", "tabs and newlines are spaces", "pro"),
        Query("2", "plain", None),
    ]


# -- qrels and clusters ------------------------------------------------------------------------


def test_qrels_and_clusters() -> None:
    qrels = read_qrels(TREC / "qrels.txt")
    assert qrels == {
        "q1": {"d1": 2.0, "d2": 1.0, "d3": 1.0, "d4": 0.0, "d5": 1.0},
        "q2": {"e1": 1.0, "e2": 0.0},
    }
    clusters = read_clusters(TREC / "clusters.txt")
    assert clusters == {"q1": {"d1": "A", "d2": "B", "d3": "B", "d5": "C"}, "q2": {"e1": "X"}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1 0 d1 1\nq1 0 d2\n", r"q\.txt:line 2: expected 4 columns `qid iter docid rel`, got 3"),
        ("q1 0 d1 high\n", r"q\.txt:line 1: rel is not a number: 'high'"),
        ("q1 0 d1 nan\n", r"q\.txt:line 1: rel is not a finite number"),
        ("q1 0 d1 1\n# c\nq1 0 d1 2\n", r"q\.txt:line 3: document 'd1' judged twice .*line 1"),
    ],
)
def test_malformed_qrels(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EvalFileError, match=message):
        read_qrels(write(tmp_path, "q.txt", text))


def test_malformed_clusters(tmp_path: Path) -> None:
    with pytest.raises(EvalFileError, match=r"c\.txt:line 1: expected 3 columns"):
        read_clusters(write(tmp_path, "c.txt", "q1 d1\n"))
    with pytest.raises(EvalFileError, match=r"c\.txt:line 2: document 'd1' is in two clusters"):
        read_clusters(write(tmp_path, "c.txt", "q1 d1 A\nq1 d1 B\n"))


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(EvalFileError, match=r"nope\.txt: no such file"):
        read_qrels(tmp_path / "nope.txt")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"q1 0 d\xff 1\n")
    with pytest.raises(EvalFileError, match=r"bad\.txt: not UTF-8"):
        read_qrels(bad)


BOM = "\ufeff"


@pytest.mark.parametrize(
    ("name", "text", "read"),
    [
        ("t.tsv", "q1\tBan cars\n", lambda p: [q.qid for q in read_topics(p)]),
        ("t.jsonl", '{"qid": "q1", "text": "x"}\n', lambda p: [q.qid for q in read_topics(p)]),
        ("t.json", '[{"qid": "q1", "text": "x"}]', lambda p: [q.qid for q in read_topics(p)]),
        ("q.txt", "q1 0 d1 1\n", lambda p: list(read_qrels(p))),
        ("c.txt", "q1 d1 k\n", lambda p: list(read_clusters(p))),
        ("r.trec", "q1 Q0 d1 1 1.0 t\n", lambda p: list(read_run(p).rankings)),
        ("r.json", '{"queries": {"q1": ["d1"]}}', lambda p: list(read_run(p).rankings)),
    ],
)
def test_a_byte_order_mark_is_not_part_of_the_first_qid(
    tmp_path: Path, name: str, text: str, read: Callable[[Path], list[str]]
) -> None:
    # Excel and Windows editors start files with a BOM; it used to be glued to the first qid,
    # which dropped that query or its judgements without a word (or, in JSON, was an error)
    assert read(write(tmp_path, name, BOM + text)) == ["q1"]


def test_qrels_and_clusters_round_trip(tmp_path: Path) -> None:
    qrels = {"q1": {"a": 2.0, "b": 0.5}, "q2": {"c": 0.0}}
    write_qrels(tmp_path / "q.txt", qrels)
    assert (tmp_path / "q.txt").read_text().splitlines()[0] == "q1 0 a 2"
    assert read_qrels(tmp_path / "q.txt") == qrels
    clusters = {"q1": {"a": "k1", "b": "k2"}}
    write_clusters(tmp_path / "c.txt", clusters)
    assert read_clusters(tmp_path / "c.txt") == clusters


# -- runs --------------------------------------------------------------------------------------


def test_flat_trec_run() -> None:
    run = read_run(TREC / "run.trec")
    assert run.tag == "flat" and not run.clustered
    assert run.rankings["q1"].representatives == ["d1", "d3", "d2", "d4", "d6", "d5"]
    assert run.rankings["q1"].scores == (9.5, 8.0, 7.5, 6.0, 5.0, 4.0)
    assert run.rankings["q2"].clusters == (("e2",), ("e1",))


def test_clustered_trec_run_orders_by_rank_and_groups_by_cluster() -> None:
    run = read_run(TREC / "run_clustered.trec")
    assert run.tag == "clus" and run.clustered
    # c1 = {d3 (rank 1), d2 (rank 3)}, c2 = {d1 (rank 2), d5 (rank 5)}, c3 = {d4}
    assert run.rankings["q1"].clusters == (("d3", "d2"), ("d1", "d5"), ("d4",))
    assert run.rankings["q1"].representatives == ["d3", "d1", "d4"]
    # a line without a 7th column is a cluster of its own
    assert run.rankings["q2"].clusters == (("e1",), ("e2",))


def test_json_run_forms() -> None:
    run = read_run(TREC / "run_clustered.json")
    assert run.tag == "clusjson" and run.clustered
    assert run.rankings["q1"].clusters == (("d3", "d2"), ("d1", "d5"), ("d4",))
    assert run.rankings["q1"].scores == (0.9, 0.8, 0.6)
    assert run.rankings["q2"].clusters == (("e1",), ("e2",))


def test_rank_ties_break_by_score_then_file_order(tmp_path: Path) -> None:
    run = read_run(write(tmp_path, "r.trec", "q 0 a 1 1.0 t\nq 0 b 1 2.0 t\nq 0 c 1 2.0 t\n"))
    assert run.rankings["q"].representatives == ["b", "c", "a"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1 Q0 d1 1 1.0\n", r"r\.trec:line 1: expected 6 or 7 columns"),
        ("q1 Q0 d1 1 1.0 t c1 extra\n", r"r\.trec:line 1: expected 6 or 7 columns .* got 8"),
        ("q1 Q0 d1 first 1.0 t\n", r"r\.trec:line 1: rank is not an integer: 'first'"),
        ("q1 Q0 d1 1 x t\n", r"r\.trec:line 1: score is not a number: 'x'"),
        ("q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0 b\n", r"r\.trec:line 2: run tag 'b' differs from 'a'"),
        ("q1 Q0 d1 1 1 a\n\nq1 Q0 d1 2 0 a\n", r"r\.trec:line 3: document 'd1' returned twice"),
        ("\n# only a comment\n", r"r\.trec: empty run"),
    ],
)
def test_malformed_trec_runs(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EvalFileError, match=message):
        read_run(write(tmp_path, "r.trec", text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", r"r\.json: expected \{\"tag\""),
        ('{"queries": {"q": [[]]}}', r"r\.json: query 'q': a cluster must be a non-empty list"),
        ('{"queries": {"q": ["a", ["a"]]}}', r"r\.json: query 'q': a document is returned twice"),
        ('{"queries": {"q": {"clusters": [["a"]], "scores": [1, 2]}}}', r"2 scores for 1"),
        ("{not json", r"r\.json: invalid JSON"),
        # what the TREC reader refuses, and values that were read as something else
        ('{"queries": {"q": {"clusters": [["a"]], "scores": [NaN]}}}', r"not a finite number"),
        ('{"queries": {"q": {"clusters": [["a"]], "scores": [1e999]}}}', r"not a finite number"),
        ('{"queries": {"q": {"clusters": [["a"]], "scores": [true]}}}', r"score is not a number"),
        ('{"clustered": "no", "queries": {"q": ["a"]}}', r"clustered: must be true or false"),
        ('{"tag": ["a b"], "queries": {"q": ["a"]}}', r"r\.json: tag: must be a string"),
    ],
)
def test_malformed_json_runs(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(EvalFileError, match=message):
        read_run(write(tmp_path, "r.json", text))


def test_run_round_trips(tmp_path: Path) -> None:
    clustered = Run(
        "mine",
        {
            "q1": Ranking([["a", "b"], ["c"], ["b", "d"]], [3.0, 2.0, 1.0]),
            "q2": Ranking.from_ids(["x"]),
        },
        clustered=True,
    )
    write_run(tmp_path / "r.trec", clustered)
    lines = (tmp_path / "r.trec").read_text().splitlines()
    # the repeated "b" is dropped where it repeats; scores are synthetic and decreasing
    assert lines[:4] == [
        "q1 Q0 a 1 4 mine c1",
        "q1 Q0 b 2 3 mine c1",
        "q1 Q0 c 3 2 mine c2",
        "q1 Q0 d 4 1 mine c3",
    ]
    back = read_run(tmp_path / "r.trec")
    assert back.clustered and back.rankings["q1"].clusters == (("a", "b"), ("c",), ("d",))
    write_run(tmp_path / "r.json", clustered)
    back = read_run(tmp_path / "r.json")
    assert back.tag == "mine" and back.clustered
    assert back.rankings["q1"].clusters == (("a", "b"), ("c",), ("d",))
    assert back.rankings["q1"].scores == (3.0, 2.0, 1.0)
    flat = Run("flat", {"q": Ranking.from_ids(["a", "b"])})
    write_run(tmp_path / "f.trec", flat)
    assert (tmp_path / "f.trec").read_text() == "q Q0 a 1 2 flat\nq Q0 b 2 1 flat\n"
    with pytest.raises(ValueError, match="one word"):
        write_run(tmp_path / "x.trec", Run("two words", {}))


def test_a_run_with_a_nan_score_is_written_without_scores(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON has no NaN (and read_run refuses one): the query keeps its order, not its scores,
    and the writer says so."""
    nan = Run("mine", {"q1": Ranking([["a"], ["b"]], [float("nan"), 1.0])}, clustered=True)
    write_run(tmp_path / "r.json", nan)
    back = read_run(tmp_path / "r.json")
    assert back.rankings["q1"].clusters == (("a",), ("b",)) and back.rankings["q1"].scores is None
    assert "query q1: a score is not a finite number" in caplog.text


def test_ranking_views() -> None:
    ranking = Ranking([["a", "b"], ["c"], ["a", "e"]])
    assert ranking.representatives == ["a", "c", "a"]
    assert ranking.documents == ["a", "b", "c", "a", "e"]
    assert ranking.clustered
    assert ranking.deduplicated().clusters == (("a", "b"), ("c",), ("e",))
    assert Ranking([["a"], ["a"]]).deduplicated().clusters == (("a",),)
    assert not Ranking.from_ids(["a", "b"]).clustered
    assert Ranking.from_ids(["a", "b", "c"]).head(2).clusters == (("a",), ("b",))
    with pytest.raises(ValueError, match="empty cluster"):
        Ranking([["a"], []])


# -- round trips, by property ------------------------------------------------------------------

BOUNDED = settings(max_examples=100, deadline=2000)
# a TREC field is one word; a line whose first word starts with "#" is a comment
TOKEN = st.text(alphabet=string.ascii_letters + string.digits + "_-.:/", min_size=1, max_size=6)
FINITE = st.floats(allow_nan=False, allow_infinity=False)


@contextmanager
def scratch() -> Iterator[Path]:
    """A fresh directory per hypothesis example (function-scoped fixtures are shared by all)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


@st.composite
def runs(draw: st.DrawFn) -> Run:
    rankings = {}
    for qid in draw(st.lists(TOKEN, max_size=4, unique=True)):
        clusters = draw(st.lists(st.lists(TOKEN, min_size=1, max_size=3), max_size=6))
        scores = draw(st.none() | st.lists(FINITE, min_size=len(clusters), max_size=len(clusters)))
        rankings[qid] = Ranking(clusters, scores)
    return Run(draw(TOKEN), rankings, clustered=draw(st.booleans()))


@BOUNDED
@given(runs())
def test_trec_run_round_trip(run: Run) -> None:
    expected = {}
    for qid, ranking in run.rankings.items():
        clean = ranking.deduplicated()
        if clean.clusters:  # a query without documents writes no line
            expected[qid] = (
                clean.clusters if run.clustered else tuple((doc,) for doc in clean.documents)
            )
    with scratch() as tmp:
        write_run(tmp / "r.trec", run)
        if not expected:
            with pytest.raises(EvalFileError, match="empty run"):
                read_run(tmp / "r.trec")
            return
        back = read_run(tmp / "r.trec")
    assert back.tag == run.tag and back.clustered == run.clustered
    assert {qid: ranking.clusters for qid, ranking in back.rankings.items()} == expected
    for ranking in back.rankings.values():  # synthetic scores, strictly decreasing
        assert ranking.scores is not None
        assert all(a > b for a, b in zip(ranking.scores, ranking.scores[1:], strict=False))


@BOUNDED
@given(runs())
def test_json_run_round_trip_keeps_scores_and_the_clustered_flag(run: Run) -> None:
    with scratch() as tmp:
        write_run(tmp / "r.json", run)
        back = read_run(tmp / "r.json")
    assert back.tag == run.tag and back.clustered == run.clustered
    assert back.rankings == {qid: r.deduplicated() for qid, r in run.rankings.items()}


@BOUNDED
@given(
    st.dictionaries(TOKEN, st.dictionaries(TOKEN, FINITE | st.integers(-3, 3), max_size=6)),
    st.dictionaries(TOKEN, st.dictionaries(TOKEN, TOKEN, max_size=6), max_size=4),
)
def test_qrels_and_clusters_round_trip_by_property(
    qrels: dict[str, dict[str, float]], clusters: dict[str, dict[str, str]]
) -> None:
    with scratch() as tmp:
        write_qrels(tmp / "q.txt", qrels)
        write_clusters(tmp / "c.txt", clusters)
        # a query without judgements writes no line
        assert read_qrels(tmp / "q.txt") == {q: d for q, d in qrels.items() if d}
        assert read_clusters(tmp / "c.txt") == {q: d for q, d in clusters.items() if d}


TOPIC_TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=30).filter(
    lambda text: text.split() != []
)


@BOUNDED
@given(
    st.lists(
        st.tuples(TOKEN, TOPIC_TEXT, st.sampled_from(["pro", "con", None])),
        min_size=1,
        max_size=5,
        unique_by=lambda topic: topic[0],
    )
)
def test_topics_round_trip_by_property(topics: list[tuple[str, str, str | None]]) -> None:
    queries = [Query(qid, text, stance) for qid, text, stance in topics]  # type: ignore[arg-type]
    with scratch() as tmp:
        write_topics(tmp / "t.tsv", queries)
        back = read_topics(tmp / "t.tsv")
    # whitespace runs (tabs and newlines included) become one space
    assert back == [Query(q.qid, " ".join(q.text.split()), q.stance) for q in queries]
