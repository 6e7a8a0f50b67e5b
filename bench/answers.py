"""Record ``argkb query`` answers, to prove that a refactoring changed none of them.

Builds a graph from scratch through the CLI (``db clear``, ``load`` the sample corpus and the
SIGIR-19 dev arguments, ``embed``, ``cluster``, ``pagerank``), then asks every query of
:data:`QUERIES` with every ranker and stance alignment, with ``--explain``, and writes each
answer twice: the ``--json`` document (timings removed) and the text a person reads (its last
line, the timings, removed). Run it on two commits against the same kind of server and
``diff -r`` the two folders; any difference is a changed answer.

    ARGKB_HOME=/tmp/answers-home python -m bench.answers OUT_DIR [--shared ../shared/data]

The server of ``ARGKB_HOME`` must be running (``argkb server start``); its database is cleared.
Everything runs in one process through click's test runner, so the model loads once per query
(ONNX, about 0.4 s) and no interpreter starts per query.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import click
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]

QUERIES = [
    # the sample corpus (examples/debates.json): verbatim claims, paraphrases and a negation
    "We should abandon fossil fuels",
    "Social media does more harm than good",
    "Students should have to wear school uniforms",
    "Nuclear energy should be expanded",
    "Renewables are too unreliable to replace coal",
    "Social networks are good for teenagers",
    "We should not build nuclear power plants",
    # SIGIR-19 dev topics (args.me arguments; the query is not a claim in the graph)
    "abortion ban",
    "donald trump good president",
    "vaccination should not be mandatory",
    "gender is a social construct",
    "death penalty",
    "legalize marijuana",
    "nuclear energy is a good idea",
]
RANKERS = ("hybrid", "pfidf", "coreset")
ALIGNMENTS = ("always", "model", "soft")


def _invoke(args: list[str]) -> str:
    result = CliRunner().invoke(_main(), args, catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"argkb {' '.join(args)} failed ({result.exit_code}): {result.output}")
    return result.output


def _main() -> click.Group:
    from argkb.cli.app import main

    return main


def build(shared: Path) -> None:
    """The graph every recorded answer reads, from scratch."""
    for args in (
        ["db", "clear", "--yes"],
        ["init"],
        ["load", "argsme", str(REPO / "examples" / "debates.json")],
        ["load", "sigir19", str(shared / "webis-sigir19-dev")],
        ["embed"],
        ["cluster"],
        ["pagerank"],
    ):
        print("argkb", *args, file=sys.stderr)
        _invoke(args)


def record(out: Path) -> int:
    """Ask every query with every ranker and alignment; write one JSON and one text per answer."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for number, query in enumerate(QUERIES):
        for ranker in RANKERS:
            for alignment in ALIGNMENTS:
                base = ["query", query, "--ranker", ranker, "--alignment", alignment, "--explain"]
                answer = json.loads(_invoke([*base, "--json"]))
                answer.pop("seconds", None)
                text = _invoke(base).rstrip("\n").rsplit("\n", 1)[0]  # drop the timings line
                stem = out / f"{number:02d}-{ranker}-{alignment}"
                stem.with_suffix(".json").write_text(json.dumps(answer, indent=1, sort_keys=True))
                stem.with_suffix(".txt").write_text(text + "\n")
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the recorded answers")
    parser.add_argument("--shared", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--no-build", action="store_true", help="query the graph as it is")
    args = parser.parse_args()
    if not args.no_build:
        build(args.shared)
    print(f"{record(args.out)} answers in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
