"""What every benchmark adapter does with its corpus: load it with argkb's own loader into a
database whose schema fits, and turn one query's judged texts into the documents its qrels name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import neo4j

    from argkb.loaders.records import LeftOut, Record, Rejected

Row = TypeVar("Row")


def prepare_schema(driver: neo4j.Driver, database: str | None) -> None:
    """``init_schema`` with the dimensions of an existing premise vector index (idempotent).

    A database set up for another embedding size keeps it instead of failing the load.
    """
    from argkb.db.schema import DEFAULT_DIMENSIONS, indexes, init_schema

    dimensions = DEFAULT_DIMENSIONS
    for index in indexes(driver, database):
        if index.get("name") == "premise_embedding":
            have = (index.get("config") or {}).get("vector.dimensions")
            dimensions = int(have) if have is not None else dimensions
    init_schema(driver, database, dimensions=dimensions)


def load_benchmark_corpus(
    driver: neo4j.Driver,
    fmt: str,
    files: Sequence[Path],
    records: Iterable[Record | Rejected | LeftOut],
    *,
    database: str | None = None,
    reject_report: Path | None = None,
) -> dict[str, Any]:
    """Load ``records``, read from ``files`` by the loader of format ``fmt``, after
    :func:`prepare_schema` (idempotent: the same files loaded again are a no-op). Rows the loader
    rejects are skipped and listed in ``reject_report``. Returns the load's summary as a dict."""
    from argkb.ingest import load_records

    prepare_schema(driver, database)
    summary = load_records(
        driver,
        fmt,
        list(files),
        records,
        database=database,
        on_error="skip",
        reject_report=reject_report,
    )
    return asdict(summary)


def judged_documents(
    rows: Iterable[Row],
    *,
    text: Callable[[Row], str],
    aid: Callable[[Row], str],
    grade: Callable[[Row], float],
    fallback: dict[str, str],
) -> tuple[dict[str, str], dict[str, float], int]:
    """One query's judged ``rows`` as documents. Rows whose texts are one unit of the graph
    (the same :func:`~argkb.loaders.records.text_key`, which the loader merges) are one document,
    named by the first such row's argument id, with the best of their grades.

    Returns ``(own, judged, merged)``: the query's unit key -> document id, document id -> grade,
    and how many rows were merged into another's document. ``fallback`` (unit key -> document id
    over all queries, the first query's name winning) is filled in on the way.
    """
    from argkb.loaders.records import text_key

    own: dict[str, str] = {}
    judged: dict[str, float] = {}
    merged = 0
    for row in rows:
        uid = text_key(text(row))
        docid = own.setdefault(uid, aid(row))
        fallback.setdefault(uid, docid)
        if docid != aid(row):
            merged += 1
        judged[docid] = max(judged.get(docid, 0.0), float(grade(row)))
    return own, judged, merged
