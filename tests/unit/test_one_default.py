"""``argkb query``, ``argkb serve``, the evaluation harness and the library answer with one
default: :data:`argkb.query.settings.DEFAULT`. (Before the query package, the library and the
HTTP API took every claim as aligned while the CLI asked the alignment model, and the harness's
default was a third thing.) No database is needed: the engine is replaced by a recorder."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from argkb.query.settings import DEFAULT, QuerySettings, default_of, help_of, option_names


class _Recorder:
    """Stands in for QueryEngine: keeps the settings it was given, answers with a message."""

    seen: ClassVar[list[QuerySettings | None]] = []

    def __init__(self, driver: Any, embedder: Any, **kwargs: Any) -> None:
        _Recorder.seen.append(kwargs.get("settings"))

    def query(self, text: str, **_: Any) -> Any:
        from argkb.query.types import QueryResult

        return QueryResult(text, "recorded", [], message="recorded")


def test_argkb_query_without_options_uses_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import argkb.query.engine
    from argkb.cli import main
    from argkb.cli.app import Connection

    monkeypatch.setattr(argkb.query.engine, "QueryEngine", _Recorder)
    monkeypatch.setattr(Connection, "driver", lambda self: None)
    _Recorder.seen.clear()
    result = CliRunner().invoke(main, ["query", "We should abandon fossil fuels"])
    assert result.exit_code == 0, result.output
    assert _Recorder.seen == [DEFAULT]
    _Recorder.seen.clear()
    CliRunner().invoke(main, ["query", "x", "--ranker", "coreset", "--alignment", "always"])
    assert _Recorder.seen[0] is not None and _Recorder.seen[0] != DEFAULT
    assert (_Recorder.seen[0].ranker, _Recorder.seen[0].alignment) == ("coreset", "always")


def test_the_harness_default_is_the_same_object(monkeypatch: pytest.MonkeyPatch) -> None:
    from argkb.eval import adapters
    from argkb.eval.harness import DEFAULT_RANKER, RANKERS

    given: list[QuerySettings] = []

    def engine(driver: Any, database: Any, embedder: Any, settings: QuerySettings) -> Any:
        given.append(settings)
        return object()

    monkeypatch.setattr(adapters, "_engine", engine)
    factory = RANKERS[DEFAULT_RANKER].factory
    assert callable(factory)
    ranker = factory(None, None, None)  # type: ignore[arg-type]
    assert given == [DEFAULT] and given[0] is DEFAULT
    assert ranker.ranker == DEFAULT.ranker  # type: ignore[union-attr]


def test_the_library_engine_defaults_to_the_default() -> None:
    from argkb.query.engine import QueryEngine
    from argkb.stance.alignment import StanceAligner

    engine = QueryEngine(None, None)  # type: ignore[arg-type]
    assert engine.settings is DEFAULT
    assert isinstance(engine.alignment, StanceAligner)  # DEFAULT.alignment == "model"
    assert engine.alignment.hard


def test_every_setting_has_help_and_every_option_its_default() -> None:
    from argkb.cli import main

    for f in fields(QuerySettings):
        assert help_of(f.name).strip(), f.name
    command = main.get_command(None, "query")  # type: ignore[arg-type]
    assert command is not None
    by_name = {p.name: p for p in command.params}
    for name in option_names():
        assert by_name[name].default == default_of(name), name


def test_argkb_serve_answers_with_the_default() -> None:
    from argkb.serve.app import create_app
    from argkb.stance.alignment import StanceAligner

    app = create_app(None, None)  # type: ignore[arg-type]
    assert app.state.engine.settings is DEFAULT
    assert isinstance(app.state.engine.alignment, StanceAligner)
    assert app.state.engine.alignment.hard
