"""``argkb keypoints TOPIC``: the key points of a topic's premises, with their prevalence."""

from __future__ import annotations

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    handle_errors,
    json_option,
    main,
    one_line,
    printable,
    to_json,
)
from argkb.query.settings import MAX_QUERY_CHARS as MAX_TOPIC_CHARS  # as the HTTP API


@main.command("keypoints")
@connection_options
@click.argument("topic")
@click.option(
    "--stance",
    type=click.Choice(["pro", "con", "both"]),
    default="both",
    show_default=True,
    help="The premises of this stance towards the topic.",
)
@click.option(
    "--k",
    type=click.IntRange(1, 100),
    default=5,
    show_default=True,
    help="Key points per stance (at most).",
)
@json_option
@handle_errors
def keypoints_cmd(conn: Connection, topic: str, stance: str, k: int, as_json: bool) -> None:
    """Summarise the premises of TOPIC (the text of a conclusion in the graph, case ignored) as
    key points: short, self-contained premise sentences chosen to cover the premises, each with
    its prevalence (premises the matching model assigns to it), two examples and their sources."""
    from argkb.cli.progress import progress_for
    from argkb.embed.model import Embedder
    from argkb.errors import QueryError
    from argkb.keypoints.topic import keypoints_report, why_missing

    if not topic.strip():
        raise click.BadParameter("is empty: name a conclusion in the graph", param_hint="TOPIC")
    if len(topic) > MAX_TOPIC_CHARS:
        raise click.BadParameter(f"is {len(topic):,} characters long: name a conclusion of at "
                                 f"most {MAX_TOPIC_CHARS:,}", param_hint="TOPIC")  # fmt: skip
    try:
        driver = conn.driver()
        report = keypoints_report(driver, topic, stance, k, Embedder(), database=conn.database,
                                  progress=progress_for(as_json))  # fmt: skip
        if report is None:
            # the topic names no conclusion in the graph
            raise QueryError(why_missing(driver, topic, database=conn.database))
    finally:
        conn.close()
    if as_json:
        click.echo(to_json(report))
        return
    click.echo(f"{_flat(topic)}: {counted(report['premises'], 'premise')}")
    if report["unknown_stance"]:
        click.echo(f"({counted(report['unknown_stance'], 'premise')} of unknown stance left out: "
                   "'argkb stance' predicts their stance)")  # fmt: skip
    for name, part in report["stances"].items():
        click.echo(f"\n{name} ({counted(part['premises'], 'premise')})")
        if part["key_points"]:  # the count: premises the key point summarises (its prevalence)
            click.echo("  matched  key point")
        for row in part["key_points"]:
            click.echo(f"  {row['prevalence']:>7}  {_flat(row['key_point'])}")
            for example in row["examples"]:
                first = example["sources"][0] if example["sources"] else None
                source = f" [{_flat(first['title'] or first['sid'])}]" if first else ""
                click.echo(f"          e.g. {one_line(example['text'], 90)}{source}")


def _flat(text: str) -> str:
    """``text`` on one line: a key point is a sentence of a premise and may hold line breaks
    (and a title too), which broke the columns."""
    return " ".join(printable(text).split())
