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


@pytest.mark.parametrize(
    ("token", "said"),
    [("", "is empty"), ("   ", "is empty"), ("pässwörd", "printable ASCII"),
     ("two words", "printable ASCII")],
)  # fmt: skip
def test_a_token_no_client_can_send_is_refused(token: str, said: str) -> None:
    """An empty --token let 'Authorization: Bearer ' in; a non-ASCII one could never be sent."""
    result = CliRunner().invoke(main, ["serve", "--token", token])
    assert result.exit_code == 2, result.output
    assert said in result.output and len(result.output.strip().splitlines()) == 1


def test_a_port_in_use_is_one_line_before_anything_starts() -> None:
    """uvicorn said 'address already in use' after argkb had printed that it was serving, and
    exited 3 without argkb's message; the port is now bound before anything else."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--no-warm-up"])
    assert result.exit_code == 1, result.output
    assert f"could not listen on 127.0.0.1:{port}" in result.output
    assert "another argkb serve? try another --port" in result.output
    assert "argkb serve on" not in result.output


def test_an_address_this_machine_lacks_is_named_as_the_cause() -> None:
    """192.0.2.1 (TEST-NET-1, RFC 5737) is no address of this machine: the hint is the host,
    not a port in use."""
    result = CliRunner().invoke(main, ["serve", "--host", "192.0.2.1", "--allow-remote",
                                       "--no-warm-up"])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "could not listen on 192.0.2.1" in result.output
    assert "is --host an address of this machine?" in result.output


def test_port_zero_binds_a_free_port() -> None:
    from argkb.serve.protocol import listening_socket

    with listening_socket("127.0.0.1", 0) as sock:
        assert sock.getsockname()[1] > 0


def test_an_empty_token_variable_is_refused_not_read_as_no_token() -> None:
    """click reads an empty variable as unset: ARGKB_SERVE_TOKEN="" (a secret file that was
    missing) served the API to anyone, without a word."""
    result = CliRunner().invoke(main, ["serve"], env={"ARGKB_SERVE_TOKEN": ""})
    assert result.exit_code == 2, result.output
    assert "ARGKB_SERVE_TOKEN is set but empty" in result.output
