"""The managed local server's lifecycle, on its own instance and port (not the session's)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from argkb.db.distribution import default_distribution
from argkb.db.server import LocalServer, ServerConfig, free_port
from argkb.errors import ServerError

pytestmark = pytest.mark.neo4j


def _alive(pid: int) -> bool:
    return (
        Path(f"/proc/{pid}").exists()
        and b"CommunityEntryPoint" in Path(f"/proc/{pid}/cmdline").read_bytes()
    )


@pytest.fixture()
def spare(argkb_home: Path, tmp_path: Path) -> Iterator[LocalServer]:
    config = ServerConfig(tmp_path / "spare", bolt_port=free_port(), heap="512m", pagecache="128m")
    server = LocalServer(default_distribution(), config)
    yield server
    server.stop()


def test_start_is_idempotent_and_stop_ends_the_process(spare: LocalServer) -> None:
    first = spare.start()
    assert not first.already_running and _alive(first.pid)
    again = spare.start()
    assert again.already_running and again.pid == first.pid
    from neo4j import GraphDatabase

    with GraphDatabase.driver(spare.config.uri, auth=spare.config.auth()) as driver:
        assert driver.execute_query("RETURN 41 + 1 AS x").records[0]["x"] == 42
    assert spare.stop() is True
    assert not _alive(first.pid)
    assert not spare.config.pid_file.exists()
    assert spare.stop() is False  # stopping a stopped server is harmless


def test_restart_keeps_data(spare: LocalServer) -> None:
    from neo4j import GraphDatabase

    spare.start()
    with GraphDatabase.driver(spare.config.uri, auth=spare.config.auth()) as driver:
        driver.execute_query("CREATE (:Probe {v: 7})")
    spare.stop()
    spare.start()
    with GraphDatabase.driver(spare.config.uri, auth=spare.config.auth()) as driver:
        assert driver.execute_query("MATCH (p:Probe) RETURN p.v AS v").records[0]["v"] == 7


def test_stale_pid_file_is_ignored(spare: LocalServer) -> None:
    spare.config.pid_file.parent.mkdir(parents=True, exist_ok=True)
    # pid of this test process: alive, but not a Neo4j of this instance
    spare.config.pid_file.write_text(json.dumps({"pid": os.getpid(), "port": 1}))
    assert spare.state().running is False
    assert not spare.config.pid_file.exists()
    result = spare.start()
    assert not result.already_running and result.pid != os.getpid()


def test_port_taken_is_a_clear_error(spare: LocalServer, neo4j_uri: str) -> None:
    port = int(neo4j_uri.rsplit(":", 1)[1])
    clash = LocalServer(spare.distribution, ServerConfig(spare.config.instance_dir, bolt_port=port))
    with pytest.raises(ServerError, match="taken"):
        clash.start()


def test_plugins_load_on_managed_server(driver) -> None:
    """GDS and APOC are installed from Maven Central and loaded by the session's server."""
    from argkb.db.schema import server_info

    manifest = default_distribution().manifest()
    info = server_info(driver)
    for name in ("gds", "apoc"):
        assert manifest["plugins"][name]["installed"], manifest["plugins"][name]["why"]
        assert info.plugins[name] is not None, f"{name} installed but not loaded"
