"""Fuzz tier: the CSV readers (ArgKP, Webis-ArgQuality-20, Webis-ArgRank-17, SIGIR-19) on hostile
files.

Each test draws a dataset directory: every file the format expects (sometimes one missing), with
headers that may lose, repeat or pad a column, and rows whose cells are usually good values for
their column (ids from a small pool, so labels and premises name rows that exist) and often
hostile: unterminated quotes, NUL, bytes that are not UTF-8, numbers of 5,000 digits or in
other scripts, non-finite numbers, rows too short or too long; then damage to the bytes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fuzzing import (
    csv_file,
    dumps,
    encode,
    exercise,
    fuzz_settings,
    ints,
    json_document,
    json_value,
    mostly,
    texts,
    words,
)
from hypothesis import example, given
from hypothesis import strategies as st

from argkb.loaders import argkp, argquality, argrank, reader, sigir19

pytestmark = pytest.mark.fuzz


def _read_dir(fmt: str, files: dict[str, bytes], **options: object) -> None:
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        root = Path(folder) / fmt
        root.mkdir()
        for name, data in files.items():
            (root / name).write_bytes(data)
        size = sum(len(data) for data in files.values())
        module = {"argkp": argkp, "argquality": argquality, "argrank": argrank, "sigir19": sigir19}[
            fmt
        ]
        if options:
            exercise(lambda: module.read([root], **options), size)
        else:
            exercise(lambda: reader(fmt)([root]), size)


def _files(draw: st.DrawFn, wanted: dict[str, st.SearchStrategy[bytes]]) -> dict[str, bytes]:
    """Each wanted file, most of the time."""
    return {name: draw(data) for name, data in wanted.items() if draw(st.integers(0, 11)) > 0}


ARGKP_ARG_ID = st.integers(0, 4).map(lambda n: f"arg_0_{n}".encode())
ARGKP_KP_ID = st.integers(0, 3).map(lambda n: f"kp_0_{n}".encode())
ARGKP_COMMON = {
    "topic": words("Cars should be banned", "Cars should be banned.", "Tax meat"),
    "stance": words("1", "-1", "+1", "0"),
}


@st.composite
def argkp_dataset(draw: st.DrawFn) -> dict[str, bytes]:
    split = draw(st.sampled_from(["train", "dev", "test-2"]))
    return _files(
        draw,
        {
            f"arguments_{split}.csv": csv_file(
                argkp.ARGUMENT_COLUMNS,
                {"arg_id": ARGKP_ARG_ID, "argument": texts(), **ARGKP_COMMON},
            ),
            f"key_points_{split}.csv": csv_file(
                argkp.KEY_POINT_COLUMNS,
                {"key_point_id": ARGKP_KP_ID, "key_point": texts(), **ARGKP_COMMON},
            ),
            f"labels_{split}.csv": csv_file(
                argkp.LABEL_COLUMNS,
                {
                    "arg_id": ARGKP_ARG_ID,
                    "key_point_id": ARGKP_KP_ID,
                    "label": words("0", "1", "2"),
                },
            ),
        },
    )


@fuzz_settings(60)
@given(argkp_dataset())
@example({"arguments_train.csv": b'arg_id,argument,topic,stance\na,"open,t,1\n'})
@example({"arguments_train.csv": b"arg_id,argument,topic,stance\na,\xff\xfe,t,1\n"})
@example({"arguments_train.csv": b"arg_id,argument,topic,stance\na,\x00,t,1\n"})
@example({})
def test_argkp(files: dict[str, bytes]) -> None:
    _read_dir("argkp", files)


@st.composite
def argquality_dataset(draw: st.DrawFn) -> dict[str, bytes]:
    topic_id = ints(0, 3)
    score = st.one_of(st.floats(-5, 5).map(lambda x: repr(x).encode()), words("-4.0", "0"))
    topics = csv_file(
        argquality.TOPIC_COLUMNS,
        {
            "Topic ID": topic_id,
            "Category": words("Economy"),
            "Long Query": texts(),
            "Short Query": words("Wage"),
        },
    )
    arguments = csv_file(
        argquality.ARGUMENT_COLUMNS,
        {
            "Topic ID": topic_id,
            "Argument ID": ints(0, 3),
            "Discussion ID": ints(0, 3),
            "Premise": texts(),
            "Is Argument?": words("True", "False", "true"),
            "Text Length": ints(0, 99),
            "Stance": words("True", "False", "Pro", "Con", "Neutral"),
            **{
                column: score
                for column in (
                    "Relevance",
                    "Rhetorical Quality",
                    "Logical Quality",
                    "Dialectical Quality",
                    "Combined Quality",
                )
            },
        },
    )
    return _files(
        draw,
        {"webis-argquality20-topics.csv": topics, "webis-argquality20-arguments.csv": arguments},
    )


@fuzz_settings(60)
@given(argquality_dataset(), st.booleans())
def test_argquality(files: dict[str, bytes], arguments_only: bool) -> None:
    if arguments_only:
        _read_dir("argquality", files, arguments_only=True)
    else:
        _read_dir("argquality", files)


@st.composite
def sigir19_dataset(draw: st.DrawFn) -> dict[str, bytes]:
    topic_id = words("0001", "0030", "0003", "7")
    grade = words("-2", "1", "2", "3", "4")
    topics = csv_file(
        sigir19.TOPIC_COLUMNS,
        {
            "Topic ID": topic_id,
            "Biased": words("True", "False", "false"),
            "Annotator Stance": words("I agree", "Neutral", ""),
            "Thesis": texts(),
            "Description": texts(),
            "Query": texts(),
        },
    )
    arguments = csv_file(
        sigir19.ARGUMENT_COLUMNS,
        {
            "Topic ID": topic_id,
            "Discussion ID": ints(0, 3),
            "Argument ID": ints(0, 3),
            "Is Argument?": words("True", "False", "true"),
            "Stance": words("Pro", "Con", "Not specified", "con"),
            **{c: grade for c in ("Relevance", "Logical Quality", "Rhetorical Quality")},
            "Dialectical Quality": grade,
            "Conclusion": texts(),
            "Premise": texts(),
            "Comment": words("", "None", "sehr kurz"),
        },
    )
    return _files(draw, {"topics.csv": topics, "arguments.csv": arguments})


@fuzz_settings(60)
@given(sigir19_dataset())
def test_sigir19(files: dict[str, bytes]) -> None:
    _read_dir("sigir19", files)
    if "topics.csv" in files and "arguments.csv" in files:
        with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
            for name, data in files.items():
                (Path(folder) / name).write_bytes(data)
            size = sum(len(data) for data in files.values())
            exercise(lambda: sigir19.load_judgements(folder).rejected, size)


UNIT_ID = mostly(st.integers(0, 6) | st.integers(0, 6).map(str), json_value(2))


@st.composite
def argrank_dataset(draw: st.DrawFn) -> dict[str, bytes]:
    unit_id = ints(0, 6)
    graph = json_document(
        mostly(
            st.fixed_dictionaries(
                {
                    "nodes": st.lists(UNIT_ID, max_size=8),
                    "edges": st.lists(
                        mostly(st.lists(UNIT_ID, min_size=2, max_size=2), json_value(2)),
                        max_size=10,
                    ),
                }
            ),
            json_value(),
        )
    )
    premise_columns = tuple(
        name for i in range(1, 4) for name in (f"Premise {i} argument unit ID", f"Premise {i} text")
    )
    benchmark = csv_file(
        (*argrank.BENCHMARK_COLUMNS, *premise_columns[1:]),
        {
            "Argument ID": ints(0, 4),
            "Aggregate rank": ints(1, 5),
            "Mean rank": words("1.5", "x"),
            **{f"Rank annotator {i}": ints(1, 5) for i in range(1, argrank.ANNOTATORS + 1)},
            "Conclusion argument unit ID": unit_id,
            "Conclusion text": texts(),
            "Number of premises": ints(0, 3),
            "Corrected conclusion string": texts(),
            "Corrected premises text": words("a, b", "&quot;x&quot;", ""),
            **{name: unit_id if "ID" in name else texts() for name in premise_columns},
        },
    )
    sources = csv_file(
        argrank.UNIT_SOURCE_COLUMNS,
        {
            "Argument Unit ID": unit_id,
            "Corpus Name": words("US2016", ""),
            "AIFdb Unit ID": ints(0, 99),
            "AIFdb Map ID": ints(0, 3),
        },
    )
    files = _files(
        draw,
        {argrank.BENCHMARK_FILE: benchmark, argrank.UNIT_SOURCES_FILE: sources},
    )
    if draw(st.integers(0, 9)) > 0:
        files[argrank.GRAPH_FILE] = draw(graph)
    return files


@fuzz_settings(50)
@given(argrank_dataset(), st.booleans())
@example({argrank.GRAPH_FILE: b"[" * 100_000}, False)
@example({argrank.GRAPH_FILE: b'{"nodes": [' + b"1" * 5000 + b'], "edges": []}'}, False)
@example({argrank.GRAPH_FILE: b'{"nodes": ["' + b"1" * 5000 + b'"], "edges": []}'}, False)
def test_argrank(files: dict[str, bytes], isolated: bool) -> None:
    # the directory needs all three files; the graph alone is read as an explicit file
    with tempfile.TemporaryDirectory(prefix="argkb-fuzz-") as folder:
        root = Path(folder)
        for name, data in files.items():
            (root / name).write_bytes(data)
        paths = [root / name for name in files] if len(files) < 3 else [root]
        size = sum(len(data) for data in files.values())
        exercise(lambda: argrank.read(paths, include_isolated=isolated), size)


def test_dumps_writes_raw_tokens() -> None:
    """The JSON writer behind the strategies: hostile tokens verbatim, surrogates escaped."""
    from fuzzing import Raw

    text = dumps({"a": [Raw("NaN"), "\ud800", 1]})
    assert text == '{"a":[NaN,"\\ud800",1]}'
    assert encode(dumps("\ud800", ascii_only=False)) == b'"\xed\xa0\x80"'
