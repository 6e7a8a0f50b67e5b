"""Deterministic randomness: SplitMix64 hashing and streams, Zipf and normal draws.

Nothing here calls ``hash()``, so ``PYTHONHASHSEED`` does not change a corpus.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

_M64 = (1 << 64) - 1


class Uniform(Protocol):
    def random(self) -> float: ...


def _splitmix(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def mix(*parts: int) -> int:
    """A 64-bit hash of small integers (SplitMix64 chained); the key of every pure draw."""
    h = 0x243F6A8885A308D3
    for part in parts:
        h = _splitmix(h ^ (part & _M64))
    return h


class HashStream:
    """A tiny SplitMix64 stream: the draws of a pure function of ``(seed, ...)``."""

    __slots__ = ("_state",)

    def __init__(self, key: int) -> None:
        self._state = key

    def random(self) -> float:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _M64
        return (_splitmix(self._state) >> 11) * (1.0 / 9007199254740992.0)


def pick(forms: Sequence[Any], rng: Uniform | None) -> Any:
    """The canonical (first) form without ``rng``, else a uniform one."""
    if rng is None:
        return forms[0]
    return forms[int(rng.random() * len(forms))]


def _zipf_cdf(x: float, s: float) -> float:
    return math.log(x) if abs(s - 1.0) < 1e-12 else x ** (1.0 - s) / (1.0 - s)


def zipf_index(u: float, n: int, s: float) -> int:
    """Index ``0 .. n-1`` with P(i) proportional to the integral of ``x**-s`` over [i+1, i+2).

    The continuous power law sampled by inversion: O(1) time and no table, so a Zipf choice over
    millions of items needs no memory. :func:`zipf_share` gives the exact probabilities.
    """
    if n <= 1:
        return 0
    if abs(s - 1.0) < 1e-12:
        x = (n + 1.0) ** u
    else:
        a = 1.0 - s
        x = (1.0 + u * ((n + 1.0) ** a - 1.0)) ** (1.0 / a)
    i = int(x) - 1
    return i if i < n else n - 1


def zipf_share(i: int, n: int, s: float) -> float:
    total = _zipf_cdf(n + 1.0, s) - _zipf_cdf(1.0, s)
    return (_zipf_cdf(i + 2.0, s) - _zipf_cdf(i + 1.0, s)) / total


def normal(rng: Uniform) -> float:
    """A standard normal draw by Box-Muller from two ``random()`` calls."""
    u1 = rng.random()
    u2 = rng.random()
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
