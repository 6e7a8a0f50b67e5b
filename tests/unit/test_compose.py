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


# -- the env file (issue 26): the password comes from docker/.env, made from .env.example -------

ENV_EXAMPLE = COMPOSE.with_name(".env.example")
_VARIABLE = re.compile(
    r"\$(?:\{(?P<braced>[^}]*)\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*)|(?P<dollar>\$))"
)


_BRACED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(:?[-?]?)(.*)", re.DOTALL)


class MissingVariable(Exception):
    """What ``docker compose`` stops with for a ``${VAR:?message}`` whose VAR is unset or empty."""


def _interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's interpolation (docs.docker.com, "Interpolation syntax"): ``$$`` is a ``$``;
    ``${VAR}``, ``$VAR``; ``${VAR:-default}`` / ``${VAR-default}``; ``${VAR:?error}`` /
    ``${VAR?error}`` (an error when unset, or with ``:`` also when empty)."""

    def one(match: re.Match[str]) -> str:
        if match["dollar"]:
            return "$"
        if match["plain"]:
            return env.get(match["plain"], "")
        parts = _BRACED.fullmatch(match["braced"])
        assert parts is not None, match["braced"]
        name, op, rest = parts.groups()
        value = env.get(name)
        if value is None or (op.startswith(":") and value == ""):
            if op.endswith("?"):
                raise MissingVariable(f"required variable {name} is missing a value: {rest}")
            return rest if op.endswith("-") else ""
        return value

    return _VARIABLE.sub(one, text)


def _resolve(value: Any, env: dict[str, str]) -> Any:
    if isinstance(value, str):
        return _interpolate(value, env)
    if isinstance(value, dict):
        return {key: _resolve(item, env) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(item, env) for item in value]
    return value


def _env_file(text: str, shell: dict[str, str]) -> dict[str, str]:
    """An env file as compose reads it: ``KEY=VALUE`` lines, ``#`` comments, values interpolated
    with what is defined above them; a variable of the shell wins over the file."""
    env = dict(shell)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key), line
        if key not in shell:
            env[key] = _interpolate(value, env)
    return env


def test_the_env_example_sets_every_variable_compose_reads_and_no_password() -> None:
    compose_text = COMPOSE.read_text()
    used = {
        _BRACED.fullmatch(m["braced"]).group(1)  # type: ignore[union-attr]
        for m in _VARIABLE.finditer(compose_text)
        if m["braced"]
    }
    assert used == {"ARGKB_NEO4J_PASSWORD", "ARGKB_DOCKER_BOLT_PORT"}
    example = _env_file(ENV_EXAMPLE.read_text(), {})
    assert used <= set(example)
    # left as it is, the copy starts nothing: no password anyone could know from this repository
    assert example["ARGKB_NEO4J_PASSWORD"] == ""
    with pytest.raises(MissingVariable, match=r"ARGKB_NEO4J_PASSWORD.*docker/\.env\.example"):
        _resolve(yaml.safe_load(compose_text), example)


def test_compose_with_the_env_file_runs_neo4j_with_its_password() -> None:
    text = ENV_EXAMPLE.read_text().replace(
        "ARGKB_NEO4J_PASSWORD=\n", "ARGKB_NEO4J_PASSWORD=Xy7-secret_42\n"
    )
    config = _resolve(yaml.safe_load(COMPOSE.read_text()), _env_file(text, {}))
    neo4j = config["services"]["neo4j"]
    assert neo4j["environment"]["NEO4J_AUTH"] == "neo4j/Xy7-secret_42"
    assert neo4j["ports"] == ["127.0.0.1:7687:7687"]
    # the healthcheck's $$ reaches the container's shell as one $
    assert 'NEO4J_PASSWORD="${NEO4J_AUTH#neo4j/}"' in neo4j["healthcheck"]["test"][1]
    # a variable of the shell wins over the file (tests/conftest.py's docker backend sets both)
    shell = {"ARGKB_NEO4J_PASSWORD": "from-the-shell", "ARGKB_DOCKER_BOLT_PORT": "17687"}
    config = _resolve(yaml.safe_load(COMPOSE.read_text()), _env_file(text, shell))
    assert config["services"]["neo4j"]["environment"]["NEO4J_AUTH"] == "neo4j/from-the-shell"
    assert config["services"]["neo4j"]["ports"] == ["127.0.0.1:17687:7687"]


def test_the_env_file_sourced_by_a_shell_connects_argkb_to_that_server(tmp_path: Path) -> None:
    """``set -a; . docker/.env; set +a`` gives argkb's NEO4J_* the compose password and port."""
    import subprocess

    env_file = tmp_path / ".env"
    text = ENV_EXAMPLE.read_text().replace(
        "ARGKB_NEO4J_PASSWORD=\n", "ARGKB_NEO4J_PASSWORD=Xy7-secret_42\n"
    )
    env_file.write_text(text.replace("ARGKB_DOCKER_BOLT_PORT=7687", "ARGKB_DOCKER_BOLT_PORT=17687"))
    script = (
        'set -a; . "$1"; set +a; printf "%s\\n" "$NEO4J_URI" "$NEO4J_USERNAME" "$NEO4J_PASSWORD"'
    )
    out = subprocess.run(["sh", "-c", script, "sh", str(env_file)], env={"PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.splitlines() == ["bolt://127.0.0.1:17687", "neo4j", "Xy7-secret_42"]


def test_the_env_file_with_the_password_is_git_ignored() -> None:
    ignored = (COMPOSE.parents[1] / ".gitignore").read_text().splitlines()
    assert "/docker/.env" in ignored
    assert "!/docker/.env.example" not in ignored and "/docker/.env.example" not in ignored
