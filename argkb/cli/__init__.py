"""The ``argkb`` command line: thin click commands over the library.

Each command parses options, calls one library function and prints. Every module of this package
registers its commands on :data:`argkb.cli.app.main` when imported; all are imported here (they
import only click at module level, so ``argkb --help`` stays instant).
"""

from __future__ import annotations

import importlib
import pkgutil

from argkb.cli.app import main

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["main"]
