"""argkb.pipeline as a library, without the CLI: the steps after a load, what ``update`` finds
stale and runs, and what it reports through the progress interface.

The demo corpus, as in test_update.py (which drives the same functions through ``argkb update``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from argkb import pipeline
from argkb.progress import Advance

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"


class Recorder:
    """A Progress that keeps what it is told: each stage's name, unit, total and count."""

    def __init__(self) -> None:
        self.stages: list[dict[str, Any]] = []
        self.messages: list[str] = []

    @contextlib.contextmanager
    def stage(self, desc: str, *, unit: str, total: int | None = None) -> Iterator[Advance]:
        seen: dict[str, Any] = {"desc": desc, "unit": unit, "total": total, "done": 0}
        self.stages.append(seen)

        def advance(n: int) -> None:
            seen["done"] += n

        yield advance

    def message(self, text: str) -> None:
        self.messages.append(text)


def _units(driver: Any) -> dict[str, int]:
    return dict(
        driver.execute_query(
            "MATCH (u:Unit) RETURN count(u) AS units, count(u.embedding) AS vectors, "
            "count(u.pagerank) AS scored, COUNT { ()-[:IN_CLUSTER]->() } AS memberships"
        ).records[0]
    )


def test_update_after_a_load_runs_each_stale_step_once(db: Any) -> None:
    summary = pipeline.load(db, None, "argsme", [DEMO])
    assert summary.arguments > 0 and not summary.already_loaded
    loaded = _units(db)
    assert loaded["vectors"] == loaded["scored"] == loaded["memberships"] == 0

    plan = pipeline.update(db, None, dry_run=True)
    assert plan.dry_run and not any(step.ran for step in plan.steps)
    stale = {step.step for step in plan.steps if step.stale}
    assert {"embed", "sentences", "pagerank"} <= stale
    assert "cluster" not in stale  # no vectors yet: it becomes stale once embed has run
    assert _units(db) == loaded  # a dry run writes nothing

    seen = Recorder()
    done = pipeline.update(db, None, progress=seen)
    ran = [step.step for step in done.steps if step.ran]
    assert ran == ["embed", "sentences", "cluster", "pagerank"]  # checked again before each
    embedded = next(step for step in done.steps if step.step == "embed").result
    assert embedded["units"] == loaded["units"]
    after = _units(db)
    assert after["vectors"] == after["scored"] == loaded["units"]
    assert after["memberships"] >= loaded["units"]  # a claim also used as premise is in two

    by_name = {stage["desc"]: stage for stage in seen.stages}
    assert by_name["embed"]["total"] == by_name["embed"]["done"] == loaded["units"]
    assert {"negations", "cluster claims", "cluster premises", "SAME_AS"} <= by_name.keys()
    assert any(m.startswith("update: embed: ") and "running 'argkb embed'" in m
               for m in seen.messages)  # fmt: skip
    assert any(m.startswith("  ") for m in seen.messages)  # PageRank's lines, indented

    again = pipeline.update(db, None)
    assert not any(step.ran or step.stale for step in again.steps)


def test_cluster_reports_a_rebuild_and_its_same_as_edges(db: Any) -> None:
    report = pipeline.cluster(db, None, rebuild=True)
    assert [run.kind for run in report.runs] == ["claim", "premise"]
    assert all(run.mode == "rebuild" for run in report.runs)
    assert report.same_as_mode == "rebuild" and report.same_as_edges is not None
    same_as = db.execute_query("RETURN COUNT { ()-[:SAME_AS]->() } AS n").records[0]["n"]
    assert report.same_as_edges == same_as

    skipped = pipeline.cluster(db, None, skip_same_as=True)
    assert skipped.same_as_edges is None
    assert all(run.mode == "incremental" for run in skipped.runs)  # nothing new to place
    assert sum(run.new_units for run in skipped.runs) == 0
