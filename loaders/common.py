"""Small helpers every loader shares: UTF-8 input and stance spellings."""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from argkb.errors import LoadError
from argkb.loaders.records import Stance

STANCE_WORDS: dict[str, Stance] = {
    "pro": "pro", "con": "con", "+1": "pro", "1": "pro", "-1": "con",
    "support": "pro", "supports": "pro", "attack": "con", "attacks": "con",
}  # fmt: skip

_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32-LE",
    b"\x00\x00\xfe\xff": "UTF-32-BE",
    b"\xff\xfe": "UTF-16-LE",
    b"\xfe\xff": "UTF-16-BE",
}


def parse_stance(value: Any) -> Stance | None:
    """``pro``/``con`` for the spellings corpora use (PRO, Con, +1, -1, support...), else None."""
    return STANCE_WORDS.get(str(value).strip().lower()) if value is not None else None


def open_utf8(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading past a UTF-8 BOM; refuse UTF-16/32 with a clear error."""
    handle = path.open("rb")
    head = handle.read(4)
    for bom, name in _BOMS.items():
        if head.startswith(bom):
            handle.close()
            raise LoadError(str(path), "<encoding>", f"file is {name}; convert it to UTF-8")
    handle.seek(3 if head.startswith(b"\xef\xbb\xbf") else 0)
    return handle
