"""Float options refuse nan and inf in one usage line (click's FloatRange let nan through:
``--max-zip-ratio nan`` turned the zip-bomb check off). No database: options are read first."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main

CASES = [
    (["load", "aif", "{tmp}", "--max-zip-ratio"], "--max-zip-ratio"),
    (["cluster", "--claim-cut"], "--claim-cut"),
    (["cluster", "--premise-cut"], "--premise-cut"),
    (["cluster", "--same-as"], "--same-as"),
    (["query", "a claim", "--alpha"], "--alpha"),
    (["pagerank", "--alpha"], "--alpha"),
    (["pagerank", "--tol"], "--tol"),
    (["serve", "--timeout"], "--timeout"),
    (["eval", "argrank", "--data", "{tmp}", "--alpha"], "--alpha"),
]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
@pytest.mark.parametrize(("args", "option"), CASES)
def test_a_float_option_refuses_what_is_no_finite_number(
    tmp_path: Path, args: list[str], option: str, value: str
) -> None:
    args = [a.format(tmp=tmp_path) for a in args]
    result = CliRunner().invoke(main, [*args, value], prog_name="argkb")
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    command = " ".join(args[:2]) if args[0] == "eval" else args[0]
    assert line.startswith(f"Error: Invalid value for '{option}': ")
    assert line.endswith(f" (see 'argkb {command} --help')")
    if value == "nan":  # inf may be out of the option's range first
        assert "'nan' is not a finite number" in line
