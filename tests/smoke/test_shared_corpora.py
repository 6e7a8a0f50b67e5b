"""Smoke tier: every corpus in ../shared/data loads with `argkb load`'s default options.

The table in docs/corpora.md is the contract: for each row, the command shown (run here exactly
as written, through the CLI, with ``--json``) must exit 0 and report the counts in that row. So a
new check in a loader that breaks a shipped benchmark fails here, and the docs cannot drift from
what the loaders do.

The corpora are not part of the repository. Where ``../shared/data`` is missing the tier is
skipped, except in CI (``CI`` set), where the data is always beside the clone and its absence
is an error.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.neo4j

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
DOC = REPO / "docs" / "corpora.md"
# docs/corpora.md's column header -> the field of `argkb load --json`
COLUMNS = {
    "arguments": "arguments",
    "units": "units",
    "sources": "sources",
    "reuse edges": "reuse_edges",
    "links": "links",
    "rejected": "rejected",
    "left out": "left_out",
}


def documented_loads() -> list[tuple[str, list[str], dict[str, int]]]:
    """``(corpus, argkb arguments, expected counts)`` for each row of docs/corpora.md's table."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("| corpus | command |"))
    header = [cell.strip() for cell in lines[header_at].strip("|").split("|")]
    rows = []
    for line in lines[header_at + 2 :]:
        if not line.startswith("|"):
            break
        cells = dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True))
        command = re.fullmatch(r"`argkb (load .*)`", cells["command"])
        assert command, f"docs/corpora.md: not an `argkb load` command: {cells['command']}"
        args = [
            str(DATA / word.removeprefix("../shared/data/"))
            if word.startswith("../shared/data/")
            else word
            for word in shlex.split(command.group(1))
        ]
        expected = {name: int(cells[column].replace(",", "")) for column, name in COLUMNS.items()}
        rows.append((cells["corpus"], args, expected))
    return rows


def test_the_documented_commands_use_default_options() -> None:
    rows = documented_loads()
    assert rows
    for corpus, args, _ in rows:
        assert [a for a in args if a.startswith("-")] == [], f"{corpus}: {args}"


def test_every_documented_path_is_in_shared_data() -> None:
    if not DATA.is_dir():
        _missing()
    documented = {Path(args[2]).relative_to(DATA).parts[0] for _, args, _ in documented_loads()}
    corpora = {p.name for p in DATA.iterdir() if p.is_dir()}
    assert corpora <= documented, f"corpora with no row in docs/corpora.md: {corpora - documented}"


@pytest.mark.parametrize(
    ("corpus", "args", "expected"),
    documented_loads(),
    ids=[row[0] for row in documented_loads()],
)
def test_shared_corpus_loads_with_defaults(
    db, corpus: str, args: list[str], expected: dict[str, int]
) -> None:
    from argkb.cli import main

    if not DATA.is_dir():
        _missing()
    uri = ["--uri", os.environ["NEO4J_URI"]] if os.environ.get("NEO4J_URI") else []
    result = CliRunner().invoke(main, [*args, "--json", *uri])
    assert result.exit_code == 0, f"{corpus}: {result.output[-2000:]}"
    summary = json.loads(result.stdout)
    got = {name: summary[name] for name in expected}
    got["left_out"] = sum(summary["left_out"].values())
    assert got == expected, f"{corpus}: docs/corpora.md says {expected}, the load gave {got}"


def _missing() -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI runs beside shared/, but {DATA} is missing")
    pytest.skip(f"{DATA} is not here (the shared corpora are not part of the repository)")
