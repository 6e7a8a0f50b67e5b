"""Security defaults and server-start validation that need no running server (issue 13): the
managed server's neo4j.conf, --uri checks, and options refused before anything is saved. The
same defaults on a real Neo4j: tests/integration/test_security.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.db.connect import check_uri, parse_uri, resolve_target
from argkb.db.distribution import Distribution
from argkb.db.server import LocalServer, ServerConfig, check_size
from argkb.errors import ConfigError


def _conf(tmp_path: Path, **settings: object) -> dict[str, str]:
    config = ServerConfig(tmp_path / "instance", bolt_port=17999, **settings)  # type: ignore[arg-type]
    text = LocalServer(Distribution(tmp_path / "neo4j"), config).write_config().read_text()
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line and line[0] != "#")
    return {key: value for key, value in pairs}


def test_conf_has_auth_on_url_loading_blocked_and_cors_to_its_own_origin(tmp_path: Path) -> None:
    conf = _conf(tmp_path, http_port=17474)
    assert conf["dbms.security.auth_enabled"] == "true"
    assert conf["internal.dbms.cypher_ip_blocklist"] == "0.0.0.0/0,::/0"
    assert conf["dbms.security.http_access_control_allow_origin"] == "http://127.0.0.1:17474"
    assert conf["server.http.listen_address"] == "127.0.0.1:17474"


def test_conf_allows_url_loading_only_when_asked(tmp_path: Path) -> None:
    conf = _conf(tmp_path, allow_url_loading=True)
    assert "internal.dbms.cypher_ip_blocklist" not in conf
    assert conf["dbms.security.auth_enabled"] == "true"  # opting into URLs keeps auth on
    # HTTP off: the origin is still set, so that turning HTTP on is safe
    assert conf["dbms.security.http_access_control_allow_origin"] == "http://127.0.0.1:7474"


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("http://127.0.0.1:7474", "scheme 'http'"),
        ("not a uri", "no scheme"),
        ("bolt://", "names no host"),
        ("bolt://127.0.0.1:99999", "not a valid URI"),
        ("bolt://db.example.org:7687", "unencrypted"),
        ("neo4j://10.1.2.3", "unencrypted"),
    ],
)
def test_bad_or_unsafe_uris_are_refused_in_one_line(uri: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        check_uri(uri, "pw")
    result = CliRunner().invoke(main, ["status", "--uri", uri, "--password", "pw"])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert words in result.output


def test_insecure_and_encrypted_remote_uris_pass_and_loopback_needs_no_tls() -> None:
    assert check_uri("bolt://db.example.org", "pw", insecure=True).port == 7687
    assert check_uri("neo4j+s://db.example.org:7688", "pw").port == 7688
    assert check_uri("bolt+ssc://db.example.org", "pw").encrypted
    for local in ("bolt://127.0.0.1:7687", "neo4j://localhost", "bolt://[::1]:7687"):
        assert parse_uri(local).encrypted is False
        check_uri(local, None)  # no error, and (below) no warning


def test_remote_uri_without_password_warns_once() -> None:
    said: list[str] = []
    check_uri("neo4j+s://db.example.org", None, echo=said.append)
    check_uri("neo4j+s://db.example.org", "pw", echo=said.append)
    check_uri("bolt://127.0.0.1:7687", None, echo=said.append)
    assert len(said) == 1 and said[0].startswith(
        "Warning: no password for neo4j+s://db.example.org"
    )
    target = resolve_target("neo4j+s://db.example.org", None, None, None, echo=said.append)
    assert target.auth is None and len(said) == 2


def test_insecure_flag_reaches_the_check() -> None:
    # refused without the flag before any connection; with it, the command goes on to connect
    # (to a name that cannot resolve, so it fails there, differently)
    args = ["status", "--uri", "bolt://argkb-test.invalid:7687", "--password", "pw"]
    refused = CliRunner().invoke(main, args)
    assert "unencrypted" in refused.output
    passed = CliRunner().invoke(main, [*args, "--insecure"])
    assert passed.exit_code == 1 and "unencrypted" not in passed.output
    assert "No Neo4j answers at bolt://argkb-test.invalid:7687" in passed.output


@pytest.mark.parametrize("name", ["system", "SYSTEM", " System "])
def test_system_database_is_refused(name: str) -> None:
    with pytest.raises(ConfigError, match="administration database"):
        resolve_target("bolt://127.0.0.1:9", None, None, name)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--port", "70000"], "--port"),
        (["--port", "0"], "--port"),
        (["--port", "http"], "--port"),
        (["--http-port", "65536"], "--http-port"),
        (["--heap", "1x"], "--heap"),
        (["--heap", "512"], "--heap"),
        (["--heap", "0g"], "--heap"),
        (["--pagecache", "-1g"], "--pagecache"),
    ],
)
def test_server_start_refuses_bad_ports_and_sizes_before_saving(
    tmp_path: Path, args: list[str], option: str
) -> None:
    result = CliRunner().invoke(main, ["server", "start", *args], env={"ARGKB_HOME": str(tmp_path)})
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # nothing installed, written or saved


def test_sizes_in_neo4j_forms_are_accepted() -> None:
    assert [check_size(v) for v in ("512m", "4g", "4G", "1024k", "1t")] == [
        "512m",
        "4g",
        "4g",
        "1024k",
        "1t",
    ]


def test_bad_saved_settings_and_environment_are_one_line_errors(tmp_path: Path) -> None:
    """A settings.json that an older argkb saved from a failed start (--heap 1x), or a bad
    ARGKB_NEO4J_PORT, is named in one line; nothing is started."""
    instance = tmp_path / "instances" / "default"
    instance.mkdir(parents=True)
    (instance / "settings.json").write_text(json.dumps({"bolt_port": 7687, "heap": "1x"}))
    # no ARGKB_NEO4J_* from a test session's managed server may hide the saved value
    unset = ("NEO4J_URI", "ARGKB_NEO4J_PORT", "ARGKB_NEO4J_HEAP", "ARGKB_NEO4J_PAGECACHE")
    env: dict[str, str | None] = {"ARGKB_HOME": str(tmp_path), **dict.fromkeys(unset)}
    result = CliRunner().invoke(main, ["status"], env=env)
    assert result.exit_code == 1, result.output
    assert "heap '1x' is not a memory size" in result.output
    assert "settings.json" in result.output and "Traceback" not in result.output
    (instance / "settings.json").unlink()
    result = CliRunner().invoke(main, ["server", "status"], env={**env, "ARGKB_NEO4J_PORT": "abc"})
    assert result.exit_code == 1 and "Bolt port 'abc' is not a number" in result.output


def test_http_port_equal_to_bolt_port_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="both 7688"):
        ServerConfig(tmp_path, bolt_port=7688, http_port=7688)
