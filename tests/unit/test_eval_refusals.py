"""Bad evaluation input refused in one line before anything is loaded or scored (an audit of
2026-11-28): a ranker factory that cannot be imported or called, ArgKP files without an
argument, a predictions file naming none of the split's arguments, stance data with no pair."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.errors import EvaluationError
from argkb.eval.harness import _resolve, make_rankers

ARGKP = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "argkp"


@pytest.mark.parametrize(
    ("factory", "message"),
    [("nosuchmod:f", "cannot load ranker factory"), ("os:sep", "is not callable"),
     (":f", "cannot load ranker factory")],
)  # fmt: skip
def test_a_factory_that_cannot_be_used_is_refused(factory: str, message: str) -> None:
    with pytest.raises(EvaluationError, match=message):
        _resolve(factory)


def test_a_factory_with_the_wrong_signature_is_a_one_line_error() -> None:
    with pytest.raises(EvaluationError, match="a factory takes driver, database and embedder"):
        make_rankers("os:system", None, None, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "error"),
    [("def f(:\n", "SyntaxError"), ("raise RuntimeError('no config')\n", "RuntimeError")],
)
def test_a_ranker_module_that_fails_to_import_is_one_line(
    source: str, error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any exception of the user's module, not only ImportError, is a one-line usage error."""
    (tmp_path / "broken_ranker_module.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["eval", "argkp", "--data", str(ARGKP), "--uri", "bolt://127.0.0.1:1",
            "--ranker", "broken_ranker_module:f"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"cannot load ranker factory 'broken_ranker_module:f': {error}" in result.output
    assert result.output.count("\n") == 1
    verbose = CliRunner().invoke(main, ["-v", *args])  # -v shows where it failed
    assert "Traceback" in verbose.output and verbose.exit_code == 2


def test_a_ranker_factory_that_raises_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "raising_ranker_module.py").write_text(
        "def f(driver, database, embedder):\n    return {}['model']\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(EvaluationError, match=r"ranker 'raising_ranker_module:f': its factory "
                       r"raised KeyError: 'model'"):  # fmt: skip
        make_rankers("raising_ranker_module:f", None, None, None)  # type: ignore[arg-type]


def _header_only(folder: Path) -> Path:
    for source in ARGKP.glob("*.csv"):
        lines = source.read_text(encoding="utf-8").splitlines()
        (folder / source.name).write_text(lines[0] + "\n", encoding="utf-8")
    return folder


def test_argkp_files_without_arguments_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["eval", "kpa", "--data", str(_header_only(tmp_path)),
                                       "--split", "dev", "--matcher", "bm25"])  # fmt: skip
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no argument to score" in result.output and result.output.count("\n") == 1


def test_predictions_for_other_arguments_are_refused(tmp_path: Path) -> None:
    data = tmp_path / "argkp"
    shutil.copytree(ARGKP, data)
    predictions = tmp_path / "p.json"
    predictions.write_text(json.dumps({"arg_elsewhere": {"kp_1_0": 0.9}}), encoding="utf-8")
    result = CliRunner().invoke(main, ["eval", "kpa", "--data", str(data), "--split", "dev",
                                       "--predictions", str(predictions)])  # fmt: skip
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no argument id of the dev split is predicted" in result.output


def test_a_bad_predictions_file_is_refused_before_any_matcher_scores(tmp_path: Path) -> None:
    predictions = tmp_path / "p.json"
    predictions.write_text('{"arg_0_0": {"kp_0_0": 0.9', encoding="utf-8")  # cut short
    result = CliRunner().invoke(main, ["eval", "kpa", "--data", str(ARGKP), "--matcher", "bm25",
                                       "--predictions", str(predictions)])  # fmt: skip
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "p.json: not a JSON predictions file" in result.output
    assert "scoring bm25" not in result.output  # with model or cross, a model load and a run


def test_stance_data_without_pairs_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["eval", "stance", "--argkp", str(_header_only(tmp_path))])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "no labelled pro or con pair" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["eval", "stance", "--data", str(empty)])
    assert result.exit_code != 0 and "holds none of argkp-2021" in result.output


@pytest.mark.parametrize("grade", ["nan", "inf", "two"])
def test_a_grade_that_is_not_a_finite_number_is_refused(grade: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["eval", "argkp", "--data", str(tmp_path),
                                       "--relevant-from", grade])  # fmt: skip
    assert result.exit_code == 2 and "Invalid value for '--relevant-from'" in result.output
