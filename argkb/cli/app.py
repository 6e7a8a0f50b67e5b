"""The ``argkb`` group and what every command shares: connection options, ``--json``, errors.

Library errors (:class:`argkb.errors.ArgKBError`) become a one-line message and exit code 1;
usage errors (a bad option value, a missing file) a one-line message and exit code 2.
The library logs with stdlib :mod:`logging` (module loggers under ``argkb``); the CLI decides
what a person sees: warnings by default, ``-v`` progress messages, ``-vv`` every Cypher query
with its parameters, ``-vvv`` the Neo4j driver's own debug log as well.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import os
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from argkb.blas import one_blas_thread as one_blas_thread  # re-exported for the query commands
from argkb.errors import ArgKBError
from argkb.jsonout import to_json as to_json  # re-exported: the commands import it from here

if TYPE_CHECKING:
    import neo4j


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters (tab and line breaks aside): a
    corpus's text may hold NUL, bell or escape sequences that a terminal would act on."""
    text = click.unstyle(text)
    return "".join(c for c in text if c in "\t\n\r" or unicodedata.category(c) != "Cc")


def one_line(text: str, width: int) -> str:
    """``text`` on one line (runs of whitespace as one space, control characters left out), cut
    after a whole word to at most ``width`` characters, with " ..." where it was cut."""
    import textwrap

    return textwrap.shorten(printable(text), width, placeholder=" ...")


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: "1 premise", "2,113 premises"."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def echo_err(message: str) -> None:
    click.echo(message, err=True)


def _stdout_gone() -> None:
    """Point standard output at the null device once its reader went away, so that Python's
    final flush does not fail once more."""
    import os
    import sys

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn argkb's own errors, and the Neo4j driver's (:func:`argkb.db.failures.translate`: a
    server that stopped answering mid-job, a refused statement), into a clean ``Error: ...``
    line (exit 1) instead of a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ArgKBError as err:
            raise click.ClickException(str(err)) from err
        except BrokenPipeError:
            # 'argkb status | head -1': the reader has what it wanted (the driver reports a
            # closed connection to Neo4j as its own errors, never as this one)
            _stdout_gone()
            raise SystemExit(141) from None  # as a process killed by SIGPIPE (128 + 13)
        except Exception as err:
            from argkb.db.failures import translate

            context = click.get_current_context(silent=True)
            command = f"'{context.command_path}'" if context else "the command"
            known = translate(err, command)
            if known is None:
                raise
            raise click.ClickException(str(known)) from err

    return wrapper


class FiniteRange(click.FloatRange):
    """click's ``FloatRange`` that also refuses ``nan`` and ``inf``: every comparison with nan is
    false, so ``FloatRange`` lets it through (``--max-zip-ratio nan`` turned the zip-bomb check
    off)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def not_blank(why: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """An option callback that refuses an empty or blank value, saying ``why`` after "is empty"."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise click.BadParameter(f"is empty{why}", ctx, param)
        return value

    return check


def output_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An ``--out`` folder, checked when the command line is read: a path that cannot be a
    folder (under a file, no permission) is a usage error before any work, not a traceback
    after it. The folder itself is made by the command when it writes, so a run refused
    early leaves no empty folder behind."""
    if value is None:
        return None
    problem = _folder_problem(Path(value).absolute())
    if problem is not None:
        raise click.BadParameter(f"cannot create the folder {value}: {problem}", ctx, param)
    return value


def _folder_problem(path: Path) -> str | None:
    """Why ``path`` cannot be (made) a folder, or None: the nearest existing ancestor must be a
    folder this process may write into."""
    if path.is_dir():
        return None
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        return "Not a directory"
    if existing != path and not os.access(existing, os.W_OK | os.X_OK):
        return "Permission denied"
    return None


@dataclasses.dataclass
class Connection:
    """What the connection options resolved to; the driver is opened on first use."""

    uri: str | None
    user: str | None
    password: str | None
    database: str | None
    insecure: bool = False
    _driver: Any = None

    def target(self) -> Any:
        """The resolved :class:`argkb.db.connect.Target` (starts the managed server if needed)."""
        from argkb.db.connect import resolve_target

        target = resolve_target(
            self.uri,
            self.user,
            self.password,
            self.database,
            insecure=self.insecure,
            echo=echo_err,
        )
        self.database = target.database
        return target

    def driver(self) -> neo4j.Driver:
        if self._driver is None:
            from argkb.db.connect import open_driver

            self._driver = open_driver(self.target())
        return self._driver

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()


def warn_unfinished_loads(conn: Connection) -> None:
    """A warning line on stderr for each load that began and did not finish (Ctrl-C, killed):
    a step run now computes over part of that corpus (``argkb update`` refuses instead)."""
    from argkb.db.schema import incomplete_corpora, load_name

    for load in incomplete_corpora(conn.driver(), conn.database):
        echo_err(
            f"warning: {load_name(load)} did not finish, so this step sees part of "
            "it: run the same 'argkb load' again, then this step (or 'argkb update')"
        )


def connection_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--uri/--user/--password/--database/--insecure`` (with env vars) as a ``conn`` argument."""

    @click.option(
        "--uri",
        envvar="NEO4J_URI",
        help="Bolt/neo4j URI [env NEO4J_URI]; default: the managed local server.",
    )
    @click.option(
        "--user", envvar=["NEO4J_USERNAME", "NEO4J_USER"], help="User name [env NEO4J_USERNAME]."
    )
    @click.option("--password", envvar="NEO4J_PASSWORD", help="Password [env NEO4J_PASSWORD].")
    @click.option(
        "--database",
        envvar="NEO4J_DATABASE",
        help="Database name [env NEO4J_DATABASE]; default: the server's.",
    )
    @click.option(
        "--insecure",
        is_flag=True,
        envvar="ARGKB_INSECURE",
        help="Allow unencrypted bolt:// or neo4j:// to another host [env ARGKB_INSECURE].",
    )
    @functools.wraps(fn)
    def wrapper(
        uri: str | None,
        user: str | None,
        password: str | None,
        database: str | None,
        insecure: bool,
        **kwargs: Any,
    ) -> Any:
        conn = Connection(uri, user, password, database, insecure)
        try:
            return fn(conn=conn, **kwargs)
        finally:
            conn.close()

    return wrapper


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")


class _EchoHandler(logging.Handler):
    """Log records to the current stderr through click (so test runners capture them too)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            click.echo(self.format(record), err=True)
        except Exception:  # logging must never break a command
            self.handleError(record)


_HANDLER = _EchoHandler()
_HANDLER.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))


def configure_logging(verbosity: int) -> None:
    """Route the ``argkb`` loggers (and with ``verbosity >= 3`` the driver's) to stderr.

    0: warnings and errors (the driver's own log off); 1: INFO (what a command is doing), with the
    driver's warnings; 2: DEBUG (every Cypher query with its parameters, from
    :mod:`argkb.db.cypher`); 3: also the ``neo4j`` driver at DEBUG.
    Calling it again replaces the previous setting (one handler, never duplicated).
    """
    levels = {0: logging.WARNING, 1: logging.INFO}
    for name, level in (
        ("argkb", levels.get(verbosity, logging.DEBUG)),
        # below -v the driver stays quiet: when Neo4j goes away, argkb's own one-line error
        # says what happened (argkb.db.failures), not the driver's "defunct connection" log
        (
            "neo4j",
            {0: logging.CRITICAL, 1: logging.WARNING, 2: logging.WARNING}.get(
                verbosity, logging.DEBUG
            ),
        ),
    ):
        log = logging.getLogger(name)
        log.setLevel(level)
        if _HANDLER not in log.handlers:
            log.addHandler(_HANDLER)


class _UsageLine(click.ClickException):
    """A usage error (a missing argument, a bad option value, a path that does not exist) as one
    line, ``Error: ...`` with where to find help, instead of click's usage block; exit code 2."""

    exit_code = 2

    def __init__(self, err: click.UsageError) -> None:
        command = err.ctx.command_path if err.ctx is not None else "argkb"
        super().__init__(f"{err.format_message()} (see '{command} --help')")


class _Group(click.Group):
    """The ``argkb`` group: every usage error below it is one line (:class:`_UsageLine`), except
    a group called without a command, which shows its help as before."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as err:
            raise _UsageLine(err) from err

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as err:
            raise _UsageLine(err) from err


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="argkb")
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Say more on stderr: -v what is being done, -vv also every Cypher query with its "
    "parameters, -vvv also the Neo4j driver's debug log.",
)
def main(verbose: int) -> None:
    """argkb: an argument knowledge base on Neo4j.

    Load argument corpora, compute argument PageRank, and ask a claim for ranked,
    deduplicated pro and con premises. Without --uri / NEO4J_URI every command uses the managed
    local Neo4j (installed and started on demand).

    \b
    Pipeline, in this order (load -> embed -> cluster -> pagerank [-> stance] -> query):
      argkb load FORMAT PATH   a corpus (again for each further corpus)
      argkb embed              vectors of the units       (needs load)
      argkb cluster            claim and premise clusters (needs embed)
      argkb pagerank           argument PageRank          (needs load)
      argkb stance             optional: unknown stances  (needs load)
      argkb query CLAIM        pro and con premises       (needs all of the above)
    argkb update runs the steps that are stale after a load; argkb status shows them.
    """
    configure_logging(verbose)


@main.group("eval")
def eval_group() -> None:
    """Evaluate rankers with the papers' metrics on real benchmarks."""
