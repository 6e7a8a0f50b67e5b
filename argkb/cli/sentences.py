"""``argkb sentences``: split premises into sentence nodes (argkb.sentences.store)."""

from __future__ import annotations

import dataclasses

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    to_json,
    warn_unfinished_loads,
)
from argkb.cli.progress import progress_for


@main.command("sentences")
@connection_options
@click.option("--all", "all_units", is_flag=True, help="Split every premise again.")
@click.option(
    "--embed",
    is_flag=True,
    help="Also embed the sentences without a vector (all-MiniLM-L6-v2; a vector index "
    "sentence_embedding): the sentence-pair pipeline's sentence features and next-sentence "
    "pairing read them. Costs about as long as 'argkb embed' over the same text.",
)
@json_option
@handle_errors
def sentences_cmd(conn: Connection, all_units: bool, embed: bool, as_json: bool) -> None:
    """Split premises into sentences: (:Sentence)-[:IN]->(:Premise), NEXT between neighbours.

    A step after 'argkb load' (no model needed; 'argkb update' runs it when stale). Splits only
    premises never split, split by an older argkb's splitter, or whose text changed since (--all:
    every premise). The sentences get a full-text index (sentence_text) for sentence-pair
    retrieval; with --embed, vectors too.
    """
    from argkb.pipeline import embed_sentence_vectors, split_sentences

    driver = conn.driver()
    warn_unfinished_loads(conn)
    run = split_sentences(driver, conn.database, all_units=all_units,
                          progress=progress_for(as_json))  # fmt: skip
    embedded = None
    if embed:
        vectors = embed_sentence_vectors(driver, conn.database, progress=progress_for(as_json))
        embedded = {"sentences": vectors.units, "seconds": vectors.seconds, "model": vectors.model}
    if as_json:
        click.echo(to_json({**dataclasses.asdict(run), "embedded": embedded}
                           if embed else run))  # fmt: skip
        return
    if not run.premises:
        click.echo(
            "sentences: nothing to split, no premise is new or changed since the last run "
            "(--all splits every one again)"
        )
    else:
        rate = run.premises / run.seconds if run.seconds else 0.0
        click.echo(
            f"split {counted(run.premises, 'premise')} into {counted(run.sentences, 'sentence')} "
            f"in {run.seconds:.1f} s ({rate:,.0f} premises/s; splitting {run.split_seconds:.1f} s)"
        )
    if embedded is not None:
        click.echo(f"embedded {embedded['sentences']:,} sentences in {embedded['seconds']:.1f} s")
