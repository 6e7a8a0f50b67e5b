"""``argkb serve`` refuses to listen beyond loopback unless told to (no server needed)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from argkb.cli import main
from argkb.cli.serve import is_loopback


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.3.2.1", True), ("::1", True), ("localhost", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("::", False), ("example.org", False)],
)  # fmt: skip
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_remote_host_needs_the_flag() -> None:
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "--allow-remote" in result.output
