"""``python -m bench``: list the benchmarks; ``python -m bench NAME [ARGS ...]``: run one.

A benchmark is a module of this package with a ``__main__`` block; the listing reads each
module's docstring without importing it, so listing costs nothing and needs no optional extra.
"""

from __future__ import annotations

import ast
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def benchmarks() -> dict[str, str]:
    """Name -> the first line of its docstring, for every runnable module of ``bench``."""
    found = {}
    for path in sorted(HERE.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, filename=str(path))
        if not any(_is_main_block(node) for node in tree.body):
            continue  # a helper (common) or a plug-in (study_recorder), not a benchmark
        doc = ast.get_docstring(tree) or ""
        found[path.stem] = doc.strip().splitlines()[0] if doc.strip() else ""
    return found


def _is_main_block(node: ast.stmt) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":``."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    test = node.test
    return (
        isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def listing(found: dict[str, str]) -> str:
    width = max(map(len, found), default=0)
    lines = ["usage: python -m bench NAME [ARGS ...]   (NAME --help: its options)", ""]
    lines += [f"  {name:<{width}}  {doc}" for name, doc in found.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    found = benchmarks()
    if not argv or argv[0] in ("-h", "--help", "list"):
        print(listing(found))
        return 0
    name, args = argv[0], argv[1:]
    if name not in found:
        print(f"unknown benchmark {name!r}\n\n{listing(found)}", file=sys.stderr)
        return 2
    sys.argv = [f"python -m bench {name}", *args]
    runpy.run_module(f"bench.{name}", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
