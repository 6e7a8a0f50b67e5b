"""The ArgKP-2021 harness: key points as ground-truth clusters of arguments.

ArgKP (Bar-Haim et al., ACL 2020) pairs each argument of a (topic, stance) with the key points of
that (topic, stance), labelled match / no match. Read as a retrieval benchmark:

* **queries**: every (topic, stance) of the split; text = the topic (a debate motion), stance =
  ``pro``/``con``; qid ``<n>-<stance>`` with ``n`` the ArgKP topic number (``arg_<n>_<i>``), else
  the topic's position in the split; collection ``argkp:<split>:`` (the loader's source ids).
* **documents**: the split's arguments, named by their ``arg_id``. Arguments whose texts are equal
  after argkb's normalisation are one premise unit in the graph and therefore one document, named
  by the first of them in file order (none in dev, one pair in train); its relevance and cluster
  come from any of them.
* **qrels**: for query (t, s) every argument of topic t is judged: relevance 1 if it matches at
  least one key point of (t, s), else 0 (arguments of the opposite stance are 0).
* **ground-truth clusters**: the arguments matching one key point. An argument matching several
  key points (67 of 932 in dev) belongs to the first of them in key-point file order, because the
  metrics need one cluster per document; it still counts as relevant. Arguments matching none
  are in no cluster.
* **unit ids -> arg ids**: a ranker returns premise ``Unit.uid`` s, the key of the argument's
  normalised text (:func:`argkb.loaders.records.text_key`). The harness maps a uid to the document
  of the query's own (topic, stance) with that text, else to any argument of the split with it;
  a unit that is no ArgKP argument keeps its uid and gains nothing.

The train split is for tuning only: report dev.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argkb.eval.corpus import load_benchmark_corpus
from argkb.eval.harness import (
    DEFAULT_DEPTH,
    Benchmark,
    HarnessOptions,
    HarnessReport,
    run_dataset,
)
from argkb.eval.trec import Clusters, Qrels, Query

if TYPE_CHECKING:
    import neo4j

    from argkb.loaders.argkp import ArgKPSplit

__all__ = [
    "BASELINES",
    "build_benchmark",
    "collection",
    "load_argkp",
    "read_split",
    "run_argkp",
    "split_files",
]

BASELINES = (
    "bm25",
    "bm25-nostance",
    "cosine",
    "cosine-nostance",
    "random",
    "random-claim",
    "random-claim-nostance",
)
_TOPIC_NUMBER = re.compile(r"^arg_(\d+)_\d+$")


def collection(split: str) -> str:
    """The ``Source.sid`` prefix of a split's arguments (see ``argkb.loaders.argkp.source_id``)."""
    return f"argkp:{split}:"


def split_files(root: str | os.PathLike[str], split: str) -> list[Path]:
    """The split's three csv files; the load's corpus id hashes exactly these."""
    files = [Path(root) / f"{kind}_{split}.csv" for kind in ("arguments", "key_points", "labels")]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        from argkb.errors import LoadError

        there = sorted(
            f.name[len("labels_") : -len(".csv")] for f in Path(root).glob("labels_*.csv")
        )
        what = "is incomplete" if (Path(root) / f"labels_{split}.csv").is_file() else "is not there"
        raise LoadError(", ".join(missing), "<file>",
                        f"ArgKP split {split!r} {what} (splits in {root}: "
                        f"{', '.join(there) or 'none'})")  # fmt: skip
    return files


def read_split(root: str | os.PathLike[str], split: str) -> ArgKPSplit:
    """The split's files found and read without Neo4j: ``argkb eval argkp`` runs this before it
    connects, so a wrong folder or split fails before the server is started or the graph
    changed."""
    from argkb.loaders.argkp import load_split

    split_files(root, split)
    return load_split(root, split)


def load_argkp(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    split: str,
    database: str | None = None,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load one split with argkb's loader (idempotent: a second load is a no-op).

    Rows the loader rejects are skipped and listed in ``reject_report``.
    """
    from argkb.loaders import argkp as loader

    files = split_files(root, split)
    return load_benchmark_corpus(driver, "argkp", files, loader.read(files, split=split),
                                 database=database, reject_report=reject_report)  # fmt: skip


def _qid_numbers(data: ArgKPSplit) -> dict[str, str]:
    """Topic -> ArgKP topic number, when every argument id of every topic agrees on one."""
    numbers: dict[str, set[str]] = {}
    for (topic, _), arguments in data.arguments.items():
        for argument in arguments:
            match = _TOPIC_NUMBER.match(argument.arg_id)
            numbers.setdefault(topic, set()).add(match.group(1) if match else "")
    found = {topic: next(iter(n)) for topic, n in numbers.items() if len(n) == 1 and "" not in n}
    if len(found) == len(data.topics) and len(set(found.values())) == len(found):
        return found
    return {topic: str(i) for i, topic in enumerate(data.topics, start=1)}


def build_benchmark(data: ArgKPSplit) -> Benchmark:
    """Queries, qrels, ground-truth clusters and the uid map of one split (module docstring)."""
    from argkb.loaders.records import text_key

    numbers = _qid_numbers(data)
    prefix = collection(data.split)
    kp_order = {
        kp.kp_id: i for i, kp in enumerate(kp for group in data.key_points.values() for kp in group)
    }
    matched: dict[str, list[str]] = {}
    for match in data.matches:
        if match.label == 1:
            matched.setdefault(match.arg_id, []).append(match.kp_id)

    # one document per normalised text within a (topic, stance) group; aliases share it
    canonical: dict[tuple[str, str], dict[str, str]] = {}
    aliases: dict[str, list[str]] = {}
    fallback: dict[str, str] = {}
    for key, arguments in data.arguments.items():
        group = canonical.setdefault(key, {})
        for argument in arguments:
            uid = text_key(argument.text)
            docid = group.setdefault(uid, argument.arg_id)
            aliases.setdefault(docid, []).append(argument.arg_id)
            fallback.setdefault(uid, docid)

    queries: list[Query] = []
    qrels: Qrels = {}
    clusters: Clusters = {}
    doc_ids: dict[str, dict[str, str]] = {}
    multi = 0
    order = sorted(data.arguments, key=lambda ts: (data.topics.index(ts[0]), ts[1] != "pro"))
    for topic, stance in order:
        qid = f"{numbers[topic]}-{stance}"
        queries.append(Query(qid, topic, stance, prefix))
        doc_ids[qid] = dict(canonical[(topic, stance)])
        group_kps = {kp.kp_id for kp in data.key_points.get((topic, stance), ())}
        judged: dict[str, float] = {}
        truth: dict[str, str] = {}
        for other in ("pro", "con"):
            for docid in canonical.get((topic, other), {}).values():
                judged[docid] = 0.0
        for docid in canonical[(topic, stance)].values():
            kps = sorted(
                {kp for arg in aliases[docid] for kp in matched.get(arg, ()) if kp in group_kps},
                key=kp_order.__getitem__,
            )
            if kps:
                judged[docid] = 1.0
                truth[docid] = kps[0]
                multi += len(kps) > 1
        qrels[qid] = judged
        clusters[qid] = truth
    notes = {
        "dataset": "ArgKP-2021",
        "split": data.split,
        "collection": prefix,
        "arguments": sum(len(a) for a in data.arguments.values()),
        "documents": len(aliases),
        "merged_duplicate_texts": {d: a for d, a in aliases.items() if len(a) > 1},
        "relevant": sum(len(c) for c in clusters.values()),
        "matching_several_key_points": multi,
        "key_points_with_matches": len({g for c in clusters.values() for g in c.values()}),
        "rejected_rows": [str(r) for r in data.rejected],
    }
    return Benchmark(f"argkp-{data.split}", queries, qrels, clusters, doc_ids, fallback, notes)


def run_argkp(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    split: str = "dev",
    options: HarnessOptions | None = None,
) -> HarnessReport:
    """``argkb eval argkp``: load the split, embed, rank with every ranker, score, write.

    ``options`` (:class:`~argkb.eval.harness.HarnessOptions`) picks the rankers (default:
    argkb's default ranker and :data:`BASELINES`), output folder, depth (default 200), ...
    """
    from argkb.loaders.argkp import load_split

    return run_dataset(
        driver,
        f"argkp-{split}",
        database=database,
        load=lambda report: load_argkp(
            driver, root, split=split, database=database, reject_report=report
        ),
        build=lambda: build_benchmark(load_split(root, split)),
        collection=collection(split),
        baselines=BASELINES,
        depth=DEFAULT_DEPTH,
        options=options,
    )
