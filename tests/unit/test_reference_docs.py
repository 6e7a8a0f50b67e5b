"""docs/reference/ is generated (.ci/gen_reference.py) and must match the code it documents.

Each test regenerates a page in memory and compares it with the committed file, so a new option,
a changed help text or a changed setting default fails here until the page is regenerated (the
way sqlite-utils and datasette keep their CLI reference current).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
FIX = "run `.venv/bin/python .ci/gen_reference.py` and commit docs/reference/"


def _generator() -> ModuleType:
    """.ci/gen_reference.py as a module (.ci is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "gen_reference", REPO / ".ci" / "gen_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _committed_sections(text: str) -> dict[str, str]:
    """The committed cli.md split at its ``## argkb ...`` headings: command path -> section."""
    parts = re.split(r"^(?=#{2,4} argkb\b)", text, flags=re.M)
    return {part.splitlines()[0].lstrip("# ").strip(): part.rstrip() for part in parts[1:]}


def test_cli_reference_is_current() -> None:
    gen = _generator()
    committed_text = (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    committed = _committed_sections(committed_text)
    generated = {path: section.rstrip() for path, section in gen.cli_sections()}
    missing = sorted(set(generated) - set(committed))
    assert not missing, f"docs/reference/cli.md lacks {missing}: {FIX}"
    removed = sorted(set(committed) - set(generated))
    assert not removed, f"docs/reference/cli.md documents commands that are gone, {removed}: {FIX}"
    stale = [path for path in generated if generated[path] != committed[path]]
    assert not stale, f"docs/reference/cli.md is stale for {stale}: {FIX}"
    assert committed_text == gen.cli_markdown(), f"docs/reference/cli.md differs: {FIX}"


def test_settings_reference_is_current() -> None:
    gen = _generator()
    committed = (REPO / "docs" / "reference" / "settings.md").read_text(encoding="utf-8")
    generated = gen.settings_markdown()
    stale = [
        line.split("|")[1].strip()
        for line in generated.splitlines()
        if line.startswith("| `") and line not in committed.splitlines()
    ]
    assert committed == generated, f"docs/reference/settings.md is stale ({stale}): {FIX}"


def test_cli_reference_covers_every_command_with_its_options() -> None:
    """Independent of the generator's own walk: every command click knows has a section, and
    every option of it is named in that section."""
    import click

    from argkb.cli import main

    committed = _committed_sections(
        (REPO / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    )

    def walk(command: click.Command, path: str) -> None:
        assert path in committed, f"docs/reference/cli.md has no section for {path}: {FIX}"
        for param in command.params:
            shown = isinstance(param, click.Option) and not param.hidden
            for name in param.opts if shown else ():
                assert name in committed[path], f"{path}: {name} not in its section: {FIX}"
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                if sub.hidden:
                    continue
                walk(sub, f"{path} {name}")

    walk(main, "argkb")
