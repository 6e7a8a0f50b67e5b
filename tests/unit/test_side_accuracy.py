"""The pure scoring of argkb.eval.side_accuracy on fabricated answers, counted by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.eval.side_accuracy import (
    Counts,
    Placed,
    bootstrap,
    judge,
    read_relations,
    side_towards_query,
    sides_by_uid,
    summarise,
)

GOLD = {"a": "pro", "b": "con", "c": "pro", "d": "con"}


def test_judge_counts_shown_and_members_separately() -> None:
    placed = [
        Placed("pro", "a", ("a", "b", "x")),  # rep right; members: a right, b wrong, x unknown
        Placed("con", "c", ("c", "d")),  # rep wrong; members: c wrong, d right
        Placed("con", "y", ("y",)),  # unknown everywhere
    ]
    counts = judge(placed, GOLD)
    assert counts == Counts(
        returned=3,
        judged=2,
        correct=1,
        members_returned=6,  # a b x | c d | y
        members_judged=4,
        members_correct=2,
    )


def test_a_premise_repeated_on_one_side_counts_once_but_on_both_sides_twice() -> None:
    placed = [
        Placed("pro", "a", ("a", "c")),
        Placed("pro", "c", ("c", "a")),  # same premises again on the same side
        Placed("con", "a", ()),  # and a on the other side: wrong there
    ]
    counts = judge(placed, GOLD)
    assert (counts.returned, counts.judged, counts.correct) == (3, 3, 2)
    assert (counts.members_returned, counts.members_judged, counts.members_correct) == (3, 3, 2)


def test_judge_refuses_an_unknown_side() -> None:
    with pytest.raises(ValueError, match="side"):
        judge([Placed("both", "a")], GOLD)


def test_summarise_pools_topics_rather_than_averaging_them() -> None:
    per_topic = {
        "1": judge([Placed("pro", "a"), Placed("con", "b"), Placed("pro", "c")], GOLD),  # 3/3
        "2": judge([Placed("pro", "b")], GOLD),  # 0/1
    }
    row = summarise("bench", "ranker", per_topic)
    assert row.accuracy == pytest.approx(3 / 4)  # the mean of topics would be 0.5
    assert row.members_accuracy == pytest.approx(3 / 4)
    assert row.topics == 2 and row.total.returned == 4
    assert row.interval is not None and row.accuracy is not None
    low, high = row.interval
    assert 0.0 <= low <= row.accuracy <= high <= 1.0


def test_bootstrap_interval_is_seeded_and_degenerate_when_every_topic_agrees() -> None:
    pairs = [(3, 4), (1, 4), (4, 4), (0, 2)]
    assert bootstrap(pairs, draws=500, seed=1) == bootstrap(pairs, draws=500, seed=1)
    low, high = bootstrap(pairs, draws=2000, seed=0)  # type: ignore[misc]
    assert low < 8 / 14 < high
    assert bootstrap([(2, 2), (5, 5)], draws=200) == (1.0, 1.0)
    assert bootstrap([(0, 0), (0, 0)]) is None
    assert bootstrap([]) is None


def test_sides_by_uid_leaves_out_a_text_on_both_sides() -> None:
    gold, conflicts = sides_by_uid([("a", "pro"), ("a", "pro"), ("b", "con"), ("c", "pro"),
                                    ("c", "con")])  # fmt: skip
    assert gold == {"a": "pro", "b": "con"}
    assert conflicts == 1


@pytest.mark.parametrize(
    ("stance", "relation", "side"),
    [
        ("pro", "same", "pro"),
        ("con", "same", "con"),
        ("pro", "opposite", "con"),
        ("con", "opposite", "pro"),
        ("Pro", "same", "pro"),
        ("unknown", "same", None),  # "Not specified" in the data
        ("pro", "unrelated", None),
        ("con", None, None),  # no label for this (topic, argument)
    ],
)
def test_side_towards_query(stance: str, relation: str | None, side: str | None) -> None:
    assert side_towards_query(stance, relation) == side


def test_the_label_file_reads_and_covers_ten_biased_topics() -> None:
    relations = read_relations()
    assert {topic for topic, _ in relations} == {1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
    assert set(relations.values()) == {"same", "opposite", "unrelated"}
    assert all(aid.startswith("sigir19:") for _, aid in relations)


def test_side_accuracy_needs_a_benchmark_with_sides() -> None:
    from pathlib import Path

    from click.testing import CliRunner

    from argkb.cli import main

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    args = ["eval", "stance", "--argquality", str(fixtures / "argquality"), "--side-accuracy"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code != 0
    assert out.output.strip().splitlines()[-1].endswith("(--data, --argkp, --sigir19)")
    assert "Traceback" not in out.output


def test_an_incomplete_argkp_split_fails_before_anything_is_loaded(tmp_path) -> None:
    from argkb.errors import LoadError
    from argkb.eval.side_accuracy import plan

    (tmp_path / "arguments_dev.csv").write_text("arg_id,argument,topic,stance\n")
    with pytest.raises(LoadError, match="incomplete"):
        plan({"argkp": [tmp_path]})


SIGIR19 = Path(__file__).resolve().parents[1] / "fixtures" / "sigir19"


def test_a_sigir19_half_the_relations_do_not_cover_is_refused_before_loading() -> None:
    """The shipped relations cover the dev half's biased topics (1 to 19, odd); the fixture's
    biased topics are 2 and 4: every premise would go unjudged without a word."""
    from argkb.errors import ConfigError
    from argkb.eval.side_accuracy import plan

    with pytest.raises(ConfigError, match=r"no conclusion relations for the biased topics .*"
                       r"\(2, 4\); side accuracy needs them: give --relations FILE"):  # fmt: skip
        plan({"sigir19": [SIGIR19]})


def test_relations_given_for_some_topics_judge_those_and_name_the_rest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from argkb.eval.side_accuracy import plan

    relations = tmp_path / "relations.tsv"
    relations.write_text(
        "# topic 2: abolish homework\ntopic\targument\trelation\n"
        "2\tsigir19:101:1\tsame\n2\tsigir19:101:2\topposite\n"
    )
    with caplog.at_level("WARNING"):
        [(name, topics, _, _)] = plan({"sigir19": [SIGIR19]}, relations)
    assert name == "sigir19-dev" and [t.qid for t in topics] == ["2", "4"]
    by_qid = {t.qid: t for t in topics}
    # argument 1 is Pro towards "Homework should be abolished" (same: pro); argument 2 is Con
    # towards it (opposite: pro as well)
    assert sorted(by_qid["2"].gold.values()) == ["pro", "pro"] and not by_qid["4"].gold
    assert "no conclusion relations for biased topics 4 of" in caplog.text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("topic\targument\n2\tsigir19:101:1\n", "line 1: no column relation"),
        ("topic\targument\trelation\nII\tsigir19:101:1\tsame\n", "line 2: topic: expected a"),
        ("topic\targument\trelation\n2\tsigir19:101:1\tpro\n", "line 2: relation: 'pro' is not"),
        ("topic\targument\trelation\n2\t\tsame\n", "line 2: argument: empty"),
        ("# only a comment\n", "no relations"),
    ],
)
def test_a_bad_relations_file_is_one_line_naming_line_and_field(
    tmp_path: Path, text: str, said: str
) -> None:
    from argkb.errors import ConfigError

    path = tmp_path / "r.tsv"
    path.write_text(text)
    with pytest.raises(ConfigError, match=said):
        read_relations(path)
