"""``argkb eval run|argkp|argquality``: score run files, and the two dataset harnesses."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    echo_err,
    eval_group,
    handle_errors,
    json_option,
    to_json,
)

_RANKER_HELP = (
    "Also score this ranker: a registered name (argkb.eval.harness.RANKERS) or "
    "package.module:factory. Repeatable."
)


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
@json_option
@handle_errors
def run_cmd(
    topics: str, qrels: str, clusters: str | None, runs: tuple[str, ...], as_json: bool
) -> None:
    """Score run files against qrels at k = 5 and 10 (any tool's runs, not only argkb's).

    Prints nDCG and P@k; with --clusters also Task B alpha-nDCG and mnDCG, and for runs with a
    cluster column Task A (avg/min/max) and the partition scores. --json adds per-query scores.
    """
    from argkb.eval.harness import markdown_tables, score_files, scores_json

    results = score_files(topics, qrels, list(runs), clusters)
    if as_json:
        click.echo(to_json({"runs": [scores_json(r) for r in results]}))
        return
    click.echo(markdown_tables(results))
    for result in results:
        if result.skipped:
            echo_err(f"{result.tag}: skipped {len(result.skipped)} queries without relevant docs")
        if result.missing:
            echo_err(f"{result.tag}: {len(result.missing)} queries missing from the run score 0")
        if result.unknown:
            echo_err(f"{result.tag}: ignored {len(result.unknown)} queries not in the topics")


def _harness_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    fn = click.option("--ranker", "rankers", multiple=True, help=_RANKER_HELP)(fn)
    fn = click.option(
        "--baselines/--no-baselines",
        default=True,
        show_default=True,
        help="Score the baselines in the same run.",
    )(fn)
    fn = click.option(
        "--out",
        type=click.Path(file_okay=False),
        help="Output folder (default ./argkb-eval/<benchmark>/).",
    )(fn)
    return fn


def _report(report: Any, as_json: bool) -> None:
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


class _Bar:
    """A tqdm bar on stderr, opened at its first update (so unused steps print nothing)."""

    def __init__(self, quiet: bool, desc: str, unit: str, after: _Bar | None = None) -> None:
        self.quiet, self.desc, self.unit, self.after = quiet, desc, unit, after
        self.bar: Any = None

    def update(self, n: int) -> None:
        if self.quiet:
            return
        if self.bar is None:
            from tqdm import tqdm

            if self.after is not None:
                self.after.close()  # the previous step is over

            self.bar = tqdm(desc=self.desc, unit=self.unit, file=sys.stderr, mininterval=0.5)
        self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _embedder_factory(model_path: str | None) -> Callable[[], Any]:
    def make() -> Any:
        from argkb.embed.model import Embedder

        return Embedder(model_path)

    return make


def _run_harness(
    run: Callable[..., Any], conn: Connection, data: str, model_path: str | None, as_json: bool,
    **options: Any,
) -> None:  # fmt: skip
    """``run(driver, database, data, **options)`` with embed and rank progress bars; print it."""
    embed_bar = _Bar(as_json, "embed", " units")
    rank_bar = _Bar(as_json, "rank", " queries", after=embed_bar)
    try:
        report = run(
            conn.driver(),
            conn.database,
            data,
            make_embedder=_embedder_factory(model_path),
            on_query=rank_bar.update,
            on_embed=embed_bar.update,
            **options,
        )
    finally:
        embed_bar.close()
        rank_bar.close()
    _report(report, as_json)


_model_option = click.option(
    "--model",
    "model_path",
    type=click.Path(exists=True, file_okay=False),
    help="A local sentence-transformers folder (default: all-MiniLM-L6-v2).",
)


@eval_group.command("argkp")
@connection_options
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="The ArgKP-2021 folder (arguments_/key_points_/labels_<split>.csv).",
)
@click.option(
    "--split", default="dev", show_default=True, help="Split to evaluate (train is for tuning)."
)
@click.option(
    "--depth", type=int, default=200, show_default=True, help="Clusters asked of each ranker."
)
@_model_option
@_harness_options
@json_option
@handle_errors
def argkp_cmd(
    conn: Connection,
    data: str,
    split: str,
    depth: int,
    model_path: str | None,
    rankers: tuple[str, ...],
    baselines: bool,
    out: str | None,
    as_json: bool,
) -> None:
    """ArgKP-2021: each (topic, stance) a query, key points the ground-truth clusters.

    Loads the split (idempotent), embeds its units when a ranker needs vectors, and scores
    Task B and Task A nDCG@5/10, mnDCG, nDCG, P@k and the clustering of each query's arguments
    (ARI, NMI, B-cubed) for every ranker next to the baselines (docs/eval/harness.md).
    """
    from argkb.eval.argkp import BASELINES, run_argkp

    _run_harness(
        run_argkp, conn, data, model_path, as_json,
        rankers=[*(BASELINES if baselines else ()), *rankers], out=out, depth=depth, split=split,
    )  # fmt: skip


@eval_group.command("argquality")
@connection_options
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="The Webis-ArgQuality-20 folder.",
)
@click.option(
    "--query",
    "query_kind",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="Which topic query is the query text.",
)
@click.option(
    "--depth", type=int, default=100, show_default=True, help="Results asked of each ranker."
)
@_model_option
@_harness_options
@json_option
@handle_errors
def argquality_cmd(
    conn: Connection,
    data: str,
    query_kind: str,
    depth: int,
    model_path: str | None,
    rankers: tuple[str, ...],
    baselines: bool,
    out: str | None,
    as_json: bool,
) -> None:
    """Webis-ArgQuality-20: 20 topic queries over all 1,610 premises, graded relevance.

    Loads the corpus (idempotent), embeds its units when a ranker needs vectors, and scores
    nDCG@5/10 and P@5/10 for every ranker next to the baselines (docs/eval/harness.md).
    """
    from argkb.eval.argquality import BASELINES, run_argquality

    _run_harness(
        run_argquality, conn, data, model_path, as_json,
        rankers=[*(BASELINES if baselines else ()), *rankers], out=out, depth=depth,
        query=query_kind,
    )  # fmt: skip
