"""How the CLI shows :class:`argkb.progress.Progress`: tqdm bars and lines on stderr.

Stdout stays for results (and ``--json``); a command run with ``--json`` passes
:data:`argkb.progress.SILENT` instead, so a script reads nothing but the JSON.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator

from argkb.cli.app import echo_err
from argkb.progress import SILENT, Advance, Progress


class StderrProgress:
    """Stages as tqdm bars on stderr, messages as lines on stderr.

    ``mininterval`` is tqdm's (seconds between redraws, tqdm's default 0.1): ``argkb load``
    redraws less often, as its records come fast. Where stderr is not a terminal (a log file,
    a pipe) a stage is one line when it ends, and none when it fails: a redrawn bar there is
    one long line of carriage returns before the ``Error:`` line a script reads."""

    def __init__(self, *, mininterval: float = 0.1) -> None:
        self._mininterval = mininterval

    @contextlib.contextmanager
    def stage(self, desc: str, *, unit: str, total: int | None = None) -> Iterator[Advance]:
        if not sys.stderr.isatty():
            with _logged_stage(desc, unit, total) as advance:
                yield advance
            return
        from tqdm import tqdm

        with tqdm(total=total, unit=unit, desc=desc, file=sys.stderr,
                  mininterval=self._mininterval) as bar:  # fmt: skip
            yield bar.update

    def message(self, text: str) -> None:
        echo_err(text)


@contextlib.contextmanager
def _logged_stage(desc: str, unit: str, total: int | None) -> Iterator[Advance]:
    """A stage as one line on stderr once it is done: ``load argkp: 932 rec in 1.4 s``."""
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n

    started = time.monotonic()
    yield advance  # an exception from the work passes through and skips the line
    of = f" of {total:,}" if total is not None and total != done else ""
    echo_err(f"{desc}: {done:,}{of}{unit} in {time.monotonic() - started:.1f} s")


def progress_for(as_json: bool, *, mininterval: float = 0.1) -> Progress:
    """What a command shows: nothing with ``--json``, else bars and lines on stderr."""
    return SILENT if as_json else StderrProgress(mininterval=mininterval)
