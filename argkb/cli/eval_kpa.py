"""``argkb eval kpa``: Track 1 of the ArgMining 2021 key point analysis shared task on ArgKP-2021
(mAP strict and relaxed; :mod:`argkb.keypoints.evaluate`), for argkb's matchers and for
shared-task prediction files. Reads the CSV files only; no Neo4j."""

from __future__ import annotations

from typing import Any

import click

from argkb.cli.app import eval_group, handle_errors, json_option, to_json

# argkb.keypoints.match.MATCHERS (not imported here: `argkb --help` stays instant)
MATCHERS = ("bm25", "cosine", "model", "cross", "ensemble")
_MATCHER_HELP = (
    "Matcher to score (repeatable; default: all, or none when --predictions is given): bm25, "
    "cosine (all-MiniLM-L6-v2 embeddings), model (argkb's matching model, trained on ArgKP "
    "train), cross (MiniLM cross-encoder with adapters trained on ArgKP train), ensemble (mean "
    "of model and cross)."
)


@eval_group.command("kpa")
@click.option(
    "--data",
    required=True,
    type=click.Path(exists=True, file_okay=False),
    help="The ArgKP-2021 directory (arguments_, key_points_, labels_<split>.csv).",
)
@click.option("--split", default="dev", show_default=True, help="The split to score.")
@click.option(
    "--matcher",
    "matchers",
    multiple=True,
    type=click.Choice(MATCHERS),
    help=_MATCHER_HELP,
)
@click.option(
    "--predictions",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A shared-task predictions file, JSON {arg_id: {kp_id: score}} (repeatable).",
)
@click.option(
    "--cross-model",
    type=click.Path(exists=True, file_okay=False),
    help="Score cross and ensemble with the cross-encoder in this folder (cross_match.safetensors "
    "and .json, as python -m argkb.keypoints.train --cross --out-dir writes them) instead of "
    "the shipped one.",
)
@click.option("--groups", is_flag=True, help="Also print the AP of each topic and stance.")
@click.option(
    "--coverage",
    is_flag=True,
    help="Also generate key points per topic and stance (argkb.keypoints.generate) and report "
    "how many gold key points they cover at k = 0.5, 1, 1.5 and 2 times the gold count.",
)
@json_option
@handle_errors
def eval_kpa_cmd(
    data: str,
    split: str,
    matchers: tuple[str, ...],
    predictions: tuple[str, ...],
    cross_model: str | None,
    groups: bool,
    coverage: bool,
    as_json: bool,
) -> None:
    """Score key point matching as the KPA 2021 shared task's Track 1 does: each argument's
    top-scoring key point (same topic and stance), average precision over the top half of those
    pairs per topic and stance, mAP strict (undecided pairs, missing from the labels file, are
    non-matches) and relaxed (they are matches). BM25 and cosine run as baselines."""
    from argkb.keypoints.evaluate import load_predictions, load_split, split_ids, track1
    from argkb.keypoints.match import Matcher, Task

    if cross_model is not None:
        _check_cross_model(cross_model)
    loaded = load_split(data, split)
    arguments, key_points, labels = split_ids(loaded)
    ids = {arg_id for group in arguments.values() for arg_id in group}
    # read before any matcher scores, so that a bad file fails before a model is loaded
    predicted = [(path, _predictions_of(load_predictions(path), path, ids, split))
                 for path in predictions]  # fmt: skip
    matcher = Matcher(Task.from_split(loaded), cross_model=cross_model)
    rows: list[dict[str, Any]] = []
    names = list(matchers) if matchers else ([] if predictions else list(MATCHERS))
    runs: list[tuple[str, Any]] = [(name, lambda n=name: matcher.scores(n)) for name in names]
    runs += [(path, lambda s=scores: s) for path, scores in predicted]
    for name, make in runs:
        click.echo(f"scoring {name} ...", err=True)
        result = track1(arguments, key_points, labels, make())
        rows.append(_result_row(name, result))
    coverage_rows: list[dict[str, Any]] = []
    arguments_matched = None
    if coverage:
        from argkb.keypoints.generate import coverage as gold_coverage

        click.echo("generating key points ...", err=True)
        found, arguments_matched = gold_coverage(matcher.task, labels, matcher.embedder())
        coverage_rows = _coverage_rows(found)
    summary = {
        "split": split,
        "arguments": sum(len(v) for v in arguments.values()),
        "key_points": sum(len(v) for v in key_points.values()),
        "labelled_pairs": len(labels),
        "groups": len(arguments),
        "results": rows,
    }
    if coverage:
        summary["coverage"] = coverage_rows
        summary["arguments_matched_at_gold_k"] = arguments_matched
    if as_json:
        click.echo(to_json(summary))
        return
    _print_results(split, summary, rows, groups=groups)
    if coverage:
        _print_coverage(coverage_rows, arguments_matched)


def _result_row(name: str, result: Any) -> dict[str, Any]:
    """One matcher's Track 1 result (:func:`argkb.keypoints.evaluate.track1`) as JSON."""
    return {
        "matcher": name,
        "map_strict": result.map_strict,
        "map_relaxed": result.map_relaxed,
        "undecided_kept": result.undecided,
        "groups": [
            {
                "topic": g.topic,
                "stance": g.stance,
                "arguments": g.arguments,
                "kept": g.kept,
                "ap_strict": g.ap_strict,
                "ap_relaxed": g.ap_relaxed,
                "undecided_kept": g.undecided_kept,
            }
            for g in result.groups
        ],
    }


def _coverage_rows(found: Any) -> list[dict[str, Any]]:
    """The gold key points covered by generated ones, one row per k factor, as JSON."""
    return [
        {
            "k_factor": row.factor,
            "generated": row.key_points,
            "gold": row.gold,
            "covered_by_label": row.covered_label,
            "covered_by_model": row.covered_model,
            "share_by_label": row.share_label,
            "share_by_model": row.share_model,
        }
        for row in found
    ]


def _print_results(
    split: str, summary: dict[str, Any], rows: list[dict[str, Any]], *, groups: bool
) -> None:
    click.echo(
        f"ArgKP {split}: {summary['arguments']} arguments, {summary['key_points']} key points, "
        f"{summary['groups']} topic-stance groups, {summary['labelled_pairs']} labelled pairs"
    )
    click.echo(f"{'matcher':<24} {'mAP strict':>10} {'mAP relaxed':>11} {'undecided':>9}")
    for row in rows:
        click.echo(
            f"{row['matcher']:<24} {row['map_strict']:>10.3f} {row['map_relaxed']:>11.3f} "
            f"{row['undecided_kept']:>9}"
        )
        if groups:
            for g in row["groups"]:
                click.echo(
                    f"  {g['stance']:<3} {g['topic'][:50]:<50} "
                    f"{g['ap_strict']:.3f} {g['ap_relaxed']:.3f} ({g['kept']} kept)"
                )


def _print_coverage(coverage_rows: list[dict[str, Any]], arguments_matched: Any) -> None:
    click.echo(
        "\ngenerated key points: gold key points covered (by label: a generated key point's "
        "source argument is labelled as matching the gold one; by model: the matching model "
        "matches the generated key point to it)"
    )
    click.echo(f"{'k':<10} {'generated':>9} {'by label':>9} {'by model':>9}")
    for row in coverage_rows:
        click.echo(
            f"{row['k_factor']:<4} x gold {row['generated']:>9} "
            f"{row['share_by_label']:>9.3f} {row['share_by_model']:>9.3f}"
        )
    click.echo(f"arguments matched to a generated key point (k = gold): {arguments_matched:.3f}")


def _predictions_of(
    scores: dict[str, dict[str, float]], path: str, ids: set[str], split: str
) -> dict[str, dict[str, float]]:
    """The predictions of ``path``, refused when none names an argument of the split (a file
    for another split would otherwise score mAP 0)."""
    from argkb.errors import LoadError

    if not ids.intersection(scores):
        raise LoadError(path, "arg_id", f"no argument id of the {split} split is predicted")
    return scores


def _check_cross_model(folder: str) -> None:
    """One line naming the folder and the missing files, before anything is scored."""
    from argkb.errors import ConfigError
    from argkb.keypoints.match import cross_files

    missing = [f.name for f in cross_files(folder) if not f.is_file()]
    if missing:
        raise ConfigError(f"{folder}: no {' or '.join(missing)} (python -m argkb.keypoints.train "
                          "--cross --out-dir writes them)")  # fmt: skip
