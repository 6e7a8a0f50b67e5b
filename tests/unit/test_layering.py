"""The layers import one way: retrieval never needs the evaluation package."""

from __future__ import annotations

import subprocess
import sys

RETRIEVE_MODULES = [
    "argkb.retrieve",
    "argkb.retrieve.baselines",
    "argkb.retrieve.claims",
    "argkb.retrieve.coreset",
    "argkb.retrieve.lucene",
    "argkb.retrieve.pfidf",
    "argkb.retrieve.relevance",
    "argkb.ranking",
    "argkb.query",
    "argkb.query.engine",
    "argkb.query.rankers",
]


def test_importing_retrieve_does_not_import_eval() -> None:
    # a fresh interpreter: this test process may have imported argkb.eval already
    code = (
        "import importlib, sys\n"
        f"for name in {RETRIEVE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules\n"
        "             if m == 'argkb.eval' or m.startswith('argkb.eval.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_no_retrieve_module_mentions_eval_in_an_import() -> None:
    """Also the imports made inside functions, which an import-time check cannot see."""
    import ast
    from pathlib import Path

    import argkb.retrieve

    offenders = []
    for path in Path(argkb.retrieve.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("argkb.eval")]
    assert offenders == []
