"""Sentence splitting of premises: splitters compared, and the ``argkb sentences`` graph step.

    python -m bench sentences --data ../shared/data/webis-argquality-20 [--limit 500]
    python -m bench sentences --data ../shared/data/webis-sigir19-dev --format sigir19

Part 1 (no Neo4j): the first ``--limit`` distinct premises of the corpus split by syntok (what
argkb uses, :func:`argkb.sentences.split.split_sentences`) and, as the baseline in the same run,
by syntok alone (argkb before its further cuts of session 30) and by pysbd when it is installed
(``pip install pysbd``; not a dependency of argkb): milliseconds a
premise, sentences, mean words a sentence, and sentences over 60 words (likely unsplit run-ons).

Part 2 (a throw-away Neo4j, or ``--uri``): the corpus loaded, then ``split_premises`` timed three
times: the first split, an incremental run with nothing to do, and after 10% of the premise
texts were changed (only those are split again); with the time of the staleness count that
``argkb status`` runs, and the client's peak RSS. ``--show QUERY`` (repeatable) prints the top
three sentence pairs of BM25 and DirichletLM for the query (argkb.sentences.retrieve), with the
time each took.
"""

from __future__ import annotations

import csv
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bench import common


def premises(data: Path, limit: int) -> list[str]:
    files = sorted(data.glob("*arguments.csv"))
    if not files:
        raise SystemExit(f"{data}: no *arguments.csv file")
    seen: dict[str, None] = {}
    with files[0].open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            text = row.get("Premise") or row.get("premise") or ""
            if text.strip():
                seen.setdefault(text, None)
            if len(seen) >= limit:
                break
    return list(seen)


def splitters() -> dict[str, Callable[[str], list[str]]]:
    from argkb.sentences.split import split_sentences

    found: dict[str, Callable[[str], list[str]]] = {
        "syntok (argkb)": lambda t: [s.text for s in split_sentences(t)],
        "syntok alone (argkb before session 30)": syntok_alone,
    }
    try:
        import pysbd  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return found
    seg = pysbd.Segmenter(language="en", clean=False)
    found["pysbd (baseline)"] = lambda t: [s.strip() for s in seg.segment(t) if s.strip()]
    return found


def syntok_alone(text: str) -> list[str]:
    """syntok's sentences without argkb's further cuts (argkb.sentences.split's rules): the
    splitter before session 30, as the baseline of those rules' cost."""
    from syntok import segmenter  # type: ignore[import-untyped]

    found = []
    for paragraph in segmenter.analyze(text):
        for sentence in paragraph:
            if sentence:
                piece = text[sentence[0].offset : sentence[-1].offset + len(sentence[-1].value)]
                if piece.strip():
                    found.append(piece)
    return found


def part1(texts: list[str]) -> None:
    rows = []
    for name, split in splitters().items():
        split(texts[0])  # imports and rule tables outside the clock
        started = time.perf_counter()
        out = [split(t) for t in texts]
        seconds = time.perf_counter() - started
        words = [len(s.split()) for sents in out for s in sents]
        rows.append([name, len(texts), f"{1000 * seconds / len(texts):.2f}", len(words),
                     f"{statistics.mean(words):.1f}", sum(w > 60 for w in words)])  # fmt: skip
    print(common.markdown_table(
        ["splitter", "premises", "ms/premise", "sentences", "words/sentence", "over 60 words"],
        rows, "lrrrrr"))  # fmt: skip


def part2(data: Path, fmt: str, uri: str | None, show: list[str]) -> None:
    from argkb.db.schema import init_schema
    from argkb.db.staleness import stale_steps
    from argkb.ingest import load_records
    from argkb.loaders import reader
    from argkb.sentences.retrieve import retrieve_pairs
    from argkb.sentences.store import ensure_schema, sentence_counts, split_premises

    files = sorted(data.glob("*.csv"))
    with common.database(uri, "sentences") as drv:
        init_schema(drv)
        ensure_schema(drv)
        load_records(drv, fmt, files, reader(fmt)(files))
        rows = []

        def timed(what: str) -> None:
            run = split_premises(drv)
            t0 = time.perf_counter()
            stale = next(
                s.count for s in stale_steps(drv) if s.what == "premises_without_sentences"
            )
            status_ms = 1000 * (time.perf_counter() - t0)
            rows.append([what, run.premises, run.sentences, f"{run.seconds:.2f}",
                         f"{run.split_seconds:.2f}", f"{status_ms:.0f}", stale])  # fmt: skip

        timed("first split")
        timed("again, nothing to do")
        drv.execute_query(
            "MATCH (u:Premise) WHERE u.split_chars IS NOT NULL AND id(u) % 10 = 0 "
            "SET u.text = u.text + ' An added sentence.'"
        )
        timed("10% of texts changed")
        counts = sentence_counts(drv)
        for query in show:
            drv.execute_query("CALL db.awaitIndex('sentence_text', 300)")
            for model in ("bm25", "dirichlet"):
                t0 = time.perf_counter()
                pairs = retrieve_pairs(drv, query, model=model, k=3)
                ms = 1000 * (time.perf_counter() - t0)
                print(f"\n{query!r}, {model} ({ms:.0f} ms):")
                for pair in pairs:
                    second = pair.second.text if pair.second else ""
                    print(f"  {pair.score:8.3f}  {pair.first.text} | {second}")
    print(common.markdown_table(
        ["run", "premises split", "sentences written", "seconds", "of which splitting",
         "status count ms", "stale after"], rows, "lrrrrrr"))  # fmt: skip
    print(
        f"graph: {counts['sentences']:,} sentences of {counts['split_premises']:,} premises; "
        f"client peak RSS {common.rss_peak_mib():.0f} MiB; {common.machine()}"
    )


def main() -> None:
    parser = common.data_parser(__doc__)
    parser.add_argument("--format", default="argquality")
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--no-graph", action="store_true", help="Part 1 only.")
    parser.add_argument(
        "--show",
        action="append",
        default=[],
        help="A query whose top BM25 and DirichletLM pairs are printed.",
    )
    args = parser.parse_args()
    part1(premises(args.data, args.limit))
    if not args.no_graph:
        part2(args.data, args.format, args.uri, args.show)


if __name__ == "__main__":
    main()
