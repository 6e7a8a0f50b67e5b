"""Every relative link in README.md and docs/ names a file that exists, and an ``#anchor`` a
heading of that file (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, a
repeated heading numbered ``-1``, ``-2``, ...). Pure: reads the Markdown files, nothing else."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
# [text](target) and ![alt](target); a target ends at whitespace or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def _slug(heading: str) -> str:
    # link text of a heading's links counts, their targets do not
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``path``."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        slug = _slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """``'page: target (why)'`` for each relative link of ``page`` that does not resolve."""
    broken = []
    for line in _prose(page.read_text(encoding="utf-8")):
        # inline code is not a link
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            name = f"{page.relative_to(REPO)}: {target}"
            if not linked.exists():
                broken.append(f"{name} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{name} (no such heading)")
    return broken


def test_slug_follows_github() -> None:
    assert _slug("argkb query CLAIM") == "argkb-query-claim"
    assert _slug("Generated key points (`argkb keypoints TOPIC`, `argkb eval kpa --coverage`)") == (
        "generated-key-points-argkb-keypoints-topic-argkb-eval-kpa---coverage"
    )
    assert _slug("The linear fusion, the default (2026-11-26)") == (
        "the-linear-fusion-the-default-2026-11-26"
    )


def test_every_relative_link_resolves() -> None:
    broken = [entry for page in PAGES for entry in broken_links(page)]
    assert not broken, "broken links:\n" + "\n".join(broken)
