"""argkb.pipeline sits between the algorithms and their front ends, and reports through one
progress interface (argkb.progress) that the CLI renders."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

from argkb.progress import SILENT, Prefixed


def test_pipeline_imports_no_front_end_and_nothing_heavy() -> None:
    """Importing argkb.pipeline must not load the CLI, the server or the evaluation (they sit
    above it), nor neo4j, numpy or torch (its functions import what they need)."""
    probe = (
        "import sys, argkb.pipeline; "
        "bad = [m for m in sys.modules if m.startswith(('argkb.cli', 'argkb.serve', 'argkb.eval'))"
        " or m in ('neo4j', 'numpy', 'torch', 'click')]; print(','.join(sorted(bad)))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_silent_progress_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with SILENT.stage("embed", unit=" units", total=3) as advance:
        advance(2)
        advance(1)
    SILENT.message("a line")
    assert capsys.readouterr() == ("", "")


def test_stderr_progress_keeps_stdout_for_results(capsys: pytest.CaptureFixture[str]) -> None:
    from argkb.cli.progress import StderrProgress, progress_for

    shown = StderrProgress()
    with shown.stage("embed", unit=" units", total=4) as advance:
        advance(4)
    Prefixed(shown, "  ").message("warm start")
    out, err = capsys.readouterr()
    assert out == ""
    # stderr is no terminal here: a stage is one line when it is done, no redrawn bar
    assert re.fullmatch(r"embed: 4 units in \d+\.\d s\n  warm start\n", err), err
    with pytest.raises(RuntimeError), shown.stage("load", unit=" rec") as advance:
        advance(3)
        raise RuntimeError("a failed stage leaves stderr to its error")
    assert capsys.readouterr() == ("", "")
    assert progress_for(True) is SILENT
    assert isinstance(progress_for(False), StderrProgress)


def test_stderr_progress_draws_a_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from argkb.cli.progress import StderrProgress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with StderrProgress().stage("embed", unit=" units", total=4) as advance:
        advance(4)
    err = capsys.readouterr().err
    assert "embed" in err and "4/4" in err and "100%" in err
    # a failed stage ends the bar's line, so the error that follows starts a line of its own
    with pytest.raises(RuntimeError), StderrProgress().stage("load", unit=" rec") as advance:
        advance(3)
        raise RuntimeError("the work failed")
    err = capsys.readouterr().err
    assert "load: " in err and " 3 rec" in err and err.endswith("\n")


def test_open_bar_off_a_terminal_is_one_line_when_closed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # what the eval commands' bars use: nothing while counting, one line at the end
    from argkb.cli.progress import open_bar

    bar = open_bar("load argrank", " rec", total=10)
    bar.update(2)
    bar.update(3)
    assert capsys.readouterr().err == ""
    bar.close()
    assert re.fullmatch(r"load argrank: 5 of 10 rec in \d+\.\d s\n", capsys.readouterr().err)


def test_a_failed_eval_step_leaves_stderr_to_its_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Off a terminal, the eval commands' bars say a step was done only when it was: a ranker
    that fails after three queries writes no "rank: 3 queries" line before the error."""
    from argkb.cli.eval_cmds import HarnessArgs, harness_report

    class NoServer:
        database = None

        def driver(self) -> None:
            return None

    def ranks_then_fails(driver: object, *, database: object, options: Any) -> Any:
        for _ in range(3):
            options.on_query(1)
        raise RuntimeError("the ranker failed")

    def ranks(driver: object, *, database: object, options: Any) -> str:
        options.on_query(2)
        return "report"

    args = HarnessArgs((), False, None, None, None, None, False)
    with pytest.raises(RuntimeError):
        harness_report(ranks_then_fails, NoServer(), args)  # type: ignore[arg-type]
    assert capsys.readouterr().err == ""
    assert harness_report(ranks, NoServer(), args) == "report"  # type: ignore[arg-type]
    assert re.fullmatch(r"rank: 2 queries in \d+\.\d s\n", capsys.readouterr().err)
