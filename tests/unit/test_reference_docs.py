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


# -- links between the docs ------------------------------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """Anchors of a markdown file's headings (outside code blocks), with GitHub's -1, -2, ...
    suffixes for repeated headings, plus explicit ``<a id="...">`` / ``name`` targets."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", text))
    seen: dict[str, int] = {}
    for line in text.splitlines():
        if re.match(r"#{1,6} ", line):
            anchor = _anchor(line.lstrip("#"))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def _doc_pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def test_relative_links_resolve() -> None:
    """Every relative link in README.md and docs/ names a file that exists and, where it has an
    #anchor into a markdown file, a heading of that file."""
    broken = []
    for page in _doc_pages():
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            if not linked.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_link_checker_sees_a_broken_anchor(tmp_path: Path) -> None:
    """The anchors a heading gets, so that the check above can fail."""
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n## Query latency (`bench/query.py`)\n\n## Notes\n\n## Notes\n")
    assert _anchors(page) == {"a-page", "query-latency-benchquerypy", "notes", "notes-1"}


# -- README: short, and every measured number is a link to its run -----------------------------

README_MAX_LINES = 150
# A version after one of these names is not a measurement ("Neo4j 5.26", "Python 3.11+").
VERSIONED = r"(?:Python|Neo4j|OpenJDK|Maven|GDS|APOC|torch|driver)"
# A number with a decimal point, or one with a unit of time, rate or share after it.
MEASURED = re.compile(
    r"\b\d[\d,.]*(?:-\d[\d,.]*)?\s*(?:ms|s|%|queries/s|elements/s|texts/s)(?!\w)"
    r"|(?<![\w.])\d[\d,]*\.\d+|(?<![\w.])\.\d+"
)


def _unlinked_numbers(text: str) -> list[str]:
    """Measured-looking numbers of a markdown text that are not inside a link: code blocks,
    code spans, links and versions after a product name are taken out first."""
    text = FENCE.sub("", text)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(VERSIONED + r" \d+(?:\.\d+)+\+?", "", text)
    return MEASURED.findall(text)


def test_readme_is_short_and_links_every_number() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = readme.count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines (at most {README_MAX_LINES})"
    unlinked = _unlinked_numbers(readme)
    assert not unlinked, (
        f"README.md states numbers without a link to where they were measured: {unlinked}"
    )


def test_unlinked_numbers_are_found() -> None:
    text = (
        "ArgKP .701 and 27.6 s, p95 65 ms; [.6911](docs/evaluation.md) and `torch==2.13.0`; "
        "Neo4j 5.26 and Python 3.11+"
    )
    assert _unlinked_numbers(text) == [".701", "27.6 s", "65 ms"]
