"""The microtexts retrieval benchmark (ReCAP arguequery) at source level: a map is a Source.

Data (``microtexts-aif/``, from recap-utr/arguequery)
---------------------------------------------------
* ``cases/**/nodeset*.json``: the case base, 110 argumentative microtexts (Peldszus & Stede) as
  OVA argument maps; argkb's AIF loader turns each into a Source ``aif:<map id>`` (the file stem,
  ``nodeset6366``) with its RA/CA arguments.
* ``queries/**/<name>.json``: 24 query *graphs* (OVA), 1 to 5 I-nodes each.
* ``benchmark/**/<name>.json``: per query, ``candidates`` (the maps judged relevant) and
  ``rankings``: map file name -> rank, **1 = most relevant**, up to 3. arguequery's own nDCG gives
  a ranked map the gain ``candidates_max_rank + 1 - rank`` (``candidates_max_rank: 3`` in its
  config) and every other map 0; its precision counts the candidates as relevant.

Mapping (written down in docs/eval/harness.md)
----------------------------------------------
* **queries**: one per benchmark file, qid = its name (``death1``), stance None (the judged maps
  argue both ways). Text (``query="claim"``, default): the query graph's claim, i.e. the I-node
  flagged ``majorClaim``, else the I-node that is the premise of no argument (the root), the
  first such in the loader's order; ``query="graph"`` joins every I-node text of the query graph,
  the claim first. Collection ``aif:``.
* **documents**: maps, named by their id (``nodeset6366``). Every map of the case base is judged:
  grade ``4 - rank`` (3, 2, 1) for a ranked map, 0 for the others. P@k counts grade >= 1 (the
  candidates), as arguequery does; ``--relevant-from`` changes that.
* **ranking over units -> ranking over maps**: a ranker returns premise units (clusters of them;
  the representatives are what a user is shown). Each representative is replaced by the map(s)
  it is a premise of (sorted by id; in this corpus no premise text occurs in two maps), and a map
  counts where it first appears: a map's rank is the rank of its best premise. A unit that is the
  premise of no map keeps its uid and gains nothing.
* Not modelled: the query graph's structure (arguequery's graph matching), and conclusions as
  documents (only premises are ranked, as everywhere in argkb).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.errors import EvaluationError
from argkb.eval.corpus import load_benchmark_corpus
from argkb.eval.harness import (
    Benchmark,
    HarnessOptions,
    HarnessReport,
    run_dataset,
)
from argkb.eval.trec import Qrels, Query, Ranking

if TYPE_CHECKING:
    import neo4j

__all__ = [
    "BASELINES",
    "COLLECTION",
    "MAX_RANK",
    "MicrotextsBenchmark",
    "MicrotextsFiles",
    "build_benchmark",
    "find_files",
    "load_cases",
    "query_text",
    "read_judgements",
    "run_microtexts",
    "unit_maps",
]

BASELINES = ("bm25", "cosine", "random")
COLLECTION = "aif:"
DEPTH = 200
MAX_RANK = 3  # arguequery's candidates_max_rank: gain = MAX_RANK + 1 - rank
QueryKind = Literal["claim", "graph"]


@dataclass(frozen=True)
class MicrotextsFiles:
    """Where the benchmark's three parts are: judgement files, case base folder, query graphs."""

    judgements: list[Path]
    cases: Path
    queries: dict[str, Path]


def _one(found: list[Path], what: str, root: Path) -> Path:
    if len(found) != 1:
        listed = ", ".join(str(p) for p in found[:3]) or "none"
        raise EvaluationError(f"{root}: need exactly one {what}; found {listed}")
    return found[0]


def find_files(root: str | os.PathLike[str]) -> MicrotextsFiles:
    """The benchmark under ``root`` (the ``microtexts-aif`` folder; module docstring)."""
    base = Path(root)
    judgements = sorted((base / "benchmark").rglob("*.json"))
    if not judgements:
        raise EvaluationError(f"{base}: no benchmark/**/*.json judgement files")
    cases = base / "cases"
    if not any(cases.rglob("*.json")):
        raise EvaluationError(f"{base}: no cases/**/*.json argument maps")
    queries = {
        path.stem: _one(sorted((base / "queries").rglob(path.name)), f"query {path.name}", base)
        for path in judgements
    }
    return MicrotextsFiles(judgements, cases, queries)


def read_judgements(path: str | os.PathLike[str], maps: set[str]) -> dict[str, float]:
    """``map id -> grade`` for one judgement file: ``MAX_RANK + 1 - rank`` for ranked maps,
    0 for every other map of the case base ``maps``.

    Raises
    ------
    EvaluationError
        Naming the file and map of a rank outside 1..MAX_RANK, a candidate without a rank, or a
        map that is not in the case base.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        candidates, rankings = data["candidates"], data["rankings"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise EvaluationError(
            f"{path}: not a judgement file with candidates and rankings ({err})"
        ) from err
    if not isinstance(candidates, list) or not isinstance(rankings, Mapping):
        raise EvaluationError(f"{path}: candidates must be a list and rankings an object")
    grades = dict.fromkeys(sorted(maps), 0.0)
    for name in candidates:
        if name not in rankings:
            raise EvaluationError(f"{path}: candidate {name!r} has no rank")
    for name, rank in rankings.items():
        map_id = str(name).removesuffix(".json")
        if map_id not in maps:
            raise EvaluationError(f"{path}: map {name!r} is not in the case base")
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= MAX_RANK:
            raise EvaluationError(f"{path}: map {name!r}: rank must be 1..{MAX_RANK}, got {rank!r}")
        grades[map_id] = float(MAX_RANK + 1 - rank)
    return grades


def query_text(path: str | os.PathLike[str], kind: QueryKind = "claim") -> str:
    """The query of a query graph (module docstring): its claim, or all its I-node texts.

    Raises
    ------
    EvaluationError
        When the graph has no usable I-node.
    """
    from argkb.loaders import aif
    from argkb.loaders.records import ArgumentRecord, UnitRecord

    texts: dict[str, str] = {}  # uid -> text, in the loader's order
    conclusions: list[str] = []
    premises: set[str] = set()
    for record in aif.read([path]):
        if isinstance(record, ArgumentRecord):
            for unit in (record.conclusion, *record.premises):
                texts.setdefault(unit.uid, " ".join(unit.text.split()))
            conclusions.append(record.conclusion.uid)
            premises.update(unit.uid for unit in record.premises)
        elif isinstance(record, UnitRecord):
            texts.setdefault(record.unit.uid, " ".join(record.unit.text.split()))
    if not texts:
        raise EvaluationError(f"{path}: the query graph has no I-node with text")
    claim = _major_claim(Path(path), texts) or next(
        (uid for uid in [*conclusions, *texts] if uid not in premises), next(iter(texts))
    )
    if kind == "claim":
        return texts[claim]
    return " ".join([texts[claim], *(text for uid, text in texts.items() if uid != claim)])


def _major_claim(path: Path, texts: Mapping[str, str]) -> str | None:
    """The uid of the I-node OVA flags ``majorClaim`` (None when no node is flagged)."""
    from argkb.loaders.records import text_key

    try:
        nodes = json.loads(path.read_text(encoding="utf-8")).get("nodes", [])
    except (OSError, ValueError, AttributeError):
        return None
    for node in nodes:
        if isinstance(node, Mapping) and node.get("majorClaim") is True:
            uid = text_key(str(node.get("text", "")))
            if uid in texts:
                return uid
    return None


def unit_maps(cases: str | os.PathLike[str]) -> dict[str, tuple[str, ...]]:
    """``premise uid -> ids of the maps it is a premise of`` (sorted), from argkb's AIF loader."""
    from argkb.loaders import aif
    from argkb.loaders.records import ArgumentRecord

    found: dict[str, set[str]] = {}
    for record in aif.read([cases]):
        if isinstance(record, ArgumentRecord) and record.source is not None:
            map_id = record.source.removeprefix("aif:")
            for premise in record.premises:
                found.setdefault(premise.uid, set()).add(map_id)
    return {uid: tuple(sorted(maps)) for uid, maps in found.items()}


def case_maps(cases: str | os.PathLike[str]) -> set[str]:
    """The map ids of the case base (file stems), as the AIF loader names its sources."""
    return {path.stem for path in Path(cases).rglob("*.json")}


@dataclass
class MicrotextsBenchmark(Benchmark):
    """A benchmark whose documents are maps: rankings of premise units become map rankings."""

    unit_maps: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def to_documents(self, qid: str, ranking: Ranking) -> Ranking:
        """Representatives -> their maps, in order; a map counts where it first appears."""
        maps: list[str] = []
        scores: list[float] = []
        for i, representative in enumerate(ranking.representatives):
            for map_id in self.unit_maps.get(representative, (representative,)):
                maps.append(map_id)
                scores.append(ranking.scores[i] if ranking.scores is not None else 0.0)
        kept = Ranking.from_ids(maps, scores if ranking.scores is not None else None)
        return kept.deduplicated()


def build_benchmark(files: MicrotextsFiles, query: QueryKind = "claim") -> MicrotextsBenchmark:
    """Queries, graded qrels over all maps, and the unit -> map table (module docstring)."""
    if query not in ("claim", "graph"):
        raise EvaluationError(f"query must be 'claim' or 'graph', got {query!r}")
    maps = case_maps(files.cases)
    queries: list[Query] = []
    qrels: Qrels = {}
    for path in files.judgements:
        qid = path.stem
        queries.append(Query(qid, query_text(files.queries[qid], query), None, COLLECTION))
        qrels[qid] = read_judgements(path, maps)
    table = unit_maps(files.cases)
    grades = [g for judged in qrels.values() for g in judged.values() if g > 0]
    notes = {
        "dataset": "microtexts (ReCAP arguequery benchmark)",
        "query": query,
        "collection": COLLECTION,
        "maps": len(maps),
        "premise_units": len(table),
        "premises_in_several_maps": sum(1 for m in table.values() if len(m) > 1),
        "maps_without_premise": len(maps - {m for ms in table.values() for m in ms}),
        "grades": {str(g): grades.count(float(g)) for g in range(1, MAX_RANK + 1)},
        "gain": f"{MAX_RANK + 1} - rank (rank 1 = most relevant); unranked maps 0",
        "queries_text": {q.qid: q.text for q in queries},
    }
    return MicrotextsBenchmark(
        f"microtexts-{query}", queries, qrels, None, {}, {}, notes, unit_maps=table
    )


def load_cases(
    driver: neo4j.Driver,
    cases: str | os.PathLike[str],
    *,
    database: str | None = None,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load the case base with argkb's AIF loader into a fresh database (idempotent).

    The loader rejects undercuts (attacks on an inference, 61 in the case base) and lists them
    in ``reject_report``; their I-nodes stay units.
    """
    from argkb.eval.dataset import require_fresh
    from argkb.ingest import content_hash
    from argkb.loaders import aif

    path = Path(cases)
    require_fresh(driver, f"{aif.FORMAT}:{content_hash([path])[:24]}", database=database,
                  collection_option=False)  # fmt: skip
    return load_benchmark_corpus(driver, aif.FORMAT, [path], aif.read([path]), database=database,
                                 reject_report=reject_report)  # fmt: skip


def run_microtexts(
    driver: neo4j.Driver,
    root: str | os.PathLike[str],
    *,
    database: str | None = None,
    query: QueryKind = "claim",
    options: HarnessOptions | None = None,
    benchmark: MicrotextsBenchmark | None = None,
) -> HarnessReport:
    """``argkb eval microtexts``: load the case base, rank premises, score maps, write.

    ``options`` (:class:`~argkb.eval.harness.HarnessOptions`) picks the rankers (default:
    argkb's default ranker and :data:`BASELINES`), output folder, depth (default 200), ...
    ``benchmark``: :func:`build_benchmark`'s result when the caller built it already.
    """
    files = find_files(root)
    benchmark = benchmark or build_benchmark(files, query)
    return run_dataset(
        driver,
        benchmark.name,
        database=database,
        load=lambda report: load_cases(
            driver, files.cases, database=database, reject_report=report
        ),
        build=lambda: benchmark,
        collection=COLLECTION,
        baselines=BASELINES,
        depth=DEPTH,
        options=options,
    )
