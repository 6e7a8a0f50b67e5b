"""Neo4j SIGKILLed in the middle of `argkb load` (issue 13): one line that says what happened and
what to do, no traceback; once the server is back, the same load completes. On a private server
(not the session's), so the kill harms no other test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from graphs import load, snapshot

from argkb.db.distribution import default_distribution
from argkb.db.schema import init_schema
from argkb.db.server import LocalServer, ServerConfig, free_port

pytestmark = pytest.mark.neo4j

LOAD_SCRIPT = """
import sys
from argkb.cli import main
sys.argv = ["argkb", "load", "argsme", sys.argv[1], "--batch-size", "50", "--no-bulk"]
main()
"""


@pytest.fixture()
def spare(argkb_home: Path, tmp_path: Path) -> Iterator[LocalServer]:
    config = ServerConfig(tmp_path / "spare", bolt_port=free_port(), heap="512m", pagecache="128m")
    server = LocalServer(default_distribution(), config)
    server.start()
    yield server
    server.stop()


def _arguments(server: LocalServer) -> int:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(server.config.uri, auth=server.config.auth()) as driver:
        return int(driver.execute_query("MATCH (a:Argument) RETURN count(a) AS n").records[0]["n"])


def test_neo4j_killed_mid_load_is_one_line_and_the_load_completes_later(
    spare: LocalServer, tmp_path: Path, wipe_db
) -> None:
    from neo4j import GraphDatabase

    from synthcorpus import write_json

    corpus = tmp_path / "synth.json"
    write_json(corpus, 3000, seed=11)
    env = {**os.environ, "NEO4J_URI": spare.config.uri}
    auth = spare.config.auth()
    if auth is not None:
        env.update(NEO4J_USERNAME=auth[0], NEO4J_PASSWORD=auth[1])
    proc = subprocess.Popen(
        [sys.executable, "-c", LOAD_SCRIPT, str(corpus)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and proc.poll() is None:
        if _arguments(spare) >= 300:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the load finished before Neo4j could be killed"
    pid = spare.state().pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    _, stderr = proc.communicate(timeout=240)

    assert proc.returncode == 1
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, stderr
    assert errors[0].startswith("Error: Neo4j stopped answering during 'argkb load'")
    assert "run the same command again" in errors[0]
    # nothing else on stderr but the progress bar
    others = [line for line in stderr.replace("\r", "\n").splitlines()
              if line.strip() and not line.startswith(("Error:", "load argsme"))]  # fmt: skip
    assert others == [], stderr

    spare.start()  # the same data folder: what was committed is there
    with GraphDatabase.driver(spare.config.uri, auth=spare.config.auth()) as driver:
        status = driver.execute_query("MATCH (c:Corpus) RETURN c.status AS s").records
        assert [r["s"] for r in status] == ["loading"]  # interrupted, not undone
        summary = load(driver, "argsme", corpus)
        assert not summary.already_loaded and summary.rejected == 0
        status = driver.execute_query("MATCH (c:Corpus) RETURN c.status AS s").records
        assert [r["s"] for r in status] == ["complete"]
        # nothing lost and nothing written twice: the graph of one clean load
        resumed = snapshot(driver)
        wipe_db(driver)
        init_schema(driver)
        load(driver, "argsme", corpus)
        assert snapshot(driver) == resumed
    assert _arguments(spare) == summary.arguments >= 3000
