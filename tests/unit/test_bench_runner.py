"""``python -m bench``: lists the benchmarks (without importing them) and runs one by name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import benchmarks, main

ROOT = Path(__file__).resolve().parents[2]


def test_lists_the_benchmarks_and_not_the_helpers() -> None:
    found = benchmarks()
    assert {"query", "pipeline", "incremental", "ingest", "pagerank"} <= found.keys()
    assert "common" not in found and "study_recorder" not in found
    assert found["query"].startswith("Query latency")


def test_unknown_name_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no_such_benchmark"]) == 2
    assert "unknown benchmark 'no_such_benchmark'" in capsys.readouterr().err


def test_runs_a_benchmark_as_a_module_from_the_repository_root() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "synth", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--arguments" in done.stdout


def test_no_benchmark_edits_sys_path() -> None:
    """Benchmarks import ``bench.common`` and ``synthcorpus`` as modules run from the root."""
    edits = [p.name for p in sorted((ROOT / "bench").glob("*.py")) if "sys.path" in p.read_text()]
    assert edits == []
