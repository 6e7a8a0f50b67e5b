"""``argkb eval pairs`` end to end on tests/fixtures/sigir19: load, embed, split, score the
pipeline and the baselines on the proxy, CLI and outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytestmark = pytest.mark.neo4j
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sigir19"


def test_eval_pairs_command(db, tmp_path: Path) -> None:
    from argkb.cli import main

    args = ["eval", "pairs", "--data", str(FIXTURE), "--benchmark", "sigir19"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["benchmark"] == "pairs-sigir19"
    # topic 14's only judgement is not relevant: three queries are scored
    assert sorted(report["per_query"]["pipeline"]) == ["12", "2", "4"] and report["queries"] == 3
    assert set(report["means"]) == {"pipeline", "bm25-next", "dirichlet-next"}
    for system in report["per_query"].values():
        for measures in system.values():
            assert all(0.0 <= measures[m] <= 1.0 for m in ("rel@5", "rel@10", "quality@10",
                                                           "coherence"))  # fmt: skip
    # "school uniforms good idea": the only premise judged relevant for it (gain 2) has one
    # sentence, and BM25 ranks "School uniforms." (topic 14's, two words) above it; the
    # pipeline drops that non-sentence, so its first pair is the relevant one
    assert report["per_query"]["pipeline"]["4"]["rel@10"] == pytest.approx(1.0)
    assert report["per_query"]["bm25-next"]["4"]["rel@10"] < 1.0
    versus = report["versus_baseline"]["pipeline"]
    assert versus["wins"] + versus["ties"] + versus["losses"] == 3
    written = json.loads((tmp_path / "pairs.json").read_text())
    assert written["per_query"] == report["per_query"]

    text = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "b")])
    assert text.exit_code == 0, text.output
    assert "| pipeline |" in text.output and "(baseline)" in text.output


def test_eval_pairs_bad_folder_is_one_line(db, tmp_path: Path) -> None:
    from argkb.cli import main

    result = CliRunner().invoke(main, ["eval", "pairs", "--data", str(tmp_path),
                                       "--benchmark", "sigir19"])  # fmt: skip
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
