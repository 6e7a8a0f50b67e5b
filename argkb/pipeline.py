"""The argkb pipeline as library functions: load -> embed -> cluster -> pagerank [-> stance].

Each function is one step as its ``argkb`` command runs it (the command parses options, calls
the function and prints); :func:`update` runs the stale ones in order, as ``argkb update`` does.
Benchmarks and the evaluation adapters call the same functions, so a step is written once.

Every function takes a driver and a database (the library never opens a connection) and reports
long work through a :class:`argkb.progress.Progress` (default: silent). Heavy modules (numpy,
torch, the models) are imported inside the functions, so importing this module costs nothing.

Layering: above ``embed``, ``cluster``, ``rank``, ``stance``, ``sentences``, ``ingest`` and
``db``; below ``eval``, ``serve`` and ``cli``, which it never imports.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from argkb.cluster.store import DEFAULT_K
from argkb.errors import ArgKBError
from argkb.ingest import DEFAULT_BATCH, DEFAULT_MAX_TEXT
from argkb.loaders.aif import DEFAULT_ZIP_LIMITS, MAX_UNZIPPED_MIB
from argkb.progress import SILENT, Prefixed, Progress

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    import neo4j

    from argkb.cluster.knn import Method
    from argkb.cluster.store import ClusterRun, Kind
    from argkb.embed.model import Embedder
    from argkb.embed.store import EmbedRun
    from argkb.ingest import LoadSummary, OnError
    from argkb.rank.store import PageRankRun, Reuse, Variant
    from argkb.sentences.store import SplitRun
    from argkb.stance.store import Predictor, StanceRun

Engine = Literal["scipy", "spark"]

# -- load --------------------------------------------------------------------------------------


def read_records(
    fmt: str,
    paths: Sequence[str | Path],
    *,
    max_unzipped_mib: int = MAX_UNZIPPED_MIB,
    max_zip_ratio: float = DEFAULT_ZIP_LIMITS.ratio,
) -> Iterator[Any]:
    """The records of ``fmt``'s loader over ``paths``; AIF zips are read within the limits
    (``max_unzipped_mib`` per member, compression ratio ``max_zip_ratio``), against zip bombs."""
    if fmt == "aif":
        from argkb.loaders.aif import ZipLimits, read

        member = max_unzipped_mib * 2**20
        limits = ZipLimits(
            member=member, total=max(DEFAULT_ZIP_LIMITS.total, member), ratio=max_zip_ratio
        )
        return read(list(paths), zip_limits=limits)
    from argkb.loaders import reader

    return reader(fmt)(list(paths))


def load(
    driver: neo4j.Driver,
    database: str | None,
    fmt: str,
    paths: Sequence[str | Path],
    *,
    init: bool = True,
    on_error: OnError = "fail",
    reject_report: Path | None = None,
    batch_size: int = DEFAULT_BATCH,
    max_text: int = DEFAULT_MAX_TEXT,
    max_unzipped_mib: int = MAX_UNZIPPED_MIB,
    max_zip_ratio: float = DEFAULT_ZIP_LIMITS.ratio,
    force: bool = False,
    bulk: bool | None = None,
    progress: Progress = SILENT,
) -> LoadSummary:
    """``argkb load``: the schema (``init``; without it only the server version is checked),
    then the records of ``fmt`` over ``paths`` written as one corpus
    (:func:`argkb.ingest.load_records`, which documents the options)."""
    from argkb.db.schema import init_schema, server_info
    from argkb.ingest import load_records

    if init:
        init_schema(driver, database)
    else:
        server_info(driver, database)  # the version gate still applies
    records = read_records(
        fmt, paths, max_unzipped_mib=max_unzipped_mib, max_zip_ratio=max_zip_ratio
    )
    with progress.stage(f"load {fmt}", unit=" rec") as advance:
        return load_records(
            driver,
            fmt,
            list(paths),
            records,
            database=database,
            on_error=on_error,
            batch_size=batch_size,
            max_text=max_text,
            reject_report=reject_report,
            force=force,
            bulk=bulk,
            progress=advance,
        )


# -- embed -------------------------------------------------------------------------------------


def require(driver: neo4j.Driver, database: str | None, command: str, *needs: str) -> None:
    """Refuse ``command`` in one line, before it writes anything (the schema included), when
    the graph lacks what it needs: ``units`` (a loaded corpus), ``embedded`` (a unit with a
    vector), ``same_as`` (SAME_AS edges) (cypher/status/prerequisites.cypher)."""
    from argkb.db import cypher

    has = cypher.read(driver, "status/prerequisites", database=database)[0]
    if not has["units"]:
        raise ArgKBError(
            f"the graph has no units: load a corpus first (argkb load FORMAT PATH), then {command}"
        )
    if "embedded" in needs and not has["embedded"]:
        raise ArgKBError(f"no unit has an embedding yet: run 'argkb embed' first, then {command}")
    if "same_as" in needs and not has["same_as"]:
        raise ArgKBError(
            f"'{command} --reuse semantic' reads SAME_AS edges and the graph has none: run "
            "'argkb cluster' first"
        )


def embed(
    driver: neo4j.Driver,
    database: str | None,
    embedder: Embedder,
    *,
    all_units: bool = False,
    progress: Progress = SILENT,
) -> EmbedRun:
    """``argkb embed``: vector indexes of the embedder's size, then the units without a vector
    (every unit with ``all_units``), then the negations of the claims (for the stance-alignment
    model of ``argkb query``). ``run.negations`` counts the claims."""
    from argkb.db.schema import init_schema
    from argkb.embed.store import count_negations, count_pending, embed_negations, embed_units

    require(driver, database, "argkb embed")
    init_schema(driver, database, dimensions=embedder.dimensions)
    total = count_pending(driver, database, all_units=all_units)
    with progress.stage("embed", unit=" units", total=total) as advance:
        run = embed_units(driver, embedder, database, all_units=all_units, progress=advance)
    total = count_negations(driver, database, all_units=all_units)
    with progress.stage("negations", unit=" claims", total=total) as advance:
        run.negations = embed_negations(
            driver, embedder, database, all_units=all_units, progress=advance
        )
    return run


def prepare_query_model(progress: Progress = SILENT) -> str | None:
    """Make now what the first ``argkb query`` would otherwise make and wait for: the query
    model's ONNX graph (:meth:`argkb.embed.model.Embedder.prepare`). Its path, or None."""
    from argkb.embed.model import Embedder

    query_model = Embedder.for_queries(cache=False).prepare(echo=progress.message)
    return str(query_model) if query_model else None


def embed_default(
    driver: neo4j.Driver, database: str | None, *, progress: Progress = SILENT
) -> EmbedRun:
    """:func:`embed` with the bundled model, refusing a graph whose vectors come from another
    model (``argkb update`` cannot know the options used before)."""
    from argkb.embed.model import Embedder

    embedder = Embedder()
    check_default_model(driver, database, embedder)
    return embed(driver, database, embedder, progress=progress)


def check_default_model(driver: neo4j.Driver, database: str | None, embedder: Embedder) -> None:
    """Refuse (one line) a graph whose vectors come from another model than ``embedder``'s."""
    from argkb.db import cypher

    others = [
        r["model"]
        for r in cypher.read(
            driver, "status/embedding_models", database=database, model=embedder.model_id
        )
    ]
    if others:
        raise ArgKBError(
            f"the graph's vectors come from {others[0]}, not from argkb embed's default model "
            f"({embedder.model_id}): run 'argkb embed' with the options used before (--model, "
            "--long-text), or 'argkb embed --all' to embed everything with the default"
        )


def split_sentences(
    driver: neo4j.Driver,
    database: str | None,
    *,
    all_units: bool = False,
    progress: Progress = SILENT,
) -> SplitRun:
    """``argkb sentences``: split the premises not split yet, or whose text changed (every
    premise with ``all_units``), creating the sentence schema where it is missing."""
    from argkb.sentences.store import count_pending, ensure_schema, split_premises

    require(driver, database, "argkb sentences")
    ensure_schema(driver, database)
    total = count_pending(driver, database, all_units=all_units)
    with progress.stage("sentences", unit=" premises", total=total) as advance:
        return split_premises(driver, database, all_units=all_units, progress=advance)


def embed_sentence_vectors(
    driver: neo4j.Driver,
    database: str | None,
    *,
    progress: Progress = SILENT,
    pending: int | None = None,
) -> EmbedRun:
    """``argkb sentences --embed``'s second part: vectors for the sentences without one, with
    the bundled model (:func:`argkb.embed.store.embed_sentences`); ``pending``: their count
    where the caller has it (the progress bar's total), else counted here."""
    from argkb.embed.model import Embedder
    from argkb.embed.store import count_pending_sentences, embed_sentences

    total = pending if pending is not None else count_pending_sentences(driver, database)["pending"]
    with progress.stage("embed sentences", unit=" sentences", total=total) as advance:
        return embed_sentences(driver, Embedder(), database, progress=advance)


# -- cluster -----------------------------------------------------------------------------------


@dataclass
class ClusterReport:
    """What :func:`cluster` did: a run per kind, the SAME_AS edges written (None when skipped),
    how (``incremental``: for the new units only; ``rebuild``: all of them) and in how long."""

    runs: list[ClusterRun]
    same_as_edges: int | None
    same_as_mode: str
    same_as_seconds: float = 0.0


def cluster(
    driver: neo4j.Driver,
    database: str | None,
    *,
    cuts: Mapping[Kind, float | None] | None = None,
    k: int = DEFAULT_K,
    rebuild: bool = False,
    knn_method: Method = "auto",
    same_as: float | None = None,
    skip_same_as: bool = False,
    progress: Progress = SILENT,
) -> ClusterReport:
    """``argkb cluster``: claims, then premises, each incrementally where clusters of the same
    method exist (:func:`argkb.cluster.update.update_clusters`); then SAME_AS edges, for the new
    units only when both kinds were updated incrementally at the default threshold."""
    from argkb.cluster.store import DEFAULT_SAME_AS, link_same_as
    from argkb.cluster.update import pending_units, update_clusters, update_same_as

    require(driver, database, "argkb cluster", "embedded")
    cuts = cuts or {}
    kinds: tuple[Kind, ...] = ("claim", "premise")
    # the units SAME_AS must look at again if every kind is updated incrementally (read before
    # they get a cluster; not at all when no incremental SAME_AS can follow)
    new: dict[str, list[int]] = {}
    if not rebuild and not skip_same_as and same_as is None:
        new = {u: pending_units(driver, database, u)[0].tolist() for u in kinds}
    runs = []
    for kind in kinds:
        with progress.stage(f"cluster {kind}s", unit=" units") as advance:
            runs.append(update_clusters(driver, database, kind=kind, cut=cuts.get(kind), k=k,
                                        rebuild=rebuild, knn_method=knn_method,
                                        progress=advance))  # fmt: skip
    if skip_same_as:
        return ClusterReport(runs, None, "rebuild")
    threshold = same_as or DEFAULT_SAME_AS
    clock = time.perf_counter()
    with progress.stage("SAME_AS", unit=" claims") as advance:
        if all(run.mode == "incremental" for run in runs) and same_as is None:
            mode = "incremental"
            same = update_same_as(driver, database, claims=new["claim"], premises=new["premise"],
                                  threshold=threshold, progress=advance)  # fmt: skip
        else:
            mode = "rebuild"
            same = link_same_as(driver, database, threshold=threshold, progress=advance)
    return ClusterReport(runs, same, mode, time.perf_counter() - clock)


# -- pagerank ----------------------------------------------------------------------------------


def pagerank(
    driver: neo4j.Driver,
    database: str | None,
    *,
    alpha: float = 0.85,
    tol: float = 1e-10,
    max_iter: int = 200,
    reuse: Reuse = "exact",
    variant: Variant = "adapted",
    warm: bool = False,
    engine: Engine = "scipy",
    progress: Progress = SILENT,
) -> PageRankRun:
    """``argkb pagerank``: argument PageRank (Wachsmuth et al., EACL 2017) computed in SciPy
    (or Spark, ``engine``) and written back (:func:`argkb.rank.store.run_pagerank`)."""
    needs = ("same_as",) if reuse == "semantic" else ()
    require(driver, database, "argkb pagerank", *needs)
    if engine == "spark":
        from argkb.rank.spark import run_pagerank_spark as run
    else:
        from argkb.rank.store import run_pagerank as run

    return run(driver, database, alpha=alpha, tol=tol, max_iter=max_iter, reuse=reuse,
               variant=variant, warm=warm, echo=progress.message)  # fmt: skip


# -- stance ------------------------------------------------------------------------------------


def stance_model(
    kind: str = "cross", path: Path | None = None, *, device: str = "cpu"
) -> Callable[[], Predictor]:
    """A loader of the stance model of ``kind`` (or the one in ``path``), for :func:`stance`:
    the model is loaded only when some edge needs a stance."""
    from argkb.stance.store import load_model

    return lambda: load_model(kind, path, device=device)  # type: ignore[arg-type]


def stance(
    driver: neo4j.Driver,
    database: str | None,
    *,
    model: Callable[[], Predictor] | None = None,
    refresh: bool = False,
    progress: Progress = SILENT,
) -> StanceRun:
    """``argkb stance``: P(pro) for the premise edges whose stance the data left unknown
    (:func:`argkb.stance.store.predict_unknown`; ``model`` None: the shipped one)."""
    from argkb.stance.store import predict_unknown

    with progress.stage("stance", unit=" edges") as advance:
        return predict_unknown(driver, database, model=model, refresh=refresh, progress=advance)


# -- update ------------------------------------------------------------------------------------

STEPS = ("embed", "sentences", "cluster", "pagerank", "stance")


@dataclass
class StepReport:
    """One pipeline step of an update: what was stale before it, whether it ran, what it did."""

    step: str
    stale: dict[str, int]  # what -> count, only the non-zero ones
    ran: bool = False
    seconds: float = 0.0
    result: dict[str, Any] = field(default_factory=dict)


@dataclass
class UpdateReport:
    """What :func:`update` found (``dry_run``) or did, and whether it created the schema."""

    dry_run: bool
    initialised: bool
    steps: list[StepReport]


def stale_counts(driver: neo4j.Driver, database: str | None, step: str) -> dict[str, int]:
    """The non-zero stale counts that ``argkb <step>`` brings to 0."""
    if step == "stance":
        from argkb.stance.store import stance_counts

        unknown = stance_counts(driver, database).get("unknown", 0)
        return {"premise_edges_with_unknown_stance": unknown} if unknown else {}
    from argkb.db.staleness import stale_steps

    prefix = f"argkb {step}"
    return {
        s.what: s.count
        for s in stale_steps(driver, database)
        if s.count and (s.command == prefix or s.command.startswith(prefix + " "))
    }


# the plural word of a stale count's name, for a count of one ("1 corpus since cluster")
_ONE = {"units": "unit", "claims": "claim", "premises": "premise", "corpora": "corpus",
        "sentences": "sentence", "arguments": "argument", "runs": "run",
        "edges": "edge"}  # fmt: skip


def describe(stale: dict[str, int]) -> str:
    """Stale counts in words: ``3 units without embedding, 1 corpus since cluster``."""

    def words(what: str, count: int) -> str:
        names = what.split("_")
        plural = next((i for i, name in enumerate(names) if name in _ONE), None)
        if count == 1 and plural is not None:
            names[plural] = _ONE[names[plural]]
        return f"{count:,} {' '.join(names)}"

    return ", ".join(words(what, count) for what, count in stale.items())


def create_missing_schema(
    driver: neo4j.Driver, database: str | None, progress: Progress = SILENT
) -> bool:
    """Create missing constraints and indexes and build again full-text indexes made with
    another analyzer (``argkb init``). Returns whether any was."""
    from argkb.db.schema import (
        constraints,
        indexes,
        init_schema,
        missing_schema,
        outdated_indexes,
    )

    found = indexes(driver, database)
    missing = missing_schema(constraints(driver, database), found)
    outdated = outdated_indexes(found)
    if not missing and not outdated:
        return False
    what = [f"creating {', '.join(m['name'] for m in missing)}"] if missing else []
    what += [f"building {', '.join(o['name'] for o in outdated)} again"] if outdated else []
    progress.message(f"update: init: {'; '.join(what)}")
    init_schema(driver, database)
    return True


def check_loads(driver: neo4j.Driver, database: str | None) -> None:
    """Refuse (one line) a graph with an unfinished load: only that load can finish it."""
    from argkb.db.schema import incomplete_corpora, load_name

    unfinished = incomplete_corpora(driver, database)
    if unfinished:
        load = unfinished[0]
        again = (
            f"'argkb db drop {load['cid']}' again"
            if load["status"] == "dropping"
            else "the same 'argkb load' again"
        )
        raise ArgKBError(
            f"{load_name(load)} is {load['status']}: run {again} first, then 'argkb update'"
            + (f" ({len(unfinished) - 1} more unfinished loads)" if len(unfinished) > 1 else "")
        )


def _update_embed(driver: neo4j.Driver, database: str | None, p: Progress) -> dict[str, Any]:
    run = embed_default(driver, database, progress=p)
    return {"units": run.units, "negations": run.negations, "model": run.model}


def _update_sentences(driver: neo4j.Driver, database: str | None, p: Progress) -> dict[str, Any]:
    """Split what is pending; embed the sentences without a vector where the graph's sentences
    were embedded before (``argkb sentences --embed`` is opt-in, and so is this)."""
    from argkb.embed.store import count_pending_sentences

    run = split_sentences(driver, database, progress=p)
    done = {"premises": run.premises, "sentences": run.sentences}
    counts = count_pending_sentences(driver, database)
    if counts["embedded"] and counts["pending"]:
        done["embedded_sentences"] = embed_sentence_vectors(
            driver, database, progress=p, pending=counts["pending"]
        ).units
    return done


def _update_cluster(driver: neo4j.Driver, database: str | None, p: Progress) -> dict[str, Any]:
    report = cluster(driver, database, progress=p)
    return {
        "runs": [
            {"kind": r.kind, "mode": r.mode, "reason": r.reason, "new_units": r.new_units}
            for r in report.runs
        ],
        "same_as_edges": report.same_as_edges,
        "same_as_mode": report.same_as_mode,
    }


def _update_pagerank(driver: neo4j.Driver, database: str | None, p: Progress) -> dict[str, Any]:
    run = pagerank(driver, database, warm=True, progress=Prefixed(p, "  "))
    return {"units": run.units, "arguments": run.arguments, "iterations": run.iterations,
            "residual": run.residual}  # fmt: skip


def _update_stance(driver: neo4j.Driver, database: str | None, p: Progress) -> dict[str, Any]:
    return asdict(stance(driver, database, progress=p))  # the shipped model, loaded if needed


_RUNNERS: dict[str, Callable[[neo4j.Driver, str | None, Progress], dict[str, Any]]] = {
    "embed": _update_embed,
    "sentences": _update_sentences,
    "cluster": _update_cluster,
    "pagerank": _update_pagerank,
    "stance": _update_stance,
}


def update(
    driver: neo4j.Driver,
    database: str | None,
    *,
    with_stance: bool = False,
    dry_run: bool = False,
    progress: Progress = SILENT,
) -> UpdateReport:
    """``argkb update``: run only the stale steps of the pipeline, in order, each with the
    defaults of its command (``argkb pagerank --warm`` for PageRank; ``stance`` only with
    ``with_stance``). What is stale is :func:`stale_counts` (what ``argkb status`` shows),
    checked again right before each step: embedding new units gives the cluster step new units
    to place. ``dry_run`` only reports what is stale."""
    steps = [s for s in STEPS if s != "stance" or with_stance]
    check_loads(driver, database)
    require(driver, database, "argkb update")
    if dry_run:  # the checks a real run makes, so that it predicts a refusal too
        reports = [StepReport(step, stale_counts(driver, database, step)) for step in steps]
        if any(r.stale for r in reports if r.step == "embed"):
            from argkb.embed.model import Embedder

            check_default_model(driver, database, Embedder())
        return UpdateReport(dry_run=True, initialised=False, steps=reports)
    initialised = create_missing_schema(driver, database, progress)
    reports = []
    for step in steps:
        stale = stale_counts(driver, database, step)
        report = StepReport(step, stale)
        reports.append(report)
        if not stale:
            progress.message(f"update: {step}: up to date")
            continue
        command = "pagerank --warm" if step == "pagerank" else step
        progress.message(f"update: {step}: {describe(stale)}; running 'argkb {command}'")
        started = time.perf_counter()
        report.result = _RUNNERS[step](driver, database, progress)
        report.ran = True
        report.seconds = time.perf_counter() - started
        progress.message(f"update: {step}: done in {report.seconds:.1f} s")
    return UpdateReport(dry_run=False, initialised=initialised, steps=reports)
