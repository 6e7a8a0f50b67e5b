"""``argkb query``: ranked, deduplicated pro and con premise clusters for a claim.

The options' defaults and help texts come from :class:`argkb.query.settings.QuerySettings`, so
``argkb query CLAIM`` answers exactly as ``QueryEngine(driver, embedder).query(CLAIM)`` does.
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, get_args

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    one_blas_thread,
    one_line,
    printable,
    to_json,
)
from argkb.query.settings import (
    DEFAULT,
    DEFAULT_K,
    MAX_QUERY_CHARS,
    AlignmentChoice,
    CoresetRelevance,
    FusionMethod,
    PremiseClusters,
    RankerName,
    Representative,
    StanceChoice,
    choices_of,
    help_of,
)
from argkb.query.types import Member, QueryResult, ResultCluster

if TYPE_CHECKING:
    from argkb.sentences.pipeline import PairingMethod, PairSettings

MEMBERS_SHOWN = 6
"""Premises listed per cluster in the text view (``--json`` lists them all)."""
TEXT_WIDTH = 80


def setting_option(name: str, flag: str | None = None) -> Callable[[Any], Any]:
    """``--name`` for the query setting ``name``: its choices, default and help text."""
    return click.option(
        flag or "--" + name.replace("_", "-"),
        name,
        type=click.Choice(choices_of(name)),
        default=getattr(DEFAULT, name),
        show_default=True,
        help=help_of(name),
    )


def _member_line(member: Member) -> str:
    """A premise as a person reads it: its text (shortened), where it comes from (the source's
    title, else its id) and who said its stance towards its own claim (the data, or argkb
    stance's model): its side for the query follows from that and from whether the claim says
    what the query says."""
    shown = " ".join(getattr(member, "snippet", None) or [member.text])  # the snippet, if asked
    return f"{one_line(shown, TEXT_WIDTH)}  {_origin(member)}"


def _origin(member: Member) -> str:
    """``[source: ...; stance to its claim from ...]``: where a premise comes from and who said
    its stance (:func:`_member_line`)."""
    names = [source.title or source.sid for source in member.sources]
    where = names[0] if names else "no source"
    if len(names) > 1:
        where += f" (+{len(names) - 1} more)"
    said = {"data": "data", "model": "model (argkb stance)"}.get(
        member.stance_source, member.stance_source.replace("+", " and ")
    )
    return f"[source: {where}; stance to its claim from {said}]"


CLUSTER_OPTIONS = {
    "ranker": "--ranker",
    "representative": "--representative",
    "coreset_alpha": "--alpha",
    "coreset_relevance": "--relevance",
    "premise_clusters": "--premise-clusters",
    "alignment": "--alignment",
    "fusion": "--fusion",
    "show_keys": "--show-keys",
    "snippets": "--snippets",
}
"""The ranking and cluster options (parameter name -> flag): --pairs answers without them."""


def _check_pairs_options(pairs: bool, stance: str, pairs_baseline: bool) -> None:
    """Usage errors for options that the answer asked for would ignore."""
    from click.core import ParameterSource

    given = click.get_current_context().get_parameter_source
    if pairs and stance != "both":
        raise click.UsageError(
            "--stance does not apply to --pairs: sentence pairs are ranked for the claim, not "
            "by side (each pair shows its premise's stance)"
        )
    ignored = [flag for name, flag in CLUSTER_OPTIONS.items()
               if given(name) == ParameterSource.COMMANDLINE]  # fmt: skip
    if pairs and ignored:
        raise click.UsageError(
            f"{', '.join(ignored)} {'does' if len(ignored) == 1 else 'do'} not apply to --pairs: "
            "the sentence-pair pipeline has no clusters or ranker to choose (drop "
            f"{'it' if len(ignored) == 1 else 'them'}, or drop --pairs)"
        )
    if not pairs and (pairs_baseline or given("pairing") == ParameterSource.COMMANDLINE):
        raise click.UsageError(
            "--pairs-baseline and --pairing choose how --pairs answers: add --pairs"
        )


@main.command("query")
@connection_options
@click.argument("claim")
@click.option(
    "--k",
    type=click.IntRange(1, 1000),
    default=DEFAULT_K,
    help=f"Clusters per stance [{DEFAULT_K}].",
)
@setting_option("ranker")
@click.option(
    "--stance", type=click.Choice(get_args(StanceChoice)), default="both", show_default=True
)
@setting_option("representative")
@click.option(
    "--alpha",
    "coreset_alpha",
    type=FiniteRange(0.0, 1.0),
    default=DEFAULT.coreset_alpha,
    show_default=True,
    help=help_of("coreset_alpha"),
)
@setting_option("coreset_relevance", "--relevance")
@setting_option("premise_clusters")
@setting_option("alignment")
@setting_option("fusion")
@click.option("--explain", is_flag=True, help="Show the numbers behind each rank.")
@click.option(
    "--show-keys",
    is_flag=True,
    help="List each cluster's premises by unit key (the view before member texts and sources).",
)
@click.option(
    "--pairs",
    is_flag=True,
    help="Answer with the best sentence pairs of premises instead of clusters ('argkb "
    "sentences' first): --k pairs by the sentence-pair pipeline (BM25 over sentences, "
    "re-ranked by their premise's topic and argumentativeness, one pair per premise, the top "
    "sentence with its next one); the ranking and cluster options are refused beside it.",
)
@click.option(
    "--pairs-baseline",
    is_flag=True,
    help="With --pairs: BM25 top sentence + its next sentence only (no preprocessing, "
    "re-ranking or one-pair-per-premise; loads no model).",
)
@click.option(
    "--pairing",
    type=click.Choice(["next", "cosine", "nsp"]),
    default="next",
    show_default=True,
    help="With --pairs: join the top sentence with its next one, with the most similar "
    "sentence of its premise, or with the one a next-sentence model finds likeliest to follow "
    "or precede it.",
)
@click.option(
    "--snippets",
    is_flag=True,
    default=DEFAULT.snippets,
    help="Show each premise of more than two sentences by its best two sentences for the query "
    "('argkb sentences' first; --json adds them as 'snippet', the full text stays in 'text').",
)
@json_option
@handle_errors
def query_cmd(
    conn: Connection,
    claim: str,
    k: int,
    ranker: RankerName,
    stance: StanceChoice,
    representative: Representative,
    coreset_alpha: float,
    coreset_relevance: CoresetRelevance,
    premise_clusters: PremiseClusters,
    alignment: AlignmentChoice,
    fusion: FusionMethod,
    explain: bool,
    show_keys: bool,
    pairs: bool,
    pairs_baseline: bool,
    pairing: PairingMethod,
    snippets: bool,
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
    if not claim.strip():
        raise click.BadParameter(
            "is empty: ask a claim, e.g. 'We should abandon fossil fuels'", param_hint="CLAIM"
        )
    if len(claim) > MAX_QUERY_CHARS:  # as the HTTP API and the explorer refuse it
        raise click.BadParameter(f"is {len(claim):,} characters long: ask a claim of at most "
                                 f"{MAX_QUERY_CHARS:,}", param_hint="CLAIM")  # fmt: skip
    _check_pairs_options(pairs, stance, pairs_baseline)
    if pairs:
        from argkb.sentences.pipeline import BASELINE
        from argkb.sentences.pipeline import DEFAULT as PAIRS

        chosen = dataclasses.replace(BASELINE if pairs_baseline else PAIRS, pairing=pairing)
        show_pairs(conn, claim, k=k, settings=chosen, explain=explain, as_json=as_json)
        return
    one_blas_thread()
    from argkb.embed.model import Embedder
    from argkb.query.engine import QueryEngine

    settings = dataclasses.replace(
        DEFAULT,
        ranker=ranker,
        alignment=alignment,
        fusion=fusion,
        representative=representative,
        coreset_alpha=coreset_alpha,
        coreset_relevance=coreset_relevance,
        premise_clusters=premise_clusters,
        snippets=snippets,
    )
    engine = QueryEngine(conn.driver(), Embedder.for_queries(), database=conn.database,
                         settings=settings)  # fmt: skip
    result = engine.query(claim, k=k, stance=stance, explain=explain)
    if as_json:
        click.echo(to_json(result))
        return
    show_answer(result, stance, show_keys)


def show_answer(result: QueryResult, stance: StanceChoice, show_keys: bool) -> None:
    """The answer as a person reads it: notes, the similar claims, then each side's clusters."""
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if result.message:
        click.echo(result.message)
        return
    click.echo(f"query: {result.query}")
    # P: the claim's share of the claim route's credit, P(c|q) (docs/cli.md)
    shown = "; ".join(f"{one_line(c['text'], 60)} (P={c['p']:.2f})" for c in result.claims[:3])
    shown = f"{shown}  [P: share of the claim route]" if shown else "none"
    click.echo(f"similar claims: {shown}")
    for stance_name, clusters in (("PRO", result.pro), ("CON", result.con)):
        if stance == "both" or stance_name.lower() == stance:
            noun = "cluster" if len(clusters) == 1 else "clusters"
            click.echo(f"\n{stance_name} ({len(clusters)} {noun})")
            if not clusters:
                click.echo("  (none found)")
        for cluster in clusters:
            _show_cluster(cluster, show_keys)
    timing = ", ".join(f"{k} {v * 1000:.0f}ms" for k, v in result.seconds.items())
    click.echo(f"\n({timing})")


def _show_cluster(cluster: ResultCluster, show_keys: bool) -> None:
    rep = cluster.representative
    snippet = getattr(rep, "snippet", None)  # the best two sentences, with --snippets
    shown = " ".join(snippet) + " [...]" if snippet else rep.text
    click.echo(f"{cluster.rank:>3}. [{cluster.score:.3f}] {shown}")
    if show_keys:
        click.echo(
            f"     {counted(cluster.size, 'premise')}: "
            + ", ".join(m.key for m in cluster.members[:6])
            + (" ..." if cluster.size > 6 else "")
        )
        predicted = [m for m in cluster.members if "model" in m.stance_source]
        if predicted:
            click.echo(f"     stance predicted by argkb stance for {len(predicted)} of them")
    elif cluster.size == 1:  # its one premise is the text above: only where it comes from
        click.echo(f"     {_origin(cluster.members[0])}")
    else:
        click.echo(f"     {counted(cluster.size, 'premise')}:")
        for member in cluster.members[:MEMBERS_SHOWN]:
            click.echo(f"     - {_member_line(member)}")
        if cluster.size > MEMBERS_SHOWN:
            click.echo(f"     ... and {cluster.size - MEMBERS_SHOWN} more")
    if cluster.explain:
        _show_explanation(cluster.explain)


def _show_explanation(ex: dict[str, Any]) -> None:
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
    if "coreset" in ex:
        c = ex["coreset"]
        click.echo(
            f"     coreset: gain {c['gain']:.4f}, relevance {c['relevance']:.3f} "
            f"({c['relevance_by']}), cosine {c['cosine']:.3f}, claim mass "
            f"{c['claim_mass']:.3f}; stands for {c['members']} of {c['pool']} candidates"
        )


def show_pairs(
    conn: Connection,
    claim: str,
    *,
    k: int,
    settings: PairSettings,
    explain: bool,
    as_json: bool,
) -> None:
    """``--pairs``: the best sentence pairs (:func:`argkb.sentences.answer.answer_pairs`), as
    JSON or as a person reads them: score, stance and the conclusion it supports or attacks, the
    premise's unit key, then the two sentences with the retrieved one marked ``>``."""
    from argkb.sentences.answer import answer_pairs

    embedder = None
    if settings.needs_embedder:
        one_blas_thread()
        from argkb.embed.model import Embedder

        embedder = Embedder.for_queries()
    result = answer_pairs(conn.driver(), claim, k=k, settings=settings, embedder=embedder,
                          explain=explain, database=conn.database)  # fmt: skip
    if as_json:
        click.echo(to_json(result))
        return
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if result.message:
        click.echo(result.message)
        return
    click.echo(f"query: {result.query}")
    parts = "re-ranked, one per premise" if settings.reranks else "not re-ranked"
    click.echo(f"sentence pairs ({result.model}, {parts}, top sentence + {result.pairing}):")
    for pair in result.pairs:
        where = pair.stance or "stance unknown"
        if pair.arguments:
            first = pair.arguments[0]
            conclusion = one_line(first.conclusion or first.aid, 50)
            more = f" (+{len(pair.arguments) - 1} more)" if len(pair.arguments) > 1 else ""
            where += f"; premise of '{conclusion}'{more}"
        click.echo(f"\n{pair.rank:>3}. [{pair.score:.3f}] {where}  [unit {pair.unit}]")
        for i, sentence in enumerate(pair.sentences):
            marker = ">" if i == pair.top else " "
            click.echo(textwrap.fill(" ".join(printable(sentence.text).split()), TEXT_WIDTH,
                                     initial_indent=f"     {marker} ",
                                     subsequent_indent="       "))  # fmt: skip
        if pair.explain:
            ex = pair.explain
            partner = {"next": "the next sentence", "previous": "the previous sentence",
                       "similar": "the most similar sentence of its premise",
                       "predicted": "the next-sentence model's likeliest neighbour",
                       "single": "no other (none left in its premise)"}[ex.pairing]  # fmt: skip
            terms = " + ".join(f"{ex.weights[n]:g} x {n} {ex.features[n]:.3f}" for n in ex.weights)
            click.echo(f"     {ex.model} {ex.top_score:.3f} for sentence {ex.top_position} "
                       f"(the '>' one); score = {terms}; paired with {partner}")  # fmt: skip
    timing = ", ".join(f"{k} {v * 1000:.0f}ms" for k, v in result.seconds.items())
    click.echo(f"\n({timing})")
