"""``argkb eval run|argkp|argquality|sigir19|dataset|microtexts``: score run files, and the dataset
harnesses (which share one option block and one runner)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    echo_err,
    eval_group,
    handle_errors,
    json_option,
    not_blank,
    output_folder,
    to_json,
)
from argkb.cli.progress import Bar, closing, end_bar, open_bar

if TYPE_CHECKING:
    from argkb.eval.harness import HarnessReport
    from argkb.loaders.records import Rejected

_RANKER_HELP = (
    "Score this ranker (default: argkb's default ranker, argkb.eval.harness.DEFAULT_RANKER): a "
    "registered name (argkb.eval.harness.RANKERS) or package.module:factory. Repeatable."
)
_RELEVANT_HELP = "Grade from which a document counts as relevant for P@k (default: grade > 0)."


class _Grade(click.ParamType):
    """A finite number: NaN or infinity would make every P@k 0 without saying why."""

    name = "grade"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:  # fmt: skip
        try:
            grade = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(grade):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return grade


_GRADE = _Grade()


def _rankers(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """``--ranker``, checked when the command line is read: an unknown name, or a factory that
    cannot be imported or called as ``factory(driver, database, embedder)``, is a usage error
    before Neo4j is started or the data read (the default ranker is registered)."""
    if not value:
        return value
    from argkb.errors import ArgKBError
    from argkb.eval.harness import check_rankers

    try:
        check_rankers(value)
    except ArgKBError as err:
        raise click.BadParameter(str(err), ctx, param) from None
    return value


def _model_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--model``, checked when the command line is read: building an Embedder checks the
    folder and loads nothing (the model loads when a ranker first needs vectors)."""
    if value is None:
        return None
    from argkb.embed.model import Embedder
    from argkb.errors import ConfigError

    try:
        Embedder(value, cache=False)
    except ConfigError as err:
        raise click.BadParameter(str(err), ctx, param) from None
    return value


def _split_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--split``: a name as ``labels_<split>.csv`` has it; it becomes part of the output
    folder's path, which ``../x`` would leave."""
    from argkb.loaders.argkp import SPLIT_NAME

    if not SPLIT_NAME.fullmatch(value):
        raise click.BadParameter(
            f"{value!r} is not a split name (a letter or digit, then letters, digits, '.', '-')",
            ctx,
            param,
        )
    return value


@eval_group.command("run")
@click.option(
    "--topics",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Topics: TSV `qid<TAB>text[<TAB>stance]`, or .json/.jsonl.",
)
@click.option(
    "--qrels",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="TREC qrels `qid iter docid rel`.",
)
@click.option(
    "--clusters",
    type=click.Path(exists=True, dir_okay=False),
    help="Ground-truth clusters `qid docid cluster_id` (enables Task A/B and mnDCG).",
)
@click.option(
    "--run",
    "runs",
    multiple=True,
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="TREC run `qid Q0 docid rank score tag [cluster_id]`, or .json. Repeatable.",
)
@click.option("--relevant-from", type=_GRADE, help=_RELEVANT_HELP)
@json_option
@handle_errors
def run_cmd(
    topics: str,
    qrels: str,
    clusters: str | None,
    runs: tuple[str, ...],
    relevant_from: float | None,
    as_json: bool,
) -> None:
    """Score run files against qrels at k = 5 and 10 (any tool's runs, not only argkb's).

    Prints nDCG and P@k; with --clusters also Task B alpha-nDCG and mnDCG, and for runs with a
    cluster column Task A (avg/min/max) and the partition scores. Runs that share a tag are
    replicas (the random baselines' seeds) and are averaged into one row. --json adds per-query
    scores.
    """
    from argkb.eval.harness import markdown_tables, score_files, scores_json

    results = score_files(topics, qrels, list(runs), clusters, relevant_from=relevant_from)
    if as_json:
        click.echo(to_json({"runs": [scores_json(r) for r in results]}))
        return
    click.echo(markdown_tables(results))
    for result in results:
        if result.skipped:
            echo_err(f"{result.tag}: skipped {_queries(result.skipped)} without relevant docs")
        if result.missing:
            echo_err(f"{result.tag}: {_queries(result.missing)} missing from the run "
                     f"score{'s' if len(result.missing) == 1 else ''} 0")  # fmt: skip
        if result.unknown:
            echo_err(f"{result.tag}: ignored {_queries(result.unknown)} not in the topics")


def _queries(ids: Sized) -> str:
    """``1 query``, ``3 queries``."""
    return f"{len(ids):,} {'query' if len(ids) == 1 else 'queries'}"


# -- the dataset harnesses: one option block, one runner ---------------------------------------


@dataclass(frozen=True)
class HarnessArgs:
    """The shared options of every dataset command, as parsed."""

    rankers: tuple[str, ...]
    baselines: bool
    out: str | None
    depth: int | None
    relevant_from: float | None
    model_path: str | None
    as_json: bool


def harness_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--ranker --no-baselines --depth --relevant-from --model --out --json`` as ``args``."""

    @click.option("--ranker", "rankers", multiple=True, callback=_rankers, help=_RANKER_HELP)
    @click.option(
        "--baselines/--no-baselines",
        default=True,
        show_default=True,
        help="Score the baselines in the same run.",
    )
    @click.option(
        "--depth", type=click.IntRange(min=1), help="Clusters asked of each ranker per query."
    )
    @click.option("--relevant-from", type=_GRADE, help=_RELEVANT_HELP)
    @click.option(
        "--model",
        "model_path",
        type=click.Path(exists=True, file_okay=False),
        callback=_model_folder,
        help="A local sentence-transformers folder (default: all-MiniLM-L6-v2).",
    )
    @click.option(
        "--out",
        type=click.Path(file_okay=False),
        callback=output_folder,
        help="Output folder (default ./argkb-eval/<benchmark>/).",
    )
    @json_option
    @functools.wraps(fn)
    def wrapper(
        rankers: tuple[str, ...],
        baselines: bool,
        depth: int | None,
        relevant_from: float | None,
        model_path: str | None,
        out: str | None,
        as_json: bool,
        **kwargs: Any,
    ) -> Any:
        args = HarnessArgs(rankers, baselines, out, depth, relevant_from, model_path, as_json)
        return fn(args=args, **kwargs)

    return wrapper


def _check_rows(rejected: Sequence[Rejected], kept: Mapping[str, int], data: str) -> None:
    """Rows of the data read before connecting: refused when none of some kind is usable
    (``kept``: how many rows of each kind are), naming the first rejected row; else, when rows
    were rejected, one warning line on stderr, since they drop out of the benchmark and were
    listed only in the output folder's rejected.jsonl."""
    from argkb.errors import EvaluationError, LoadError

    for kind, count in kept.items():
        if count:
            continue
        if not rejected:
            raise EvaluationError(f"{data}: no {kind}")
        first = rejected[0]
        reason = f"{first.reason} (no usable {kind}: {counted(len(rejected), 'row')} rejected)"
        raise LoadError(first.where, first.field, reason)
    if rejected:
        echo_err(f"warning: {counted(len(rejected), 'row')} rejected and left out (listed in "
                 f"rejected.jsonl of the output folder), first: {rejected[0]}")  # fmt: skip


class _Bar:
    """A tqdm bar on stderr, opened at its first update (so unused steps print nothing)."""

    def __init__(self, quiet: bool, desc: str, unit: str, after: _Bar | None = None) -> None:
        self.quiet, self.desc, self.unit, self.after = quiet, desc, unit, after
        self.bar: Bar | None = None

    def update(self, n: int) -> None:
        if self.quiet:
            return
        if self.bar is None:
            if self.after is not None:
                self.after.close()  # the previous step is over
            self.bar = open_bar(self.desc, self.unit, mininterval=0.5)
        self.bar.update(n)

    def close(self, *, ok: bool = True) -> None:
        if self.bar is not None:
            end_bar(self.bar, ok=ok)
            self.bar = None


def _embedder_factory(model_path: str | None) -> Callable[[], Any]:
    def make() -> Any:
        from argkb.embed.model import Embedder

        return Embedder(model_path)

    return make


def _report(report: HarnessReport, as_json: bool) -> None:
    if as_json:
        click.echo(to_json(report.to_json()))
        return
    click.echo(report.table)
    click.echo()
    timing = ", ".join(f"{name} {value:.1f}s" for name, value in report.seconds.items())
    click.echo(f"time: {timing}")
    for result in report.results:
        click.echo(f"  {result.name}: {result.ms_per_query:.1f} ms/query")
    click.echo(f"written: {report.files['results_md']}, {report.files['results_json']}")


def run_harness(
    run: Callable[..., HarnessReport], conn: Connection, args: HarnessArgs, *positional: Any,
    **keywords: Any,
) -> None:  # fmt: skip
    """``run(driver, *positional, database=..., options=..., **keywords)`` with embed and rank
    progress bars; print the table (or JSON)."""
    _report(harness_report(run, conn, args, *positional, **keywords), args.as_json)


def harness_report(
    run: Callable[..., HarnessReport], conn: Connection, args: HarnessArgs, *positional: Any,
    **keywords: Any,
) -> HarnessReport:  # fmt: skip
    """What :func:`run_harness` runs, without printing: the report."""
    from argkb.eval.harness import DEFAULT_RANKER, HarnessOptions, ranker_spec

    chosen = args.rankers or (DEFAULT_RANKER,)  # with --no-baselines, all that runs
    reads_vectors = any(ranker_spec(name).needs_embeddings for name in chosen)
    if args.model_path and not args.baselines and not reads_vectors:
        raise click.UsageError("--model is unused: none of these rankers reads vectors")
    if args.model_path is None and (args.baselines or reads_vectors):
        from argkb.embed.model import default_model_path

        default_model_path()  # a missing model package is said before connecting, not after
    embed_bar = _Bar(args.as_json, "embed", " units")
    rank_bar = _Bar(args.as_json, "rank", " queries", after=embed_bar)
    options = HarnessOptions(
        rankers=args.rankers,
        baselines=args.baselines,
        out=args.out,
        depth=args.depth,
        relevant_from=args.relevant_from,
        make_embedder=_embedder_factory(args.model_path),
        on_query=rank_bar.update,
        on_embed=embed_bar.update,
    )

    def close(ok: bool) -> None:
        embed_bar.close(ok=ok)
        rank_bar.close(ok=ok)

    with closing(close):
        driver = conn.driver()
        return run(driver, *positional, database=conn.database, options=options, **keywords)


_DATA = click.Path(exists=True, file_okay=False)
_FILE = click.Path(exists=True, dir_okay=False)


@eval_group.command("argkp")
@connection_options
@click.option("--data", required=True, type=_DATA, help="The ArgKP-2021 folder (*_<split>.csv).")
@click.option(
    "--split",
    default="dev",
    show_default=True,
    callback=_split_name,
    help="Split to evaluate (train is for tuning).",
)
@harness_options
@handle_errors
def argkp_cmd(conn: Connection, data: str, split: str, args: HarnessArgs) -> None:
    """ArgKP-2021: each (topic, stance) a query, key points the ground-truth clusters.

    Loads the split (idempotent), embeds its units when a ranker needs vectors, and scores
    Task B and Task A nDCG@5/10, mnDCG, nDCG, P@k and the clustering of each query's arguments
    (ARI, NMI, B-cubed) for argkb's default ranker (or each --ranker) next to the baselines
    (docs/eval/harness.md). Depth 200 unless --depth.
    """
    from argkb.eval.argkp import read_split, run_argkp

    found = read_split(data, split)  # bad files fail before connecting
    kept = {
        "argument row": sum(map(len, found.arguments.values())),
        "label row": len(found.matches),
    }
    _check_rows(found.rejected, kept, data)
    run_harness(run_argkp, conn, args, data, split=split)


@eval_group.command("argquality")
@connection_options
@click.option("--data", required=True, type=_DATA, help="The Webis-ArgQuality-20 folder.")
@click.option(
    "--query",
    "query_kind",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="Which topic query is the query text.",
)
@harness_options
@handle_errors
def argquality_cmd(conn: Connection, data: str, query_kind: str, args: HarnessArgs) -> None:
    """Webis-ArgQuality-20: 20 topic queries over all 1,610 premises, graded relevance.

    Loads the corpus (idempotent), embeds its units when a ranker needs vectors, and scores
    nDCG@5/10 and P@5/10 for argkb's default ranker (or each --ranker) next to the baselines
    (docs/eval/harness.md). Depth 100 unless --depth.
    """
    from argkb.eval.argquality import read_judgements, run_argquality

    found = read_judgements(data)  # bad files fail before connecting
    kept = {"topic row": len(found.topics), "premise row": sum(map(len, found.premises.values()))}
    _check_rows(found.rejected, kept, data)
    run_harness(run_argquality, conn, args, data, query=query_kind)


@eval_group.command("sigir19")
@connection_options
@click.option(
    "--data",
    required=True,
    type=_DATA,
    help="The SIGIR-19 study folder (topics.csv, arguments.csv).",
)
@click.option(
    "--topics",
    "topic_kind",
    type=click.Choice(["all", "biased", "neutral"]),
    default="all",
    show_default=True,
    help="Which topics are queries: all, or only the biased or the neutral ones.",
)
@harness_options
@handle_errors
def sigir19_cmd(conn: Connection, data: str, topic_kind: str, args: HarnessArgs) -> None:
    """Webis SIGIR-19: the topics' queries over every judged args.me argument, graded relevance.

    Loads the corpus (idempotent), embeds its units when a ranker needs vectors, and scores
    nDCG@5/10 and P@5/10 (gain = relevance - 1, at least 0) for argkb's default ranker (or each
    --ranker) next to the baselines bm25, cosine and random, then nDCG@10 per issue (the biased
    and the neutral topic of one issue together). Depth 100 unless --depth. The study judged
    what its engine found for each query's words, so it also scores nDCG' (the condensed list:
    arguments not judged for the query left out) and counts what each top ten holds by those
    judgements. See docs/eval/harness.md.
    """
    from argkb.eval.sigir19 import per_issue, run_sigir19, top_places, topic_issues
    from argkb.loaders.sigir19 import load_judgements

    found = load_judgements(data)  # bad files fail before connecting
    kept = {
        "topic row": len(found.topics),
        "judgement row": sum(map(len, found.judgements.values())),
    }
    _check_rows(found.rejected, kept, data)
    issues = topic_issues(found)
    report = harness_report(run_sigir19, conn, args, data, topics=topic_kind)
    asked = {q for r in report.results for q in r.scores.per_query} | set(
        q for r in report.results for q in r.scores.skipped
    )
    issues = {qid: issue for qid, issue in issues.items() if qid in asked}
    by_issue = {r.name: per_issue(r.scores, issues) for r in report.results}
    places = {
        r.name: top_places(r.run, report.qrels, issues, r.scores.per_query) for r in report.results
    }
    if args.as_json:
        click.echo(to_json({**report.to_json(), "issues": issues, "ndcg@10_by_issue": by_issue,
                            "top10_places": places}))  # fmt: skip
        return
    _report(report, False)
    click.echo()
    click.echo(_issue_table(issues, by_issue))
    click.echo()
    click.echo(_places_table(places))


def _issue_table(issues: dict[str, str], by_issue: dict[str, dict[str, float]]) -> str:
    """nDCG@10 per issue (rows) and system (columns), each issue named by its topics."""
    members: dict[str, list[str]] = {}
    for qid, issue in sorted(issues.items(), key=lambda item: int(item[0])):
        members.setdefault(issue, []).append(qid)
    names = list(by_issue)
    lines = [
        "| issue (topics) | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for issue, qids in sorted(members.items(), key=lambda item: int(item[0])):
        cells = [f"{by_issue[n][issue]:.3f}" if issue in by_issue[n] else "-" for n in names]
        lines.append(f"| {'+'.join(qids)} | " + " | ".join(cells) + " |")
    return "nDCG@10 by issue\n" + "\n".join(lines)


def _places_table(places: dict[str, dict[str, int]]) -> str:
    """What the top ten places of each system hold, over all queries (a random baseline: its
    first seed)."""
    from argkb.eval.sigir19 import PLACES

    lines = [
        "Top-10 places by what the study judged (an argument judged only for the issue's other "
        "query counts 0 in nDCG; nDCG' leaves it out)",
        "| system | relevant | judged not relevant | judged for the other query only | unjudged |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, counts in places.items():
        lines.append(f"| {name} | " + " | ".join(str(counts[p]) for p in PLACES) + " |")
    return "\n".join(lines)


@eval_group.command("dataset")
@connection_options
@click.option(
    "--corpus",
    required=True,
    type=_FILE,
    help="Your corpus: JSONL in argkb's format (docs/formats.md).",
)
@click.option(
    "--topics", required=True, type=_FILE, help="Topics: TSV `qid<TAB>text[<TAB>stance]`."
)
@click.option(
    "--qrels",
    required=True,
    type=_FILE,
    help="TREC qrels `qid 0 docid grade`; docid = a premise id of the corpus, else an argument id.",
)
@click.option(
    "--clusters", type=_FILE, help="Ground-truth clusters `qid docid cluster_id` (Task A/B)."
)
@click.option(
    "--collection",
    callback=not_blank(
        ", which selects every source: leave it out, or give a prefix such as jsonl:"
    ),
    help="Restrict rankers to sources whose id starts with this (e.g. jsonl:); default: the "
    "whole database, which must then hold only this corpus.",
)
@harness_options
@handle_errors
def dataset_cmd(
    conn: Connection,
    corpus: str,
    topics: str,
    qrels: str,
    clusters: str | None,
    collection: str | None,
    args: HarnessArgs,
) -> None:
    """Your own judged corpus: load it and score rankers with the baselines in one run.

    Loads the JSONL corpus into a fresh database (refused if the database holds other corpora
    and no --collection is given; `argkb db clear` empties it), then scores argkb's default
    ranker (or each --ranker) and the baselines bm25, cosine and random (10 seeds) with nDCG and
    P@k at 5 and 10 (Task A/B with --clusters). Depth 100 unless --depth. See
    docs/eval/harness.md.
    """
    from argkb.eval.dataset import DatasetFiles, prepare_benchmark, run_corpus

    files = DatasetFiles(corpus, topics, qrels, clusters)
    benchmark = prepare_benchmark(files, collection=collection)  # bad files fail before connecting
    run_harness(run_corpus, conn, args, files, collection=collection, benchmark=benchmark)


@eval_group.command("microtexts")
@connection_options
@click.option(
    "--data",
    required=True,
    type=_DATA,
    help="The microtexts-aif folder (benchmark/, cases/, queries/).",
)
@click.option(
    "--query",
    "query_kind",
    type=click.Choice(["claim", "graph"]),
    default="claim",
    show_default=True,
    help="Query text: the query graph's claim, or all its I-node texts.",
)
@harness_options
@handle_errors
def microtexts_cmd(
    conn: Connection, data: str, query_kind: Literal["claim", "graph"], args: HarnessArgs
) -> None:
    """The microtexts retrieval benchmark (ReCAP arguequery) scored at source level.

    Loads the 110 argument maps into a fresh database, asks each ranker for premises for the 24
    query graphs and ranks each map by its best premise; grades 3/2/1 from the benchmark's ranks
    1/2/3, every other map 0. nDCG and P@k at 5 and 10. Depth 200 unless --depth. See
    docs/eval/harness.md.
    """
    from argkb.eval.microtexts import build_benchmark, find_files, run_microtexts

    benchmark = build_benchmark(find_files(data), query_kind)
    run_harness(run_microtexts, conn, args, data, query=query_kind, benchmark=benchmark)
