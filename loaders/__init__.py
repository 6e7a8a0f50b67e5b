"""Corpus loaders, one module per format, each streaming typed records (ships as argkb.loaders).

Every loader module has ``FORMAT`` and ``read(paths) -> Iterator[Record | Rejected | LeftOut]``
(see :mod:`argkb.loaders.records`; a ``LeftOut`` is valid input whose structure argkb does not
model, a warning, which the AIF, ArgQuality and SIGIR-19 loaders yield). Modules are imported
only when their format is used.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

# format name -> (module, one-line description for --help)
FORMATS: dict[str, tuple[str, str]] = {
    "argsme": ("argsme", "args.me corpus: JSON dump or JSONL"),
    "jsonl": ("jsonl", "generic JSONL, one argument per line (docs/formats.md)"),
    "aif": ("aif", "AIF argument maps: AIFdb or OVA JSON; file, directory or zip"),
    "argkp": ("argkp", "IBM ArgKP-2021 directory (arguments, key points, labels)"),
    "argquality": ("argquality", "Webis-ArgQuality-20 directory"),
    "argrank": ("argrank", "Webis-ArgRank-17 directory (graph + benchmark)"),
    "sigir19": ("sigir19", "Webis SIGIR-19 argument search study directory (judged args.me)"),
}


def reader(fmt: str) -> Callable[[Sequence[str | os.PathLike[str]]], Iterator[Any]]:
    """The ``read`` function of format ``fmt``."""
    if fmt not in FORMATS:
        raise KeyError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    module = importlib.import_module(f"argkb.loaders.{FORMATS[fmt][0]}")
    read: Callable[[Sequence[str | os.PathLike[str]]], Iterator[Any]] = module.read
    return read
