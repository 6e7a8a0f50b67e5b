"""A user's own JSONL file loaded, edited and loaded again (an audit of the own-data path,
session 29). A load is a corpus named by the files' content, so the edited file is a second
corpus: an argument it changes is refused, naming the corpus to drop; one it leaves out stays
with the first corpus, and the load warns; after the drop the graph is that of the new file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from graphs import load, snapshot

from argkb.db.schema import init_schema
from argkb.errors import LoadError
from argkb.ingest_drop import drop_corpus

pytestmark = pytest.mark.neo4j


def _line(aid: str, conclusion: str, *premises: str) -> str:
    return json.dumps(
        {"id": aid, "conclusion": conclusion,
         "premises": [{"text": p, "stance": "pro"} for p in premises], "source": "debate-1"}
    )  # fmt: skip


V1 = [_line("a1", "Fossil fuels should go", "They warm the planet"),
      _line("a2", "Nuclear power is safe", "Reactors have passive safety"),
      _line("a3", "Cities should ban cars", "Cars pollute the air")]  # fmt: skip
# a2 removed, a4 added, a1 and a3 as before
V2 = [V1[0], V1[2], _line("a4", "Voting should be compulsory", "It raises turnout")]


@pytest.fixture()
def clean(db, wipe_db):
    wipe_db(db)
    init_schema(db)
    return db


def _write(folder: Path, lines: list[str]) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "mine.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_changed_argument_is_refused_naming_the_corpus_to_drop(clean, tmp_path: Path) -> None:
    first = load(clean, "jsonl", _write(tmp_path / "v1", V1))
    changed = [_line("a1", "Fossil fuels should go", "They heat the planet"), *V1[1:]]
    with pytest.raises(LoadError) as caught:
        load(clean, "jsonl", _write(tmp_path / "v2", changed))
    assert caught.value.field == "id"
    assert f"remove it first ('argkb db drop {first.corpus}') and load again" in str(caught.value)


def test_an_argument_left_out_stays_with_a_warning_until_the_old_corpus_is_dropped(
    clean, wipe_db, tmp_path: Path, neo4j_uri: str
) -> None:
    from argkb.cli import main

    new = _write(tmp_path / "v2", V2)
    load(clean, "jsonl", new)
    wanted = snapshot(clean)  # the new file alone, its corpus node and counts included
    wipe_db(clean)
    init_schema(clean)
    first = load(clean, "jsonl", _write(tmp_path / "v1", V1))
    result = CliRunner().invoke(main, ["load", "jsonl", str(new), "--uri", neo4j_uri])
    assert result.exit_code == 0, result.output
    assert (
        f"warning: corpus {first.corpus}, loaded before from files of the same names, holds 1 "
        "argument this input does not; they stay in the graph while it is loaded ('argkb db "
        f"drop {first.corpus}' removes it, then run 'argkb update')"
    ) in result.stderr
    aids = {r["aid"] for r in clean.execute_query("MATCH (a:Argument) RETURN a.aid AS aid").records}
    assert aids == {"jsonl:a1", "jsonl:a2", "jsonl:a3", "jsonl:a4"}
    drop_corpus(clean, first.corpus)
    aids = {r["aid"] for r in clean.execute_query("MATCH (a:Argument) RETURN a.aid AS aid").records}
    assert aids == {"jsonl:a1", "jsonl:a3", "jsonl:a4"}
    # what passed to the new corpus is counted as its own (its counts said 1 and 2 shared)
    assert snapshot(clean) == wanted
    # the same file again: already loaded, and no other corpus of its name is left to warn of
    again = CliRunner().invoke(main, ["load", "jsonl", str(new), "--uri", neo4j_uri])
    assert again.exit_code == 0 and "warning" not in again.stderr, again.output
