"""synthcorpus writes a corpus under another name first: a killed run leaves no truncated file."""

from __future__ import annotations

import importlib
import json

import pytest

from synthcorpus import write_json, write_jsonl

# the package's `generate` is the generator function; the module is reached by name
generate = importlib.import_module("synthcorpus.generate")


def test_written_corpora_are_whole_and_no_partial_file_stays(tmp_path) -> None:
    assert write_json(tmp_path / "a.json", 5, seed=1) == 5
    assert len(json.loads((tmp_path / "a.json").read_text())["arguments"]) == 5
    assert write_jsonl(tmp_path / "a.jsonl", 4, seed=1) == 4
    assert len((tmp_path / "a.jsonl").read_text().splitlines()) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "a.jsonl"]


def test_a_write_cut_short_leaves_no_corpus(tmp_path) -> None:
    def dies_half_way(out, n, seed, **_):
        out.write('{"arguments": [')
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate._write(tmp_path / "b.json", dies_half_way, 10, 0)
    assert not (tmp_path / "b.json").exists()
