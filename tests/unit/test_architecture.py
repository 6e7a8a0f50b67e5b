"""The shape of the code, checked (issue #27): imports run one way between layers, no package
imports itself back through another, and no module or function grows past what a reader can hold.

Imports are read from the source with :mod:`ast` (no module is imported), both those at the top
of a module and those inside functions, which an import-time check would miss. Imports under
``if TYPE_CHECKING:`` are left out of both the layering and the cycle rule: they never run, and a
type annotation may name a class of a higher layer without making the lower one depend on it.

Known violations that someone is fixing now sit in the allow-lists below, each with its reason
and owner; an entry that no longer matches anything fails the test, so the lists only shrink.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
# source folder -> the module name it installs as (pyproject: "argkb.loaders" = "loaders")
PACKAGES = {"argkb": "argkb", "loaders": "argkb.loaders"}
SIZE_CHECKED = ("argkb", "loaders", "bench")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

# Layers, lowest first: a module may import its own layer or a lower one, never a higher one.
# The key is the first name under ``argkb`` (``argkb.rank.pagerank`` -> ``rank``). The order
# follows issue #27: db <- embed/cluster/rank/stance <- query <- serve/eval <- cli.
LAYERS: dict[str, int] = {
    # 0 foundation: no argkb imports beyond each other
    "argkb": 0,  # the package itself (argkb/__init__.py)
    "errors": 0,
    "paths": 0,
    "ranking": 0,  # Query/Ranking, shared by retrieval and evaluation
    "negation": 0,  # rule-based sentence negation (stance features, negation embeddings)
    "jsonout": 0,
    "progress": 0,
    "blas": 0,  # OpenBLAS threads for the query commands, set before numpy loads
    # 1 storage and reading: the Neo4j layer; the corpus readers (pure, no database)
    "db": 1,
    "loaders": 1,
    # 2 getting data in: loading records into the graph, embedding it
    "ingest": 2,
    "ingest_check": 2,  # the checks and rows of load_records
    "ingest_batches": 2,  # its batched Neo4j writes
    "ingest_drop": 2,  # argkb db drop: a corpus removed as a failed load is undone
    "embed": 2,
    # 3 what is computed over the graph
    "cluster": 3,
    "rank": 3,
    "stance": 3,
    # 4 answering questions
    "retrieve": 4,
    "query": 4,
    "sentences": 4,  # sentence retrieval shares retrieve's Lucene escaper and index routes
    # 5 applications of the query layer
    "pipeline": 5,
    "explore": 5,
    "eval": 5,
    "keypoints": 5,  # key point analysis, evaluated with eval's ArgKP splits
    "serve": 5,
    # 6 the command line, on top of everything
    "cli": 6,
}

# (importing module, imported module) -> why it is still allowed, and who removes it
LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {}

# a set of packages that import each other -> why it is still allowed, and who removes it
CYCLE_EXCEPTIONS: dict[frozenset[str], str] = {}

# path -> why it may still be longer than MAX_MODULE_LINES, and who splits it
LONG_MODULES: dict[str, str] = {}

# "path::qualified name" -> why it may still be longer than MAX_FUNCTION_LINES, and who splits it
LONG_FUNCTIONS: dict[str, str] = {}


@dataclass(frozen=True)
class Import:
    """One ``import``/``from ... import`` of an argkb module, where it was written."""

    source: str  # the importing module, e.g. "argkb.db.browser"
    target: str  # the imported module, e.g. "argkb.explore.guide"
    path: str  # the importing file, relative to the repository
    line: int


def _modules() -> dict[str, Path]:
    """Every module of the installed ``argkb`` package, by dotted name."""
    found = {}
    for folder, name in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [*name.split("."), *path.relative_to(ROOT / folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return skipped


def _imports_of(module: str, source: str, *, path: str, is_package: bool) -> list[Import]:
    """The runtime imports of argkb modules in one module's source (relative ones resolved)."""
    tree = ast.parse(source)
    skipped = _type_checking_only(tree)
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            targets = [".".join([*base, *([node.module] if node.module else [])])]
        else:
            continue
        found += [
            Import(module, t, path, node.lineno)
            for t in targets
            if t == "argkb" or t.startswith("argkb.")
        ]
    return found


def _imports() -> list[Import]:
    """Every runtime import of an argkb module by an argkb module."""
    found = []
    for module, path in _modules().items():
        found += _imports_of(
            module,
            path.read_text(encoding="utf-8"),
            path=str(path.relative_to(ROOT)),
            is_package=path.name == "__init__.py",
        )
    return found


def _part(module: str) -> str:
    """The layer key of a module: the first name under ``argkb`` (``argkb`` for the package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_package_has_a_layer() -> None:
    unplaced = sorted({_part(m) for m in _modules()} - set(LAYERS))
    assert unplaced == [], f"add these to LAYERS in {__file__}: {unplaced}"


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    wrong, used = [], set()
    for imp in _imports():
        low, high = _part(imp.source), _part(imp.target)
        if LAYERS.get(low, 99) >= LAYERS.get(high, 99):
            continue
        key = (imp.source, imp.target)
        if key in LAYER_EXCEPTIONS:
            used.add(key)
            continue
        wrong.append(
            f"{imp.path}:{imp.line}: {imp.source} imports {imp.target}: layer rule "
            f"({low} is layer {LAYERS[low]}, {high} is layer {LAYERS[high]})"
        )
    assert wrong == [], "\n".join(wrong)
    stale = sorted(set(LAYER_EXCEPTIONS) - used)
    assert stale == [], f"LAYER_EXCEPTIONS entries that no longer happen, remove them: {stale}"


def test_no_import_cycle_between_packages() -> None:
    graph: nx.DiGraph[str] = nx.DiGraph()
    where: dict[tuple[str, str], Import] = {}
    for imp in _imports():
        edge = (_part(imp.source), _part(imp.target))
        if edge[0] != edge[1]:
            graph.add_edge(*edge)
            where.setdefault(edge, imp)
    wrong, used = [], set()
    for component in nx.strongly_connected_components(graph):
        if len(component) < 2:
            continue
        key = frozenset(component)
        if key in CYCLE_EXCEPTIONS:
            used.add(key)
            continue
        arrows = [
            f"  {where[e].path}:{where[e].line}: {where[e].source} imports {where[e].target}"
            for e in graph.subgraph(component).edges
        ]
        wrong.append(f"import cycle between {sorted(component)}:\n" + "\n".join(sorted(arrows)))
    assert wrong == [], "\n".join(wrong)
    stale = sorted(sorted(k) for k in set(CYCLE_EXCEPTIONS) - used)
    assert stale == [], f"CYCLE_EXCEPTIONS entries that no longer happen, remove them: {stale}"


def _sources() -> list[Path]:
    return [p for folder in SIZE_CHECKED for p in sorted((ROOT / folder).rglob("*.py"))]


def test_no_module_over_the_line_limit() -> None:
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
        for p in _sources()
    }
    wrong = [
        f"{path}: {lines} lines, over the module limit of {MAX_MODULE_LINES}"
        for path, lines in sorted(sizes.items())
        if lines > MAX_MODULE_LINES and path not in LONG_MODULES
    ]
    assert wrong == [], "\n".join(wrong)
    stale = sorted(p for p in LONG_MODULES if sizes.get(p, 0) <= MAX_MODULE_LINES)
    assert stale == [], f"LONG_MODULES entries now short enough, remove them: {stale}"


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method with its qualified name (``Class.method``, ``outer.inner``)."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found.append((name, child))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def test_no_function_over_the_line_limit() -> None:
    lengths = {}
    for path in _sources():
        rel = str(path.relative_to(ROOT))
        for name, node in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            # from ``def`` to the last line of the body; decorators are not counted
            lengths[f"{rel}::{name}"] = (node.end_lineno or node.lineno) - node.lineno + 1
    wrong = [
        f"{key}: {lines} lines, over the function limit of {MAX_FUNCTION_LINES}"
        for key, lines in sorted(lengths.items())
        if lines > MAX_FUNCTION_LINES and key not in LONG_FUNCTIONS
    ]
    assert wrong == [], "\n".join(wrong)
    stale = sorted(k for k in LONG_FUNCTIONS if lengths.get(k, 0) <= MAX_FUNCTION_LINES)
    assert stale == [], f"LONG_FUNCTIONS entries now short enough, remove them: {stale}"


def test_imports_are_found_where_they_hide() -> None:
    """The reader behind the rules: imports inside functions count, relative ones are resolved
    against the package, ``TYPE_CHECKING`` ones and foreign ones are left out."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "import numpy\n"
        "from . import cypher\n"
        "if TYPE_CHECKING:\n"
        "    from argkb.cli.app import main\n"
        "def f():\n"
        "    from ..explore.guide import guide_url\n"
        "    import argkb.errors\n"
    )
    found = _imports_of("argkb.db.browser", source, path="x.py", is_package=False)
    assert [(i.target, i.line) for i in found] == [
        ("argkb.db", 3),
        ("argkb.explore.guide", 7),
        ("argkb.errors", 8),
    ]
    assert [
        i.target
        for i in _imports_of("argkb.db", "from .cypher import run", path="x.py", is_package=True)
    ] == ["argkb.db.cypher"]


def test_every_error_is_defined_in_errors_py() -> None:
    """One exception family (issue #27): an error a caller can catch is an ``ArgKBError``
    subclass in ``argkb/errors.py`` (importable elsewhere under its old name). A private class
    (``_Name``) may derive from ``Exception`` for control flow inside one module, never escaping."""
    errors_py = ROOT / "argkb" / "errors.py"
    family = {
        n.name
        for n in ast.parse(errors_py.read_text(encoding="utf-8")).body
        if isinstance(n, ast.ClassDef)
    }
    wrong = []
    for module, path in _modules().items():
        if path == errors_py:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
            public_exception = not node.name.startswith("_") and bases & {
                "Exception",
                "BaseException",
            }
            if bases & family or public_exception:
                wrong.append(
                    f"{path.relative_to(ROOT)}:{node.lineno}: {module}.{node.name} "
                    f"({', '.join(sorted(bases))}): errors rule, define it in argkb/errors.py"
                )
    assert wrong == [], "\n".join(wrong)
