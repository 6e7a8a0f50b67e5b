"""``argkb eval pairs``: the sentence-pair pipeline on the proxy evaluation of
:mod:`argkb.eval.pairs` (Webis-ArgQuality-20 or the SIGIR-19 study), with the baselines in the
same run."""

from __future__ import annotations

from pathlib import Path

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    eval_group,
    handle_errors,
    json_option,
    output_folder,
    to_json,
)
from argkb.cli.progress import progress_for


@eval_group.command("pairs")
@connection_options
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="The Webis-ArgQuality-20 folder or the SIGIR-19 study folder.",
)
@click.option(
    "--benchmark",
    type=click.Choice(["argquality", "sigir19"]),
    required=True,
    help="Which format --data holds.",
)
@click.option(
    "--query",
    "query_kind",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="ArgQuality's long (question) or short queries (--benchmark argquality only).",
)
@click.option("--k", type=click.IntRange(1, 100), default=10, show_default=True,
              help="Pairs per query.")  # fmt: skip
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    callback=output_folder,
    help="Write the per-query measures here as pairs.json "
    "(default ./argkb-eval/pairs-<benchmark>/).",
)
@json_option
@handle_errors
def pairs_cmd(
    conn: Connection,
    data: str,
    benchmark: str,
    query_kind: str,
    k: int,
    out: str | None,
    as_json: bool,
) -> None:
    """Sentence pairs on a proxy: each pair scored by its source premise's judged relevance
    (rel@5/10, nDCG, a source counting once) and quality, and how often its two sentences are
    adjacent (coherence).

    Loads the corpus (idempotent), embeds its units, splits premises into sentences, then scores
    argkb query --pairs's pipeline next to BM25 top sentence + next and DirichletLM top sentence
    + next, with wins/ties/losses and a 95% interval against the first. Best on a database that
    holds only the benchmark. See docs/sentences.md.
    """
    from argkb.embed.model import Embedder
    from argkb.eval.pairs import read_proxy, run_pairs

    _query_for_argquality_only(benchmark)

    read_proxy(benchmark, data, query_kind)  # bad files fail before connecting
    embedder = Embedder()
    report = run_pairs(conn.driver(), benchmark, data, embedder, query=query_kind, k=k,
                       database=conn.database, progress=progress_for(as_json))  # fmt: skip
    target = Path(out) if out is not None else Path("argkb-eval") / report.benchmark
    target.mkdir(parents=True, exist_ok=True)
    scores = {"per_query": report.per_query, "means": report.means}
    (target / "pairs.json").write_text(to_json(scores, indent=1) + "\n")  # NaN as null
    if as_json:
        click.echo(to_json(report))
        return
    click.echo(f"{report.benchmark}: {report.queries} queries, {k} pairs each\n")
    click.echo(report.table())
    click.echo(f"\nper-query measures: {target / 'pairs.json'}")


def _query_for_argquality_only(benchmark: str) -> None:
    """A usage error for --query with the SIGIR-19 study, which has one query per topic: the
    option was ignored without a word."""
    from click.core import ParameterSource

    given = click.get_current_context().get_parameter_source("query_kind")
    if benchmark == "sigir19" and given not in (None, ParameterSource.DEFAULT):
        raise click.UsageError("--query applies to --benchmark argquality only")
