"""The typed records every loader yields, and the unit identity they share.

A loader turns one corpus format into a stream of these frozen records; :mod:`argkb.ingest`
writes them to Neo4j in batches. Nothing here knows Neo4j.

Unit identity
-------------
Two units are the same node when their *keys* are equal. By default the key is the normalised
text (:func:`normalise_text`), so the exact reuse of a conclusion as a premise anywhere, in any
corpus, becomes graph structure (as in Wachsmuth et al., EACL 2017, who matched units by exact
text). A corpus whose units carry their own identity and no text (Webis-ArgRank-17) passes an
explicit ``key`` instead.

Normalisation, in order: Unicode NFKC; case folding; NFKC again; every run of whitespace becomes
one space; leading and trailing whitespace, quotes and the sentence punctuation ``. ! ? ; :`` are
stripped.
So "Fossil fuels harm us." and " fossil  FUELS harm us" are one unit; "fossil fuels harm us?"
(a question) is the same unit too, by design: a trailing mark does not change the proposition.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Literal, TypeAlias

from argkb.errors import located

Stance: TypeAlias = Literal["pro", "con"]
# what the data says about a premise: pro, con, or nothing (``unknown``: stored as such on the
# PREMISE_OF edge, for ``argkb stance`` to predict)
StanceLabel: TypeAlias = Literal["pro", "con", "unknown"]
Scalar: TypeAlias = str | int | float | bool | None
Properties: TypeAlias = tuple[tuple[str, Scalar], ...]

_SPACE = re.compile(r"\s+")
# quotes (straight, curly, guillemets) and sentence punctuation stripped from both ends
_EDGE = "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb .!?;:"


_SURROGATE = re.compile("[\ud800-\udfff]")
_INT64 = 2**63  # Neo4j integers are 64-bit


def unstorable(value: object) -> str | None:
    """Why Neo4j cannot store ``value`` exactly as given, or None when it can: text with a lone
    surrogate (a ``\\ud800`` escape in JSON, or bytes that were not UTF-8), an integer beyond
    64 bits, an infinite or NaN number, or a value that is no scalar."""
    if isinstance(value, str):
        return "not UTF-8 text (a lone surrogate)" if _SURROGATE.search(value) else None
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if -_INT64 <= value < _INT64:
            return None
        # no float format: an integer past 1e308 has none (OverflowError)
        return f"integer of {value.bit_length()} bits, beyond 64 bits"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"number {value} is not finite"
    return f"a {type(value).__name__}, not a text or number"


# C0 controls but tab, line feed and carriage return, and DEL: a NUL or an escape sequence in a
# text is an accident of the data (and ESC would reach a terminal through `argkb query`)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def control_character(text: str) -> str | None:
    """Why ``text`` is no unit text for the first control character in it (U+0000-U+001F but tab,
    line feed and carriage return, and U+007F), naming it and its position; None without one."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    return (
        f"control character U+{ord(found.group()):04X} at character {found.start() + 1:,}"
        " of the text (only tab, line feed and carriage return may be in a text)"
    )


def normalise_text(text: str) -> str:
    """The documented normalisation behind unit identity (see the module docstring)."""
    # NFKC again after case folding: folding can leave marks out of canonical order ("ß" + an
    # accent folds to "ss" + accent), and the key must not depend on how often it was applied
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return _SPACE.sub(" ", folded).strip(_EDGE + "\t\n")


def text_key(text: str) -> str:
    """A short stable key of the normalised text: ``t:`` + 24 hex digits of BLAKE2b."""
    # surrogatepass: a text that is not Unicode still gets a key (validation rejects it later)
    data = normalise_text(text).encode("utf-8", "surrogatepass")
    digest = hashlib.blake2b(data, digest_size=12).hexdigest()
    return "t:" + digest


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as a record mentions it: its text, and optionally an explicit identity."""

    text: str
    key: str | None = None

    @property
    def uid(self) -> str:
        return self.key if self.key is not None else text_key(self.text)


@dataclass(frozen=True, slots=True)
class ArgumentRecord:
    """One inference: premises that support (``pro``) or attack (``con``) a conclusion.

    ``stance`` is ``unknown`` where the data does not say (a JSONL premise without a stance, an
    AIF inference whose kind is undecided).

    ``aid`` is unique within the corpus; loaders prefix it with the corpus format
    (``argsme:...``, ``aif:...``) so ids from different corpora never collide.
    """

    aid: str
    conclusion: UnitRef
    premises: tuple[UnitRef, ...]
    stance: StanceLabel
    source: str | None = None
    properties: Properties = ()
    where: str = ""  # file and record/line, for error messages and the reject report
    fields: tuple[str, ...] = _field(default=(), compare=False)
    """The input's names of the conclusion and of each premise, in order, so that an error
    names the field the input has: ``("topic", "argument")`` for an ArgKP row,
    ``("conclusion", "premises[1]", "premises[3]")`` for the con argument of a JSONL line whose
    premises 1 and 3 are con. Empty: ``conclusion`` and ``premises[N]``."""

    def conclusion_field(self) -> str:
        """The input's name of the conclusion."""
        return self.fields[0] if self.fields else "conclusion"

    def premise_field(self, index: int) -> str:
        """The input's name of premise ``index``."""
        return self.fields[index + 1] if self.fields else f"premises[{index}]"


@dataclass(frozen=True, slots=True)
class UnitRecord:
    """A unit that exists on its own, with extra labels or properties (e.g. an ArgKP key point)."""

    unit: UnitRef
    labels: tuple[str, ...] = ()
    properties: Properties = ()
    source: str | None = None
    where: str = ""
    field: str = _field(default="text", compare=False)
    """The input's name of the unit's text, for error messages (``key_point`` in ArgKP)."""


@dataclass(frozen=True, slots=True)
class LinkRecord:
    """A typed relationship between two units that is not an argument (e.g. key-point match)."""

    start: UnitRef
    end: UnitRef
    type: str
    properties: Properties = ()
    where: str = ""


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """Where arguments come from: a debate, document or argument map (``pagerank`` = p(d))."""

    sid: str
    properties: Properties = ()
    where: str = ""


@dataclass(frozen=True, slots=True)
class UndercutRecord:
    """An attack on an inference rather than on a unit: ``premises`` attack the argument
    ``target`` (its aid), as an AIF CA node pointing at an RA or CA node does (an undercut).

    Stored as an ``Argument`` (stance ``con``) with its premises and
    ``(:Argument)-[:UNDERCUTS]->(:Argument)`` instead of a conclusion (docs/data-model.md).
    """

    aid: str
    premises: tuple[UnitRef, ...]
    target: str
    source: str | None = None
    properties: Properties = ()
    where: str = ""


Record: TypeAlias = ArgumentRecord | UndercutRecord | UnitRecord | LinkRecord | SourceRecord


@dataclass(frozen=True, slots=True)
class Rejected:
    """A record a loader could not use: where it is, which field, and why."""

    where: str
    field: str
    reason: str

    def __str__(self) -> str:
        return located(self.where, self.field, self.reason)


@dataclass(frozen=True, slots=True)
class LeftOut:
    """Valid input whose structure argkb does not model, left out of the graph: a warning, not an
    error (e.g. an AIF inference whose premise is a locution). ``kind`` groups them for counts."""

    where: str
    kind: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"
