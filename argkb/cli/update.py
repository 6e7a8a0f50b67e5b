"""``argkb update``: bring a loaded graph up to date by running only the stale pipeline steps.

What is stale comes from :func:`argkb.db.staleness.stale_steps` (what ``argkb status`` shows).
The steps run in pipeline order, each with the defaults of its own command, and each is checked
again right before it runs: embedding new units gives the cluster step new units to place.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    echo_err,
    handle_errors,
    json_option,
    main,
    to_json,
)
from argkb.errors import ArgKBError

if TYPE_CHECKING:
    import neo4j


STEPS = ("embed", "sentences", "cluster", "pagerank", "stance")


@dataclass
class StepReport:
    """One pipeline step of an update: what was stale before it, whether it ran, what it did."""

    step: str
    stale: dict[str, int]  # what -> count, only the non-zero ones
    ran: bool = False
    seconds: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)


def _stale(driver: neo4j.Driver, database: str | None, step: str) -> dict[str, int]:
    """The non-zero stale counts that ``argkb <step>`` brings to 0."""
    if step == "stance":
        from argkb.stance.store import stance_counts

        unknown = stance_counts(driver, database).get("unknown", 0)
        return {"premise_edges_with_unknown_stance": unknown} if unknown else {}
    from argkb.db.staleness import stale_steps

    prefix = f"argkb {step}"
    return {
        s.what: s.count
        for s in stale_steps(driver, database)
        if s.count and (s.command == prefix or s.command.startswith(prefix + " "))
    }


def _check_loads_and_schema(driver: neo4j.Driver, database: str | None, echo: Any) -> bool:
    """Refuse a graph with an unfinished load (only the load can finish it); create missing
    constraints and indexes (``argkb init``). Returns whether the schema was created."""
    from argkb.db.schema import (
        constraints,
        incomplete_corpora,
        indexes,
        init_schema,
        missing_schema,
    )

    unfinished = incomplete_corpora(driver, database)
    if unfinished:
        load = unfinished[0]
        files = ", ".join(load["files"] or [])
        raise ArgKBError(
            f"load {load['cid']} ({files}) is {load['status']}: run the same 'argkb load' again "
            f"first, then 'argkb update'"
            + (f" ({len(unfinished) - 1} more unfinished loads)" if len(unfinished) > 1 else "")
        )
    missing = missing_schema(constraints(driver, database), indexes(driver, database))
    if not missing:
        return False
    echo(f"update: init: creating {', '.join(m['name'] for m in missing)}")
    init_schema(driver, database)
    return True


def _embed(conn: Connection, quiet: bool) -> dict[str, Any]:
    """``argkb embed`` with its defaults (the bundled model), refusing to mix models."""
    from tqdm import tqdm

    from argkb.db import cypher
    from argkb.db.schema import init_schema
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_negations, count_pending, embed_negations, embed_units

    driver = conn.driver()
    embedder = Embedder()
    others = [
        r["model"]
        for r in cypher.read(
            driver, "status/embedding_models", database=conn.database, model=embedder.model_id
        )
    ]
    if others:
        raise ArgKBError(
            f"the graph's vectors come from {others[0]}, not from argkb embed's default model "
            f"({embedder.model_id}): run 'argkb embed' with the options used before (--model, "
            "--long-text), or 'argkb embed --all' to embed everything with the default"
        )
    init_schema(driver, conn.database, dimensions=embedder.dimensions)
    total = count_pending(driver, conn.database)
    with tqdm(total=total, unit=" units", desc="embed", disable=quiet, file=sys.stderr) as bar:
        run = embed_units(driver, embedder, conn.database, progress=bar.update)
    total = count_negations(driver, conn.database)
    with tqdm(total=total, unit=" claims", desc="negations", disable=quiet,
              file=sys.stderr) as bar:  # fmt: skip
        run.negations = embed_negations(driver, embedder, conn.database, progress=bar.update)
    return {"units": run.units, "negations": run.negations, "model": run.model}


def _sentences(conn: Connection, quiet: bool) -> dict[str, Any]:
    """``argkb sentences``: split the premises not split yet (or whose text changed)."""
    from tqdm import tqdm

    from argkb.sentences.store import count_pending, ensure_schema, split_premises

    driver = conn.driver()
    ensure_schema(driver, conn.database)
    total = count_pending(driver, conn.database)
    with tqdm(total=total, unit=" premises", desc="sentences", disable=quiet,
              file=sys.stderr) as bar:  # fmt: skip
        run = split_premises(driver, conn.database, progress=bar.update)
    return {"premises": run.premises, "sentences": run.sentences}


def _cluster(conn: Connection, quiet: bool) -> dict[str, Any]:
    """``argkb cluster`` with its defaults: incremental where clusters of the same method exist
    (and the last run was not interrupted), SAME_AS edges for what changed."""
    from argkb.cli.cluster import cluster_graph

    runs, same, same_mode = cluster_graph(conn.driver(), conn.database, quiet=quiet)
    return {
        "runs": [
            {"kind": r.kind, "mode": r.mode, "reason": r.reason, "new_units": r.new_units}
            for r in runs
        ],
        "same_as_edges": same,
        "same_as_mode": same_mode,
    }


def _pagerank(conn: Connection, quiet: bool) -> dict[str, Any]:
    """``argkb pagerank --warm``: a warm start from the stored scores."""
    from argkb.rank.store import run_pagerank

    run = run_pagerank(conn.driver(), conn.database, warm=True,
                       echo=lambda m: None if quiet else echo_err(f"  {m}"))  # fmt: skip
    return {"units": run.units, "arguments": run.arguments, "iterations": run.iterations,
            "residual": run.residual}  # fmt: skip


def _stance(conn: Connection, quiet: bool) -> dict[str, Any]:
    """``argkb stance``: P(pro) for the premise edges whose stance the data left unknown."""
    from tqdm import tqdm

    from argkb.stance.store import predict_unknown

    with tqdm(unit=" edges", desc="stance", disable=quiet, file=sys.stderr) as bar:
        # the shipped model, loaded only if some edge is pending
        run = predict_unknown(conn.driver(), conn.database, progress=bar.update)
    return asdict(run)


RUNNERS = {
    "embed": _embed,
    "sentences": _sentences,
    "cluster": _cluster,
    "pagerank": _pagerank,
    "stance": _stance,
}


def _describe(stale: dict[str, int]) -> str:
    return ", ".join(f"{count:,} {what.replace('_', ' ')}" for what, count in stale.items())


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
    quiet = as_json
    say = (lambda _m: None) if quiet else echo_err
    steps = [s for s in STEPS if s != "stance" or with_stance]
    driver = conn.driver()
    reports: list[StepReport] = []
    if dry_run:
        for step in steps:
            stale = _stale(driver, conn.database, step)
            reports.append(StepReport(step, stale))
        _print(reports, as_json, dry_run=True, initialised=False)
        return
    initialised = _check_loads_and_schema(driver, conn.database, say)
    for step in steps:
        stale = _stale(driver, conn.database, step)
        report = StepReport(step, stale)
        reports.append(report)
        if not stale:
            say(f"update: {step}: up to date")
            continue
        say(f"update: {step}: {_describe(stale)}; running 'argkb {step}'")
        started = time.perf_counter()
        report.result = RUNNERS[step](conn, quiet)
        report.ran = True
        report.seconds = time.perf_counter() - started
        say(f"update: {step}: done in {report.seconds:.1f} s")
    _print(reports, as_json, dry_run=False, initialised=initialised)


def _print(reports: list[StepReport], as_json: bool, *, dry_run: bool, initialised: bool) -> None:
    if as_json:
        click.echo(to_json({"dry_run": dry_run, "initialised": initialised, "steps": reports}))
        return
    ran = [r.step for r in reports if r.ran]
    if dry_run:
        stale = [r for r in reports if r.stale]
        for r in stale:
            click.echo(f"{r.step}: {_describe(r.stale)}")
        later = " (later steps may find more once earlier ones have run)" if stale else ""
        click.echo(
            ("would run: " + ", ".join(r.step for r in stale) + later)
            if stale
            else "up to date: nothing to run"
        )
        return
    click.echo(f"updated: ran {', '.join(ran)}" if ran else "up to date: nothing to run")
