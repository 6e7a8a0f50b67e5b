"""The first ``argkb query`` after ``argkb embed`` finds its model ready (issue 31).

The query embedder runs the default model in ONNX Runtime (:meth:`Embedder.for_queries`), from
a graph exported once from the model folder and cached under ``ARGKB_HOME/onnx``. Unwarmed,
the first query of a new user exported it (6.9 s of a 9.9 s first query after ``make demo``;
12.6 s here); ``argkb embed``, which ``make demo`` runs before its query, now makes it.
"""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner
from graphs import load

from argkb.cli import main
from argkb.db.schema import init_schema

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]


def test_embed_leaves_the_query_model_exported(
    db, wipe_db, neo4j_uri: str, neo4j_auth, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe_db(db)
    init_schema(db)
    corpus = tmp_path / "tiny.jsonl"
    line = {"id": "w1", "conclusion": "We should abandon fossil fuels",
            "premises": [{"text": "Burning coal warms the planet", "stance": "pro"}]}  # fmt: skip
    corpus.write_text(json.dumps(line) + "\n", encoding="utf-8")
    load(db, "jsonl", corpus)
    home = tmp_path / "home"  # a new user's cache: nothing exported yet
    env = {"ARGKB_HOME": str(home), "NEO4J_URI": neo4j_uri}
    if neo4j_auth:
        env |= {"NEO4J_USERNAME": neo4j_auth[0], "NEO4J_PASSWORD": neo4j_auth[1]}

    result = CliRunner().invoke(main, ["embed"], env=env)
    assert result.exit_code == 0, result.output
    exported = sorted(home.glob("onnx/*/model.onnx"))
    if find_spec("onnxruntime") is None:  # queries run in torch, which caches nothing
        assert exported == [] and "query model" not in result.stdout
        return
    assert len(exported) == 1 and exported[0].stat().st_size > 1_000_000
    assert f"query model ready: {exported[0]}" in result.stdout

    # what `argkb query` loads first now: the cached graph, not a new export
    from argkb.embed.model import Embedder

    monkeypatch.setenv("ARGKB_HOME", str(home))
    made = exported[0].stat().st_mtime_ns
    embedder = Embedder.for_queries(cache=False)
    assert embedder.backend == "onnx" and embedder.model.path == exported[0]
    assert exported[0].stat().st_mtime_ns == made and sorted(home.glob("onnx/*/*")) == exported
