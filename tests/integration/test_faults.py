"""Fault tier (issue 13): argkb and Neo4j killed mid-job, and queries during loads, on a real
Neo4j that this module starts for itself (its own ARGKB_HOME, instance and port), so that killing
it harms no other test.

Already covered elsewhere and not repeated here: an ``argkb load`` SIGKILLed once resumes to the
graph of a clean load (test_ingest.py, normal; test_ingest_bulk.py, bulk); Neo4j SIGKILLed
mid-load is one line and the load completes to the graph of a clean load (test_neo4j_killed.py).
Here: a load killed twice, the second time during its own resume; Neo4j killed during
``argkb query`` (right after it connected, and in the middle of its Cypher statements); queries
from a second process and a thread while a normal and a bulk load write.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import neo4j
import numpy as np
import pytest
from graphs import kill_load_midway, load, snapshot

from argkb.db.distribution import NEO4J_VERSION, Distribution
from argkb.db.failures import translate
from argkb.db.schema import init_schema
from argkb.db.server import LocalServer, ServerConfig, free_port
from argkb.errors import ArgKBError, DatabaseUnavailable

if TYPE_CHECKING:
    from argkb.query.settings import RankerName

pytestmark = [pytest.mark.neo4j, pytest.mark.slow]

DEMO = Path(__file__).resolve().parents[2] / "examples" / "debates.json"
ARGKB = str(Path(sys.executable).parent / "argkb")  # the console script of this environment
QUERIES = ["We should abandon fossil fuels", "Nuclear power is safe", "zoos are cruel", "tax"]


@dataclass
class Private:
    """This module's server, its driver and the environment that points argkb commands at it."""

    server: LocalServer
    home: Path
    driver: neo4j.Driver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = self._driver()

    def _driver(self) -> neo4j.Driver:
        from neo4j import GraphDatabase

        return GraphDatabase.driver(self.server.config.uri, auth=self.server.config.auth())

    @property
    def env(self) -> dict[str, str]:
        auth = self.server.config.auth()
        assert auth is not None, "the private server has no password"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "ARGKB_"))}
        return {**env, "ARGKB_HOME": str(self.home), "NEO4J_URI": self.server.config.uri,
                "NEO4J_USERNAME": auth[0], "NEO4J_PASSWORD": auth[1]}  # fmt: skip

    def kill(self) -> None:
        """SIGKILL Neo4j."""
        pid = self.server.state().pid
        assert pid is not None, "the private server is not running"
        os.kill(pid, signal.SIGKILL)

    def revive(self) -> None:
        """Start Neo4j again on the same data (after :meth:`kill`); a fresh driver."""
        self.driver.close()
        self.server.start()
        self.driver = self._driver()
        self.driver.verify_connectivity()


@pytest.fixture(scope="module")
def private(argkb_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Private]:
    real = (argkb_home / f"neo4j-{NEO4J_VERSION}").resolve()
    home = tmp_path_factory.mktemp("faults-home")
    (home / real.name).symlink_to(real, target_is_directory=True)
    config = ServerConfig(
        home / "instances" / "default", bolt_port=free_port(), heap="768m", pagecache="256m"
    )
    server = LocalServer(Distribution(home / real.name), config)
    server.start()
    node = Private(server, home)
    try:
        yield node
    finally:
        node.driver.close()
        server.stop()


@pytest.fixture(scope="module")
def embedder():
    from argkb.embed.model import Embedder

    return Embedder()


@pytest.fixture()
def clean(private: Private, wipe_db: Callable[[neo4j.Driver], None]) -> Callable[[], None]:
    """Wipe the private server's graph (what the session's ``wipe_db`` does) and init it."""

    def wipe() -> None:
        wipe_db(private.driver)
        init_schema(private.driver)

    return wipe


@pytest.fixture()
def demo(private: Private, embedder, clean: Callable[[], None]) -> Private:
    """The private server holding the demo corpus, embedded, clustered and ranked (built once;
    tests that wipe the graph get it back)."""
    from argkb.cluster.store import cluster_units, link_same_as
    from argkb.embed.store import embed_units
    from argkb.rank.store import run_pagerank

    driver = private.driver
    ready = driver.execute_query(
        "MATCH (c:Corpus) WITH collect(c.files) AS files "
        "RETURN size(files) = 1 AND any(f IN files[0] WHERE f ENDS WITH $demo) "
        "AND EXISTS { MATCH (c:Claim) WHERE c.embedding IS NOT NULL } AS ok",
        demo=DEMO.name,
    ).records[0]["ok"]
    if not ready:
        clean()
        load(driver, "argsme", DEMO)
        embed_units(driver, embedder)
        cluster_units(driver, kind="claim")
        cluster_units(driver, kind="premise")
        link_same_as(driver)
        run_pagerank(driver)
    return private


def _one_error_line(stderr: str) -> str:
    """The one ``Error:`` line of a failed command; no traceback, nothing else but progress bars,
    notes and log lines."""
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, stderr
    return errors[0]


# -- (a) argkb killed twice mid-load -------------------------------------------------------------

LOAD_SCRIPT = """
import sys
from argkb.cli import main
sys.argv = ["argkb", "load", "argsme", sys.argv[1], "--batch-size", "50", "--no-bulk"]
main()
"""


def test_a_load_killed_twice_resumes_to_the_clean_graph(
    private: Private, clean: Callable[[], None], tmp_path: Path
) -> None:
    """SIGKILL of ``argkb load`` at 500 arguments, then of the resumed load at 1,500: a third
    run completes to exactly the graph of one clean load."""
    from synthcorpus import write_json

    driver = private.driver
    clean()
    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=21)
    uri, env = private.server.config.uri, private.env
    first = kill_load_midway(driver, uri, LOAD_SCRIPT, corpus, at=500, env=env)
    second = kill_load_midway(driver, uri, LOAD_SCRIPT, corpus, at=first + 1000, env=env)
    assert 500 <= first < second
    status = driver.execute_query("MATCH (c:Corpus) RETURN c.status AS s").records
    assert [r["s"] for r in status] == ["loading"]

    done = subprocess.run(
        [sys.executable, "-c", LOAD_SCRIPT, str(corpus)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    resumed = snapshot(driver)

    clean()
    fresh = load(driver, "argsme", corpus, bulk=False)
    assert fresh.rejected == 0 and fresh.arguments >= 3000
    assert snapshot(driver) == resumed  # nothing lost, nothing twice
    clean()  # the next test that needs the demo graph builds it again


# -- (b) argkb embed, cluster and pagerank killed mid-run ---------------------------------------
#
# Where such a command is killed matters more than when: each test holds a write lock that a late
# batch of the command needs (an open transaction of this test's own, as a second writer would),
# waits until Neo4j reports the command's transaction blocked on it, SIGKILLs argkb there, and only
# then rolls its own transaction back. So the kill always lands after some batches are committed
# and before the last one, however slow the machine; no sleeps decide it.

SYNTH_SHAPE = {"single_sentence_share": 1.0, "premise_cluster_mean": 1.2}  # short texts: cheap
SYNTH_ARGUMENTS = 1500  # debate-like arguments, whose premises form a few hundred clusters
FILLER_ARGUMENTS = 2400  # and arguments whose premise is a bag of unrelated words (a cluster each)
EMBED_PAGE = 2048  # argkb.embed.store.embed_units' page
CLUSTER_BATCH = 2000  # clusters per write transaction (argkb.cluster.store.write_clusters)


def _synth_corpus(path: Path, seed: int, n: int = SYNTH_ARGUMENTS, filler: int = 0) -> Path:
    """A throw-away args.me JSONL corpus: ``n`` synthetic one-sentence arguments, interleaved
    with ``filler`` arguments whose premise is ten words drawn at random from the synthetic
    vocabulary (unlike each other, so each is a premise cluster of its own: over 2,000 premise
    clusters from about 4,100 units, fewer than the synthetic corpus alone would need)."""
    import random

    from synthcorpus import Shape, generate
    from synthcorpus.vocabulary import DOMAINS

    words = sorted(
        {w for d in DOMAINS.values() for forms in (*d.goods, *d.bads, *d.groups, *d.qualifiers,
         d.related) for form in forms for w in form.split()}
    )  # fmt: skip
    rng = random.Random(seed)
    synthetic = generate(n, seed=seed, shape=Shape(**SYNTH_SHAPE))  # type: ignore[arg-type]
    with path.open("w", encoding="utf-8") as out:
        for i, argument in enumerate(synthetic):
            out.write(json.dumps(argument) + "\n")
            for j in range(filler * i // n, filler * (i + 1) // n):
                text = " ".join(rng.choice(words) for _ in range(10)).capitalize() + "."
                stance = rng.choice(["PRO", "CON"])
                source = f"filler-{seed}-{j // 10}"
                out.write(json.dumps({
                    "id": f"{source}-{j}", "conclusion": f"Filler claim number {j % 20}",
                    "premises": [{"text": text, "stance": stance, "annotations": []}],
                    "context": {"sourceId": source, "discussionTitle": "filler"},
                }) + "\n")  # fmt: skip
    return path


@contextlib.contextmanager
def _holding(driver: neo4j.Driver, query: str, **params: object) -> Iterator[int]:
    """Run ``query`` (which SETs something on the nodes to lock) in a transaction that stays
    open until the block ends, then is rolled back; yields how many rows it locked."""
    with driver.session() as session:
        tx = session.begin_transaction()
        try:
            locked = len(tx.run(query, params).data())
            assert locked > 0, f"nothing to lock: {query}"
            yield locked
        finally:
            tx.rollback()


def _blocked(driver: neo4j.Driver) -> bool:
    rows = driver.execute_query(
        "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n"
    ).records
    return bool(rows[0]["n"])


def _quiet(driver: neo4j.Driver) -> None:
    """Wait until no transaction but this check's own runs (a killed client's transaction is
    rolled back by the server once it notices the closed connection)."""
    deadline = time.monotonic() + 120
    count = "SHOW TRANSACTIONS YIELD transactionId RETURN count(*) AS n"
    while driver.execute_query(count).records[0]["n"] > 1:
        assert time.monotonic() < deadline, "a killed command's transaction is still running"
        time.sleep(0.2)


def _argkb(private: Private, *args: str, err: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ARGKB, *args], env=private.env, stdout=subprocess.PIPE, stderr=err.open("w"), text=True
    )


def _kill_when_blocked(
    private: Private,
    args: list[str],
    lock: str,
    tmp_path: Path,
    *,
    lock_when: Callable[[], bool] = lambda: True,
    kill_when: Callable[[], bool] = lambda: True,
    **params: object,
) -> str:
    """Start ``argkb *args``; once ``lock_when()`` holds, lock the nodes of the query ``lock``;
    SIGKILL argkb when its transaction waits for that lock and ``kill_when()`` holds, then
    release the lock. Returns argkb's stderr up to the kill."""
    err = tmp_path / f"{args[0]}-killed.err"
    proc = _argkb(private, *args, err=err)
    driver = private.driver
    deadline = time.monotonic() + 600
    try:
        while not lock_when():
            assert proc.poll() is None, f"argkb {args[0]} ended too early: {err.read_text()}"
            assert time.monotonic() < deadline, f"argkb {args[0]} never got there"
            time.sleep(0.2)
        with _holding(driver, lock, **params):
            while not (_blocked(driver) and kill_when()):
                assert proc.poll() is None, (
                    f"argkb {args[0]} ended before it reached the held lock: {err.read_text()}"
                )
                assert time.monotonic() < deadline, f"argkb {args[0]} never waited for the lock"
                time.sleep(0.2)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    _quiet(driver)
    return err.read_text()


def _rerun(private: Private, *args: str) -> Any:
    """``argkb *args --json`` to the end: exit 0, no traceback; its JSON."""
    done = subprocess.run(
        [ARGKB, *args, "--json"], env=private.env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def _status(private: Private) -> dict[str, Any]:
    """``argkb status --json``, checked for what a killed command could leave: no unfinished
    load, nothing missing from the schema."""
    status = _rerun(private, "status")
    assert status["incomplete_loads"] == [] and status["missing"] == [], status
    return status


def _stale(status: dict[str, Any], *commands: str) -> dict[str, int]:
    """The stale counts of ``status`` for the steps run by ``commands``."""
    return {s["what"]: s["count"] for s in status["stale"] if s["command"].startswith(commands)}


def _vectors(driver: neo4j.Driver) -> dict[str, tuple[Any, Any]]:
    rows = driver.execute_query(
        "MATCH (u:Unit) RETURN u.uid AS uid, u.embedding AS v, u.negation_embedding AS n"
    ).records
    return {r["uid"]: (r["v"], r["n"]) for r in rows}


def test_embed_killed_resumes_to_the_vectors_of_a_clean_run(
    private: Private, clean: Callable[[], None], tmp_path: Path
) -> None:
    """SIGKILL of ``argkb embed`` while it writes its second page: the re-run embeds exactly
    the units the first run did not write (none twice), and every unit ends with the vector and
    negation vector of an uninterrupted run."""
    driver = private.driver
    clean()
    corpus = _synth_corpus(tmp_path / "embed.jsonl", seed=51, filler=FILLER_ARGUMENTS)
    load(driver, "argsme", corpus)
    pending = [r["id"] for r in driver.execute_query(
        "MATCH (u:Unit) WHERE coalesce(u.text, '') <> '' RETURN id(u) AS id ORDER BY id"
    ).records]  # fmt: skip
    assert len(pending) > EMBED_PAGE + 500, "the corpus is too small for a kill mid-run"
    stderr = _kill_when_blocked(
        private, ["embed"], "MATCH (u) WHERE id(u) = $id SET u.held = true RETURN u",
        tmp_path, id=pending[EMBED_PAGE],  # the first unit of the second page
    )  # fmt: skip
    assert "Traceback" not in stderr, stderr
    written = driver.execute_query(
        "MATCH (u:Unit) WHERE u.embedding IS NOT NULL RETURN count(u) AS n"
    ).records[0]["n"]
    assert written == EMBED_PAGE  # the first page, not the second
    behind = _stale(_status(private), "argkb embed")
    assert behind["units_without_embedding"] == len(pending) - written

    run = _rerun(private, "embed")
    assert run["units"] == len(pending) - written  # the rest, nothing embedded twice
    status = _status(private)
    assert set(_stale(status, "argkb embed").values()) == {0}, status["stale"]
    resumed = _vectors(driver)
    units = driver.execute_query("MATCH (u:Unit) RETURN count(u) AS n, count(DISTINCT u.uid) AS d")
    assert units.records[0]["n"] == units.records[0]["d"] == len(resumed)

    clean()
    load(driver, "argsme", corpus)
    fresh = _rerun(private, "embed")
    assert fresh["units"] == len(pending) == run["units"] + written
    assert fresh["negations"] == run["negations"]
    expected = _vectors(driver)
    assert expected.keys() == resumed.keys()
    for uid, (vector, negation) in expected.items():
        got, got_negation = resumed[uid]
        assert (vector is None) == (got is None), uid
        assert (negation is None) == (got_negation is None), uid
        if vector is not None:
            assert np.allclose(got, vector, atol=1e-6), uid
        if negation is not None:
            assert np.allclose(got_negation, negation, atol=1e-6), uid
    assert sum(v is not None for v, _ in expected.values()) == len(pending)
    # the graph stays, embedded and not clustered, for the cluster tests (fixture `embedded`)


@pytest.fixture()
def embedded(private: Private, clean: Callable[[], None], tmp_path_factory) -> Private:
    """The private server holding the synthetic corpus, embedded by ``argkb embed`` (the
    embedding cache of the private home makes a second build cheap), without clusters."""
    driver = private.driver
    row = driver.execute_query(
        "MATCH (u:Unit) WITH count(u) AS n, count(u.embedding) AS e "
        "RETURN n, e, COUNT { (:Corpus {status: 'complete'}) } AS corpora"
    ).records[0]
    if not (row["n"] > EMBED_PAGE and row["n"] == row["e"] and row["corpora"] == 1):
        clean()
        corpus = tmp_path_factory.mktemp("synth") / "cluster.jsonl"
        load(driver, "argsme", _synth_corpus(corpus, seed=51, filler=FILLER_ARGUMENTS))
        _rerun(private, "embed")
    driver.execute_query("MATCH (c:Cluster) DETACH DELETE c")
    driver.execute_query("MATCH ()-[r:SAME_AS]->() DELETE r")
    driver.execute_query("MATCH (c:Corpus) REMOVE c.clustered")
    return private


def _clustering(driver: neo4j.Driver) -> dict[str, Any]:
    """The clusters as partitions of unit uids per kind (cluster ids left out: a resumed run may
    number them differently), each premise cluster's claim frequencies, the SAME_AS edges, and
    the units in no cluster or in more than one of a kind."""
    rows = driver.execute_query(
        "MATCH (c:Cluster)<-[:IN_CLUSTER]-(u:Unit) WITH c, collect(u.uid) AS members "
        "RETURN c.kind AS kind, c.cf_pro AS pro, c.cf_con AS con, c.size AS size, members"
    ).records
    partition: dict[str, set[frozenset[str]]] = {"claim": set(), "premise": set()}
    cf = {}
    for r in rows:
        members = frozenset(r["members"])
        assert r["size"] == len(members)
        partition[r["kind"]].add(members)
        if r["kind"] == "premise":
            cf[members] = (r["pro"], r["con"])
    same_as = driver.execute_query(
        "MATCH (a)-[r:SAME_AS]->(b) RETURN a.uid AS a, b.uid AS b, r.score AS s"
    ).records
    odd = driver.execute_query(
        "MATCH (u:Unit) WHERE u.embedding IS NOT NULL "
        "UNWIND [k IN ['Claim', 'Premise'] WHERE k IN labels(u)] AS kind "
        "WITH u, kind, COUNT { (u)-[:IN_CLUSTER]->(c:Cluster) "
        "  WHERE c.kind = toLower(kind) } AS n WHERE n <> 1 "
        "RETURN u.uid AS uid, kind, n"
    ).records
    return {
        "partition": partition,
        "cf": cf,
        "same_as": {(r["a"], r["b"]): round(r["s"], 6) for r in same_as},
        "not_in_one_cluster": [r.data() for r in odd],
    }


def _assert_same_clustering(resumed: dict[str, Any], clean_run: dict[str, Any]) -> None:
    assert resumed["not_in_one_cluster"] == []
    for kind in ("claim", "premise"):
        extra = resumed["partition"][kind] - clean_run["partition"][kind]
        assert not extra, f"{len(extra)} {kind} clusters differ from a clean run's"
    assert resumed["partition"] == clean_run["partition"]
    assert resumed["cf"] == clean_run["cf"]
    assert resumed["same_as"] == clean_run["same_as"]


def test_cluster_killed_while_writing_premise_clusters_resumes_to_a_clean_run(
    embedded: Private, clean: Callable[[], None], tmp_path: Path
) -> None:
    """SIGKILL of ``argkb cluster`` once its first batch of premise clusters is committed: the
    re-run ends with the clusters, claim frequencies and SAME_AS edges of a clean run."""
    driver = embedded.driver
    stderr = _kill_when_blocked(
        embedded, ["cluster"], "CREATE (c:Cluster {cid: $cid, kind: 'held'}) RETURN c",
        tmp_path, cid=f"premise:{CLUSTER_BATCH}",  # the first cluster of the second batch
    )  # fmt: skip
    assert "Traceback" not in stderr, stderr
    counts = driver.execute_query(
        "RETURN COUNT { (:ClaimCluster) } AS claims, COUNT { (:PremiseCluster) } AS premises"
    ).records[0]
    assert counts["claims"] > 0 and counts["premises"] == CLUSTER_BATCH  # killed mid-kind
    behind = _stale(_status(embedded), "argkb cluster")
    assert behind["premises_without_cluster"] > 0, behind

    _rerun(embedded, "cluster")
    status = _status(embedded)
    assert set(_stale(status, "argkb embed", "argkb cluster").values()) == {0}, status["stale"]
    resumed = _clustering(driver)
    _rerun(embedded, "cluster", "--rebuild")
    _assert_same_clustering(resumed, _clustering(driver))
    clean()


def test_cluster_killed_while_writing_same_as_resumes_to_a_clean_run(
    embedded: Private, clean: Callable[[], None], tmp_path: Path
) -> None:
    """SIGKILL of ``argkb cluster`` while it writes SAME_AS edges (claim and premise clusters
    complete): the re-run writes them all, and ``argkb status`` says so until it has."""
    driver = embedded.driver

    def clusters_written() -> bool:
        row = driver.execute_query(
            "MATCH (c:Corpus) RETURN count(c.clustered) = count(c) AS done, "
            "COUNT { (:PremiseCluster) } > 0 AS premises"
        ).records[0]
        return bool(row["done"] and row["premises"])

    stderr = _kill_when_blocked(
        embedded, ["cluster"],
        # claims that are not also premises: SAME_AS edges start at them, no cluster write does
        "MATCH (c:Claim) WHERE NOT c:Premise SET c.held = true RETURN c", tmp_path,
        lock_when=clusters_written,
    )  # fmt: skip
    assert "Traceback" not in stderr, stderr
    assert driver.execute_query("RETURN COUNT { ()-[:SAME_AS]->() } AS n").records[0]["n"] == 0
    behind = _stale(_status(embedded), "argkb cluster")
    assert sum(behind.values()) > 0, f"argkb status does not show the unfinished run: {behind}"

    _rerun(embedded, "cluster")
    status = _status(embedded)
    assert set(_stale(status, "argkb embed", "argkb cluster").values()) == {0}, status["stale"]
    resumed = _clustering(driver)
    assert resumed["same_as"], "no SAME_AS edges after the re-run"
    _rerun(embedded, "cluster", "--rebuild")
    _assert_same_clustering(resumed, _clustering(driver))
    clean()


def _scores(driver: neo4j.Driver) -> tuple[dict[str, float], dict[str, tuple[float, ...]]]:
    units = driver.execute_query("MATCH (u:Unit) RETURN u.uid AS k, u.pagerank AS v").records
    args = driver.execute_query(
        "MATCH (a:Argument) RETURN a.aid AS k, "
        "[a.relevance_min, a.relevance_avg, a.relevance_max, a.relevance_sum] AS v"
    ).records
    return {r["k"]: r["v"] for r in units}, {r["k"]: tuple(r["v"]) for r in args}


def test_pagerank_killed_resumes_to_the_scores_of_a_clean_run(
    private: Private, clean: Callable[[], None], tmp_path: Path
) -> None:
    """A second corpus after a first PageRank run, then ``argkb pagerank --warm`` (what
    ``argkb status`` says to run) SIGKILLed while it writes: argument relevances are written,
    unit scores are the old ones or none. The same command again gives the scores of a clean
    (cold) run within 1e-9."""
    from argkb.rank.store import run_pagerank

    driver = private.driver
    clean()
    load(driver, "argsme", _synth_corpus(tmp_path / "a.jsonl", seed=61, n=3000))
    run_pagerank(driver)
    load(driver, "argsme", _synth_corpus(tmp_path / "b.jsonl", seed=62, n=1500))
    behind = _stale(_status(private), "argkb pagerank")
    assert behind["units_without_pagerank"] > 0, behind
    stderr = _kill_when_blocked(
        private, ["pagerank", "--warm"],
        "MATCH (u:Unit) WHERE u.pagerank IS NULL WITH u LIMIT 1 SET u.held = true RETURN u",
        tmp_path, kill_when=lambda: driver.execute_query(
            "MATCH (a:Argument) WHERE a.relevance_avg IS NULL RETURN count(a) = 0 AS done"
        ).records[0]["done"],  # the argument batch, which nothing holds, is written
    )  # fmt: skip
    assert "Traceback" not in stderr, stderr
    units, arguments = _scores(driver)
    missing = sum(v is None for v in units.values())
    assert 0 < missing < len(units)  # the new corpus' units have no score yet
    assert all(None not in v for v in arguments.values())  # the argument batch was written
    assert _stale(_status(private), "argkb pagerank")["units_without_pagerank"] == missing

    _rerun(private, "pagerank", "--warm")
    status = _status(private)
    assert set(_stale(status, "argkb pagerank").values()) == {0}, status["stale"]
    resumed = _scores(driver)
    _rerun(private, "pagerank")  # a clean cold run on the same graph
    fresh = _scores(driver)
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = list(zip(resumed, fresh, strict=True))
    for got, want in pairs:
        assert got.keys() == want.keys()
        worst = max(
            abs(a - b)
            for key in want
            for a, b in zip(np.atleast_1d(got[key]), np.atleast_1d(want[key]), strict=True)
        )
        assert worst <= 1e-9, worst
    clean()


# -- (c) Neo4j killed during argkb query --------------------------------------------------------


def _bolt_connected(pid: int, port: int) -> bool:
    """Whether process ``pid`` has an established TCP connection to ``port`` (Linux /proc)."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    except OSError:
        return False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if fields[3] == "01" and remote_port == port and fields[9] in inodes:
                return True
    return False


def _query_process(private: Private, *verbose: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ARGKB, *verbose, "query", QUERIES[0], "--k", "3"],
        env=private.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_neo4j_killed_as_argkb_query_starts_is_one_line(demo: Private) -> None:
    """Neo4j SIGKILLed once ``argkb query`` has connected (while it embeds the query): stderr is
    the one line that says what happened, exit 1; the server comes back and answers."""
    proc = _query_process(demo)
    deadline = time.monotonic() + 120
    while proc.poll() is None and not _bolt_connected(proc.pid, demo.server.config.bolt_port):
        assert time.monotonic() < deadline, "argkb query never connected"
        time.sleep(0.01)
    assert proc.poll() is None, "argkb query ended before Neo4j could be killed"
    demo.kill()
    _, stderr = proc.communicate(timeout=300)
    try:
        assert proc.returncode == 1, stderr
        error = _one_error_line(stderr)
        assert error.startswith("Error: Neo4j stopped answering during 'argkb query'"), error
        assert [line for line in stderr.splitlines() if line.strip()] == [error]
    finally:
        demo.revive()
    done = _query_process(demo)
    out, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    assert "PRO" in out and "Traceback" not in err


def test_neo4j_killed_between_the_statements_of_a_query_is_one_line(demo: Private) -> None:
    """Neo4j SIGKILLed when ``argkb -vv query`` logs its first query Cypher (it has more to
    run): no traceback, one error line, exit 1."""
    proc = _query_process(demo, "-vv")
    assert proc.stderr is not None
    lines: list[str] = []
    killed = False
    for line in proc.stderr:
        lines.append(line.rstrip("\n"))
        if not killed and "cypher/query/" in line:
            demo.kill()
            killed = True
    proc.wait(timeout=300)
    stderr = "\n".join(lines)
    try:
        assert killed, f"no query Cypher was logged: {stderr}"
        assert proc.returncode == 1, stderr
        error = _one_error_line(stderr)
        assert error.startswith("Error: Neo4j stopped answering during 'argkb query'"), error
    finally:
        demo.revive()


# -- (d) queries during loads -------------------------------------------------------------------


@dataclass
class Outcomes:
    answers: int = 0
    degraded: list[str] = field(default_factory=list)  # notes or messages the answers carried
    errors: list[str] = field(default_factory=list)  # one-line ArgKBErrors; a server gone quiet
    crashes: list[str] = field(default_factory=list)  # anything else


def _query_while(proc: subprocess.Popen[str], private: Private, embedder) -> Outcomes:
    """Query the graph from this process until ``proc`` (a load) ends; what the queries gave."""
    from argkb.query import QueryEngine, QuerySettings

    outcomes = Outcomes()
    engine = QueryEngine(private.driver, embedder, settings=QuerySettings(alignment="always"))
    rankers: list[RankerName] = ["hybrid", "pfidf"]
    i = 0
    while proc.poll() is None:
        text, ranker = QUERIES[i % len(QUERIES)], rankers[i % len(rankers)]
        i += 1
        try:
            result = engine.query(text, k=3, ranker=ranker)
        except ArgKBError as err:
            message = str(err)
            (outcomes.errors if "\n" not in message else outcomes.crashes).append(message)
            continue
        except Exception as err:
            # a server that stopped answering (a read that timed out on a starved CI machine)
            # is what argkb query and argkb serve say in one line: an error, not a crash; any
            # other driver error (an index gone mid-query, a refused statement) is a crash
            said = translate(err, "the query")
            if isinstance(said, DatabaseUnavailable):
                outcomes.errors.append(str(said))
                continue
            cause = f" (from {type(err.__cause__).__name__}: {err.__cause__})" * bool(err.__cause__)
            outcomes.crashes.append(f"{type(err).__name__}: {err}{cause}"[:600])
            continue
        outcomes.answers += 1
        outcomes.degraded.extend([*result.notes, *([result.message] if result.message else [])])
    return outcomes


def _cli_queries_while(proc: subprocess.Popen[str], private: Private, found: list[str]) -> None:
    """``argkb query`` in a second process, again and again until ``proc`` ends; each run's
    failure (traceback, or exit 1 without one error line) goes to ``found``."""
    while proc.poll() is None:
        run = subprocess.run(
            [ARGKB, "query", QUERIES[1], "--k", "3"],
            env=private.env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        if "Traceback" in run.stderr:
            found.append(run.stderr[-2000:])
        elif run.returncode != 0:
            errors = [line for line in run.stderr.splitlines() if line.startswith("Error:")]
            if len(errors) != 1:
                found.append(run.stderr[-2000:])


def _load_with_queries(private: Private, embedder, corpus: Path, *options: str) -> Outcomes:
    load_proc = subprocess.Popen(
        [ARGKB, "load", "argsme", str(corpus), "--batch-size", "50",
         *options],
        env=private.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    cli_found: list[str] = []
    cli = threading.Thread(target=_cli_queries_while, args=(load_proc, private, cli_found))
    cli.start()
    outcomes = _query_while(load_proc, private, embedder)
    _, load_err = load_proc.communicate(timeout=600)
    cli.join(timeout=600)
    assert load_proc.returncode == 0, load_err
    outcomes.crashes.extend(f"argkb query: {found}" for found in cli_found)
    return outcomes


def test_queries_during_a_normal_load_answer(demo: Private, embedder, tmp_path: Path) -> None:
    from synthcorpus import write_json

    corpus = tmp_path / "during-normal.json"
    write_json(corpus, 4000, seed=31)
    outcomes = _load_with_queries(demo, embedder, corpus, "--no-bulk")
    assert outcomes.crashes == []
    assert outcomes.errors == []
    assert outcomes.answers >= 5


def test_queries_during_a_bulk_load_answer_or_say_why(
    demo: Private, embedder, tmp_path: Path
) -> None:
    """During ``argkb load --bulk`` the full-text indexes are dropped, then rebuilt: a query
    answers (from the routes it has, with a note) or says in one line why it cannot; never a
    traceback or a driver error."""
    from synthcorpus import write_json

    corpus = tmp_path / "during-bulk.json"
    write_json(corpus, 4000, seed=32)
    outcomes = _load_with_queries(demo, embedder, corpus, "--bulk")
    assert outcomes.crashes == [], outcomes.crashes[:3]
    assert outcomes.answers >= 5
    rows = demo.driver.execute_query("SHOW FULLTEXT INDEXES YIELD name, state").records
    assert {r["name"]: r["state"] for r in rows} == {
        "claim_text": "ONLINE",
        "premise_text": "ONLINE",
        "sentence_text": "ONLINE",
    }
