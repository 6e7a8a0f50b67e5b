"""Every CLI command documents itself, and the CLI imports nothing heavy at start-up."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from argkb.cli import main


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        path = (*prefix, name)
        found.append(path)
        if isinstance(command, click.Group):
            found.extend(_commands(command, path))
    return found


def test_every_command_has_help_text() -> None:
    runner = CliRunner()
    paths = _commands(main)
    assert ("server", "start") in paths and ("init",) in paths
    for path in paths:
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        command: click.Command = main
        for part in path:
            assert isinstance(command, click.Group)
            command = command.commands[part]
        assert command.help and command.help.strip(), f"argkb {' '.join(path)} has no help"


def test_cli_import_is_light() -> None:
    """`argkb --help` must not pay for neo4j, numpy, scipy or torch."""
    probe = (
        "import sys, argkb.cli; "
        "heavy = [m for m in ('neo4j', 'numpy', 'scipy', 'torch', 'sentence_transformers') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
