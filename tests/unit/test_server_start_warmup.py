"""``argkb server start`` warms a server it started up for queries, and only such a one.

The server here is a stand-in for :class:`argkb.db.server.LocalServer` (what it returns from
``start``), and the warm-up a recorder: this tests the command's wiring, not Neo4j. The warm-up
itself runs on a real Neo4j in tests/integration/test_warmup.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.server import ServerConfig, free_port
from argkb.db.server_config import StartResult


class _Server:
    def __init__(self, config: ServerConfig, already_running: bool) -> None:
        self.config = config
        self.already_running = already_running

    class distribution:  # stands in for an installed Distribution
        @staticmethod
        def is_installed() -> bool:
            return True

    def start(self) -> StartResult:
        return StartResult(pid=4242, uri=self.config.uri, seconds=1.0,
                           already_running=self.already_running)  # fmt: skip


@pytest.fixture()
def started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Patches the command to a stand-in server; returns what the warm-up was asked."""
    import argkb.cli.neo4j_server as cli

    state: dict[str, Any] = {"already_running": False, "warmed": []}
    config = ServerConfig(tmp_path / "instance", bolt_port=free_port())
    monkeypatch.setattr(
        cli, "_managed_server", lambda **_: _Server(config, state["already_running"])
    )
    monkeypatch.setattr(ServerConfig, "save", lambda self: None)
    monkeypatch.setattr(cli, "warm_up_started", lambda c: state["warmed"].append(c) or "warmed")
    state["config"] = config
    return state


def test_a_started_server_is_warmed_up_and_json_says_how(started: dict[str, Any]) -> None:
    result = CliRunner().invoke(main, ["server", "start", "--json"])
    assert result.exit_code == 0, result.output
    assert started["warmed"] == [started["config"]]
    assert json.loads(result.stdout)["warm_up"] == "warmed"


def test_a_running_server_or_no_warm_up_asks_no_query(started: dict[str, Any]) -> None:
    result = CliRunner().invoke(main, ["server", "start", "--no-warm-up"])
    assert result.exit_code == 0 and started["warmed"] == [], result.output
    started["already_running"] = True
    result = CliRunner().invoke(main, ["server", "start", "--json"])
    assert result.exit_code == 0 and started["warmed"] == [], result.output
    assert json.loads(result.stdout)["warm_up"] is None


def test_an_unreachable_server_is_told_not_failed(tmp_path: Path) -> None:
    """A server that started but cannot be reached: the start succeeded, the warm-up says why
    it did not run (nothing listens on the port here)."""
    from argkb.cli.neo4j_server import warm_up_started

    config = ServerConfig(tmp_path / "instance", bolt_port=free_port())
    said = warm_up_started(config)
    assert said.startswith("no warm-up, the server runs anyway: "), said
    assert "\n" not in said
