"""A password file that others can read is made the owner's only again when the server starts:
argkb creates it 0600, but the docs ask a user who changes the password to write it there, and
an editor or ``echo >`` leaves it 0644."""

from __future__ import annotations

import logging
import stat

import pytest

from argkb.db.distribution import Distribution
from argkb.db.server import LocalServer, ServerConfig


def test_a_readable_password_file_is_made_private_again(tmp_path, caplog) -> None:
    config = ServerConfig(tmp_path / "instance", bolt_port=17999)
    auth_ini = config.instance_dir / "data" / "dbms" / "auth.ini"
    auth_ini.parent.mkdir(parents=True)
    auth_ini.write_text("neo4j:...\n")  # the password was set before: neo4j-admin is not run
    config.password_file.write_text("rewritten-by-hand\n")
    config.password_file.chmod(0o644)
    server = LocalServer(Distribution(tmp_path / "neo4j"), config)
    with caplog.at_level(logging.WARNING, logger="argkb.db.server"):
        server._ensure_password()
    assert stat.S_IMODE(config.password_file.stat().st_mode) == 0o600
    assert "readable by other users" in caplog.text
    assert config.password_file.read_text() == "rewritten-by-hand\n"  # the password is kept
    caplog.clear()
    server._ensure_password()
    assert not caplog.text  # a private file: nothing said


@pytest.mark.parametrize("mode", [0o600, 0o400])
def test_a_private_password_file_is_left_as_it_is(tmp_path, mode: int) -> None:
    config = ServerConfig(tmp_path / "instance", bolt_port=17999)
    auth_ini = config.instance_dir / "data" / "dbms" / "auth.ini"
    auth_ini.parent.mkdir(parents=True)
    auth_ini.write_text("neo4j:...\n")
    config.password_file.write_text("secret\n")
    config.password_file.chmod(mode)
    LocalServer(Distribution(tmp_path / "neo4j"), config)._ensure_password()
    assert stat.S_IMODE(config.password_file.stat().st_mode) == mode
