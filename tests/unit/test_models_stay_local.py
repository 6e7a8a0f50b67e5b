"""argkb reads models from this machine only: a stance model whose ``base`` names no folder
here is refused, not looked up on the Hugging Face Hub.

Found by a security audit (2026-12-02): ``argkb stance --model my.json`` with ``"base":
"acme/stance-base"`` handed the name to ``transformers``' ``from_pretrained``, which asked the
Hub for it (``/api/models/acme/stance-base``, ``.../resolve/main/config.json``). Here the Hub is
a recording HTTP server on 127.0.0.1 (``HF_ENDPOINT``), in a fresh process, so the test needs no
network and fails if argkb asks it anything.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from argkb.stance.cross import MINILM_INFO_FILE, MINILM_WEIGHTS_FILE

LOAD = """
import sys
from pathlib import Path
from argkb.errors import ConfigError
from argkb.stance.cross import CrossStanceModel
try:
    CrossStanceModel.load(Path(sys.argv[1]), Path(sys.argv[2]))
except ConfigError as err:
    print("ConfigError:", err)
"""


@pytest.fixture
def hub() -> Iterator[tuple[str, list[str]]]:
    """A stand-in for the Hugging Face Hub: ``(its URL, the paths asked of it)``."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_HEAD = do_GET

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", asked
    server.shutdown()
    server.server_close()


def test_a_base_that_is_no_folder_is_refused_without_asking_the_hub(
    hub: tuple[str, list[str]], tmp_path: Path
) -> None:
    url, asked = hub
    info = json.loads(MINILM_INFO_FILE.read_text(encoding="utf-8"))
    info["base"] = "acme/stance-base"
    model = tmp_path / "stance.json"
    model.write_text(json.dumps(info), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env.update(HF_ENDPOINT=url, HF_HOME=str(tmp_path / "hf"))
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(MINILM_WEIGHTS_FILE), str(model)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert asked == []
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ConfigError: acme/stance-base: not a model folder" in done.stdout
    assert "no such folder" in done.stdout
