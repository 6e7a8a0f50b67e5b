"""Fit the stance model (P(pro) of a premise towards its conclusion); measure it on held-out topics.

    python -m bench train_stance --data ../shared/data [--write]

Reads the labelled pairs of ArgKP-2021 (train and dev), Webis-ArgQuality-20 and the AIF maps
(QT30, microtexts) through argkb's loaders (:mod:`argkb.stance.data`), embeds every distinct text
once with all-MiniLM-L6-v2 (argkb's embedding cache keeps them), and then:

1. *choice*: every feature set and regularisation below, scored leave-topics-out on ArgKP *train*
   (6 folds of 4 topics; trained on the other train topics plus ArgQuality and AIF) — the
   configuration is chosen here, without looking at the test sets;
2. *report*: the chosen configuration, and two simpler ones for comparison (lexical cues only;
   product and difference without the contrast), on the topic-disjoint test splits of
   :func:`argkb.stance.evaluate.held_out` (ArgKP dev, ArgQuality and AIF leave-topics/maps-out);
3. with ``--write``, the chosen configuration fitted on all training data (ArgKP train,
   ArgQuality, AIF; never ArgKP dev) goes to ``argkb/stance/stance_model.json`` with these
   numbers as its provenance;
4. the stance-alignment estimator (:mod:`argkb.stance.alignment`): its two weights fitted on
   the paraphrase/negation pairs and key points of the 24 ArgKP *train* topics
   (:mod:`argkb.stance.alignment_data`), scored on ArgKP dev and ArgQuality topics; with
   ``--write`` saved to ``argkb/stance/alignment_model.json``.

``--alignment-only`` skips 1-3.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path
from typing import Any

# (name, feature blocks, l2, training datasets or None for all)
Config = tuple[str, tuple[str, ...], float, tuple[str, ...] | None]
EMB = ("product", "difference", "contrast", "premise", "lexical")
ORI = ("oriented", "lexical", "oriented_lexical")
NO_AIF = ("argkp", "argquality")
CONFIGS: list[Config] = [
    ("lexical only", ("lexical",), 1.0, None),
    ("product+difference", ("product", "difference", "lexical"), 100.0, None),
    ("product+difference+contrast", ("product", "difference", "contrast", "lexical"), 100.0, None),
    ("pair blocks (product, difference, contrast, premise), l2=300", EMB, 300.0, None),
    ("pair blocks, l2=300, no AIF", EMB, 300.0, NO_AIF),
    ("oriented, l2=100", ORI, 100.0, None),
    ("oriented, l2=300", ORI, 300.0, None),
    ("oriented, l2=300, no AIF", ORI, 300.0, NO_AIF),
    ("oriented + product, l2=300, no AIF", ("product", *ORI), 300.0, NO_AIF),
    ("oriented + pair blocks, l2=300, no AIF", (*EMB, "oriented", "oriented_lexical"), 300.0,
     NO_AIF),
]  # fmt: skip
TEST_ALSO = ("lexical only", "product+difference")  # scored on the test splits besides the choice


def describe(train_on: tuple[str, ...] | None) -> str:
    """The training data of a configuration, for the model's provenance."""
    names = {
        "argkp": "IBM ArgKP-2021 train (24 topics)",
        "argquality": "Webis-ArgQuality-20 (20 topics)",
        "aif": "AIF maps (QT30, microtexts) RA/CA",
    }
    used = [names[d] for d in names if train_on is None or d in train_on]
    return ", ".join(used) + "; never ArgKP dev"


def read_all(data: Path) -> list[Any]:
    from argkb.stance.data import read_pairs

    pairs = read_pairs("argkp", data / "argkp-2021")
    pairs += read_pairs("argquality", data / "webis-argquality-20")
    pairs += read_pairs("aif", data / "qt30-aif")
    pairs += read_pairs("aif", data / "microtexts-aif" / "cases")
    return pairs


def choose(pairs: list[Any], columns: Any) -> tuple[dict[str, Any], Config]:
    """Step 1: every configuration leave-topics-out on ArgKP train; the scores (validation, and
    an empty dict for the test splits) and the most accurate configuration."""
    from argkb.stance.evaluate import held_out, logistic_fitter

    results: dict[str, Any] = {}
    print("| configuration | ArgKP train, leave-topics-out accuracy | macro-F1 |\n|---|---|---|")
    for name, blocks, l2, train_on in CONFIGS:
        valid = held_out(pairs, columns(blocks), logistic_fitter(l2), train_on=train_on,
                         validation=True)[0]  # fmt: skip
        results[name] = (valid, {})
        print(f"| {name} | {valid.accuracy:.3f} | {valid.macro_f1:.3f} |", flush=True)
    chosen = max(CONFIGS, key=lambda c: results[c[0]][0].accuracy)
    return results, chosen


def report_tests(pairs: list[Any], columns: Any, results: dict[str, Any], chosen: Config) -> None:
    """Step 2: the chosen configuration and those of ``TEST_ALSO`` on the test splits (stored
    in ``results``), then the majority-class baselines."""
    from argkb.stance.evaluate import held_out, logistic_fitter

    print("\n| configuration | ArgKP dev acc / F1 | ArgQuality acc / F1 | AIF acc / F1 |")
    print("|---|---|---|---|")
    for name, blocks, l2, train_on in CONFIGS:
        if name not in TEST_ALSO and name != chosen[0]:
            continue  # the test splits cost 11 fits per configuration
        rows = held_out(pairs, columns(blocks), logistic_fitter(l2), train_on=train_on)
        test = {r.dataset: r for r in rows}
        results[name] = (results[name][0], test)
        cells = " | ".join(
            f"{test[d].accuracy:.3f} / {test[d].macro_f1:.3f}"
            for d in ("argkp", "argquality", "aif")
        )
        print(f"| {name} | {cells} |", flush=True)
    print("\nmajority class (test set's own):", ", ".join(
        f"{d} {r.majority:.3f} (macro-F1 {r.majority_macro_f1:.3f}, n={r.pairs}, topics={r.topics})"
        for d, r in results[chosen[0]][1].items()))  # fmt: skip


def write_model(
    pairs: list[Any], columns: Any, results: dict[str, Any], chosen: Config, embedder: Any
) -> None:
    """Step 3: the chosen configuration fitted on all training data, saved with its scores."""
    import numpy as np

    from argkb.stance.model import MODEL_FILE, StanceModel

    name, blocks, l2, train_on = chosen
    keep = [
        i for i, p in enumerate(pairs)
        if not (p.dataset == "argkp" and p.split == "dev")
        and (train_on is None or p.dataset in train_on)
    ]  # fmt: skip
    labels = np.asarray([p.pro for p in pairs])[keep]
    model = StanceModel.fit(columns(blocks)[keep], labels, blocks, l2=l2)
    valid, test = results[name]
    model.long_text = embedder.long_text
    model.trained_on = {
        "data": describe(train_on),
        "train_datasets": list(train_on or ("argkp", "argquality", "aif")),
        "date": datetime.date.today().isoformat(),
        "pairs": len(keep),
        "pro": int(labels.sum()),
        "configuration": name,
        "l2": l2,
        "chosen_by": "accuracy, leave-topics-out on ArgKP train (6 folds)",
        "argkp_train_lto_accuracy": round(valid.accuracy, 4),
        "held_out": {
            d: {
                "split": r.split,
                "accuracy": round(r.accuracy, 4),
                "macro_f1": round(r.macro_f1, 4),
                "majority": round(r.majority, 4),
            }
            for d, r in test.items()
        },
        "script": "bench/train_stance.py",
    }
    model.save(MODEL_FILE)
    print(f"wrote {MODEL_FILE}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared/data folder")
    parser.add_argument("--write", action="store_true", help="save the chosen model")
    parser.add_argument("--alignment-only", action="store_true", help="only step 4")
    args = parser.parse_args()
    if args.alignment_only:
        from argkb.embed.model import Embedder

        return train_alignment(args.data, Embedder(), args.write)

    import numpy as np

    from argkb.embed.model import Embedder
    from argkb.stance.evaluate import pair_matrix
    from argkb.stance.features import BLOCKS, WIDTHS

    started = time.perf_counter()
    pairs = read_all(args.data)
    embedder = Embedder()
    full = pair_matrix(embedder, pairs, BLOCKS)  # every block once; configs take columns
    print(f"{len(pairs)} pairs, features in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    offsets, at = {}, 0
    for block in BLOCKS:
        offsets[block] = (at, at + WIDTHS[block])
        at += WIDTHS[block]
    assert at == full.shape[1]

    def columns(blocks: tuple[str, ...]) -> Any:
        return full[:, np.concatenate([np.arange(*offsets[b]) for b in blocks])]

    results, chosen = choose(pairs, columns)
    report_tests(pairs, columns, results, chosen)
    print(f"\nchosen on ArgKP train folds: {chosen[0]}")
    if args.write:
        write_model(pairs, columns, results, chosen, embedder)
    return train_alignment(args.data, embedder, args.write)


def train_alignment(data: Path, embedder: Any, write: bool) -> int:
    """Step 4: fit the alignment weights on ArgKP train topics, score on the test topics."""
    import numpy as np

    from argkb.eval.stance import alignment_scores, prewarm
    from argkb.stance.alignment import (
        ALIGNMENT_FILE,
        AlignmentModel,
        StanceAligner,
        alignment_features,
    )
    from argkb.stance.alignment_data import argkp_topics, topic_pairs
    from argkb.stance.model import fit_logistic

    topics, kps = argkp_topics(data / "argkp-2021", "train")
    train = topic_pairs(topics) + kps
    prewarm(embedder, train)
    x = np.asarray([alignment_features(embedder, p.query, [p.claim])[0] for p in train])
    y = np.asarray([p.aligned for p in train])
    weights, _ = fit_logistic(x, y, l2=1.0, intercept=False)
    model = AlignmentModel(weights.tolist())
    print(f"\nalignment: {len(train)} training pairs, weights {np.round(weights, 3)}")
    sources = {"argkp": [data / "argkp-2021"], "argquality": [data / "webis-argquality-20"]}
    aligner = StanceAligner(embedder, model)
    scores = alignment_scores(embedder, sources, aligner=aligner)
    print("| pairs | n | aligned share | accuracy | macro-F1 | AUC |\n|---|---|---|---|---|---|")
    for a in scores:
        auc = "" if a.auc is None else f"{a.auc:.3f}"
        print(f"| {a.kind} | {a.pairs} | {a.aligned_share:.3f} | {a.accuracy:.3f} "
              f"| {a.macro_f1:.3f} | {auc} |")  # fmt: skip
    if write:
        model.trained_on = {
            "data": "paraphrase/negation pairs and key points of the 24 IBM ArgKP-2021 train "
            "topics (argkb.stance.alignment_data)",
            "date": datetime.date.today().isoformat(),
            "pairs": len(train),
            "held_out": {a.kind: {"pairs": a.pairs, "accuracy": round(a.accuracy, 4),
                                  "macro_f1": round(a.macro_f1, 4),
                                  "auc": None if a.auc is None else round(a.auc, 4)}
                         for a in scores},
            "script": "bench/train_stance.py",
        }  # fmt: skip
        model.save(ALIGNMENT_FILE)
        print(f"wrote {ALIGNMENT_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
