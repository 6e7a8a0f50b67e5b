"""Nothing leaves the machine when the ONNX backends export, quantise, load and embed.

ONNX Runtime carries a telemetry client (and the issue's probe saw a host lookup); argkb
switches it off. The check runs a fresh export and an embed in a child process and watches its
connection attempts twice: in Python (``socket`` patched) and, where strace is available, every
``connect``/``sendto``/``sendmsg`` system call of every thread, native libraries included, and
every file it opens (a host-name lookup reads /etc/hosts or /etc/resolv.conf). Where
the machine allows it the child runs in an empty network namespace, so even a missed attempt
could not leave. At its end the child makes one deliberate attempt to a TEST-NET address
(192.0.2.1, RFC 5737), which both watchers must report: so a watcher that sees nothing is
shown to be watching.

Not caught: a host lookup answered by a running nscd (a Unix socket; the same socket serves user
lookups, which torch makes, so it cannot be told apart by address). This machine runs none.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CANARY = "192.0.2.1"

CHILD = r"""
import json, os, socket, sys

attempts = []
LOCAL = ("127.", "::1", "localhost")

def note(address):
    host = address[0] if isinstance(address, tuple) else str(address)
    if not str(host).startswith(LOCAL):
        attempts.append(str(host))

for name in ("connect", "connect_ex", "sendto"):
    real = getattr(socket.socket, name)
    def patched(self, *args, _real=real):
        note(args[-1])
        return _real(self, *args)
    setattr(socket.socket, name, patched)
real_lookup = socket.getaddrinfo
def lookup(host, *args, **kwargs):
    if host is not None:
        note((host,))
    return real_lookup(host, *args, **kwargs)
socket.getaddrinfo = lookup

from argkb.embed.model import Embedder

embedder = Embedder(backend=sys.argv[1], cache=False)
vectors = embedder.embed(["Nuclear power is safe.", "Ban cars. Cities breathe."], use_cache=False)
seen = list(attempts)
canary = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
canary.settimeout(0.5)
try:
    canary.connect((sys.argv[2], 9))
except OSError:
    pass
finally:
    canary.close()
print(json.dumps({"shape": list(vectors.shape), "before_canary": seen, "all": attempts,
                  "telemetry_off": os.environ.get("ORT_DISABLE_TELEMETRY")}))
"""

_INET = re.compile(r'inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"')
_PORT = re.compile(r"htons\((\d+)\)")


def _works(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


_LOOKUP_FILES = ('"/etc/hosts"', '"/etc/resolv.conf"', '"/etc/gai.conf"')


def outside_attempts(trace: str) -> list[str]:
    """What in an strace log could reach beyond the machine: socket calls to IPv4/IPv6
    addresses other than loopback, anything to port 53, and a host-name lookup's files."""
    found = []
    for line in trace.splitlines():
        if "openat(" in line and any(name in line for name in _LOOKUP_FILES):
            found.append(line.strip())
            continue
        if "connect(" not in line and "sendto(" not in line and "sendmsg(" not in line:
            continue
        port = _PORT.search(line)
        if port and port.group(1) == "53":
            found.append(line.strip())
            continue
        for v4, v6 in _INET.findall(line):
            address = v4 or v6
            if not (address.startswith("127.") or address == "::1"):
                found.append(address)
    return found


def test_outside_attempts_reads_strace_lines() -> None:
    trace = "\n".join(
        [
            '12 connect(3, {sa_family=AF_INET, sin_port=htons(7687), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',  # noqa: E501
            '12 connect(4, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("20.42.65.92")}, 16) = -1',  # noqa: E501
            '13 sendto(5, "x", 1, 0, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr)}, 28) = 1',  # noqa: E501
            '14 connect(6, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 0',  # noqa: E501
            '15 connect(7, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1',
            '15 openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3',
            '16 openat(AT_FDCWD, "/etc/resolv.conf", O_RDONLY|O_CLOEXEC) = 3',
        ]
    )
    found = outside_attempts(trace)
    assert found[:2] == ["20.42.65.92", "2001:db8::1"]
    assert len(found) == 4 and "htons(53)" in found[2] and "resolv.conf" in found[3]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["onnx-int8"])
def test_export_and_embed_open_no_connection(backend: str, tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env["ARGKB_HOME"] = str(tmp_path / "home")  # a fresh export, quantisation and load
    command = [sys.executable, "-c", CHILD, backend, CANARY]
    trace = tmp_path / "trace.txt"
    strace = shutil.which("strace")
    if strace and _works([strace, "-f", "-qq", "-o", os.devnull, "true"]):
        calls = "trace=connect,sendto,sendmsg,openat"
        command = [strace, "-f", "-qq", "-e", calls, "-o", str(trace), *command]
    unshare = shutil.which("unshare")
    if unshare and _works([unshare, "-n", "true"]):
        command = [unshare, "-n", *command]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["shape"] == [2, 384]
    assert report["telemetry_off"] == "1"
    assert report["before_canary"] == []
    assert report["all"] == [CANARY]  # the Python watcher saw the deliberate attempt
    if trace.exists():
        assert outside_attempts(trace.read_text()) == [CANARY]  # and so did strace
