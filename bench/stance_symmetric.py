"""Stance with the conclusion negated as well: the shipped cross-encoder, symmetrised, per dataset.

    python -m bench stance_symmetric --data ../shared/data

The cross-encoder was trained with negated conclusions and flipped labels, so it can be asked
twice: P(pro | conclusion, premise) and P(pro | not conclusion, premise). *Symmetrised* is the
mean of the first and one minus the second (no parameter). Accuracy at .5 of the plain, the
negated-and-flipped and the symmetrised answer on ArgKP dev (unseen topics), SIGIR-19 dev
(stance towards the debate's title, "Not specified" left out) and the AIF maps (microtexts and
QT30, support or attack of their conclusion; never trained on).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def datasets(data: Path) -> dict[str, tuple[list[str], list[str], list[bool]]]:
    """name -> (conclusions, premises, pro?), as ``argkb eval stance`` reads them."""
    from argkb.stance.data import read_pairs

    sets = {
        "ArgKP dev": [p for p in read_pairs("argkp", data / "argkp-2021") if p.split == "dev"],
        "SIGIR-19 dev": read_pairs("sigir19", data / "webis-sigir19-dev"),
        "microtexts-aif": read_pairs("aif", data / "microtexts-aif"),
        "qt30-aif": read_pairs("aif", data / "qt30-aif"),
    }
    return {name: ([p.conclusion for p in pairs], [p.premise for p in pairs],
                   [p.pro for p in pairs]) for name, pairs in sets.items()}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="../shared/data")
    args = parser.parse_args(argv)

    from argkb.negation import negate
    from argkb.stance.cross import SHIPPED, CrossStanceModel

    model = CrossStanceModel.load(*SHIPPED["cross-minilm"])  # the study's model
    print(f"model {model.model_id}")
    print("| dataset | pairs | plain | negated, flipped | symmetrised |\n|---|---:|---:|---:|---:|")
    for name, (conclusions, premises, pro) in datasets(args.data).items():
        gold = np.asarray(pro)
        plain = model.probability(conclusions, premises)
        flipped = 1 - model.probability([negate(c) for c in conclusions], premises)
        cells = [np.mean((p >= 0.5) == gold) for p in (plain, flipped, (plain + flipped) / 2)]
        print(f"| {name} | {len(gold)} | " + " | ".join(f"{c:.3f}" for c in cells) + " |",
              flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
