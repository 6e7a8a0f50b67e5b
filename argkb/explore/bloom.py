"""A Neo4j Bloom perspective for argkb's graph (``argkb bloom perspective``).

The file's shape (categories with captions and ``styleRules``, ``relationshipTypes``,
``templates`` for search phrases, ``sceneActions``, ``palette``, ``version``) follows what Bloom
exports; argkb writes it from its data model (docs/data-model.md) and its browsing library:

- one category per node label a person looks at (Claim, Premise, KeyPoint, Unit, Argument,
  Source, Cluster, Corpus, Sentence), captions from their text or title, units and arguments
  sized by PageRank and relevance, arguments coloured by stance;
- every relationship type of the data model (premise edges coloured by stance, pro green, con
  red; UNDERCUTS red; SAME_AS and REUSES styled apart), each with the hops Bloom's pattern
  search offers; the bookkeeping labels (Job, SentenceTerm, SentenceStats) are left out;
- a search phrase for every graph-returning query of ``cypher/browse/``, with its parameters;
- scene actions that work on the selected nodes (``$nodes``: their element ids): expand reuse,
  show cluster, show the arguments of a claim, show undercuts, show the corpora that hold an
  argument, show the community (from ``argkb analytics``).

Bloom itself needs Neo4j Desktop, Aura or an Enterprise server; it cannot run here, so the file is
checked by running every query it holds (tests/integration/test_browse.py), not in Bloom.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argkb.errors import ExploreError
from argkb.explore import library

BLOOM_VERSION = "2.21.0"  # the export format version argkb writes (as Bloom 2.x exports)
_NS = uuid.UUID("6f1c3d52-3a7e-4bb0-9d3c-0c6a6b1f2e10")
PRO, CON, UNKNOWN = "#2E9E5B", "#D64541", "#A5ABB6"


@dataclass(frozen=True)
class Category:
    name: str
    labels: tuple[str, ...]
    properties: tuple[tuple[str, str], ...]  # (key, Bloom data type)
    caption: str
    color: str
    size: float = 1.0
    size_by: str | None = None  # a numeric property: bigger node for a bigger value
    color_by_stance: bool = False


_UNIT_PROPS = (
    ("uid", "string"),
    ("text", "string"),
    ("pagerank", "number"),
    ("corpus", "string"),
    ("community", "number"),
    ("component", "number"),
    ("betweenness", "number"),
    ("gds_pagerank", "number"),
)

# Bloom gives a node the first category (in this order) one of whose labels it has: a unit
# that is both a claim and a premise is shown as a claim.
CATEGORIES = (
    Category("Claim", ("Claim",), _UNIT_PROPS, "text", "#F79767", 2.0, "pagerank"),
    Category("Premise", ("Premise",), _UNIT_PROPS, "text", "#68BDF6", 1.0, "pagerank"),
    Category(
        "KeyPoint",
        ("KeyPoint",),
        (
            ("uid", "string"),
            ("text", "string"),
            ("kp_id", "string"),
            ("topic", "string"),
            ("stance", "string"),
            ("split", "string"),
            ("corpus", "string"),
        ),
        "text",
        "#DA7194",
        1.5,
    ),
    Category("Unit", ("Unit",), _UNIT_PROPS, "text", "#D9C8AE", 1.0, "pagerank"),
    Category(
        "Argument",
        ("Argument",),
        (
            ("aid", "string"),
            ("stance", "string"),
            ("corpus", "string"),
            ("relevance_min", "number"),
            ("relevance_avg", "number"),
            ("relevance_max", "number"),
            ("relevance_sum", "number"),
            ("community", "number"),
            ("component", "number"),
        ),
        "stance",
        "#FFE081",
        0.5,
        "relevance_avg",
        color_by_stance=True,
    ),
    Category(
        "Source",
        ("Source",),
        (
            ("sid", "string"),
            ("title", "string"),
            ("discussion", "string"),
            ("url", "string"),
            ("corpus", "string"),
        ),
        "title",
        "#57C7E3",
    ),
    Category(
        "Cluster",
        ("Cluster",),
        (
            ("cid", "string"),
            ("kind", "string"),
            ("method", "string"),
            ("size", "number"),
            ("cf_pro", "number"),
            ("cf_con", "number"),
        ),
        "cid",
        "#8DCC93",
        1.0,
        "size",
    ),
    Category(
        "Corpus",
        ("Corpus",),
        (
            ("cid", "string"),
            ("name", "string"),
            ("format", "string"),
            ("status", "string"),
            ("units", "number"),
            ("shared", "number"),
        ),
        "name",
        "#4C8EDA",
    ),
    Category(
        "Sentence",
        ("Sentence",),
        (
            ("uid", "string"),
            ("text", "string"),
            ("position", "number"),
            ("start", "number"),
            ("words", "number"),
        ),
        "text",
        "#E0E0E0",
        0.5,
    ),
)

RELATIONSHIPS: dict[str, tuple[tuple[str, str], ...]] = {
    "PREMISE_OF": (
        ("stance", "string"),
        ("stance_source", "string"),
        ("stance_p_pro", "number"),
        ("stance_model", "string"),
    ),
    "CONCLUDES": (),
    "UNDERCUTS": (),
    "REUSES": (),
    "SAME_AS": (("score", "number"), ("method", "string")),
    "FROM": (("corpus", "string"),),  # on a unit's edge only (a unit in no argument)
    "SHARES": (),
    "IN_CLUSTER": (),
    "MATCHES_KEY_POINT": (
        ("label", "number"),
        ("arg_id", "string"),
        ("kp_id", "string"),
        ("corpus", "string"),
    ),
    "IN": (("position", "number"),),
    "NEXT": (),
}
_REL_COLORS = {
    "CONCLUDES": "#F36924",
    "UNDERCUTS": CON,
    "REUSES": "#B261A5",
    "SAME_AS": "#5DB665",
    "SHARES": "#4C8EDA",
    "MATCHES_KEY_POINT": "#DA7194",
}
NOT_IN_BLOOM = frozenset({"Job", "SentenceTerm", "SentenceStats"})
"""Labels of the data model with no category: bookkeeping a person does not browse (a running
step's marker, the sentence index's term statistics). The cluster kind and size labels are shown
as their Cluster category."""

# (source category, relationship type, target category): what Bloom's graph-pattern search offers
PATH_SEGMENTS = (
    ("Premise", "PREMISE_OF", "Argument"),
    ("Argument", "CONCLUDES", "Claim"),
    ("Argument", "REUSES", "Argument"),
    ("Claim", "SAME_AS", "Premise"),
    ("Argument", "FROM", "Source"),
    ("Unit", "IN_CLUSTER", "Cluster"),
    ("Argument", "UNDERCUTS", "Argument"),
    ("Corpus", "SHARES", "Argument"),
    ("Unit", "FROM", "Source"),
    ("Premise", "MATCHES_KEY_POINT", "KeyPoint"),
    ("Sentence", "IN", "Premise"),
    ("Sentence", "NEXT", "Sentence"),
)

# Which node a parameter names, for Bloom's value suggestions while typing; _SUGGEST_IN first,
# for the queries whose parameter names another kind of node than its name says.
_SUGGEST = {
    "claim": ("Claim", "text"),
    "unit": ("Unit", "text"),
    "from": ("Unit", "text"),
    "to": ("Unit", "text"),
    "source": ("Source", "title"),
    "cid": ("Cluster", "cid"),
}
_SUGGEST_IN = {
    ("reuse_chains", "claim"): ("Premise", "text"),  # a conclusion that is a premise elsewhere
    ("premise_sentences", "unit"): ("Premise", "text"),
}
_BLOOM_TYPES = {"string": "String", "integer": "Integer", "float": "Float"}


@dataclass(frozen=True)
class SceneAction:
    name: str
    cypher: str


SCENE_ACTIONS = (
    SceneAction(
        "Expand reuse",
        # selected units: the arguments they are premises of and those arguments' conclusions
        # (one step up a reuse chain) and the arguments concluding them with their premises (one
        # step down); selected arguments: the arguments they reuse and that reuse them
        "MATCH (n) WHERE elementId(n) IN $nodes\n"
        "CALL (n) {\n"
        "  MATCH path = (n:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(:Unit)\n"
        "  RETURN path\n"
        "  UNION\n"
        "  MATCH path = (:Unit)-[:PREMISE_OF]->(:Argument)-[:CONCLUDES]->(n:Unit)\n"
        "  RETURN path\n"
        "  UNION\n"
        "  MATCH path = (n:Argument)-[:REUSES]-(:Argument)\n"
        "  RETURN path\n"
        "}\n"
        "RETURN path",
    ),
    SceneAction(
        "Show cluster",
        "MATCH (n) WHERE elementId(n) IN $nodes\n"
        "CALL (n) {\n"
        "  MATCH path = (n:Unit)-[:IN_CLUSTER]->(:Cluster)<-[:IN_CLUSTER]-(:Unit)\n"
        "  RETURN path\n"
        "  UNION\n"
        "  MATCH path = (n:Cluster)<-[:IN_CLUSTER]-(:Unit)\n"
        "  RETURN path\n"
        "}\n"
        "RETURN path",
    ),
    SceneAction(
        "Show arguments of claim",
        # with the undercuts that attack them, as claim_arguments shows them
        "MATCH (c:Unit) WHERE elementId(c) IN $nodes\n"
        "MATCH conclusion = (a:Argument)-[:CONCLUDES]->(c)\n"
        "CALL (a) {\n"
        "  MATCH premise = (:Unit)-[:PREMISE_OF]->(a)\n"
        "  RETURN premise, null AS undercut\n"
        "  UNION ALL\n"
        "  MATCH undercut = (:Unit)-[:PREMISE_OF]->(:Argument)-[:UNDERCUTS]->(a)\n"
        "  RETURN null AS premise, undercut\n"
        "}\n"
        "RETURN conclusion, premise, undercut",
    ),
    SceneAction(
        "Show undercuts",
        # selected arguments: the undercuts attacking them, with their premises; selected
        # units: those attacking the arguments that conclude them
        "MATCH (n) WHERE elementId(n) IN $nodes\n"
        "CALL (n) {\n"
        "  MATCH path = (:Unit)-[:PREMISE_OF]->(:Argument)-[:UNDERCUTS]->(n:Argument)\n"
        "  RETURN path\n"
        "  UNION\n"
        "  MATCH path = (:Unit)-[:PREMISE_OF]->(:Argument)-[:UNDERCUTS]->(:Argument)"
        "-[:CONCLUDES]->(n:Unit)\n"
        "  RETURN path\n"
        "}\n"
        "RETURN path",
    ),
    SceneAction(
        "Show corpora of argument",
        # the corpus that loaded it (Argument.corpus) and those that repeated it (SHARES)
        "MATCH (a:Argument) WHERE elementId(a) IN $nodes\n"
        "CALL (a) {\n"
        "  MATCH (c:Corpus {cid: a.corpus}) RETURN c, null AS shares\n"
        "  UNION\n"
        "  MATCH shares = (c:Corpus)-[:SHARES]->(a) RETURN c, shares\n"
        "}\n"
        "RETURN a, c, shares",
    ),
    SceneAction(
        "Show community (argkb analytics)",
        "MATCH (u:Unit) WHERE elementId(u) IN $nodes AND u.community IS NOT NULL\n"
        "MATCH (m:Unit {community: u.community})\n"
        "WITH DISTINCT m ORDER BY coalesce(m.pagerank, -1.0) DESC LIMIT 100\n"
        "RETURN m",
    ),
)


def _id(*parts: str) -> str:
    return str(uuid.uuid5(_NS, "/".join(parts)))


def _rule(rule_id: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": rule_id,
        "type": "single",
        "size": 1,
        "minSize": 1,
        "maxSize": 4,
        "minColor": "#D5EEE2",
        "midColor": "#81CCA8",
        "maxColor": "#428C6A",
        "minPoint": "unprocessed",
        "maxPoint": "unprocessed",
        "applyColor": False,
        "applySize": False,
        "applyCaption": False,
        "captionKeys": [],
        "color": "#FFE081",
        "isTimeZoneConvertEnabled": False,
        "selectedTimeZone": "Z",
        "valuesMapper": [],
        "existingValues": [],
        "conditionValue": None,
        "rangeValue": None,
        "condition": None,
    }
    base.update(fields)
    return base


def _stance_rules(owner: str) -> list[dict[str, Any]]:
    return [
        _rule(
            f"rule:{owner}:stance:{value}",
            basedOn="stance_string",
            condition="equals",
            conditionValue=value,
            applyColor=True,
            color=color,
        )
        for value, color in (("pro", PRO), ("con", CON), ("unknown", UNKNOWN))
    ]


def _category(index: int, category: Category, stamp: int) -> dict[str, Any]:
    rules = []
    if category.size_by:
        rules.append(
            _rule(
                f"rule:{category.name}:size",
                type="range",
                basedOn=f"{category.size_by}_number",
                applySize=True,
                minSize=1,
                maxSize=4,
                condition="range",
            )
        )
    if category.color_by_stance:
        rules.extend(_stance_rules(category.name))
    captions = [
        {
            "inTooltip": False,
            "styles": [],
            "isCaption": False,
            "key": category.name,
            "type": "label",
        },
        *(
            {
                "inTooltip": key != category.caption,
                "styles": [],
                "isCaption": key == category.caption,
                "key": key,
                "type": "property",
                "isGdsData": False,
            }
            for key, _ in category.properties
        ),
    ]
    return {
        "id": index,
        "name": category.name,
        "labels": list(category.labels),
        "properties": [
            {"name": key, "exclude": False, "dataType": kind} for key, kind in category.properties
        ],
        "createdAt": stamp,
        "lastEditedAt": stamp,
        "color": category.color,
        "size": category.size,
        "icon": "no-icon",
        "captionKeys": [category.caption],
        "captions": captions,
        "textSize": 1,
        "textAlign": "top",
        "styleRules": rules,
    }


def _relationship(name: str, props: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    return {
        "id": name,
        "name": name,
        "properties": [{"propertyKey": key, "type": name, "dataType": kind} for key, kind in props],
        "color": _REL_COLORS.get(name, "#A5ABB6"),
        "size": 1,
        "captionKeys": [],
        "captions": [
            {
                "inTooltip": True,
                "isCaption": True,
                "styles": [],
                "key": name,
                "type": "relationship",
            }
        ],
        "textSize": 1,
        "textAlign": "top",
        "styleRules": _stance_rules(name) if name == "PREMISE_OF" else [],
    }


def phrase(query: library.BrowseQuery) -> str:
    """The words a person types in Bloom's search bar for ``query``, with its parameters."""
    return " ".join([query.title, *(f"${p.name}" for p in query.parameters)])


def _template(query: library.BrowseQuery, stamp: int) -> dict[str, Any]:
    params = []
    for param in query.parameters:
        suggest = _SUGGEST_IN.get((query.name, param.name)) or _SUGGEST.get(param.name)
        label, prop = suggest if suggest else (None, None)
        params.append(
            {
                "name": f"${param.name}",
                "dataType": _BLOOM_TYPES[param.type],
                "collapsed": False,
                "suggestionLabel": label,
                "suggestionProp": prop,
                "suggestionBoolean": False,
                "cypher": None,
            }
        )
    return {
        "name": query.title,
        "id": f"tmpl:{query.name}",
        "createdAt": stamp,
        "text": phrase(query),
        "cypher": query.body,
        "isUpdateQuery": None,
        "isWriteTransactionChecked": None,
        "params": params,
        "hasCypherErrors": False,
    }


def perspective(name: str = "argkb", *, stamp: int | None = None) -> dict[str, Any]:
    """The perspective as a JSON-ready dict. ``stamp``: creation time in ms (default: now)."""
    stamp = int(time.time() * 1000) if stamp is None else stamp
    categories = [_category(i + 1, c, stamp) for i, c in enumerate(CATEGORIES)]
    graph_queries = [q for q in library.all_queries() if q.returns == "graph"]
    return {
        "name": name,
        "id": _id("perspective", name),
        "categories": categories,
        "labels": {
            label: [
                {"propertyKey": key, "type": label, "dataType": kind}
                for key, kind in category.properties
            ]
            for category in CATEGORIES
            for label in category.labels
        },
        "relationshipTypes": [_relationship(t, props) for t, props in RELATIONSHIPS.items()],
        "palette": {
            "colors": sorted({c.color for c in CATEGORIES} | {PRO, CON, UNKNOWN}),
            "currentIndex": len(CATEGORIES),
        },
        "createdAt": stamp,
        "lastEditedAt": stamp,
        "templates": [_template(q, stamp) for q in graph_queries],
        "sceneActions": [
            {
                "name": action.name,
                "id": _id("scene", action.name),
                "createdAt": stamp,
                "cypher": action.cypher,
                "isUpdateQuery": None,
                "categories": None,
                "relationshipTypes": None,
                "hasCypherErrors": False,
            }
            for action in SCENE_ACTIONS
        ],
        "hiddenRelationshipTypes": [],
        "hiddenCategories": [],
        "hideUncategorisedData": False,
        "type": "STANDARD_PERSPECTIVE",
        "parentPerspectiveId": None,
        "metadata": {
            "pathSegments": [
                {"source": s, "relationshipType": t, "target": e} for s, t, e in PATH_SEGMENTS
            ],
            "indexes": [
                {
                    "label": label,
                    "type": "native",
                    "propertyKeys": [{"key": key, "metadataProp": False}],
                }
                for label, key in (
                    ("Unit", "uid"),
                    ("Argument", "aid"),
                    ("Source", "sid"),
                    ("Cluster", "cid"),
                    ("Corpus", "cid"),
                    ("Sentence", "uid"),
                )
            ]
            + [
                {
                    "label": label,
                    "type": "fulltext",
                    "propertyKeys": [{"key": "text", "metadataProp": False}],
                }
                for label in ("Claim", "Premise", "Sentence")
            ],
        },
        "version": BLOOM_VERSION,
    }


def write_perspective(path: Path, name: str = "argkb") -> dict[str, Any]:
    """Write :func:`perspective` to ``path`` as JSON; returns it."""
    data = perspective(name)
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as err:
        raise ExploreError(f"cannot write {path}: {err.strerror or err}") from err
    return data
