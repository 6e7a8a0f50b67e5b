"""What the pipeline commands print when a run had little or nothing to do (no database: the
run's report is given, as :func:`argkb.pipeline` returns it).

From the CLI audit of what a person sees (helper 1): a second ``argkb embed`` said "embedded 0
units with model:56a8a98:sentences on - in 0.1 s (0 units/s), and the negations of 0 claims",
and counts of one were plural ("embedded 1 units").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from argkb.cli.data import _print_embed
from argkb.cluster.store import ClusterRun
from argkb.embed.store import EmbedRun


def test_embed_with_nothing_to_embed_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    _print_embed(EmbedRun("model:56a8a98:sentences", "-", 0, 0.03, negations=0))
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "nothing to embed: every unit has a vector, and every claim's negation has one too "
        "(--all embeds every unit again)"
    ]


def test_embed_of_negations_only_does_not_count_zero_units(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _print_embed(EmbedRun("model:56a8a98:sentences", "-", 0, 0.03, negations=3))
    assert capsys.readouterr().out == (
        "every unit has a vector already; embedded the negations of 3 claims "
        "(for stance alignment)\n"
    )


def test_embed_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    _print_embed(EmbedRun("m:1:sentences", "cpu", 1, 0.5, negations=1, query_model="/q.onnx"))
    assert capsys.readouterr().out.splitlines() == [
        "embedded 1 unit with m:1:sentences on cpu in 0.5 s (2 units/s), and the negations "
        "of 1 claim (for stance alignment)",
        "query model ready: /q.onnx",
    ]


def _incremental(kind: str, *, new: int = 0, clusters: int = 0, touched: int = 0) -> ClusterRun:
    return ClusterRun(kind, "average@0.25", {"items": new}, 0, {"export": 0.0},
                      mode="incremental", new_units=new, new_clusters=clusters,
                      touched=touched)  # fmt: skip


def test_cluster_with_no_unit_to_place_says_it_is_up_to_date(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it said "claim clusters (average@0.25), incremental: 0 new units, 0 joined existing
    # clusters, 0 -> 0 new clusters; cf of 0 premise clusters updated; ..." per kind
    from argkb.cli.cluster import _print_cluster
    from argkb.pipeline import ClusterReport

    runs = [_incremental("claim"), _incremental("premise")]
    _print_cluster(ClusterReport(runs, 0, "incremental"))
    assert capsys.readouterr().out.splitlines() == [
        "claim clusters (average@0.25): up to date, every claim with an embedding has a cluster",
        "premise clusters (average@0.25): up to date, every premise with an embedding has a "
        "cluster",
        "SAME_AS edges: nothing new to write (--rebuild or --same-as writes all again)",
    ]


def test_cluster_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    from argkb.cli.cluster import _print_cluster
    from argkb.pipeline import ClusterReport

    runs = [_incremental("claim"), _incremental("premise", new=1, clusters=1, touched=1)]
    _print_cluster(ClusterReport(runs, 2, "incremental"))
    assert capsys.readouterr().out.splitlines()[1:] == [
        "premise clusters (average@0.25), incremental: 1 new unit, 0 joined existing clusters, "
        "1 -> 1 new cluster; cf of 1 premise cluster updated; export 0.0s",
        "SAME_AS edges written again: 2",
    ]


def test_stance_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    from argkb.cli.stance import _print_stance
    from argkb.stance.store import StanceRun

    counts = {"data": 1, "model": 0, "unknown": 1}
    _print_stance(StanceRun(1, 0, 0, 0, None, skipped=1), counts)
    assert capsys.readouterr().out.splitlines()[0] == (
        "nothing to predict: the edge with an unknown stance has no text in its premise or "
        "conclusion (empty, blank or missing), so its stance stays unknown; the stance model "
        "was not loaded"
    )
    _print_stance(StanceRun(2, 1, 1, 0, "cross:x", skipped=1), counts)
    assert capsys.readouterr().out.splitlines()[:2] == [
        "predicted 1 of 2 edges (1 pro, 0 con) with cross:x",
        "skipped 1 edge with no text in its premise or conclusion (empty, blank or missing): "
        "its stance stays unknown",
    ]


def test_eval_run_says_one_query_not_one_queries(tmp_path: Path) -> None:
    # 'argkb eval run' on the shipped test runs said "flat: skipped 1 queries without relevant
    # docs"; the notes go to stderr, the table to stdout
    from click.testing import CliRunner

    from argkb.cli import main

    trec = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "trec"
    run = tmp_path / "run.trec"
    # the fixture's run without its first query, and with one query the topics do not have
    lines = (trec / "run.trec").read_text().splitlines()
    answered = sorted({line.split()[0] for line in lines})
    kept = [line for line in lines if line.split()[0] != answered[0]]
    run.write_text("\n".join([*kept, "zz Q0 d1 1 1.0 flat"]) + "\n")
    files = ["--topics", str(trec / "topics.tsv"), "--qrels", str(trec / "qrels.txt")]
    result = CliRunner().invoke(main, ["eval", "run", *files, "--run", str(run)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("| system |")
    assert result.stderr.splitlines() == [
        "flat: skipped 1 query without relevant docs",
        "flat: 1 query missing from the run scores 0",
        "flat: ignored 1 query not in the topics",
    ]
