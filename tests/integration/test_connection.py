"""Which database a command reaches: flags, then NEO4J_* variables, then the managed server.

An explicit address needs no server; that case is in tests/unit/test_connect.py.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.connect import resolve_target
from argkb.db.server import free_port

pytestmark = pytest.mark.neo4j


def _status(args: list[str], env: dict[str, str | None]) -> dict:
    result = CliRunner().invoke(main, ["status", "--json", *args], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_managed_server_when_nothing_is_given(neo4j_uri: str) -> None:
    """No --uri and no NEO4J_URI: the managed default instance (the session's server) answers."""
    target = resolve_target(None, None, None, None, start_managed=False)
    assert target.managed and target.uri == neo4j_uri
    assert _status([], {"NEO4J_URI": None})["server"]["edition"] == "community"


def test_env_var_is_used(neo4j_uri: str) -> None:
    payload = _status([], {"NEO4J_URI": neo4j_uri})
    assert payload["server"]["version"].startswith("5.26")


def test_flag_beats_env_var(neo4j_uri: str) -> None:
    dead = f"bolt://127.0.0.1:{free_port()}"
    # env points nowhere; the flag wins and reaches the server
    assert _status(["--uri", neo4j_uri], {"NEO4J_URI": dead})["server"]["edition"]
    # and the other way round fails with a clear message, not a traceback
    result = CliRunner().invoke(main, ["status", "--uri", dead], env={"NEO4J_URI": neo4j_uri})
    assert result.exit_code == 1
    assert "No Neo4j answers at" in result.output
    assert "Traceback" not in result.output
