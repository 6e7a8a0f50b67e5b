"""``argkb update``: bring a loaded graph up to date by running only the stale pipeline steps.

The work is :func:`argkb.pipeline.update`; this command prints what it found or did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from argkb.cli.app import Connection, connection_options, handle_errors, json_option, main, to_json
from argkb.cli.progress import progress_for

if TYPE_CHECKING:
    from argkb.pipeline import UpdateReport


@main.command("update")
@connection_options
@click.option("--dry-run", is_flag=True, help="Only say which steps are stale; change nothing.")
@click.option(
    "--stance",
    "with_stance",
    is_flag=True,
    help="Also run 'argkb stance' when premises of unknown stance have no prediction.",
)
@json_option
@handle_errors
def update_cmd(conn: Connection, dry_run: bool, with_stance: bool, as_json: bool) -> None:
    """Bring a loaded graph up to date: run only the stale steps of the pipeline.

    \b
    Pipeline: load -> embed -> cluster -> pagerank [-> stance] -> query.
    After 'argkb load' (a first corpus or one more), this runs in order, each
    only if 'argkb status' shows it stale, with the defaults of its command:
      argkb embed            units without a vector (the bundled model)
      argkb sentences        premises not split into sentences, or changed since
                             (needs only a load; for sentence-pair answers)
      argkb cluster          units without a cluster; interrupted runs again
      argkb pagerank --warm  units without PageRank, arguments without relevance
      argkb stance           with --stance: premises of unknown stance

    A step that needs other options (another model, cut or PageRank variant) is run by its
    own command. An unfinished load is refused: only 'argkb load' can complete it. Progress
    goes to stderr, one 'update:' line per step.
    """
    from argkb.pipeline import update

    report = update(conn.driver(), conn.database, with_stance=with_stance, dry_run=dry_run,
                    progress=progress_for(as_json))  # fmt: skip
    _print(report, as_json)


def _print(report: UpdateReport, as_json: bool) -> None:
    from argkb.pipeline import describe

    if as_json:
        click.echo(to_json({"dry_run": report.dry_run, "initialised": report.initialised,
                            "steps": report.steps}))  # fmt: skip
        return
    ran = [r.step for r in report.steps if r.ran]
    if report.dry_run:
        stale = [r for r in report.steps if r.stale]
        for r in stale:
            click.echo(f"{r.step}: {describe(r.stale)}")
        later = " (later steps may find more once earlier ones have run)" if stale else ""
        click.echo(
            ("would run: " + ", ".join(r.step for r in stale) + later)
            if stale
            else "up to date: nothing to run"
        )
        return
    click.echo(f"updated: ran {', '.join(ran)}" if ran else "up to date: nothing to run")
