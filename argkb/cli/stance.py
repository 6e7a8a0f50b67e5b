"""``argkb stance`` (predict unknown premise stances) and ``argkb eval stance``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from argkb.cli.app import (
    Connection,
    connection_options,
    counted,
    echo_err,
    eval_group,
    handle_errors,
    json_option,
    main,
    to_json,
    warn_unfinished_loads,
)
from argkb.cli.progress import progress_for

if TYPE_CHECKING:
    from argkb.stance.store import StanceRun


@main.command("stance")
@connection_options
@click.option("--refresh", is_flag=True, help="Also re-predict edges the model labelled before.")
@click.option(
    "--kind",
    type=click.Choice(["cross", "cross-minilm", "linear"]),
    default="cross",
    show_default=True,
    help="cross: all-mpnet-base-v2 reads conclusion and premise together (the most accurate on "
    "unseen topics; about 60 ms a short pair on a 2-core CPU); cross-minilm: the same with "
    "all-MiniLM-L6-v2 (about 8 ms); linear: a logistic regression over the two embeddings.",
)
@click.option(
    "--model",
    "model_path",
    type=click.Path(exists=True, dir_okay=False),
    help="A stance model JSON of that kind (default: the one shipped with argkb).",
)
@click.option("--device", default="cpu", show_default=True, help="torch device of the cross model.")
@json_option
@handle_errors
def stance_cmd(
    conn: Connection,
    refresh: bool,
    kind: str,
    model_path: str | None,
    device: str,
    as_json: bool,
) -> None:
    """Predict P(pro) for every premise whose stance the data left unknown.

    Optional step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query):
    needs 'argkb load' first; 'argkb query' then counts these premises as pro or con.

    Writes stance, stance_source 'model', stance_p_pro and stance_model on each such PREMISE_OF
    edge; a stance from the data (stance_source 'data') is never changed. An edge whose premise
    or conclusion has no text (possible in a graph argkb did not build) is skipped and counted:
    its stance stays unknown.
    """
    from argkb.pipeline import stance, stance_model
    from argkb.stance.store import stance_counts

    driver = conn.driver()
    warn_unfinished_loads(conn)
    model = stance_model(kind, Path(model_path) if model_path else None, device=device)
    run = stance(driver, conn.database, model=model, refresh=refresh,
                 progress=progress_for(as_json))  # fmt: skip
    counts = stance_counts(driver, conn.database)
    if as_json:
        click.echo(to_json({"run": run, "counts": counts}))
        return
    _print_stance(run, counts)


def _print_stance(run: StanceRun, counts: dict[str, int]) -> None:
    """What ``argkb stance`` prints: what it predicted (or why nothing), then the counts."""
    its = "its" if run.skipped == 1 else "their"
    no_text = f"no text in {its} premise or conclusion (empty, blank or missing)"
    if run.pending == 0:
        again = " (--refresh predicts the model's own again)" if counts["model"] else ""
        click.echo(
            f"nothing to predict: no premise edge has an unknown stance{again}; "
            "the stance model was not loaded"
        )
    elif run.pending == run.skipped:
        edges = "the edge" if run.skipped == 1 else f"the {run.skipped:,} edges"
        click.echo(
            f"nothing to predict: {edges} with an unknown stance "
            f"{'has' if run.skipped == 1 else 'have'} {no_text}, so {its} stance stays unknown; "
            "the stance model was not loaded"
        )
    else:
        click.echo(
            f"predicted {run.written:,} of {counted(run.pending, 'edge')} ({run.pro:,} pro, "
            f"{run.con:,} con) with {run.model}"
        )
        if run.skipped:
            click.echo(f"skipped {counted(run.skipped, 'edge')} with {no_text}: {its} stance "
                       "stays unknown")  # fmt: skip
    click.echo(
        f"premise stances: {counts['data']:,} from data, {counts['model']:,} from the model, "
        f"{counts['unknown']:,} unknown"
    )


@eval_group.command("stance")
@click.option(
    "--data",
    type=click.Path(exists=True, file_okay=False),
    help="A folder with argkp-2021/, webis-argquality-20/, qt30-aif/, microtexts-aif/, "
    "webis-sigir19-dev/ (any of them).",
)
@click.option("--argkp", type=click.Path(exists=True), help="ArgKP-2021 folder.")
@click.option("--sigir19", type=click.Path(exists=True), help="SIGIR-19 judgements folder.")
@click.option("--argquality", type=click.Path(exists=True), help="Webis-ArgQuality-20 folder.")
@click.option("--aif", multiple=True, type=click.Path(exists=True), help="AIF maps (repeatable).")
@click.option(
    "--folds",
    type=click.IntRange(min=2),
    default=5,
    show_default=True,
    help="Leave-topics-out folds.",
)
@click.option(
    "--side-accuracy",
    is_flag=True,
    help="Also load ArgKP dev and SIGIR-19 dev into the database (as argkb eval argkp / sigir19 "
    "do) and score the side of argkb query's answers: default, bm25, cosine.",
)
@click.option(
    "--relations",
    type=click.Path(exists=True, dir_okay=False),
    help="With --side-accuracy: how each SIGIR-19 argument's conclusion relates to its biased "
    "topic's query (TSV topic, argument, relation); default: the shipped file, which covers "
    "the dev half's topics.",
)
@connection_options
@json_option
@handle_errors
def eval_stance_cmd(
    conn: Connection,
    data: str | None,
    argkp: str | None,
    sigir19: str | None,
    argquality: str | None,
    aif: tuple[str, ...],
    folds: int,
    side_accuracy: bool,
    relations: str | None,
    as_json: bool,
) -> None:
    """Stance accuracy and macro-F1 on held-out topics, against the majority class.

    ArgKP: trained without dev, tested on dev (topic-disjoint). Webis-ArgQuality-20, AIF and
    SIGIR-19 (stance towards the debate's title): leave-topics-out (maps, issues) folds. The
    shipped model's features and regularisation are refitted per fold; the shipped
    cross-encoder is scored on what it never saw (ArgKP dev, AIF, SIGIR-19), with per-topic
    accuracy; every accuracy has a 95 % interval (bootstrap over topics). The alignment
    estimator is scored on negation/paraphrase pairs of the ArgKP dev and ArgQuality topics.

    --side-accuracy also asks argkb query's default, BM25 and cosine the ArgKP dev topics and
    the SIGIR-19 dev biased topics in the connected database (loading them, idempotently, as
    argkb eval argkp and sigir19 do) and reports the share of returned premises on their gold
    side (docs/evaluation.md).
    """
    from argkb.errors import ConfigError
    from argkb.eval.stance import evaluate_all

    sources: dict[str, list[Path]] = {"argkp": [], "argquality": [], "aif": [], "sigir19": []}
    if data:
        root = Path(data)
        for name, sub in (("argkp", "argkp-2021"), ("argquality", "webis-argquality-20"),
                          ("aif", "qt30-aif"), ("aif", "microtexts-aif/cases"),
                          ("sigir19", "webis-sigir19-dev")):  # fmt: skip
            if (root / sub).exists():
                sources[name].append(root / sub)
    sources["argkp"] += [Path(argkp)] if argkp else []
    sources["sigir19"] += [Path(sigir19)] if sigir19 else []
    sources["argquality"] += [Path(argquality)] if argquality else []
    sources["aif"] += [Path(p) for p in aif]
    if not any(sources.values()):
        raise ConfigError(
            f"{data}: holds none of argkp-2021, webis-argquality-20, qt30-aif, microtexts-aif, "
            "webis-sigir19-dev" if data else
            "give --data or at least one of --argkp, --argquality, --aif, --sigir19"
        )  # fmt: skip
    if relations and not side_accuracy:
        raise click.UsageError("--relations applies to --side-accuracy only")
    side = None
    if side_accuracy:  # the input read and the server reached before the long stance run
        from argkb.eval.side_accuracy import plan

        if not sources["argkp"] and not sources["sigir19"]:
            raise ConfigError("--side-accuracy needs ArgKP-2021 or SIGIR-19 data (--data, "
                              "--argkp, --sigir19)")  # fmt: skip
        side = plan(sources, Path(relations) if relations else None)
        conn.driver()  # opening verifies the connection
    echo = None if as_json else echo_err
    report = evaluate_all(sources, folds=folds, echo=echo)
    if side is not None:
        from argkb.eval.side_accuracy import evaluate as side_evaluate

        report.side = side_evaluate(conn.driver(), side, database=conn.database, echo=echo)
    if as_json:
        click.echo(to_json(report))
        return
    click.echo(report.markdown())
