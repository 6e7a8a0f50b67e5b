"""How often a blind reader agrees with Webis-ArgQuality-20's stance labels (issue 12).

    python -m bench stance_reading --data ../shared/data/webis-argquality-20

``bench/argquality_stance_reading.csv`` holds a reading of 160 arguments drawn at random (seed
20261125) from the 1,610: for each, the stance of its text towards its topic question ("pro":
the text argues for answering yes, "con": no, "unclear": it takes no recognisable side) and a
confidence, given by a reader who saw the question and the text (cut at 1,500 characters) but
not the dataset's label. The reader was a helper session of the developers (a language model),
told to judge what the text itself argues, rebuttals and opposite framings included.

This prints the agreement of the reading with the dataset's ``Stance`` column where the reader
decided (with a 95 % bootstrap interval), the share of texts the reader found undecidable, and
the accuracy a reader would reach on the whole sample by guessing the undecidable ones at
random: an estimate of what any stance model that reads (question, text) can reach there.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from pathlib import Path

READING = Path(__file__).with_name("argquality_stance_reading.csv")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the webis-argquality-20 folder")
    parser.add_argument("--reading", type=Path, default=READING)
    args = parser.parse_args()
    with (args.data / "webis-argquality20-arguments.csv").open(encoding="utf-8") as f:
        label = {(r["Topic ID"], r["Argument ID"], r["Discussion ID"]): r["Stance"] == "True"
                 for r in csv.DictReader(f)}  # fmt: skip
    with args.reading.open(encoding="utf-8") as f:
        reading = list(csv.DictReader(f))
    decided, high, unclear = [], [], 0
    for row in reading:
        pro = label[(row["topic_id"], row["argument_id"], row["discussion_id"])]
        if row["reading"] == "unclear":
            unclear += 1
            continue
        agree = (row["reading"] == "pro") == pro
        decided.append(agree)
        if row["confidence"] == "high":
            high.append(agree)

    def interval(values: list[bool]) -> str:
        rng = random.Random(0)
        means = sorted(sum(rng.choices(values, k=len(values))) / len(values) for _ in range(5000))
        return f"{sum(values) / len(values):.3f} [{means[125]:.3f}, {means[4874]:.3f}]"

    print(f"sample: {len(reading)} arguments; undecidable for the reader: {unclear} "
          f"({unclear / len(reading):.1%})")  # fmt: skip
    print(f"agreement with the dataset's label where the reader decided ({len(decided)}): "
          f"{interval(decided)}")  # fmt: skip
    print(f"  high-confidence readings only ({len(high)}): {interval(high)}")
    reachable = (sum(decided) + 0.5 * unclear) / len(reading)
    print(f"reader's accuracy on the whole sample, undecidable ones guessed: {reachable:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
