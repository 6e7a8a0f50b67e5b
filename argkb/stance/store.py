"""``argkb stance``: predict the stance of PREMISE_OF edges the data left unknown, in Neo4j.

Edge properties (see docs/data-model.md):

* ``stance``: ``pro``/``con`` (from the data or the model), ``unknown`` until predicted;
* ``stance_source``: ``data`` or ``model`` (absent while unknown);
* ``stance_p_pro``: the model's P(pro), only where ``stance_source = 'model'``;
* ``stance_model``: the model's id (``stance-cross-all-mpnet-base-v2:<training date>`` for the
  cross-encoder, the default; ``stance-cross:<training date>`` for ``cross-minilm``;
  ``stance-lr:<training date>`` for the linear model), likewise.

A stance from the data is never overwritten: the write matches only edges whose stance is
unknown or came from the model, and ``argkb load`` of data with a stance replaces a model's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from argkb.db import cypher

if TYPE_CHECKING:
    import neo4j
    import numpy as np
    from numpy.typing import NDArray

    from argkb.embed.model import Embedder

log = logging.getLogger(__name__)

Kind = Literal["cross", "cross-minilm", "linear"]
KINDS: tuple[Kind, ...] = ("cross", "cross-minilm", "linear")


class Predictor(Protocol):
    """What ``argkb stance`` needs of a model: P(pro) per pair and an id for provenance."""

    long_text: str

    @property
    def model_id(self) -> str: ...

    def predict(
        self, embedder: Embedder, premises: list[str], conclusions: list[str]
    ) -> NDArray[np.float64]: ...


def load_model(kind: Kind = "cross", path: Path | None = None, *, device: str = "cpu") -> Predictor:
    """The shipped stance model of ``kind`` (or the one in ``path``).

    ``cross`` (default): :class:`argkb.stance.cross.CrossStanceModel` on all-mpnet-base-v2;
    ``cross-minilm``: the same recipe on all-MiniLM-L6-v2 (less accurate, about eight times
    faster); for both ``path`` is the model's JSON, with the weights beside it (same name,
    ``.safetensors``). ``linear``: :class:`argkb.stance.model.StanceModel`; ``path`` is its JSON.
    """
    from argkb.errors import ConfigError

    if kind in ("cross", "cross-minilm"):
        from argkb.stance.cross import SHIPPED, CrossStanceModel

        weights, info = SHIPPED[kind] if path is None else (path.with_suffix(".safetensors"), path)
        return CrossStanceModel.load(weights, info, device=device)
    if kind == "linear":
        from argkb.stance.model import StanceModel

        return StanceModel.load(path) if path else StanceModel.load()
    raise ConfigError(f"unknown stance model {kind!r} (known: {', '.join(KINDS)})")


@dataclass
class StanceRun:
    """What one ``argkb stance`` run did."""

    pending: int
    written: int
    pro: int
    con: int
    model: str | None  # None: nothing was pending (with a text), so no model was loaded
    skipped: int = 0  # pending edges whose premise or conclusion has no text: left unknown


def stance_counts(driver: neo4j.Driver, database: str | None = None) -> dict[str, int]:
    """PREMISE_OF edges by stance source: ``data``, ``model``, ``unknown``."""
    from neo4j import RoutingControl

    records, _, _ = driver.execute_query(
        cypher.load("stance/counts"), database_=database, routing_=RoutingControl.READ
    )
    row = records[0]
    return {"data": int(row["data"]), "model": int(row["model"]), "unknown": int(row["unknown"])}


def _pending(
    driver: neo4j.Driver, database: str | None, refresh: bool, batch: int
) -> Iterator[list[dict[str, Any]]]:
    with driver.session(database=database, default_access_mode="READ", fetch_size=batch) as s:
        rows: list[dict[str, Any]] = []
        for record in s.run(cypher.load("stance/pending"), {"refresh": refresh}):
            rows.append(dict(record))
            if len(rows) >= batch:
                yield rows
                rows = []
        if rows:
            yield rows


def _has_text(row: dict[str, Any]) -> bool:
    """Whether both texts of a pending edge are texts with something in them."""
    return all(
        isinstance(row[name], str) and row[name].strip()
        for name in ("premise_text", "conclusion_text")
    )


def predict_unknown(
    driver: neo4j.Driver,
    database: str | None = None,
    *,
    embedder: Embedder | None = None,
    model: Predictor | Callable[[], Predictor] | None = None,
    refresh: bool = False,
    batch: int = 2_000,
    progress: Callable[[int], object] | None = None,
) -> StanceRun:
    """Predict P(pro) for every PREMISE_OF edge with an unknown stance and write it.

    ``refresh`` also re-predicts edges the model labelled before (e.g. after a new model).
    Edges are read and written in batches of ``batch``; stance is ``pro`` when P(pro) >= 0.5.

    ``model`` is a loaded :class:`Predictor` or a function that loads one (default: the
    shipped cross-encoder, :func:`load_model`), and ``embedder`` defaults to the default
    embedding model with the predictor's ``long_text``. Both are loaded only when some edge is
    pending: with nothing to predict the run returns at once, ``model`` None.

    An edge whose premise or conclusion has no text (empty, blank or missing: possible in a
    graph argkb did not build) is skipped and counted in ``skipped``: no text has a stance, so
    it stays unknown, and nothing is written to it.
    """
    # read everything first: writing while the read cursor is open would change what it reads
    batches = list(_pending(driver, database, refresh, batch))
    pending = sum(len(b) for b in batches)
    usable = [[r for r in rows if _has_text(r)] for rows in batches]
    skipped = pending - sum(len(rows) for rows in usable)
    if skipped:
        log.info("stance: %d of %d edges skipped: premise or conclusion has no text", skipped,
                 pending)  # fmt: skip
    if pending == skipped:
        log.info("stance: no premise edge with a text needs a stance; no model loaded")
        return StanceRun(pending, 0, 0, 0, None, skipped)
    if model is None:
        model = load_model()
    elif callable(model) and not hasattr(model, "predict"):
        model = model()
    predictor: Predictor = model  # type: ignore[assignment]
    log.info("stance: %d edges to predict with %s", pending - skipped, predictor.model_id)
    if embedder is None:
        from argkb.embed.model import Embedder

        embedder = Embedder(long_text=predictor.long_text)  # type: ignore[arg-type]
    run = StanceRun(pending, 0, 0, 0, predictor.model_id, skipped)
    query = cypher.load("stance/write")
    for read, rows in zip(batches, usable, strict=True):
        if progress:
            progress(len(read) - len(rows))  # the skipped ones
        if not rows:
            continue
        p_pro = predictor.predict(
            embedder, [r["premise_text"] for r in rows], [r["conclusion_text"] for r in rows]
        )
        out = [
            {"premise": r["premise"], "argument": r["argument"],
             "stance": "pro" if p >= 0.5 else "con", "p_pro": float(p)}
            for r, p in zip(rows, p_pro, strict=True)
        ]  # fmt: skip
        records, _, _ = driver.execute_query(
            query, {"rows": out, "model": predictor.model_id}, database_=database
        )
        run.written += int(records[0]["written"])
        run.pro += sum(1 for r in out if r["stance"] == "pro")
        run.con += sum(1 for r in out if r["stance"] == "con")
        log.debug("stance: wrote %d edges", len(out))
        if progress:
            progress(len(rows))
    return run
