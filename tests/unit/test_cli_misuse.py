"""Newcomer misuse of the CLI (issue 13): nonsense options are refused with one line (exit 2)
before anything connects to Neo4j or changes the graph, never with a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main

# an address nothing listens on: a command that got past its option checks fails differently
NOWHERE = ["--uri", "bolt://127.0.0.1:9"]


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["query", "some claim", "--k", "-3"], "--k"),
        (["query", "some claim", "--k", "0"], "--k"),
        (["query", "some claim", "--k", "1000000"], "--k"),
        (["cluster", "--claim-cut", "-1"], "--claim-cut"),
        (["cluster", "--premise-cut", "-5"], "--premise-cut"),
        (["cluster", "--claim-cut", "2.5"], "--claim-cut"),
        (["cluster", "--k", "0"], "--k"),
        (["cluster", "--same-as", "5"], "--same-as"),
        (["cluster", "--same-as", "0"], "--same-as"),
        (["pagerank", "--top", "-1"], "--top"),
        (["pagerank", "--alpha", "1.5"], "--alpha"),
        (["pagerank", "--alpha", "0"], "--alpha"),  # would overwrite the scores with 1/n
        (["pagerank", "--max-iter", "0"], "--max-iter"),
        (["init", "--dimensions", "0"], "--dimensions"),
        (["embed", "--device", "bogus"], "--device"),
    ],
)
def test_nonsense_option_values_are_refused_in_one_line(args: list[str], option: str) -> None:
    result = CliRunner().invoke(main, [*args, *NOWHERE])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"Invalid value for '{option}'" in result.output
    assert "Traceback" not in result.output


def test_a_device_this_machine_lacks_is_refused_in_one_line() -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    result = CliRunner().invoke(main, ["embed", "--device", "cuda", *NOWHERE])
    assert result.exit_code == 2
    assert "this machine has no cuda device" in result.output


def test_reject_report_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "a.jsonl"
    data.write_text('{"conclusion": "C", "premises": [{"text": "P"}]}\n')
    report = tmp_path / "no" / "such" / "folder" / "rejected.jsonl"
    args = ["load", "jsonl", str(data), "--on-error", "skip", "--reject-report", str(report)]
    result = CliRunner().invoke(main, [*args, *NOWHERE])
    assert result.exit_code == 2, result.output
    assert (
        "Invalid value for '--reject-report'" in result.output and "does not exist" in result.output
    )


def test_query_that_is_not_utf8_is_a_one_line_error() -> None:
    """A non-UTF-8 argument reaches Python as lone surrogates (surrogateescape)."""
    from click.testing import CliRunner

    from argkb.cli import main

    out = CliRunner().invoke(main, ["query", "caf\udce9 fuels"])
    assert out.exit_code == 2
    assert "not valid UTF-8" in out.output and "Traceback" not in out.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["load", "jsonl", "/no/such/file.jsonl"], "does not exist"),
        (["query", "   "], "CLAIM: is empty"),
        (["keypoints", ""], "TOPIC: is empty"),
        (["keypoints", "x" * 2001], "TOPIC: is 2,001 characters long"),
        (["query", "x" * 2001], "CLAIM: is 2,001 characters long"),
        (["quer", "x"], "No such command 'quer'"),
        (["eval", "argkp"], "Missing option '--data'"),
    ],
)
def test_a_usage_error_is_one_line_with_where_to_find_help(args: list[str], fragment: str) -> None:
    """Usage errors, as bad input, are one line on stderr and exit code 2 (not click's block of
    usage, hint and error); nothing is read or written before them."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert fragment in result.stderr and "--help')" in result.stderr


@pytest.mark.parametrize("args", [[], ["db"], ["eval"]])
def test_a_group_without_a_command_shows_its_help(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.output.startswith("Usage: "), result.output
    assert "Commands:" in result.output
    assert not result.output.startswith("Error")


def test_options_the_eval_and_query_commands_would_misuse_are_refused(tmp_path: Path) -> None:
    """From an audit (2026-11-27): an --out under a file failed after the whole run, an empty
    --collection scored the whole database, --folds 0 divided by zero, --stance and --pairing
    were ignored beside or without --pairs, an empty perspective name was written; from the
    sentence-pair audit (session 29): the ranking and cluster options were ignored beside
    --pairs."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "dataset"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cases = [
        (["eval", "argkp", "--data", str(tmp_path), "--out", str(blocker / "sub")],
         "cannot create the folder"),
        (["eval", "dataset", "--corpus", str(fixture / "corpus.jsonl"), "--topics",
          str(fixture / "topics.tsv"), "--qrels", str(fixture / "qrels.txt"), "--collection", ""],
         "selects every source"),
        (["eval", "stance", "--data", str(tmp_path), "--folds", "0"], "--folds"),
        (["query", "some claim", "--pairs", "--stance", "con"], "does not apply to --pairs"),
        (["query", "some claim", "--pairing", "next"], "add --pairs"),
        (["query", "some claim", "--pairs", "--ranker", "pfidf"],
         "--ranker does not apply to --pairs"),
        (["query", "some claim", "--pairs", "--fusion", "linear", "--snippets"],
         "--fusion, --snippets do not apply to --pairs"),
        (["bloom", "perspective", "-o", str(tmp_path / "p.json"), "--name", " "], "is empty"),
    ]  # fmt: skip
    for args, said in cases:
        offline = args[0] == "bloom"  # writes a file, connects to nothing
        result = CliRunner().invoke(main, args if offline else [*args, *NOWHERE])
        assert result.exit_code == 2, (args, result.output)
        assert said in result.output and "Traceback" not in result.output, result.output
    assert not (tmp_path / "p.json").exists()
    # a --collection that selects none of the corpus's sources is refused before connecting
    typo = ["eval", "dataset", "--corpus", str(fixture / "corpus.jsonl"), "--topics",
            str(fixture / "topics.tsv"), "--qrels", str(fixture / "qrels.txt"),
            "--collection", "jsonl:typo", "--out", str(tmp_path / "typo"), *NOWHERE]  # fmt: skip
    result = CliRunner().invoke(main, typo)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "selects none of corpus.jsonl's sources (jsonl:energy-debate" in result.output
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize(
    ("interrupt", "line"),
    [
        (KeyboardInterrupt(), "Error: interrupted before anything was written: the graph is "
                              "unchanged"),
        ("began", "Error: interrupted: what was written stays, its corpus marked 'loading'"),
    ],
)  # fmt: skip
def test_ctrl_c_during_load_says_whether_anything_was_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interrupt: object, line: str
) -> None:
    """Ctrl-C while the files are hashed (before the corpus is marked 'loading') wrote nothing;
    after that, the corpus is listed as loading (review of session 26: both said the latter)."""
    import argkb.cli.app
    import argkb.pipeline
    from argkb.errors import LoadInterrupted

    def interrupted(*args: object, **kwargs: object) -> None:
        raise interrupt if isinstance(interrupt, BaseException) else LoadInterrupted("jsonl:x")

    monkeypatch.setattr(argkb.pipeline, "load", interrupted)
    monkeypatch.setattr(argkb.cli.app.Connection, "driver", lambda self: None)
    data = tmp_path / "a.jsonl"
    data.write_text('{"conclusion": "C", "premises": [{"text": "P"}]}\n')
    result = CliRunner().invoke(main, ["load", "jsonl", str(data), *NOWHERE])
    assert result.exit_code == 130
    assert result.output.startswith(line) and result.output.count("\n") == 1, result.output
