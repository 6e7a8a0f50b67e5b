"""The help says the order of the pipeline, and each step's help what it needs first (issue 13)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from argkb.cli import main

PIPELINE = "load -> embed -> cluster -> pagerank [-> stance] -> query"


def _help(*path: str) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # click wraps lines; compare words


def test_argkb_help_gives_the_pipeline_in_order() -> None:
    text = _help()
    assert PIPELINE in text
    steps = [text.index(f"argkb {step}") for step in ("load", "embed", "cluster", "pagerank")]
    assert steps == sorted(steps)
    assert "argkb update" in text and "argkb status" in text


@pytest.mark.parametrize(
    ("command", "needs"),
    [
        ("load", []),
        ("embed", ["load"]),
        ("cluster", ["embed"]),
        ("pagerank", ["load"]),
        ("stance", ["load"]),
        ("query", ["load", "embed", "cluster", "pagerank"]),
        ("update", ["load"]),
    ],
)
def test_each_step_says_the_pipeline_and_what_it_needs(command: str, needs: list[str]) -> None:
    text = _help(command)
    assert PIPELINE in text
    if not needs:
        assert "needs nothing before it" in text
        return
    if command != "update":  # update runs the steps; it needs a load before it
        assert re.search(r"needs '?argkb [^.]*first", text), text
    for step in needs:
        assert f"argkb {step}" in text, (command, step)
