"""One progress interface for long library work: counted stages and one-line messages.

Library functions that take a while (:mod:`argkb.pipeline`) report through a :class:`Progress`
and never print: a stage is a counter the work advances (units embedded, edges predicted), a
message is a line such as "exporting the query model to ONNX". The caller decides what a person
sees: the CLI renders stages as tqdm bars and messages as lines on stderr
(:class:`argkb.cli.progress.StderrProgress`); scripts, tests and benchmarks pass :data:`SILENT`.

The lower layers (``embed``, ``cluster``, ``rank``, ``stance``, ``ingest``) keep their plain
``progress(n)`` and ``echo(text)`` callbacks; a stage hands them ``advance`` and ``message``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Protocol

Advance = Callable[[int], object]
"""What a stage hands the work: called with how many more items are done."""


class Progress(Protocol):
    """Where long work reports: :meth:`stage` for counted work, :meth:`message` for a line."""

    def stage(
        self, desc: str, *, unit: str, total: int | None = None
    ) -> AbstractContextManager[Advance]:
        """A counted stage named ``desc``; the context yields the function that advances it.

        ``unit`` names what is counted (with its leading space, " units"); ``total`` is how
        many there will be, when known beforehand."""
        ...

    def message(self, text: str) -> None:
        """One line about the work (not its result, which the caller prints)."""
        ...


class Silent:
    """A :class:`Progress` that shows nothing: the default of every library function."""

    @contextlib.contextmanager
    def stage(self, desc: str, *, unit: str, total: int | None = None) -> Iterator[Advance]:
        yield _ignore

    def message(self, text: str) -> None:
        pass


class Prefixed:
    """``progress`` with every message prefixed (``argkb update`` indents its steps' lines)."""

    def __init__(self, progress: Progress, prefix: str) -> None:
        self._progress = progress
        self._prefix = prefix

    def stage(
        self, desc: str, *, unit: str, total: int | None = None
    ) -> AbstractContextManager[Advance]:
        return self._progress.stage(desc, unit=unit, total=total)

    def message(self, text: str) -> None:
        self._progress.message(self._prefix + text)


def _ignore(_n: int) -> None:
    pass


SILENT: Progress = Silent()
"""The shared :class:`Silent` instance."""
