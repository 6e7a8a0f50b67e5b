"""Which address a command reaches, and the managed server's configuration file: the parts that
need no running server (the rest is in tests/integration/test_connection.py and test_server.py).
"""

from __future__ import annotations

from pathlib import Path

from argkb.db.connect import resolve_target
from argkb.db.distribution import Distribution
from argkb.db.server import LocalServer, ServerConfig


def test_explicit_uri_is_never_managed() -> None:
    target = resolve_target("neo4j+s://db.example:7687", "alice", "pw", "arguments")
    assert not target.managed
    assert (target.user, target.password, target.database) == ("alice", "pw", "arguments")
    # a password without a user logs in as neo4j; neither means no authentication
    assert resolve_target("bolt+s://db.example", None, "pw", None).user == "neo4j"
    assert resolve_target("bolt+s://db.example", None, None, None).auth is None


def test_conf_listens_on_loopback_only(tmp_path: Path) -> None:
    config = ServerConfig(tmp_path / "instance", bolt_port=17999, heap="512m", pagecache="128m")
    server = LocalServer(Distribution(tmp_path / "neo4j"), config)
    conf = server.write_config().read_text()
    assert "server.default_listen_address=127.0.0.1" in conf
    assert "server.bolt.listen_address=127.0.0.1:17999" in conf
    assert "server.http.enabled=false" in conf
    assert not [
        line for line in conf.splitlines() if "address=" in line and "127.0.0.1" not in line
    ]
    assert "server.memory.heap.max_size=512m" in conf
    assert f"server.directories.plugins={tmp_path / 'neo4j' / 'plugins'}" in conf
    without = server.write_config(with_plugins=False).read_text()
    assert f"server.directories.plugins={tmp_path / 'instance' / 'no-plugins'}" in without
