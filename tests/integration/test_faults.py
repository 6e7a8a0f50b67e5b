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

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import neo4j
import pytest
from graphs import kill_load_midway, load, snapshot

from argkb.db.distribution import NEO4J_VERSION, Distribution
from argkb.db.schema import init_schema
from argkb.db.server import LocalServer, ServerConfig, free_port
from argkb.errors import ArgKBError

if TYPE_CHECKING:
    from argkb.retrieve.engine import RankerName

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
        "MATCH (c:Claim) WHERE c.embedding IS NOT NULL RETURN count(c) > 0 AS ok"
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
    errors: list[str] = field(default_factory=list)  # one-line ArgKBErrors
    crashes: list[str] = field(default_factory=list)  # anything else


def _query_while(proc: subprocess.Popen[str], private: Private, embedder) -> Outcomes:
    """Query the graph from this process until ``proc`` (a load) ends; what the queries gave."""
    from argkb.retrieve.engine import QueryEngine

    outcomes = Outcomes()
    engine = QueryEngine(private.driver, embedder)
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
            outcomes.crashes.append(f"{type(err).__name__}: {err}"[:300])
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
    }
