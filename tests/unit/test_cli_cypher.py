"""``argkb cypher list/show/export``, ``argkb bloom perspective`` and the browsing library's
headers, without a server (``cypher run`` and ``analytics`` are tested on Neo4j in
tests/integration/test_browse.py)."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.errors import ExploreError, QueryFileError
from argkb.explore import bloom, library, style

REPO = Path(__file__).resolve().parents[2]
DATA_MODEL = (REPO / "docs" / "data-model.md").read_text(encoding="utf-8")


def test_the_library_has_at_least_15_documented_queries() -> None:
    queries = library.all_queries()
    assert len(queries) >= 15
    for query in queries:
        assert query.title and query.shows
        assert query.body.startswith(("MATCH", "OPTIONAL MATCH", "CALL")), query.name
        # the :param lines Browser needs are in the file, one per parameter
        for line in query.param_lines():
            assert f"// {line}" in query.text


def test_list_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["cypher", "list"])
    assert result.exit_code == 0
    assert len(result.output.splitlines()) == len(library.names())
    assert re.search(
        r"^claim_arguments\s+graph\s+A claim with its pro and con", result.output, re.M
    )
    listed = json.loads(runner.invoke(main, ["cypher", "list", "--json"]).output)
    find = next(q for q in listed if q["name"] == "find_units")
    assert [(p["name"], p["type"], p["default"]) for p in find["parameters"]] == [
        ("text", "string", None),
        ("limit", "integer", 25),
    ]


def test_show_prints_the_file() -> None:
    result = CliRunner().invoke(main, ["cypher", "show", "contested_claims"])
    assert result.exit_code == 0
    assert result.output == (REPO / "cypher/browse/contested_claims.cypher").read_text()
    result = CliRunner().invoke(main, ["cypher", "show", "nope"])
    assert result.exit_code == 1 and result.output.startswith("Error: no browsing query 'nope'")


def test_export_zip_and_grass(tmp_path: Path) -> None:
    zip_path, grass = tmp_path / "fav.zip", tmp_path / "argkb.grass"
    result = CliRunner().invoke(
        main, ["cypher", "export", "--zip", str(zip_path), "--grass", str(grass)]
    )
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(zip_path) as archive:
        assert sorted(archive.namelist()) == sorted(f"argkb/{n}.cypher" for n in library.names())
        assert archive.read("argkb/overview.cypher").decode() == library.get("overview").text
    assert grass.read_text() == style.grass_text()
    assert CliRunner().invoke(main, ["cypher", "export"]).exit_code == 2
    bad = CliRunner().invoke(main, ["cypher", "export", "--zip", str(tmp_path / "no/such/x.zip")])
    assert bad.exit_code == 1 and "Error: cannot write" in bad.output
    assert "Traceback" not in bad.output


def test_bind_types_defaults_and_errors() -> None:
    query = library.get("find_units")
    assert library.bind(query, {"text": "42"}) == {"text": "42", "limit": 25}
    assert library.bind(query, {"text": "x", "limit": "3"}) == {"text": "x", "limit": 3}
    with pytest.raises(ExploreError, match="missing parameter 'text'"):
        library.bind(query, {})
    with pytest.raises(ExploreError, match=r"takes an integer, got '3\.5'"):
        library.bind(query, {"text": "x", "limit": "3.5"})
    with pytest.raises(ExploreError, match="has no parameter 'txt'"):
        library.bind(query, {"txt": "x"})


def test_a_string_parameter_with_listed_values_takes_only_those() -> None:
    """'--param kind=foo' ran and printed '(no rows)' as if no cluster existed."""
    query = library.get("largest_clusters")
    assert library.bind(query, {"kind": "claim"})["kind"] == "claim"
    with pytest.raises(ExploreError, match="takes 'claim' or 'premise', got 'foo'"):
        library.bind(query, {"kind": "foo"})
    with pytest.raises(ExploreError, match="'min', 'avg', 'max' or 'sum', got 'mean'"):
        library.bind(library.get("top_arguments"), {"aggregate": "mean"})
    assert library.get("find_units").parameters[0].choices == ()  # any text goes


HEADER = """// A title
// Shows: something
//   on two lines.
// Returns: table
// Parameters:
//   $n (integer, default 3): how many
//   $x (float): a weight
//   $s (string): a text
// :param n => 3
// :param x => 0.5
// :param s => 'it\\'s'
MATCH (a) WHERE a.w > $x AND a.t = $s RETURN a LIMIT $n
"""


def test_header_is_parsed_with_types() -> None:
    query = library.parse("demo", HEADER)
    assert query.title == "A title" and query.shows == "something on two lines."
    assert [(p.name, p.type, p.example, p.default) for p in query.parameters] == [
        ("n", "integer", 3, 3),
        ("x", "float", 0.5, None),
        ("s", "string", "it's", None),
    ]
    assert library.bind(query, {"x": "2", "s": "a"}) == {"n": 3, "x": 2.0, "s": "a"}
    assert query.param_lines() == [":param n => 3", ":param x => 0.5", ":param s => 'it\\'s'"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("// :param x => 0.5\n", ""), r"\$x has no ':param x"),
        (("$s RETURN", "$t RETURN"), "parameters used"),
        (("(float)", "(date)"), "unknown type"),
        (("// Returns: table\n", ""), "Returns"),
        (("// :param n => 3", "// :param n => 'three'"), "example of \\$n is not a integer"),
        (("// Shows: something\n//   on two lines.\n", ""), "Shows"),
    ],
)
def test_malformed_headers_are_errors(change: tuple[str, str], message: str) -> None:
    with pytest.raises(QueryFileError, match=message):
        library.parse("demo", HEADER.replace(*change))


def _model_names() -> tuple[set[str], set[str]]:
    labels = set(re.findall(r"\(:(\w+)", DATA_MODEL)) | {"Claim", "Premise"}
    labels |= {"ClaimCluster", "PremiseCluster"}  # kind labels (cypher/cluster/write_clusters)
    types = set(re.findall(r"\[:(\w+)", DATA_MODEL))
    return labels, types


def test_grass_styles_only_labels_and_types_of_the_data_model() -> None:
    labels, types = _model_names()
    rules = style.grass_rules(style.grass_text())
    assert {"node", "relationship", "node.Claim", "relationship.PREMISE_OF"} <= set(rules)
    for selector, props in rules.items():
        kind, *names = selector.split(".")
        assert names == [] or set(names) <= (labels if kind == "node" else types), selector
        assert props["caption"], selector
    assert rules["relationship.PREMISE_OF"]["caption"] == "{stance}"
    # a key point is also a Unit: Browser applies the later of two one-label rules
    order = list(rules)
    assert order.index("node.KeyPoint") > order.index("node.Unit")
    # and the other way: every type and every label a person browses has a rule of its own
    styled = {name for selector in rules for name in selector.split(".")[1:]}
    assert types <= styled, types - styled
    assert labels - bloom.NOT_IN_BLOOM - {"Cluster", "ClaimCluster", "PremiseCluster"} <= styled
    assert int(rules["node.Claim"]["diameter"][:-2]) > int(rules["node.Premise"]["diameter"][:-2])


def test_perspective_cli_and_shape(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = CliRunner().invoke(main, ["bloom", "perspective", "-o", str(out), "--name", "mine"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["name"] == "mine" and data["version"] == bloom.BLOOM_VERSION
    labels, types = _model_names()
    assert {c["name"] for c in data["categories"]} >= {
        "Claim", "Premise", "Argument", "Cluster", "Source",
    }  # fmt: skip
    shown = {label for c in data["categories"] for label in c["labels"]}
    assert shown <= labels
    assert {r["name"] for r in data["relationshipTypes"]} == types  # every type, and only those
    assert {s["relationshipType"] for s in data["metadata"]["pathSegments"]} == types
    # every label has a category but bookkeeping and the cluster labels (shown as Cluster)
    kinds = {"ClaimCluster", "PremiseCluster"} | {x for x in labels if x.startswith("ClusterOf")}
    assert labels - bloom.NOT_IN_BLOOM - kinds == shown, labels - bloom.NOT_IN_BLOOM - kinds - shown
    assert labels >= bloom.NOT_IN_BLOOM  # each exclusion names a label of the model
    # Bloom shows a node as the first category it has a label of: a key point is also a Unit
    names = [c["name"] for c in data["categories"]]
    assert names.index("KeyPoint") < names.index("Unit") and names[0] == "Claim"
    assert len({c["color"] for c in data["categories"]}) == len(names)  # told apart by colour
    graph_queries = {q.name for q in library.all_queries() if q.returns == "graph"}
    assert {t["id"].removeprefix("tmpl:") for t in data["templates"]} == graph_queries
    premise_of = next(r for r in data["relationshipTypes"] if r["name"] == "PREMISE_OF")
    colours = {r["conditionValue"]: r["color"] for r in premise_of["styleRules"]}
    assert colours["pro"] == bloom.PRO and colours["con"] == bloom.CON
    claim = next(c for c in data["categories"] if c["name"] == "Claim")
    assert [r["basedOn"] for r in claim["styleRules"] if r["applySize"]] == ["pagerank_number"]
    assert {a["name"] for a in data["sceneActions"]} >= {
        "Expand reuse", "Show cluster", "Show arguments of claim",
    }  # fmt: skip
    assert all("$nodes" in a["cypher"] for a in data["sceneActions"])
    # reuse_chains' $claim must be a premise somewhere: Bloom suggests premises for it
    suggest = {(t["id"], p["name"]): p["suggestionLabel"] for t in data["templates"]
               for p in t["params"]}  # fmt: skip
    assert suggest[("tmpl:reuse_chains", "$claim")] == "Premise"
    assert suggest[("tmpl:claim_arguments", "$claim")] == "Claim"


def test_a_reader_that_stops_early_is_not_a_neo4j_failure() -> None:
    """'argkb status | head -1' said 'Neo4j stopped answering ... BrokenPipeError'. Here the
    reader of the pipe is gone before the command writes a line."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    argkb = Path(sys.executable).with_name("argkb")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([str(argkb), "cypher", "list"], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)  # fmt: skip
    finally:
        os.close(write)
    assert done.returncode == 141 and done.stderr == "", done.stderr


def test_the_docs_list_every_query_phrase_and_scene_action() -> None:
    """docs/browse.md's query table and docs/bloom.md's phrase table and scene actions are
    written by hand: they must name exactly what the library and the perspective hold."""
    docs = REPO / "docs"
    browse = (docs / "browse.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `(\w+)` \| (.+?) \| (?:graph|table) \|", browse, re.M))
    assert listed == {q.name: q.title for q in library.all_queries()}
    perspective = (docs / "bloom.md").read_text(encoding="utf-8")
    phrases = dict(re.findall(r"^\| (.+?) \| `(\w+)` \|$", perspective, re.M))
    graphs = [q for q in library.all_queries() if q.returns == "graph"]
    assert phrases == {bloom.phrase(q): q.name for q in graphs}
    actions = re.findall(r"^  - \*\*(.+?)\*\*", perspective, re.M)
    assert actions == [a.name for a in bloom.SCENE_ACTIONS]


def test_overview_counts_every_label_and_type_of_the_data_model_from_the_count_store() -> None:
    """overview's CASE lists name each label and type of the data model once, each counted by
    its own count-store pattern (the name in the WHEN and in the pattern agree)."""
    body = library.get("overview").body
    labels = re.findall(r"WHEN '(\w+)' THEN COUNT \{ \(:(\w+)\) \}", body)
    types = re.findall(r"WHEN '(\w+)' THEN COUNT \{ \(\)-\[:(\w+)\]->\(\) \}", body)
    assert all(a == b for a, b in labels + types)
    model_labels, model_types = _model_names()
    assert sorted(a for a, _ in labels) == sorted(model_labels)
    assert sorted(a for a, _ in types) == sorted(model_types)
