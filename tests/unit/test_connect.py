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


def test_a_password_without_uri_is_said_to_be_unused(tmp_path: Path, monkeypatch) -> None:
    """From a UX audit (2026-11-28): `--password wrong` (or NEO4J_PASSWORD) without --uri was
    ignored without a word, so a user believed it had been checked."""
    monkeypatch.setenv("ARGKB_HOME", str(tmp_path))
    said: list[str] = []
    target = resolve_target(None, None, "wrong", None, start_managed=False, echo=said.append)
    assert target.managed and target.password != "wrong"
    assert said == [
        "note: --user / --password (NEO4J_USERNAME / NEO4J_PASSWORD) apply with --uri only; "
        "the managed server signs in with its own (argkb server password)"
    ]
    said.clear()
    resolve_target(None, None, None, None, start_managed=False, echo=said.append)
    assert said == []


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


def test_the_unreachable_reason_is_the_systems_not_the_resolvers() -> None:
    """From a UX audit (2026-11-28): the one-line error quoted the driver's resolver internals."""
    from argkb.db.connect import unreachable_reason

    refused = (
        "Couldn't connect to 127.0.0.1:7798 (resolved to ('127.0.0.1:7798',)):\nFailed to "
        "establish connection to ResolvedIPv4Address(('127.0.0.1', 7798)) (reason [Errno 111] "
        "Connection refused)"
    )
    assert unreachable_reason(OSError(refused)) == "connection refused"
    unknown = "Failed to DNS resolve address x.invalid:7687: [Errno -2] Name or service not known"
    assert unreachable_reason(OSError(unknown)) == "name or service not known"
    assert unreachable_reason(OSError("no errno\nhere")) == "no errno here"
