"""How the CLI shows :class:`argkb.progress.Progress`: tqdm bars and lines on stderr.

Stdout stays for results (and ``--json``); a command run with ``--json`` passes
:data:`argkb.progress.SILENT` instead, so a script reads nothing but the JSON.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Protocol

from argkb.cli.app import echo_err
from argkb.progress import SILENT, Advance, Progress


class StderrProgress:
    """Stages as tqdm bars on stderr, messages as lines on stderr.

    ``mininterval`` is tqdm's (seconds between redraws, tqdm's default 0.1): ``argkb load``
    redraws less often, as its records come fast. Where stderr is not a terminal (a log file,
    a pipe) a stage is one line when it ends, and none when it fails (:func:`open_bar`)."""

    def __init__(self, *, mininterval: float = 0.1) -> None:
        self._mininterval = mininterval

    @contextlib.contextmanager
    def stage(self, desc: str, *, unit: str, total: int | None = None) -> Iterator[Advance]:
        bar = open_bar(desc, unit, total=total, mininterval=self._mininterval)
        with closing(lambda ok: end_bar(bar, ok=ok)):
            yield bar.update

    def message(self, text: str) -> None:
        echo_err(text)


class Bar(Protocol):
    """What :func:`open_bar` gives: counted with :meth:`update`, ended with :meth:`close`."""

    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


class _LineBar:
    """A stage's count, said in one line when it is closed: ``load argkp: 932 rec in 1.4 s``."""

    def __init__(self, desc: str, unit: str, total: int | None) -> None:
        self.desc, self.unit, self.total = desc, unit, total
        self.done = 0
        self.started = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.done += n

    def close(self) -> None:
        of = f" of {self.total:,}" if self.total is not None and self.total != self.done else ""
        seconds = time.monotonic() - self.started
        echo_err(f"{self.desc}: {self.done:,}{of}{self.unit} in {seconds:.1f} s")


def open_bar(desc: str, unit: str, *, total: int | None = None, mininterval: float = 0.1) -> Bar:
    """A progress bar on stderr: tqdm on a terminal; elsewhere (a log file, a pipe) one line
    when it is closed, since a redrawn bar there is one long line of carriage returns before
    the ``Error:`` line a script reads (a bar left unclosed by an error says nothing)."""
    if not sys.stderr.isatty():
        return _LineBar(desc, unit, total)
    from tqdm import tqdm

    bar: Bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, mininterval=mininterval)
    return bar


def end_bar(bar: Bar, *, ok: bool) -> None:
    """Close ``bar``; for a step that failed (``ok`` false), off a terminal, without its line:
    the error speaks, and a "done" line before it would say the step finished. A terminal's
    bar is closed either way, so that the ``Error:`` line starts a line of its own."""
    if ok or not isinstance(bar, _LineBar):
        bar.close()


@contextlib.contextmanager
def closing(close: Callable[[bool], None]) -> Iterator[None]:
    """Run the block, then ``close(ok)``: ``ok`` false when it raised (even Ctrl-C), and the
    error goes on. For the bars of a step, closed by :func:`end_bar`'s rule."""
    try:
        yield
    except BaseException:
        close(False)
        raise
    close(True)


def progress_for(as_json: bool, *, mininterval: float = 0.1) -> Progress:
    """What a command shows: nothing with ``--json``, else bars and lines on stderr."""
    return SILENT if as_json else StderrProgress(mininterval=mininterval)
