"""``argkb load|embed``: the first two steps of the pipeline, over :mod:`argkb.pipeline`.

``argkb init``, ``argkb status``, ``argkb db clear`` and ``argkb db drop`` are in
:mod:`argkb.cli.database`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, get_args

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    counted,
    echo_err,
    handle_errors,
    json_option,
    main,
    to_json,
    warn_unfinished_loads,
)
from argkb.cli.progress import progress_for
from argkb.embed.model import Backend, LongText
from argkb.ingest import DEFAULT_BATCH, DEFAULT_MAX_TEXT, OnError
from argkb.loaders.aif import DEFAULT_ZIP_LIMITS, MAX_UNZIPPED_MIB

if TYPE_CHECKING:
    from argkb.embed.store import EmbedRun
    from argkb.ingest import LoadSummary

# -- checks of options ---------------------------------------------------------------------------


def _writable_file(value: str | None) -> str | None:
    """``value`` if a file can be created there: its folder exists and is writable."""
    if value is None:
        return None
    import os
    from pathlib import Path

    folder = Path(value).parent
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"folder {str(folder)!r} is not writable")
    return value


def check_device(value: str | None) -> str | None:
    """``value`` if torch knows the device and it is present (one line otherwise, no traceback)."""
    if value is None:
        return None
    import torch

    try:
        device = torch.device(value)
    except (RuntimeError, ValueError):
        raise click.BadParameter(f"unknown device {value!r} (cpu, cuda, cuda:1, mps ...)") from None
    present: dict[str, Callable[[], bool]] = {
        "cuda": torch.cuda.is_available,
        "mps": torch.backends.mps.is_available,
    }
    if device.type in present and not present[device.type]():
        raise click.BadParameter(f"device {value!r}: this machine has no {device.type} device")
    gpus = torch.cuda.device_count() if device.type == "cuda" else 0
    if device.type == "cuda" and device.index is not None and device.index >= gpus:
        raise click.BadParameter(f"device {value!r}: this machine has {gpus} GPU(s)")
    return value


# -- load --------------------------------------------------------------------------------------


def _format_choice() -> click.Choice:
    from argkb.loaders import FORMATS

    return click.Choice(sorted(FORMATS))


@main.command("load")
@connection_options
@click.argument("fmt", metavar="FORMAT", type=_format_choice())
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option(
    "--on-error",
    type=click.Choice(get_args(OnError)),
    default="fail",
    show_default=True,
    help="fail: stop at the first bad record; skip: report bad records, load the rest.",
)
@click.option(
    "--reject-report",
    type=click.Path(dir_okay=False),
    callback=lambda _ctx, _param, value: _writable_file(value),
    help="Where --on-error skip writes rejected records (JSONL).",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=DEFAULT_BATCH,
    show_default=True,
    help="Records per write transaction.",
)
@click.option(
    "--max-text",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_TEXT,
    show_default=True,
    help="Reject units longer than this many characters.",
)
@click.option(
    "--max-unzipped",
    type=click.IntRange(min=1),
    default=MAX_UNZIPPED_MIB,
    show_default=True,
    metavar="MIB",
    help="Refuse a zip member that decompresses to more MiB than this (aif zips).",
)
@click.option(
    "--max-zip-ratio",
    type=FiniteRange(min=1),
    default=DEFAULT_ZIP_LIMITS.ratio,
    show_default=True,
    help="Refuse a zip member over 1 MiB compressed more than this many to one (a zip bomb).",
)
@click.option("--force", is_flag=True, help="Write again even if this content was loaded.")
@click.option("--no-init", is_flag=True, help="Do not create the schema first.")
@click.option(
    "--bulk/--no-bulk",
    default=None,
    help="Build the full-text indexes after the load instead of during it (faster; full-text "
    "queries find nothing meanwhile). Default: bulk for a large input into an empty graph.",
)
@json_option
@handle_errors
def load_cmd(
    conn: Connection,
    fmt: str,
    paths: tuple[str, ...],
    on_error: OnError,
    reject_report: str | None,
    batch_size: int,
    max_text: int,
    max_unzipped: int,
    max_zip_ratio: float,
    force: bool,
    no_init: bool,
    bulk: bool | None,
    as_json: bool,
) -> None:
    """Load a corpus into Neo4j: FORMAT is one of the loaders, PATHS its files or folders.

    First step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query);
    needs nothing before it. Afterwards run 'argkb embed', 'argkb cluster', 'argkb pagerank', or
    'argkb update' for all of them.

    \b
    Formats:
      argsme      args.me corpus: JSON dump or JSONL
      jsonl       generic JSONL, one argument per line (docs/formats.md)
      aif         AIF argument maps: AIFdb or OVA JSON; file, directory or zip
      argkp       IBM ArgKP-2021 directory (arguments, key points, labels)
      argquality  Webis-ArgQuality-20 directory
      argrank     Webis-ArgRank-17 directory (graph + benchmark)
      sigir19     Webis SIGIR-19 argument search study directory (judged args.me)

    Loading the same files again changes nothing; a load that was interrupted (Ctrl-C, killed,
    Neo4j stopped) is completed by running it again. A load that fails on bad input leaves the
    graph as it was. Structure a format allows but argkb does not model (e.g. an AIF inference
    whose premise is a locution) is left out with a warning that counts it.
    """
    from pathlib import Path

    from argkb.pipeline import load

    try:
        summary = load(
            conn.driver(),
            conn.database,
            fmt,
            list(paths),
            init=not no_init,
            on_error=on_error,
            reject_report=Path(reject_report) if reject_report else None,
            batch_size=batch_size,
            max_text=max_text,
            max_unzipped_mib=max_unzipped,
            max_zip_ratio=max_zip_ratio,
            force=force,
            bulk=bulk,
            progress=progress_for(as_json, mininterval=0.5),
        )
    except KeyboardInterrupt as err:  # click would say only "Aborted!"
        from argkb.errors import LoadInterrupted

        echo_err(
            "Error: interrupted: what was written stays, its corpus marked 'loading' ('argkb "
            "status' lists it); run the same 'argkb load' again to complete it"
            if isinstance(err, LoadInterrupted)
            else "Error: interrupted before anything was written: the graph is unchanged"
        )
        raise SystemExit(130) from None  # as a process ended by SIGINT (128 + 2)
    if as_json:
        click.echo(to_json(summary))
        return
    _print_load(summary)


def _print_load(summary: LoadSummary) -> None:
    """What ``argkb load`` prints: the corpus's counts, rejected and left-out records, time."""
    if summary.already_loaded:
        click.echo(f"{summary.corpus}: already loaded (use --force to write again)")
    undercuts = f" ({counted(summary.undercuts, 'undercut')})" if summary.undercuts else ""
    click.echo(
        f"corpus {summary.corpus}: {counted(summary.arguments, 'argument')}{undercuts}, "
        f"{counted(summary.units, 'unit')}, {counted(summary.reuse_edges, 'reuse edge')}, "
        f"{counted(summary.sources, 'source')}, {counted(summary.links, 'link')}, "
        f"{summary.rejected:,} rejected"
    )
    if summary.shared:
        click.echo(
            f"{counted(summary.shared, 'argument')} {'was' if summary.shared == 1 else 'were'} "
            "loaded before by another corpus, with the same "
            "id and content: left to it"
        )
    if summary.rejected and not summary.already_loaded:  # else: counts of the earlier load
        report = f" written to {summary.reject_report}" if summary.reject_report else ""
        click.echo(f"rejected records{report}; first ones:")
        for line in summary.rejected_examples:
            click.echo(f"  {line}")
    for other, arguments in summary.same_names.items():
        click.echo(
            f"warning: corpus {other}, loaded before from files of the same names, holds "
            f"{counted(arguments, 'argument')} this input does not; they "
            f"stay in the graph while it is loaded ('argkb db drop {other}' removes it, then "
            "run 'argkb update')",
            err=True,
        )
    if summary.left_out:
        counts = ", ".join(f"{n:,} {kind}" for kind, n in sorted(summary.left_out.items()))
        click.echo(
            f"warning: left out {sum(summary.left_out.values()):,} structures argkb does not "
            f"model ({counts}); first ones:",
            err=True,
        )
        for line in summary.left_out_examples:
            click.echo(f"  {line}", err=True)
    if summary.seconds.get("total"):
        timing = ", ".join(f"{k} {v:.1f}s" for k, v in summary.seconds.items())
        click.echo(f"time: {timing}")


# -- embed -------------------------------------------------------------------------------------


@main.command("embed")
@connection_options
@click.option(
    "--model",
    "model_path",
    type=click.Path(exists=True, file_okay=False),
    help="A local sentence-transformers folder (default: all-MiniLM-L6-v2, bundled).",
)
@click.option(
    "--long-text",
    type=click.Choice(get_args(LongText)),
    default="sentences",
    show_default=True,
    help="How texts longer than the model are embedded (sentences: best on ArgQuality-20, "
    "docs/evaluation.md).",
)
@click.option("--all", "all_units", is_flag=True, help="Re-embed units that have a vector.")
@click.option(
    "--backend",
    type=click.Choice(get_args(Backend)),
    help="torch (sentence-transformers), or ONNX Runtime on the CPU: onnx (same vectors), "
    "onnx-int8 (faster, close vectors; docs/benchmarks.md). Default: $ARGKB_EMBED_BACKEND, "
    "else torch. Queries (argkb query, argkb serve) use $ARGKB_EMBED_BACKEND if set, else onnx "
    "(fp32) where onnxruntime is installed, else torch; fp32 onnx computes torch's vectors, so "
    "vectors stored by torch or onnx answer alike (a query's vector is only close to "
    "onnx-int8's unless the variable names onnx-int8 for queries too).",
)
@click.option(
    "--device",
    callback=lambda _ctx, _param, value: check_device(value),
    help="cpu, cuda, ... (default: a GPU when present).",
)
@json_option
@handle_errors
def embed_cmd(
    conn: Connection,
    model_path: str | None,
    long_text: LongText,
    all_units: bool,
    backend: Backend | None,
    device: str | None,
    as_json: bool,
) -> None:
    """Embed unit texts (cached by text hash) and store vectors for the vector indexes.

    Second step of the pipeline (load -> embed -> cluster -> pagerank [-> stance] -> query):
    needs 'argkb load' first; 'argkb cluster' and 'argkb query' need its vectors. Embeds only
    units without a vector (--all: every unit).
    """
    from argkb.embed.model import Embedder
    from argkb.pipeline import embed, prepare_query_model

    progress = progress_for(as_json)
    driver = conn.driver()
    warn_unfinished_loads(conn)
    embedder = Embedder(model_path, long_text=long_text, device=device, backend=backend)
    run = embed(driver, conn.database, embedder, all_units=all_units, progress=progress)
    # what the first `argkb query` would otherwise make (and wait for): its model's ONNX graph
    run.query_model = prepare_query_model(progress)
    if as_json:
        click.echo(to_json(run))
        return
    _print_embed(run)


def _print_embed(run: EmbedRun) -> None:
    """What ``argkb embed`` prints: what it embedded, or that there was nothing to embed (it
    said "embedded 0 units with ... on - in 0.1 s (0 units/s), and the negations of 0 claims")."""
    negations = f"the negations of {counted(run.negations, 'claim')} (for stance alignment)"
    if run.units:
        rate = run.units / run.seconds if run.seconds else 0.0
        click.echo(
            f"embedded {counted(run.units, 'unit')} with {run.model} on {run.device} "
            f"in {run.seconds:.1f} s ({rate:,.0f} units/s), and {negations}"
        )
    elif run.negations:
        click.echo(f"every unit has a vector already; embedded {negations}")
    else:
        click.echo(
            "nothing to embed: every unit has a vector, and every claim's negation has one "
            "too (--all embeds every unit again)"
        )
    if run.query_model:
        click.echo(f"query model ready: {run.query_model}")
