"""What ``argkb load`` prints from a :class:`LoadSummary` (no database: the summary is given)."""

from __future__ import annotations

import pytest

from argkb.cli.data import _print_load
from argkb.ingest import LoadSummary


def _summary(**fields: object) -> LoadSummary:
    return LoadSummary(corpus="argkp:abc", format="argkp", files=["x"], **fields)  # type: ignore[arg-type]


def test_an_already_loaded_corpus_names_no_report_of_this_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # it printed "rejected records written to None; first ones:" for a corpus loaded before
    _print_load(_summary(already_loaded=True, arguments=103, rejected=2987))
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "argkp:abc: already loaded (use --force to write again)",
        "corpus argkp:abc: 103 arguments, 0 units, 0 reuse edges, 0 sources, 0 links, "
        "2,987 rejected",
    ]


def test_rejected_records_of_this_load_name_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    _print_load(_summary(rejected=1, rejected_examples=["f.csv:line 2: ..."], reject_report="r"))
    assert "rejected records written to r; first ones:\n  f.csv:line 2: ...\n" in (
        capsys.readouterr().out
    )
    _print_load(_summary(rejected=1, rejected_examples=["f.csv:line 2: ..."]))
    assert "rejected records; first ones:\n" in capsys.readouterr().out
