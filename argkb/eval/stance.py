"""``argkb eval stance``: the stance model on held-out topics, and the alignment estimator."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from argkb.stance.data import StancePair
from argkb.stance.evaluate import StanceScores, topic_order

if TYPE_CHECKING:
    from argkb.eval.side_accuracy import Row
    from argkb.stance.alignment_data import AlignmentPair


@dataclass
class AlignmentScores:
    """Accuracy of P(q aligned c) >= 0.5 on one kind of pair, and the ranking check."""

    kind: str
    pairs: int
    aligned_share: float
    accuracy: float
    macro_f1: float
    auc: float | None  # P(an aligned pair scores above an opposed one); None with one class
    estimator: str = "model"  # the `alignment` setting whose estimator was scored


@dataclass
class StanceReport:
    configuration: str
    stance: list[StanceScores] = field(default_factory=list)
    shipped_argkp_dev: StanceScores | None = None
    cross: list[StanceScores] = field(default_factory=list)  # the shipped cross-encoder
    alignment: list[AlignmentScores] = field(default_factory=list)
    # the side accuracy of query answers (--side-accuracy)
    side: list[Row] = field(default_factory=list)

    def markdown(self) -> str:
        lines = [
            f"Stance model ({self.configuration}), refitted per fold; majority = the test "
            "set's own majority class; interval: 95 %, bootstrap over topics.",
            "",
            *_score_table([*self.stance, *filter(None, [self.shipped_argkp_dev])]),
        ]
        if self.cross:
            lines += [
                "",
                "The shipped cross-encoder (`argkb stance`'s default, on all-mpnet-base-v2; "
                "trained on ArgKP train and all of ArgQuality, so ArgKP dev, AIF and SIGIR-19 "
                "are unseen and ArgQuality has no held-out row):",
                "",
                *_score_table(self.cross),
            ]
            for r in self.cross:
                if r.per_topic and len(r.per_topic) <= MAX_TOPIC_ROWS:
                    lines += ["", f"The cross-encoder per topic, {r.dataset} {r.split}:", "",
                              "| topic | pairs | accuracy |", "|---|---|---|"]  # fmt: skip
                    for topic in sorted(r.per_topic, key=topic_order):
                        n, acc = r.per_topic[topic]
                        lines.append(f"| {topic} | {n} | {acc:.3f} |")
        if self.alignment:
            lines += [
                "",
                "Stance alignment P(q aligned c) >= 0.5, as `argkb query --alignment` decides it "
                "(model: weights fitted on ArgKP train topics; cross: the cross-encoder, decisions "
                "only, so its AUC ranks ties):",
                "",
                "| estimator | pairs | n | aligned share | accuracy | macro-F1 | AUC |",
                "|---|---|---|---|---|---|---|",
            ]
            for a in self.alignment:
                auc = "" if a.auc is None else f"{a.auc:.3f}"
                lines.append(
                    f"| {a.estimator} | {a.kind} | {a.pairs} | {a.aligned_share:.3f} "
                    f"| {a.accuracy:.3f} | {a.macro_f1:.3f} | {auc} |"
                )
        if self.side:
            from argkb.eval.side_accuracy import K, table

            lines += ["", f"Side accuracy of query answers (`--stance both`, {K} clusters a side; "
                      "premises on the side their gold stance says, of those judged; interval: "
                      "95 %, bootstrap over topics):", "", table(self.side)]  # fmt: skip
        return "\n".join(lines)


MAX_TOPIC_ROWS = 30
"""Per-topic tables are printed for rows of at most this many topics (all are in --json)."""


def _score_table(rows: Sequence[StanceScores]) -> list[str]:
    lines = [
        "| dataset | held out | pairs | topics | majority acc | accuracy [95 % interval] "
        "| macro-F1 | majority macro-F1 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        interval = f" [{r.interval[0]:.3f}, {r.interval[1]:.3f}]" if r.interval else ""
        lines.append(
            f"| {r.dataset} | {r.split} | {r.pairs} | {r.topics} | {r.majority:.3f} "
            f"| {r.accuracy:.3f}{interval} | {r.macro_f1:.3f} | {r.majority_macro_f1:.3f} |"
        )
    return lines


def evaluate_all(
    sources: dict[str, list[Path]],
    *,
    folds: int = 5,
    echo: Callable[[str], None] | None = None,
) -> StanceReport:
    """Held-out stance scores of every dataset given, the shipped model on ArgKP dev, and the
    alignment estimators (``model`` and ``cross``) on the alignment pairs of ArgKP dev and
    ArgQuality topics."""

    from argkb.embed.model import Embedder
    from argkb.stance.data import read_pairs
    from argkb.stance.evaluate import held_out, logistic_fitter, pair_matrix, scores_of
    from argkb.stance.model import StanceModel

    shipped = StanceModel.load()
    l2 = float(shipped.trained_on.get("l2", 100.0))
    pairs = []
    for name, paths in sources.items():
        for path in paths:
            pairs += read_pairs(name, path)
    if not pairs:
        from argkb.errors import LoadError

        named = ", ".join(str(p) for paths in sources.values() for p in paths)
        raise LoadError(named, "rows", "no labelled pro or con pair to score")
    if echo:
        echo(f"{len(pairs)} labelled pairs; embedding (cached) ...")
    embedder = Embedder(long_text=shipped.long_text)  # type: ignore[arg-type]
    x = pair_matrix(embedder, pairs, shipped.blocks)
    report = StanceReport(str(shipped.trained_on.get("configuration", shipped.blocks)))
    train_on = shipped.trained_on.get("train_datasets")
    report.stance = held_out(pairs, x, logistic_fitter(l2), folds=folds, train_on=train_on)
    dev = [i for i, p in enumerate(pairs) if p.dataset == "argkp" and p.split == "dev"]
    if dev:
        report.shipped_argkp_dev = scores_of(
            "argkp", "dev, the shipped model", [pairs[i].group for i in dev],
            [pairs[i].pro for i in dev], shipped.probability(x[dev]) >= 0.5,
        )  # fmt: skip
    report.cross = cross_scores(pairs, echo)
    report.alignment = alignment_scores(embedder, sources)
    if report.alignment:
        from argkb.query.alignment import choose_alignment
        from argkb.query.settings import DEFAULT

        cross = choose_alignment("cross", embedder, DEFAULT.cross_claims)
        rows = alignment_scores(embedder, sources, aligner=cross)
        report.alignment += [replace(row, estimator="cross") for row in rows]
    return report


def cross_scores(
    pairs: Sequence[StancePair], echo: Callable[[str], None] | None
) -> list[StanceScores]:
    """The shipped cross-encoder on the pairs it never saw (ArgKP dev, AIF, SIGIR-19). It trained
    on all of ArgQuality, so that has no row (the MiniLM model's record of five held-out folds
    is in docs/results/stance.md), and a pair whose premise text ArgQuality holds is left out
    of the others (21 of SIGIR-19 dev's 183; the split says how many, or that ArgQuality was
    not given to check against)."""
    from argkb.stance.cross import CrossStanceModel
    from argkb.stance.data import without_texts_of
    from argkb.stance.evaluate import scores_of

    model = CrossStanceModel.load()
    trained = [p for p in pairs if p.dataset == "argquality"]
    rows = []
    for name, split in (("argkp", "dev"), ("aif", "all maps (never trained on)"),
                        ("sigir19", "dev, by issue (never trained on)")):  # fmt: skip
        every = [p for p in pairs if p.dataset == name and (name != "argkp" or p.split == "dev")]
        if not every:
            continue
        test = without_texts_of(every, trained)
        if not trained:
            split += "; texts not checked against ArgQuality (not given)"
        elif len(test) < len(every):
            split += f"; {len(every) - len(test)} pairs whose text ArgQuality holds left out"
        if echo:
            echo(f"cross-encoder on {len(test)} {name} pairs ...")
        prob = model.probability([p.conclusion for p in test], [p.premise for p in test])
        rows.append(scores_of(name, split, [p.group for p in test], [p.pro for p in test],
                              prob >= 0.5))  # fmt: skip
    return rows


def alignment_scores(
    embedder: object,
    sources: dict[str, list[Path]],
    *,
    aligner: Callable[[str, list[str]], list[float]] | None = None,
) -> list[AlignmentScores]:
    """The alignment estimator (default: the shipped one) on ArgKP dev and ArgQuality topic
    pairs, by kind of pair."""
    from argkb.stance.alignment import StanceAligner
    from argkb.stance.alignment_data import (
        argkp_topics,
        argquality_topics,
        topic_pairs,
    )

    groups: dict[str, list[AlignmentPair]] = {}
    for path in sources.get("argkp", []):
        topics, kps = argkp_topics(path, "dev")
        made = topic_pairs(topics)
        groups.setdefault("ArgKP dev topics: paraphrases + negations", []).extend(made)
        for pair in made:
            groups.setdefault(f"ArgKP dev topics: {pair.kind}s only", []).append(pair)
        groups.setdefault("ArgKP dev: topic vs key point", []).extend(kps)
    for path in sources.get("argquality", []):
        made = topic_pairs(argquality_topics(path))
        groups.setdefault("ArgQuality topics: paraphrases + negations", []).extend(made)
        for pair in made:
            groups.setdefault(f"ArgQuality topics: {pair.kind}s only", []).append(pair)
    if aligner is None:
        aligner = StanceAligner(embedder)  # type: ignore[arg-type]
    prewarm(embedder, [p for pairs in groups.values() for p in pairs])
    return [score_alignment(aligner, kind, pairs) for kind, pairs in groups.items()]


def prewarm(embedder: object, pairs: Sequence[AlignmentPair]) -> None:
    """Embed every text the alignment features of ``pairs`` need, in one batch (then cached)."""
    from argkb.stance.features import negate

    texts = {t for p in pairs for t in (p.query, p.claim, negate(p.claim))}
    embedder.embed(sorted(texts))  # type: ignore[attr-defined]


def score_alignment(
    aligner: Callable[[str, list[str]], list[float]], kind: str, pairs: Sequence[AlignmentPair]
) -> AlignmentScores:
    """Accuracy and macro-F1 of ``aligner`` on alignment pairs (one call per pair)."""
    import numpy as np

    from argkb.stance.evaluate import classification_scores

    truth = np.asarray([p.aligned for p in pairs], dtype=bool)
    scores = np.asarray([aligner(p.query, [p.claim])[0] for p in pairs], dtype=np.float64)
    acc, f1 = classification_scores(truth, scores >= 0.5)
    auc = None
    if truth.any() and not truth.all():
        diff = scores[truth][:, None] - scores[~truth][None, :]
        auc = float(np.mean((diff > 0) + 0.5 * (diff == 0)))
    share = float(truth.mean()) if len(truth) else 0.0
    return AlignmentScores(kind, len(pairs), share, acc, f1, auc)
