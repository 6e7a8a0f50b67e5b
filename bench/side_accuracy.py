"""Side accuracy: the share of premises a `--stance both` query places on the correct side.

    python -m bench side_accuracy --data ../shared/data [--uri bolt://...] [--json OUT.json]

nDCG says whether the right premises come back, not whether a premise shown as PRO argues for
the query. This benchmark asks each topic of two benchmarks with stance labels with ``stance
"both"`` and ``k = 10`` clusters per side, and scores

    side accuracy = correct / judged

over the shown representatives of both sides (the first column) and over every member of the
returned clusters (the second), with a 95 % percentile bootstrap interval over topics (topics
resampled with replacement, seeded, 10,000 draws; the pooled ratio of each draw). A returned
premise whose gold side is unknown is returned but not judged; the table gives both counts.

Each benchmark gets its own graph, built through the library as the commands build it
(:mod:`argkb.pipeline`: load, embed, cluster, pagerank) on a throw-away managed Neo4j
(:func:`bench.common.database`; ``--uri`` uses that server instead, which should be empty:
every part is loaded into its one database then). Queries are scoped to the benchmark's
collection as ``argkb eval`` scopes them.

Gold sides
----------
ArgKP-2021 dev
    The query is the topic. A returned unit's gold side is the stance of the ArgKP argument(s)
    of *this* topic with that text (``text_key``); a unit with no argument of the topic, or with
    arguments of both stances, is not judged.
SIGIR-19 dev, the 10 biased topics
    The data stance (Pro / Con) is towards the argument's own conclusion, a debate title, not
    the query. ``bench/sigir19_conclusion_relation.tsv`` says, for the arguments of each biased
    topic's issue, whether the conclusion states the query's position (``same``: the stance is
    the side), its negation (``opposite``: flipped) or neither (not judged); ``Not specified``
    is not judged either. One annotator's reading (see the file's header). Neutral topics
    ("death penalty") state no position and are not asked.

Rankers: ``default`` (:data:`argkb.query.settings.DEFAULT`), ``cross-alignment`` (the default
with ``--alignment cross``: the stance cross-encoder decides for the 12 most credited claims),
``hybrid`` with every claim aligned
(``alignment="always"``), ``pfidf``, ``coreset`` (as the harness's rankers of those names), and
the baselines ``bm25`` and ``cosine`` (:mod:`argkb.retrieve.baselines`), which place a premise by
its data stance towards its own conclusion (asked once with stance pro, once with con). On
ArgKP that conclusion is the topic, so a baseline is right by construction wherever it is judged.

``--sample`` also builds the sample corpus (examples/debates.json) and prints the default's
answer to "Social media does more harm than good", the example issue #28 names.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.common import REPO, data_parser, database, load_average, markdown_table

RELATIONS = Path(__file__).with_name("sigir19_conclusion_relation.tsv")
K = 10
DRAWS = 10_000
SAMPLE_QUERY = "Social media does more harm than good"
SIDES = ("pro", "con")
FLIP = {"pro": "con", "con": "pro"}
ENGINE_RANKERS: dict[str, dict[str, Any]] = {
    "default": {},  # DEFAULT itself
    "cross-alignment": {"alignment": "cross"},  # the default with --alignment cross
    "hybrid": {"ranker": "hybrid", "alignment": "always"},
    "pfidf": {"ranker": "pfidf", "alignment": "always"},
    "coreset": {"ranker": "coreset", "alignment": "always"},
}
BASELINES = ("bm25", "cosine")


# -- scoring (pure) -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """One answer cluster as a ranker placed it: its side, its representative's uid and its
    members' uids (the representative among them or not)."""

    side: str
    representative: str
    members: tuple[str, ...] = ()


@dataclass
class Counts:
    """Returned, judged and correct premises of one topic, shown (representatives) and all."""

    returned: int = 0
    judged: int = 0
    correct: int = 0
    members_returned: int = 0
    members_judged: int = 0
    members_correct: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def astuple(counts: Counts) -> tuple[int, ...]:
    return tuple(asdict(counts).values())


def judge(placed: Iterable[Placed], gold: Mapping[str, str]) -> Counts:
    """Count one topic's answer against ``gold`` (uid -> ``"pro"``/``"con"``; absent: unknown).

    A premise is judged where gold knows its side and correct where that side is the one it was
    placed on. Members are counted once per (side, uid): a premise repeated within one side
    counts once; the same premise on both sides counts on each (one of them is wrong)."""
    counts = Counts()
    seen: set[tuple[str, str]] = set()
    for cluster in placed:
        if cluster.side not in SIDES:
            raise ValueError(f"side must be 'pro' or 'con', got {cluster.side!r}")
        truth = gold.get(cluster.representative)
        counts.returned += 1
        counts.judged += truth is not None
        counts.correct += truth == cluster.side
        for uid in (cluster.representative, *cluster.members):
            if (cluster.side, uid) in seen:
                continue
            seen.add((cluster.side, uid))
            truth = gold.get(uid)
            counts.members_returned += 1
            counts.members_judged += truth is not None
            counts.members_correct += truth == cluster.side
    return counts


def ratio(correct: int, judged: int) -> float | None:
    return correct / judged if judged else None


def bootstrap(
    pairs: Sequence[tuple[int, int]], *, draws: int = DRAWS, seed: int = 0
) -> tuple[float, float] | None:
    """95 % percentile interval of the pooled ``sum(correct) / sum(judged)`` when the topics
    (``(correct, judged)`` pairs) are resampled with replacement (Efron & Tibshirani 1993,
    ch. 13); draws that judged nothing are left out. None when nothing was judged."""
    import numpy as np

    data = np.asarray(pairs, dtype=np.float64).reshape(-1, 2)
    if not len(data) or data[:, 1].sum() == 0:
        return None
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(data), size=(draws, len(data)))
    correct, judged = data[picks, 0].sum(axis=1), data[picks, 1].sum(axis=1)
    shares = correct[judged > 0] / judged[judged > 0]
    low, high = np.percentile(shares, [2.5, 97.5])
    return float(low), float(high)


@dataclass
class Row:
    """One (benchmark, ranker) line of the table."""

    benchmark: str
    ranker: str
    topics: int
    total: Counts
    accuracy: float | None
    interval: tuple[float, float] | None
    members_accuracy: float | None
    per_topic: dict[str, Counts] = field(default_factory=dict)


def summarise(benchmark: str, ranker: str, per_topic: Mapping[str, Counts]) -> Row:
    """The pooled accuracies of ``per_topic`` and the bootstrap interval of the shown one."""
    total = sum(per_topic.values(), Counts())
    pairs = [(c.correct, c.judged) for c in per_topic.values()]
    return Row(benchmark, ranker, len(per_topic), total, ratio(total.correct, total.judged),
               bootstrap(pairs), ratio(total.members_correct, total.members_judged),
               dict(per_topic))  # fmt: skip


def table(rows: Sequence[Row]) -> str:
    def share(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    def interval(row: Row) -> str:
        return "" if row.interval is None else f" [{row.interval[0]:.2f}, {row.interval[1]:.2f}]"

    headers = [
        "benchmark",
        "ranker",
        "topics",
        "side acc., shown [95% CI]",
        "side acc., members",
        "judged / returned, shown",
        "judged / returned, members",
    ]
    body = []
    for row in rows:
        total = row.total
        body.append(
            [
                row.benchmark,
                row.ranker,
                row.topics,
                share(row.accuracy) + interval(row),
                share(row.members_accuracy),
                f"{total.judged} / {total.returned}",
                f"{total.members_judged} / {total.members_returned}",
            ]
        )
    return markdown_table(headers, body, "llrrrrr")


# -- gold sides ---------------------------------------------------------------------------------


@dataclass
class Topic:
    """A query of the benchmark and the gold side of each unit that has one."""

    qid: str
    text: str
    gold: dict[str, str]
    conflicts: int = 0  # units with arguments on both sides, left unjudged


def sides_by_uid(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, str], int]:
    """uid -> side from ``(uid, side)`` pairs; a uid seen with both sides is left out and
    counted (the second value)."""
    seen: dict[str, set[str]] = {}
    for uid, side in pairs:
        seen.setdefault(uid, set()).add(side)
    gold = {uid: next(iter(s)) for uid, s in seen.items() if len(s) == 1}
    return gold, len(seen) - len(gold)


def argkp_topics(root: Path) -> list[Topic]:
    """ArgKP dev: per topic, the stance of its arguments by text key."""
    from argkb.loaders.argkp import load_split
    from argkb.loaders.records import text_key

    split = load_split(root, "dev")
    topics = []
    for number, topic in enumerate(split.topics, start=1):
        pairs = [
            (text_key(argument.text), stance)
            for (name, stance), arguments in split.arguments.items()
            if name == topic
            for argument in arguments
        ]
        gold, conflicts = sides_by_uid(pairs)
        topics.append(Topic(str(number), topic, gold, conflicts))
    return topics


def read_relations(path: Path = RELATIONS) -> dict[tuple[int, str], str]:
    """(biased topic id, argument id) -> ``same`` / ``opposite`` / ``unrelated``."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = csv.DictReader((line for line in lines if not line.startswith("#")), delimiter="\t")
    out = {}
    for row in rows:
        if row["relation"] not in ("same", "opposite", "unrelated"):
            raise ValueError(f"{path}: unknown relation {row['relation']!r}")
        out[(int(row["topic"]), row["argument"])] = row["relation"]
    return out


def side_towards_query(stance: str, relation: str | None) -> str | None:
    """The side of a premise towards the query, from its data stance towards its conclusion
    (``Pro``/``Con``/``Not specified``) and the conclusion's relation to the query."""
    side = {"pro": "pro", "con": "con"}.get(stance.lower())
    if side is None or relation not in ("same", "opposite"):
        return None
    return side if relation == "same" else FLIP[side]


def sigir19_topics(root: Path, relations: Mapping[tuple[int, str], str]) -> list[Topic]:
    """SIGIR-19 dev, the biased topics: the side towards the query of every argument with a
    known relation, by the premise's text key (arguments of the whole corpus, once each)."""
    from argkb.loaders.records import text_key
    from argkb.loaders.sigir19 import load_judgements

    data = load_judgements(root)
    arguments = {j.aid: j for rows in data.judgements.values() for j in rows}
    topics = []
    for topic_id in sorted(t for t, topic in data.topics.items() if topic.biased):
        pairs = []
        for aid, judgement in arguments.items():
            side = side_towards_query(judgement.stance, relations.get((topic_id, aid)))
            if side is not None:
                pairs.append((text_key(judgement.premise), side))
        gold, conflicts = sides_by_uid(pairs)
        query = " ".join(data.topics[topic_id].query.split())
        topics.append(Topic(str(topic_id), query, gold, conflicts))
    return topics


# -- graphs and answers -------------------------------------------------------------------------


def build_graph(drv: Any, fmt: str, files: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """Load ``files`` as ``fmt``, embed, cluster and rank, as ``argkb load``, ``embed``,
    ``cluster`` and ``pagerank`` do (rows the loader rejects are skipped, as in ``argkb eval``)."""
    from argkb import pipeline

    loaded = pipeline.load(drv, None, fmt, files, on_error="skip")
    pipeline.embed(drv, None, embedder)
    pipeline.cluster(drv, None)
    pipeline.pagerank(drv, None)
    return {"format": fmt, "arguments": loaded.arguments, "rejected": loaded.rejected}


def engine_answer(engine: Any, text: str, collection: str | None) -> list[Placed]:
    """Both sides of the engine's answer, ``k`` clusters each."""
    result = engine.query(text, k=K, stance="both", collection=collection)
    return [
        Placed(side, c.representative.key, tuple(m.key for m in c.members))
        for side, clusters in (("pro", result.pro), ("con", result.con))
        for c in clusters
    ]


def baseline_answer(ranker: Any, text: str, collection: str | None) -> list[Placed]:
    """A stance-aware baseline asked once per side: a premise is placed by its data stance."""
    from argkb.ranking import Query

    placed = []
    for side in SIDES:
        ranking = ranker.rank(Query(side, text, side, collection), K)  # type: ignore[arg-type]
        placed += [Placed(side, uids[0], uids) for uids in ranking.clusters]
    return placed


def answerers(drv: Any, embedder: Any, query_embedder: Any) -> dict[str, Any]:
    """Ranker name -> ``answer(text, collection)``, engine rankers first."""
    from argkb.query.engine import QueryEngine
    from argkb.query.settings import DEFAULT, QuerySettings
    from argkb.retrieve import baselines

    out: dict[str, Any] = {}
    for name, settings in ENGINE_RANKERS.items():
        chosen = QuerySettings(**settings) if settings else DEFAULT
        engine = QueryEngine(drv, query_embedder, settings=chosen)
        out[name] = lambda text, coll, engine=engine: engine_answer(engine, text, coll)
    for name in BASELINES:
        ranker = getattr(baselines, name)(drv, None, embedder)
        out[name] = lambda text, coll, ranker=ranker: baseline_answer(ranker, text, coll)
    return out


def score_benchmark(
    name: str, topics: Sequence[Topic], answer: Mapping[str, Any], collection: str
) -> list[Row]:
    rows = []
    for ranker, ask in answer.items():
        per_topic = {t.qid: judge(ask(t.text, collection), t.gold) for t in topics}
        rows.append(summarise(name, ranker, per_topic))
        print(f"{name} {ranker}: {rows[-1].accuracy}", file=sys.stderr, flush=True)
    return rows


def run_benchmark(args: argparse.Namespace, name: str, embedders: tuple[Any, Any]) -> list[Row]:
    """Build ``name``'s graph on its own server and score every ranker on it."""
    from argkb.eval.argkp import split_files
    from argkb.eval.sigir19 import COLLECTION, corpus_files

    if name == "argkp-dev":
        root = args.data / "argkp-2021"
        topics, fmt, files, coll = (
            argkp_topics(root),
            "argkp",
            split_files(root, "dev"),
            "argkp:dev:",
        )
    else:
        root = args.data / "webis-sigir19-dev"
        topics = sigir19_topics(root, read_relations())
        fmt, files, coll = "sigir19", corpus_files(root), COLLECTION
    with database(args.uri, f"side-{name}") as drv:
        build_graph(drv, fmt, files, embedders[0])
        return score_benchmark(name, topics, answerers(drv, *embedders), coll)


def sample_answer(args: argparse.Namespace, embedders: tuple[Any, Any]) -> dict[str, Any]:
    """The default's answer to :data:`SAMPLE_QUERY` on the sample corpus (texts, both sides)."""
    from argkb.query.engine import QueryEngine

    with database(args.uri, "side-sample") as drv:
        build_graph(drv, "argsme", [REPO / "examples" / "debates.json"], embedders[0])
        result = QueryEngine(drv, embedders[1]).query(SAMPLE_QUERY, k=K, stance="both")
    return {
        "query": SAMPLE_QUERY,
        "pro": [c.representative.text for c in result.pro],
        "con": [c.representative.text for c in result.con],
    }


def commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                          capture_output=True, text=True)  # fmt: skip
    return done.stdout.strip() or "?"


def main() -> int:
    parser = data_parser(__doc__)
    parser.add_argument("--json", type=Path, help="also write the rows and per-topic counts")
    parser.add_argument("--benchmarks", nargs="+", default=["argkp-dev", "sigir19-dev"],
                        choices=["argkp-dev", "sigir19-dev"])  # fmt: skip
    parser.add_argument("--sample", action="store_true", help="also answer the sample query")
    args = parser.parse_args()
    from argkb.embed.model import Embedder

    embedders = (Embedder(), Embedder.for_queries())
    rows = [row for name in args.benchmarks for row in run_benchmark(args, name, embedders)]
    sample = sample_answer(args, embedders) if args.sample else None
    print(table(rows))
    print(f"\ncommit {commit()}, load {load_average()}, k = {K} per side, {DRAWS} draws, seed 0")
    if sample is not None:
        for side in SIDES:
            print(f"\n{SAMPLE_QUERY!r}, default, {side.upper()}:")
            print("\n".join(f"  {i}. {text}" for i, text in enumerate(sample[side], start=1)))
    if args.json:
        payload = {"commit": commit(), "load": load_average(), "k": K, "draws": DRAWS,
                   "rows": [asdict(row) for row in rows], "sample": sample}  # fmt: skip
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
