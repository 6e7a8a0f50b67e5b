"""``argkb eval argrank``: Table 2 of Wachsmuth, Stein & Ajjour (EACL 2017) on Webis-ArgRank-17."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, get_args

import click

from argkb.cli.app import (
    Connection,
    FiniteRange,
    connection_options,
    echo_err,
    eval_group,
    handle_errors,
    json_option,
    output_folder,
    to_json,
)
from argkb.cli.data import check_device
from argkb.cli.progress import Bar, closing, end_bar, open_bar
from argkb.eval.argrank.scoring import PagerankNorm
from argkb.rank.pagerank import Shared

if TYPE_CHECKING:
    from argkb.embed.model import Embedder
    from argkb.eval.argrank.report import ArgRankReport


@eval_group.command("argrank")
@connection_options
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="The Webis-ArgRank-17 directory (groundtruth.json, ground-truth-list.csv, "
    "unit-source-list.csv).",
)
@click.option(
    "--alpha",
    type=FiniteRange(0, 1, min_open=True, max_open=True),
    default=0.85,
    show_default=True,
    help="PageRank damping (the paper does not state its value).",
)
@click.option(
    "--shared",
    type=click.Choice(get_args(Shared)),
    default="pool",
    show_default=True,
    help="pool: a conclusion's score is shared by all premise slots of its arguments alike "
    "(matches the paper's released scores); split: among its arguments, then their premises "
    "(argkb pagerank's default).",
)
@click.option(
    "--pagerank-norm",
    type=click.Choice(get_args(PagerankNorm)),
    default="maps",
    show_default=True,
    help="maps: a premise's PageRank divided by its frequency (number of AIFdb maps), which "
    "matches the paper's released scores; none: plain PageRank.",
)
@click.option(
    "--seeds",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Random draws averaged for the Random row (0: no Random row).",
)
@click.option(
    "--content/--no-content",
    default=True,
    show_default=True,
    help="Add the structure + content rows (loads the embedding model).",
)
@click.option(
    "--model",
    "model_path",
    type=click.Path(exists=True, file_okay=False),
    help="A local sentence-transformers folder (default: all-MiniLM-L6-v2, bundled).",
)
@click.option(
    "--device",
    callback=lambda _ctx, _param, value: check_device(value),
    help="cpu, cuda, ... for the embedding model (default: a GPU if any).",
)
@click.option(
    "--variants/--no-variants",
    default=True,
    show_default=True,
    help="Also score PageRank variants (dangling, shared conclusions, alpha, ...) in process.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    callback=output_folder,
    default="argkb-eval/argrank",
    show_default=True,
    help="Where table.md and results.json are written.",
)
@json_option
@handle_errors
def eval_argrank_cmd(
    conn: Connection,
    data: str,
    alpha: float,
    shared: Shared,
    pagerank_norm: PagerankNorm,
    seeds: int,
    content: bool,
    model_path: str | None,
    device: str | None,
    variants: bool,
    out_dir: str,
    as_json: bool,
) -> None:
    """Reproduce Table 2 of "PageRank for Argument Relevance" (EACL 2017).

    Loads the Webis-ArgRank-17 graph (once; later runs reuse it), computes argument PageRank in
    Neo4j, and ranks the arguments of each of the 32 benchmark conclusions by PageRank,
    Frequency, Similarity, Most premises and Random under min / avg / max / sum aggregation:
    mean Kendall's tau against the experts' ranking, and how often each approach is best /
    worst. Prints the table next to the paper's and writes table.md and results.json to --out.
    """
    from argkb.eval.argrank import evaluate_argrank, read_benchmark

    if not content and (model_path or device):  # they would be ignored without a word
        raise click.UsageError("--model and --device are for the content rows: drop --no-content")
    read_benchmark(data)  # a wrong folder fails before connecting

    bars: list[Bar] = []  # the load's progress bar, open while records are written

    def progress(count: int) -> None:
        if as_json:
            return
        if not bars:
            bars.append(open_bar("load argrank", " rec"))
        bars[0].update(count)

    def close_bars(ok: bool = True) -> None:
        while bars:
            end_bar(bars.pop(), ok=ok)

    def status(message: str) -> None:
        close_bars()
        if not as_json:
            echo_err(message)

    embedder = _embedder(model_path, device) if content else None
    embed = embedder.embed if embedder is not None else None
    method = _content_method(embedder) if embedder is not None else {}
    with closing(close_bars):
        report = evaluate_argrank(
            conn.driver(),
            data,
            database=conn.database,
            alpha=alpha,
            shared=shared,
            seeds=seeds,
            pagerank_norm=pagerank_norm,
            embed=embed,
            content_method=method,
            variants=variants,
            echo=status,
            progress=progress,
        )
    if content and embedder is not None:
        report.content_method["device"] = embedder.device
    text, payload, out = _write_report(report, Path(out_dir))
    if as_json:
        click.echo(payload)
        return
    click.echo(text, nl=False)
    status(f"wrote {out / 'table.md'} and {out / 'results.json'}")


def _embedder(model_path: str | None, device: str | None) -> Embedder:
    from argkb.embed.model import Embedder

    return Embedder(model_path, device=device)


def _content_method(embedder: Embedder) -> dict[str, str]:
    """What the structure + content rows were computed with, recorded in the report."""
    return {
        "model": embedder.model_id,
        "similarity_texts": "original AIFdb texts, one per premise, and the conclusion's",
        "length_text": "Corrected premises text (what the experts read)",
    }


def _write_report(report: ArgRankReport, out: Path) -> tuple[str, str, Path]:
    """Write table.md and results.json to ``out``; the Markdown, the JSON and ``out``."""
    from argkb.eval.argrank import markdown_report

    text = markdown_report(report)
    payload = to_json(report)
    out.mkdir(parents=True, exist_ok=True)
    (out / "table.md").write_text(text, encoding="utf-8")
    (out / "results.json").write_text(payload + "\n", encoding="utf-8")
    return text, payload, out
