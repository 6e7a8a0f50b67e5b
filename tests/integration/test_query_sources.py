"""``argkb query`` names each premise by its text, its source and who said its stance (issue 31,
item 1), on a small args.me corpus whose sources have a title and URL, a title only, or neither,
and whose premises come from one source or two."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.schema import init_schema
from argkb.ingest import load_records
from argkb.loaders import reader

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
CLAIM = "We should abandon fossil fuels"
LONG = (
    "Renewable energy from wind and sun is now cheaper than coal and gas in most of the world, "
    "and its price keeps falling every year as factories learn to build panels and turbines."
)
SHARED = "Burning fossil fuels drives climate change."
SOURCES = {  # sourceId -> (sourceTitle, sourceUrl); None: the context leaves it out
    "s1": ("Should the world abandon fossil fuels?", "https://example.org/debates/fossil"),
    "s2": ("Energy debate, round two", None),
    "s3": (None, None),
}
PREMISES = [  # (source, premise text, stance)
    ("s1", SHARED, "PRO"),
    ("s1", "Many jobs depend on the coal, oil and gas industries.", "CON"),
    ("s2", SHARED, "PRO"),
    ("s2", LONG, "PRO"),
    ("s3", "Poor countries need cheap energy to grow.", "CON"),
]


def _corpus(path: Path) -> Path:
    arguments = []
    for i, (sid, text, stance) in enumerate(PREMISES):
        title, url = SOURCES[sid]
        context = {"sourceId": sid}
        if title:
            context["sourceTitle"] = title
        if url:
            context["sourceUrl"] = url
        arguments.append({
            "id": f"{sid}-{i:05d}-000", "conclusion": CLAIM,
            "premises": [{"text": text, "stance": stance}], "context": context,
        })  # fmt: skip
    path.write_text(json.dumps({"arguments": arguments}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sourced_db(db, tmp_path_factory):
    from argkb.cluster.store import cluster_units
    from argkb.embed.model import Embedder
    from argkb.embed.store import embed_units

    corpus = _corpus(tmp_path_factory.mktemp("sources") / "args.json")
    init_schema(db)
    load_records(db, "argsme", [corpus], reader("argsme")([corpus]))
    embed_units(db, Embedder())
    cluster_units(db, kind="claim")
    cluster_units(db, kind="premise")
    # as `argkb stance` leaves a premise whose stance its model predicted
    db.execute_query(
        "MATCH (u:Unit {text: $text})-[r:PREMISE_OF]->() SET r.stance_source = 'model'",
        text=PREMISES[4][1],
    )
    return db


def _expected_sources(text: str) -> list[dict[str, str | None]]:
    sids = sorted({sid for sid, premise, _ in PREMISES if premise == text})
    return [
        {"sid": f"argsme:{sid}", "title": SOURCES[sid][0], "url": SOURCES[sid][1]} for sid in sids
    ]


def _query(neo4j_uri: str, *options: str) -> str:
    result = CliRunner().invoke(
        main, ["query", CLAIM, "--k", "5", *options], env={"NEO4J_URI": neo4j_uri}
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_json_members_carry_their_sources(sourced_db, neo4j_uri: str) -> None:
    payload = json.loads(_query(neo4j_uri, "--json"))
    members = [m for side in ("pro", "con") for c in payload[side] for m in c["members"]]
    assert {m["text"] for m in members} == {text for _, text, _ in PREMISES}
    for member in members:
        # the fields before the sources are all still there
        assert set(member) == {"key", "text", "pagerank", "arguments", "stance_source", "sources"}
        assert member["sources"] == _expected_sources(member["text"]), member["text"]
        assert member["stance_source"] == ("model" if member["text"] == PREMISES[4][1] else "data")
    for side in ("pro", "con"):
        for cluster in payload[side]:
            assert cluster["representative"]["sources"] == _expected_sources(
                cluster["representative"]["text"]
            )


def test_text_view_shows_texts_sources_and_stance_source(sourced_db, neo4j_uri: str) -> None:
    shown = _query(neo4j_uri)
    keys = [
        r["key"] for r in sourced_db.execute_query("MATCH (u:Premise) RETURN u.uid AS key").records
    ]
    assert keys and not [key for key in keys if key in shown], shown
    lines = [line.strip() for line in shown.splitlines()]
    # "- text  [source: ...]" per member; a one-premise cluster: its line, then the bracket
    members = [line for line in lines if line.startswith("- ")]
    members += [
        "- " + line.split("] ", 1)[1] + "  " + after
        for line, after in itertools.pairwise(lines)
        if re.match(r"\d+\. \[", line) and after.startswith("[source:")
    ]

    def line_of(start: str) -> str:
        found = [line for line in members if line.startswith("- " + start)]
        assert len(found) == 1, (start, shown)
        return found[0]

    assert line_of(SHARED).endswith(
        "[source: Should the world abandon fossil fuels? (+1 more); stance to its claim from data]"
    )
    assert line_of("Many jobs").endswith(
        "[source: Should the world abandon fossil fuels?; stance to its claim from data]"
    )
    long = line_of("Renewable energy")
    assert long.endswith("[source: Energy debate, round two; stance to its claim from data]")
    # alone in its cluster, its own line shows it whole (member lines are cut to 80 characters:
    # tests/unit/test_query_text_view.py)
    assert " ..." not in long and len(long.split("  [source")[0]) > 2 + 80
    assert line_of("Poor countries").endswith(
        "[source: argsme:s3; stance to its claim from model (argkb stance)]"
    )


def test_show_keys_keeps_the_key_view(sourced_db, neo4j_uri: str) -> None:
    shown = _query(neo4j_uri, "--show-keys")
    payload = json.loads(_query(neo4j_uri, "--json"))
    for side in ("pro", "con"):
        for cluster in payload[side]:
            keys = ", ".join(m["key"] for m in cluster["members"][:6])
            premises = "1 premise" if cluster["size"] == 1 else f"{cluster['size']} premises"
            assert f"{premises}: {keys}" in shown
    assert "[source:" not in shown
    assert "stance predicted by argkb stance for 1 of them" in shown
