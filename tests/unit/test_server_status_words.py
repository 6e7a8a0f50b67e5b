"""``argkb server status`` says yes and no, not Python's True and False."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main


def test_status_of_a_home_without_neo4j_says_no(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARGKB_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["server", "status"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("installed: no (") and lines[1] == "running:   no", lines
    assert "True" not in result.stdout and "False" not in result.stdout
