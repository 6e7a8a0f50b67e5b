"""Side accuracy of query answers: the share of premises a ``--stance both`` query places on the
correct side (issue 28 item 4, issue 29 item 3).

nDCG says whether the right premises come back, not whether a premise shown as PRO argues for
the query. Each topic of two benchmarks with stance labels is asked with ``stance "both"`` and
``k = 10`` clusters per side, and scored as

    side accuracy = correct / judged

over the shown representatives of both sides and over every member of the returned clusters,
with a 95 % percentile bootstrap interval over topics (topics resampled with replacement, seeded,
10,000 draws; the pooled ratio of each draw). A returned premise whose gold side is unknown is
returned but not judged; the table gives both counts.

Gold sides
----------
ArgKP-2021 dev
    The query is the topic. A returned unit's gold side is the stance of the ArgKP argument(s)
    of *this* topic with that text (``text_key``); a unit with no argument of the topic, or with
    arguments of both stances, is not judged.
SIGIR-19 dev, the 10 biased topics
    The data stance (Pro / Con) is towards the argument's own conclusion, a debate title, not
    the query. ``sigir19_conclusion_relation.tsv`` beside this module says, for the arguments
    of each biased topic's issue, whether the conclusion states the query's position (``same``:
    the stance is the side), its negation (``opposite``: flipped) or neither (not judged);
    ``Not specified`` is not judged either. One annotator's reading (see the file's header).
    Neutral topics ("death penalty") state no position and are not asked.

The baselines ``bm25`` and ``cosine`` (:mod:`argkb.retrieve.baselines`) place a premise by its
stance towards its own conclusion (asked once with stance pro, once with con): the data's, or,
where the data has none and ``argkb stance`` placed it, the model's. On ArgKP that conclusion is
the topic and every stance is the data's, so a baseline is right by construction wherever it is
judged.

:func:`evaluate` loads both benchmarks into the connected database as ``argkb eval argkp`` and
``argkb eval sigir19`` do (idempotent), then scores the default and the baselines
(``argkb eval stance --side-accuracy``); ``bench/side_accuracy.py`` builds each benchmark on a
throw-away server instead and scores more rankers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

RELATIONS = Path(__file__).with_name("sigir19_conclusion_relation.tsv")
K = 10
DRAWS = 10_000
SIDES = ("pro", "con")
FLIP = {"pro": "con", "con": "pro"}
DEFAULT_RANKERS: dict[str, dict[str, Any]] = {"default": {}}  # DEFAULT itself
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
    lines = ["| " + " | ".join(headers) + " |", "|---|---|---:|---:|---:|---:|---:|"]
    return "\n".join([*lines, *("| " + " | ".join(str(c) for c in row) + " |" for row in body)])


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
    """(biased topic id, argument id) -> ``same`` / ``opposite`` / ``unrelated``, from a
    tab-separated file with the columns ``topic``, ``argument``, ``relation`` (``#`` lines are
    comments; the shipped file's header describes them).

    Raises
    ------
    ConfigError
        A missing file or column, a topic that is not a number, an unknown relation: one line
        naming the file, the line and the field.
    """
    from argkb.errors import ConfigError

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read the relations ({err})") from None
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.startswith("#")]  # fmt: skip
    if not numbered:
        raise ConfigError(f"{path}: no relations (expected the columns topic, argument, relation)")
    header = numbered[0][1].split("\t")
    missing = [c for c in ("topic", "argument", "relation") if c not in header]
    if missing:
        raise ConfigError(f"{path}: line {numbered[0][0]}: no column {', '.join(missing)}")
    out = {}
    for n, line in numbered[1:]:
        row = dict(zip(header, line.split("\t"), strict=False))
        where = f"{path}: line {n}"
        topic, argument, relation = (row.get(c, "") for c in ("topic", "argument", "relation"))
        if not topic.strip().isdigit():
            raise ConfigError(f"{where}: topic: expected a number, not {topic!r:.40}")
        if not argument.strip():
            raise ConfigError(f"{where}: argument: empty")
        if relation not in ("same", "opposite", "unrelated"):
            raise ConfigError(f"{where}: relation: {relation!r:.40} is not same, opposite or "
                              "unrelated")  # fmt: skip
        out[(int(topic), argument.strip())] = relation
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


# -- answers ------------------------------------------------------------------------------------


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


def answerers(
    drv: Any,
    embedder: Any,
    query_embedder: Any,
    engine_rankers: Mapping[str, Mapping[str, Any]] = DEFAULT_RANKERS,
    database: str | None = None,
) -> dict[str, Any]:
    """Ranker name -> ``answer(text, collection)``: the engine with each of ``engine_rankers``
    (name -> :class:`~argkb.query.settings.QuerySettings` fields; empty: the default), then the
    baselines :data:`BASELINES`."""
    from argkb.query.engine import QueryEngine
    from argkb.query.settings import DEFAULT, QuerySettings
    from argkb.retrieve import baselines

    out: dict[str, Any] = {}
    for name, settings in engine_rankers.items():
        chosen = QuerySettings(**settings) if settings else DEFAULT
        engine = QueryEngine(drv, query_embedder, database=database, settings=chosen)
        out[name] = lambda text, coll, engine=engine: engine_answer(engine, text, coll)
    for name in BASELINES:
        ranker = getattr(baselines, name)(drv, database, embedder)
        out[name] = lambda text, coll, ranker=ranker: baseline_answer(ranker, text, coll)
    return out


def score_benchmark(
    name: str,
    topics: Sequence[Topic],
    answer: Mapping[str, Any],
    collection: str,
    echo: Callable[[str], object] | None = None,
) -> list[Row]:
    """Every ranker of ``answer`` asked each topic of one benchmark, judged and summarised."""
    rows = []
    for ranker, ask in answer.items():
        per_topic = {t.qid: judge(ask(t.text, collection), t.gold) for t in topics}
        rows.append(summarise(name, ranker, per_topic))
        if echo:
            echo(f"side accuracy, {name}, {ranker}: {rows[-1].accuracy}")
    return rows


# -- the connected database ---------------------------------------------------------------------


# a benchmark to score: its name, topics, collection and the function that loads it
Planned = tuple[str, list[Topic], str, Callable[[Any, str | None], object]]


def plan(sources: Mapping[str, Sequence[Path]], relations: Path | None = None) -> list[Planned]:
    """ArgKP dev (``sources["argkp"]``: ArgKP-2021 folders) and the SIGIR-19 biased topics
    (``sources["sigir19"]``), each folder once; every file is read and checked here, so bad
    input fails before the database changes. ``relations``: the conclusion relations of the
    SIGIR-19 topics (:func:`read_relations`; default: the shipped file, which covers the dev
    half's ten biased topics); a SIGIR-19 folder none of whose biased topics it covers is
    refused, and topics it leaves out are named in a warning."""
    from argkb.eval.argkp import collection, split_files
    from argkb.eval.sigir19 import COLLECTION

    out: list[Planned] = []
    for root in dict.fromkeys(Path(p).resolve() for p in sources.get("argkp", ())):
        split_files(root, "dev")  # all three files, as the load demands them
        out.append(("argkp-dev", argkp_topics(root), collection("dev"), _argkp_loader(root)))
    path = relations or RELATIONS
    known = read_relations(path) if sources.get("sigir19") else {}
    covered = {topic for topic, _ in known}
    for root in dict.fromkeys(Path(p).resolve() for p in sources.get("sigir19", ())):
        topics = sigir19_topics(root, known)
        _require_relations(root, [t.qid for t in topics], covered, path)
        out.append(("sigir19-dev", topics, COLLECTION, _sigir19_loader(root)))
    return out


def _require_relations(root: Path, biased: Sequence[str], covered: set[int], path: Path) -> None:
    """Refuse a SIGIR-19 folder whose biased topics the relations leave out (every premise
    would go unjudged); warn about the topics left out where some are covered."""
    from argkb.errors import ConfigError

    missing = [qid for qid in biased if int(qid) not in covered]
    if missing and len(missing) == len(biased):
        raise ConfigError(
            f"{path}: no conclusion relations for the biased topics of {root} "
            f"({', '.join(missing)}); side accuracy needs them: give --relations FILE "
            "(docs/eval/harness.md, SIGIR-19)"
        )
    if missing:
        logger.warning("%s: no conclusion relations for biased topics %s of %s: not judged",
                       path, ", ".join(missing), root)  # fmt: skip


def _argkp_loader(root: Path) -> Callable[[Any, str | None], object]:
    from argkb.eval.argkp import load_argkp

    return lambda driver, database: load_argkp(driver, root, split="dev", database=database)


def _sigir19_loader(root: Path) -> Callable[[Any, str | None], object]:
    from argkb.eval.sigir19 import load_sigir19

    return lambda driver, database: load_sigir19(driver, root, database=database)


def evaluate(
    driver: Any,
    chosen: Sequence[Planned],
    *,
    database: str | None = None,
    echo: Callable[[str], object] | None = None,
) -> list[Row]:
    """Side accuracy of the default and the baselines on the benchmarks of ``chosen``
    (:func:`plan`), each loaded into the connected database as ``argkb eval argkp`` /
    ``sigir19`` load it (idempotent), embedded, clustered where stale and with stance placed
    where the data left it unknown (so the baselines place those premises by ``argkb
    stance``'s model, where bench/side_accuracy.py leaves them unplaced)."""
    from argkb.embed.model import Embedder
    from argkb.embed.store import embed_collection
    from argkb.eval.adapters import ensure_clusters, ensure_stance

    if not chosen:
        return []
    embedder, query_embedder = Embedder(), Embedder.for_queries()
    for name, _, coll, load in chosen:
        if echo:
            echo(f"side accuracy: loading and embedding {name}")
        load(driver, database)
        embed_collection(driver, embedder, coll, database=database)
    ensure_clusters(driver, database)
    ensure_stance(driver, database)
    answer = answerers(driver, embedder, query_embedder, database=database)
    return [row for name, topics, coll, _ in chosen
            for row in score_benchmark(name, topics, answer, coll, echo)]  # fmt: skip
