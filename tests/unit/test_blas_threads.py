"""The query commands run OpenBLAS with one thread (its spinning workers cost the query engine
CPU; argkb.blas.one_blas_thread), and a user's own OPENBLAS_NUM_THREADS wins."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("threadpoolctl")
if (os.cpu_count() or 1) < 2:  # OpenBLAS would run one thread anyway
    pytest.skip("needs two cores to tell 1 OpenBLAS thread from several", allow_module_level=True)

PROBE = (
    "from argkb.blas import one_blas_thread; one_blas_thread(); "
    "import json, numpy, threadpoolctl; "
    "print(json.dumps([i['num_threads'] for i in threadpoolctl.threadpool_info() "
    "if i['internal_api'] == 'openblas']))"
)


def _openblas_threads(env: dict[str, str]) -> list[int]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@pytest.fixture
def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}


def test_one_thread_when_numpy_loads_after_it(clean_env: dict[str, str]) -> None:
    threads = _openblas_threads(clean_env)
    assert threads and set(threads) == {1}


def test_the_users_setting_wins(clean_env: dict[str, str]) -> None:
    assert set(_openblas_threads({**clean_env, "OPENBLAS_NUM_THREADS": "2"})) == {2}
