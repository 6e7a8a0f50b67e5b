"""Test tiers and the one Neo4j server a test session shares.

Backends, by ``ARGKB_TEST_BACKEND``:
- ``local`` (default): the managed local server, started once per session as the *default
  instance* of a throw-away ``ARGKB_HOME`` on a free port, so ``argkb`` commands without ``--uri``
  reach it exactly as a user's would, with auth on and the password argkb generated for it. The
  Neo4j distribution comes from the user's cache (installed there first if missing) and is
  linked in, not copied.
- ``docker``: ``docker/compose.yml`` through pytest-docker (hosts with a Docker engine), with
  auth on as there: the password is ``ARGKB_NEO4J_PASSWORD`` (a random one for the run when it is
  not set), on a free loopback port, and ``NEO4J_USERNAME`` / ``NEO4J_PASSWORD`` are set for the
  ``argkb`` commands the tests run.
- ``uri``: an existing server at ``ARGKB_TEST_NEO4J_URI`` (its data is wiped per module!), with
  ``NEO4J_USERNAME`` / ``NEO4J_PASSWORD`` if it needs them.

A ``neo4j`` test that cannot reach its server errors; nothing here skips.

Property-based tests (hypothesis) run under the ``argkb`` profile: derandomised, so every run
draws the same examples and a failure shows up on every run, not by chance; the example database
is off (it only replays earlier random failures). ``HYPOTHESIS_PROFILE=default`` draws fresh
random examples instead. Each test bounds its own ``max_examples`` and ``deadline``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    import neo4j

REPO = Path(__file__).resolve().parents[1]

settings.register_profile("argkb", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "argkb"))


@pytest.fixture(scope="session")
def argkb_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private ARGKB_HOME whose Neo4j distribution links to the real per-user one."""
    from argkb.db.distribution import default_distribution, install

    real = default_distribution()
    if not real.is_installed():
        install(real)
    home = tmp_path_factory.mktemp("argkb-home")
    (home / real.root.name).symlink_to(real.root, target_is_directory=True)
    saved = {key: os.environ.get(key) for key in ("ARGKB_HOME", "ARGKB_NEO4J_PORT")}
    os.environ["ARGKB_HOME"] = str(home)
    yield home
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def docker_compose_file() -> str:
    return str(REPO / "docker" / "compose.yml")


@pytest.fixture(scope="session")
def neo4j_uri(request: pytest.FixtureRequest, argkb_home: Path) -> Iterator[str]:
    backend = os.environ.get("ARGKB_TEST_BACKEND", "local")
    if backend == "uri":
        uri = os.environ.get("ARGKB_TEST_NEO4J_URI")
        if not uri:
            raise RuntimeError("ARGKB_TEST_BACKEND=uri needs ARGKB_TEST_NEO4J_URI")
        os.environ["NEO4J_URI"] = uri
        yield uri
        return
    if backend == "docker":
        import secrets

        from argkb.db.server import free_port

        # docker/compose.yml requires the password; the port only where 7687 may be taken
        password = os.environ.setdefault("ARGKB_NEO4J_PASSWORD", secrets.token_urlsafe(24))
        os.environ.setdefault("ARGKB_DOCKER_BOLT_PORT", str(free_port()))
        os.environ.update(NEO4J_USERNAME="neo4j", NEO4J_PASSWORD=password)
        services = request.getfixturevalue("docker_services")
        port = services.port_for("neo4j", 7687)
        uri = f"bolt://127.0.0.1:{port}"
        auth = ("neo4j", password)
        services.wait_until_responsive(check=lambda: _answers(uri, auth), timeout=180, pause=2)
        os.environ["NEO4J_URI"] = uri
        yield uri
        return
    from argkb.db.server import LocalServer, ServerConfig, free_port

    os.environ["ARGKB_NEO4J_PORT"] = str(free_port())
    os.environ.setdefault("ARGKB_NEO4J_HEAP", "1g")
    os.environ.setdefault("ARGKB_NEO4J_PAGECACHE", "512m")
    from argkb.db.distribution import default_distribution

    server = LocalServer(default_distribution(), ServerConfig.default())
    server.start()
    yield server.config.uri
    server.stop()


def _answers(uri: str, auth: tuple[str, str]) -> bool:
    """Whether the Docker backend answers (docker/compose.yml: user neo4j, ARGKB_NEO4J_PASSWORD)."""
    from neo4j import GraphDatabase
    from neo4j.exceptions import Neo4jError, ServiceUnavailable

    try:
        with GraphDatabase.driver(uri, auth=auth) as driver:
            driver.execute_query("RETURN 1")
        return True
    except (ServiceUnavailable, Neo4jError, OSError):
        return False


@pytest.fixture(scope="session")
def neo4j_auth(neo4j_uri: str) -> tuple[str, str] | None:
    """The credentials of the session's server: for the managed one, the password argkb
    generated for it (read through the same helper as every argkb command)."""
    backend = os.environ.get("ARGKB_TEST_BACKEND", "local")
    if backend == "uri":
        password = os.environ.get("NEO4J_PASSWORD")
        return (os.environ.get("NEO4J_USERNAME", "neo4j"), password) if password else None
    if backend == "docker":
        return ("neo4j", os.environ["ARGKB_NEO4J_PASSWORD"])  # set by neo4j_uri
    from argkb.db.server import ServerConfig

    auth = ServerConfig.default().auth()
    assert auth is not None, "the managed test server has no password file"
    return auth


@pytest.fixture(scope="session")
def driver(neo4j_uri: str, neo4j_auth: tuple[str, str] | None) -> Iterator[neo4j.Driver]:
    from neo4j import GraphDatabase, NotificationDisabledClassification

    # as argkb.db.connect.open_driver: id() lookups, and names a fresh database does not know yet
    quiet = [
        NotificationDisabledClassification.DEPRECATION,
        NotificationDisabledClassification.UNRECOGNIZED,
    ]
    with GraphDatabase.driver(
        neo4j_uri, auth=neo4j_auth, notifications_disabled_classifications=quiet
    ) as drv:
        drv.verify_connectivity()
        yield drv


def wipe(driver: neo4j.Driver) -> None:
    """Delete every node and drop every constraint and non-lookup index."""
    from argkb.db.cypher import quote_identifier

    with driver.session() as session:
        session.run(
            "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()
    for record in driver.execute_query("SHOW CONSTRAINTS YIELD name").records:
        driver.execute_query(f"DROP CONSTRAINT {quote_identifier(record['name'])} IF EXISTS")
    for record in driver.execute_query(
        "SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'"
    ).records:
        driver.execute_query(f"DROP INDEX {quote_identifier(record['name'])} IF EXISTS")


@pytest.fixture(scope="session")
def wipe_db() -> Callable[[neo4j.Driver], None]:
    """The wipe function, for tests that need a clean database mid-module."""
    return wipe


@pytest.fixture(scope="module")
def db(driver: neo4j.Driver) -> neo4j.Driver:
    """The session's driver over a database wiped clean for this test module."""
    wipe(driver)
    return driver
