"""docker/compose.yml keeps the managed server's security defaults (issue 13): a password from
the environment, Bolt on loopback only, URL loading off with the very setting argkb's own
neo4j.conf uses. No Docker engine here: the file is parsed, not run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from argkb.db.distribution import Distribution
from argkb.db.server import LocalServer, ServerConfig

COMPOSE = Path(__file__).resolve().parents[2] / "docker" / "compose.yml"


@pytest.fixture(scope="module")
def neo4j() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())["services"]["neo4j"]


def _docker_setting(variable: str) -> str:
    """The neo4j.conf key of a ``NEO4J_...`` variable, as the neo4j image's entrypoint maps it:
    ``_`` is ``.``, ``__`` is ``_``."""
    return "_".join(part.replace("_", ".") for part in variable[len("NEO4J_") :].split("__"))


def _managed_conf(tmp_path: Path) -> dict[str, str]:
    """argkb's own neo4j.conf for a managed server with the defaults."""
    config = ServerConfig(tmp_path / "instance", bolt_port=17999)
    text = LocalServer(Distribution(tmp_path / "neo4j"), config).write_config().read_text()
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] != "#")
    return dict(pairs)


def test_auth_is_on_with_a_required_password_from_the_environment(neo4j: dict[str, Any]) -> None:
    auth = neo4j["environment"]["NEO4J_AUTH"]
    assert auth.lower() != "none"
    user, _, password = auth.partition("/")
    assert user == "neo4j"
    # a required variable (${VAR:?message}): compose refuses to start without it; no default
    assert re.fullmatch(r"\$\{ARGKB_NEO4J_PASSWORD:\?[^}]+\}", password), password


def test_every_published_port_is_bound_to_loopback(neo4j: dict[str, Any]) -> None:
    ports = neo4j["ports"]
    assert ports
    for port in ports:
        if isinstance(port, dict):  # long syntax
            assert port.get("host_ip") == "127.0.0.1", port
            continue
        host_ip, _, rest = str(port).partition(":")
        assert host_ip == "127.0.0.1" and rest.endswith(":7687"), port


def test_url_loading_is_off_as_in_the_managed_servers_conf(
    neo4j: dict[str, Any], tmp_path: Path
) -> None:
    managed = _managed_conf(tmp_path)
    blocklist = "internal.dbms.cypher_ip_blocklist"
    assert managed[blocklist] == "0.0.0.0/0,::/0"  # every IPv4 and IPv6 address
    settings = {
        _docker_setting(key): str(value)
        for key, value in neo4j["environment"].items()
        if key.startswith("NEO4J_") and key != "NEO4J_AUTH" and key != "NEO4J_PLUGINS"
    }
    assert settings[blocklist] == managed[blocklist]
    assert settings.get("apoc.import.file.enabled", "false") == "false"


def test_the_docker_setting_names_map_as_the_image_maps_them() -> None:
    assert _docker_setting("NEO4J_server_memory_heap_max__size") == "server.memory.heap.max_size"
    assert (
        _docker_setting("NEO4J_internal_dbms_cypher__ip__blocklist")
        == "internal.dbms.cypher_ip_blocklist"
    )


def test_the_healthcheck_does_not_put_the_password_on_a_command_line(
    neo4j: dict[str, Any],
) -> None:
    command = " ".join(neo4j["healthcheck"]["test"])
    assert "NEO4J_PASSWORD=" in command and " -p " not in command and "--password" not in command
