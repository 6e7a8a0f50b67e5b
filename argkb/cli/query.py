"""``argkb query``: ranked, deduplicated pro and con premise clusters for a claim."""

from __future__ import annotations

import dataclasses
import textwrap
from typing import get_args

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    handle_errors,
    json_option,
    main,
    one_blas_thread,
    to_json,
)
from argkb.retrieve.engine import (
    AlignmentChoice,
    CoresetRelevance,
    Member,
    PremiseClusters,
    RankerName,
    Representative,
    StanceChoice,
)

MEMBERS_SHOWN = 6
"""Premises listed per cluster in the text view (``--json`` lists them all)."""
TEXT_WIDTH = 80


def _member_line(member: Member) -> str:
    """A premise as a person reads it: its text (shortened), where it comes from (the source's
    title, else its id) and who said its stance (the data, or argkb stance's model)."""
    text = textwrap.shorten(" ".join(member.text.split()), TEXT_WIDTH, placeholder=" ...")
    names = [source.title or source.sid for source in member.sources]
    where = names[0] if names else "no source"
    if len(names) > 1:
        where += f" (+{len(names) - 1} more)"
    said = {"data": "data", "model": "model (argkb stance)"}.get(
        member.stance_source, member.stance_source.replace("+", " and ")
    )
    return f"{text}  [source: {where}; stance from {said}]"


@main.command("query")
@connection_options
@click.argument("claim")
@click.option("--k", type=click.IntRange(1, 1000), default=10, help="Clusters per stance [10].")
@click.option(
    "--ranker",
    type=click.Choice(get_args(RankerName)),
    default=None,
    help="hybrid: similar claims' premises, BM25 and vector premise search fused by reciprocal "
    "rank; pfidf: Dumani et al. 2020 (frequency x specificity); coreset: Fromm et al. 2021. "
    "Default: argkb's default ranker (docs/evaluation.md says which and why).",
)
@click.option(
    "--stance", type=click.Choice(get_args(StanceChoice)), default="both", show_default=True
)
@click.option(
    "--representative",
    type=click.Choice(get_args(Representative)),
    default="longest",
    show_default=True,
    help="Which premise shows a cluster (best: the hybrid ranker's best-fused member).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="Coreset trade-off: 1 = relevance only, 0 = coverage only (default: 0.8, chosen on "
    "ArgKP train).",
)
@click.option(
    "--relevance",
    type=click.Choice(get_args(CoresetRelevance)),
    default="learned",
    show_default=True,
    help="Coreset relevance r(p|q): the relevance filter fitted on ArgKP train, cosine to the "
    "query, or the pf-icf share.",
)
@click.option(
    "--premise-clusters",
    type=click.Choice(get_args(PremiseClusters)),
    default="offline",
    show_default=True,
    help="pfidf premise clusters: from `argkb cluster`, or made now over the candidates.",
)
@click.option(
    "--alignment",
    type=click.Choice(get_args(AlignmentChoice)),
    default="model",
    show_default=True,
    help="Whether a similar claim takes the query's side: model = the stance-alignment "
    "estimator decides (a claim it judges to negate the query counts its pro premises as con); "
    "soft = its probability weighs both sides; always = every claim is aligned (Dumani et "
    "al.'s experiments).",
)
@click.option("--explain", is_flag=True, help="Show the numbers behind each rank.")
@click.option(
    "--show-keys",
    is_flag=True,
    help="List each cluster's premises by unit key (the view before member texts and sources).",
)
@json_option
@handle_errors
def query_cmd(
    conn: Connection,
    claim: str,
    k: int,
    ranker: RankerName | None,
    stance: StanceChoice,
    representative: Representative,
    alpha: float | None,
    relevance: CoresetRelevance,
    premise_clusters: PremiseClusters,
    alignment: AlignmentChoice,
    explain: bool,
    show_keys: bool,
    as_json: bool,
) -> None:
    """Ask CLAIM; get the distinct reasons for and against it, each once, best first.

    Last step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query): needs
    'argkb load', 'argkb embed', 'argkb cluster' and 'argkb pagerank' first ('argkb update' runs
    the ones that are stale); without some of them the answer comes from what exists, with a
    note saying what to run.
    """
    try:
        claim.encode("utf-8")
    except UnicodeEncodeError as err:  # bytes the terminal's encoding could not decode
        raise click.BadParameter(
            "is not valid UTF-8 text; check the terminal's encoding (LANG, LC_ALL)",
            param_hint="CLAIM",
        ) from err
    one_blas_thread()
    from argkb.embed.model import Embedder
    from argkb.retrieve.engine import DEFAULT_RANKER, QueryEngine, Settings, choose_alignment

    settings = Settings(
        representative=representative,
        coreset_relevance=relevance,
        premise_clusters=premise_clusters,
    )
    if alpha is not None:
        settings = dataclasses.replace(settings, coreset_alpha=alpha)
    embedder = Embedder.for_queries()
    engine = QueryEngine(conn.driver(), embedder, database=conn.database, settings=settings)
    engine.alignment = choose_alignment(alignment, embedder)
    result = engine.query(
        claim,
        k=k,
        ranker=ranker or DEFAULT_RANKER,
        stance=stance,
        explain=explain,
    )
    if as_json:
        click.echo(to_json(result))
        return
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if result.message:
        click.echo(result.message)
        return
    click.echo(f"query: {result.query}")
    click.echo(
        "similar claims: "
        + "; ".join(f"{c['text'][:60]} (P={c['p']:.2f})" for c in result.claims[:3])
    )
    for stance_name, clusters in (("PRO", result.pro), ("CON", result.con)):
        if stance == "both" or stance_name.lower() == stance:
            click.echo(f"\n{stance_name} ({len(clusters)} clusters)")
            if not clusters:
                click.echo("  (none found)")
        for cluster in clusters:
            rep = cluster.representative
            click.echo(f"{cluster.rank:>3}. [{cluster.score:.3f}] {rep.text}")
            if show_keys:
                click.echo(
                    f"     {cluster.size} premise(s): "
                    + ", ".join(m.key for m in cluster.members[:6])
                    + (" ..." if cluster.size > 6 else "")
                )
                predicted = [m for m in cluster.members if "model" in m.stance_source]
                if predicted:
                    click.echo(
                        f"     stance predicted by argkb stance for {len(predicted)} of them"
                    )
            else:
                click.echo(f"     {cluster.size} premise(s):")
                for member in cluster.members[:MEMBERS_SHOWN]:
                    click.echo(f"     - {_member_line(member)}")
                if cluster.size > MEMBERS_SHOWN:
                    click.echo(f"     ... and {cluster.size - MEMBERS_SHOWN} more")
            if cluster.explain:
                ex = cluster.explain
                if ex.get("pagerank") is not None:
                    click.echo(f"     pagerank {ex['pagerank']:.5f}")
                for route, row in ex.get("routes", {}).items():
                    rank = f"rank {row['rank']}" if row["rank"] else "not found"
                    click.echo(f"     {route}: {rank}, adds {row['contribution']:.4f}")
                for row in ex.get("claims", []):
                    click.echo(
                        f"     via '{row['claim'][:60]}': P(c|q)={row['p_claim']:.3f} "
                        f"pf={row['pf']:.0f} icf={row['icf']:.2f} "
                        f"P(p|c)={row['p_premise_given_claim']:.3f}"
                    )
    timing = ", ".join(f"{k} {v * 1000:.0f}ms" for k, v in result.seconds.items())
    click.echo(f"\n({timing})")
