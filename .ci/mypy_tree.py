"""Lay out the argkb package for mypy the way the wheel lays it out: build/mypy/argkb.

setuptools maps top-level folders into the package (``[tool.setuptools.package-dir]`` in
pyproject.toml: ``loaders/`` is ``argkb.loaders``, ``cypher/`` is ``argkb.cypher``); mypy cannot
follow such a mapping and would see those modules as missing, hence ``Any``. This script builds a
tree of symbolic links, argkb/'s own entries plus each mapped folder under its package name, and
pyproject's ``[tool.mypy] files`` points mypy at it. The mapping is read from pyproject.toml, so
there is one source for it. Run from anywhere; ``make lint`` runs it before mypy.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "mypy"
PACKAGE = "argkb"


class LayoutError(Exception):
    """pyproject.toml's package-dir table is not one this script can lay out."""


def build_tree() -> Path:
    """(Re)build build/mypy/argkb and return it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapping: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    if mapping.get(PACKAGE, PACKAGE) != PACKAGE:
        raise LayoutError(f"package-dir maps {PACKAGE!r} away from {PACKAGE}/")
    target = TREE / PACKAGE
    if TREE.exists():
        shutil.rmtree(TREE)
    target.mkdir(parents=True)
    for entry in sorted((ROOT / PACKAGE).iterdir()):
        if entry.name != "__pycache__":
            (target / entry.name).symlink_to(entry)
    for name, folder in sorted(mapping.items()):
        if name == PACKAGE:
            continue
        parts = name.split(".")
        if parts[0] != PACKAGE or len(parts) != 2:
            raise LayoutError(f"package-dir entry {name!r} is not {PACKAGE}.<name>")
        link = target / parts[1]
        if link.exists() or link.is_symlink():
            raise LayoutError(f"{name} is both {PACKAGE}/{parts[1]} and {folder}/")
        source = ROOT / folder
        if not (source / "__init__.py").is_file():
            raise LayoutError(f"package-dir {name} = {folder!r}: no {folder}/__init__.py")
        link.symlink_to(source)
    return target


def main() -> int:
    try:
        build_tree()
    except LayoutError as err:
        print(f"pyproject.toml: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
