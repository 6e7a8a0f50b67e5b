"""Assemble a Neo4j Community server, with GDS and APOC core as plugins, from Maven Central.

Hosts without Docker still get the genuine server: ``docker/neo4j-server.pom.xml`` lists
``org.neo4j:neo4j`` (which holds ``org.neo4j.server.CommunityEntryPoint``) and the import tool;
``docker/neo4j-plugins.pom.xml`` lists GDS and APOC core; ``docker/neo4j-browser.pom.xml`` the
Neo4j Browser jar (static files the server serves at ``/browser/`` when HTTP is on). Maven's
dependency plugin copies their runtime jars into ``<cache>/neo4j-<version>/lib`` and a staging
folder; the plugins folder gets only the jars whose ``groupId.artifactId`` the server's lib does not
already hold, so the server keeps its own versions of shared libraries (Jackson, SLF4J, ...).

A distribution installed before argkb shipped the Browser gets its jar on the next ``argkb server
install`` (or ``argkb browse``): fetched into a staging folder beside it and moved into ``lib/``
in one rename, so servers starting meanwhile see the jar whole or not at all.

A failed plugin resolution does not fail the install: the server works without plugins and
``manifest.json`` records which plugin is missing and why, for ``argkb server status``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from argkb.errors import ServerError
from argkb.paths import cache_root

NEO4J_VERSION = "5.26.19"
GDS_VERSION = "2.13.9"
APOC_VERSION = "5.26.19"
# Browser builds for 5.26 are not on Maven Central; 5.24 is, and works with a 5.26 server.
BROWSER_VERSION = "5.24.0"
BROWSER_JAR = "org.neo4j.client.neo4j-browser-"  # prefix of its file name in lib/

# The marker jar of each plugin: present in plugins/ means the plugin was installed.
PLUGIN_MARKERS = {"gds": "org.neo4j.gds.proc-", "apoc": "org.neo4j.procedure.apoc-core-"}

_JAR = re.compile(r"^(?P<key>.+?)-(?P<version>\d[\w.\-]*)\.jar$")


def _jar_key(filename: str) -> str:
    """``org.neo4j.neo4j-kernel-5.26.19.jar`` -> ``org.neo4j.neo4j-kernel`` (groupId.artifactId)."""
    match = _JAR.match(filename)
    return match.group("key") if match else filename


@dataclass(frozen=True)
class Distribution:
    """An assembled Neo4j: ``lib/`` (server), ``plugins/`` and ``manifest.json``."""

    root: Path

    @property
    def lib(self) -> Path:
        return self.root / "lib"

    @property
    def plugins(self) -> Path:
        return self.root / "plugins"

    @property
    def manifest_path(self) -> Path:
        return self.root / "manifest.json"

    def is_installed(self) -> bool:
        return self.manifest_path.is_file() and any(self.lib.glob("org.neo4j.neo4j-5*.jar"))

    def manifest(self) -> dict:
        if not self.manifest_path.is_file():
            return {}
        return json.loads(self.manifest_path.read_text())

    def plugin_jars(self) -> list[Path]:
        return sorted(self.plugins.glob("*.jar")) if self.plugins.is_dir() else []

    def browser_jar(self) -> Path | None:
        """The Neo4j Browser jar in ``lib/``, or None (installed before argkb shipped it)."""
        jars = sorted(self.lib.glob(BROWSER_JAR + "*.jar")) if self.lib.is_dir() else []
        return jars[-1] if jars else None


def default_distribution(neo4j_version: str = NEO4J_VERSION) -> Distribution:
    return Distribution(cache_root() / f"neo4j-{neo4j_version}")


@dataclass
class InstallReport:
    distribution: Distribution
    already_installed: bool
    neo4j_version: str
    plugins: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0
    browser: dict[str, object] = field(default_factory=dict)  # installed, version, why


def _run_maven(pom: Path, output: Path, properties: dict[str, str], log: Path) -> None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ServerError(
            "Maven ('mvn') is not on PATH: install Maven 3.8+ (Debian: apt-get install maven), "
            "or point argkb at an existing Neo4j with --uri / NEO4J_URI."
        )
    cmd = [
        mvn,
        "-B",
        "-q",
        "-f",
        str(pom),
        "dependency:copy-dependencies",
        "-Dmdep.prependGroupId=true",
        f"-DoutputDirectory={output}",
        *(f"-D{key}={value}" for key, value in properties.items()),
    ]
    with log.open("a") as sink:
        done = subprocess.run(cmd, stdout=sink, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-15:]
        raise ServerError(
            f"Maven failed (exit {done.returncode}) for {pom.name}:\n" + "\n".join(tail)
        )


def install(
    distribution: Distribution | None = None,
    *,
    neo4j_version: str = NEO4J_VERSION,
    gds_version: str = GDS_VERSION,
    apoc_version: str = APOC_VERSION,
    browser_version: str = BROWSER_VERSION,
    with_plugins: bool = True,
    force: bool = False,
    echo: Callable[[str], None] = lambda _msg: None,
) -> InstallReport:
    """Fetch Neo4j, its Browser (and plugins) with Maven into ``distribution.root``.

    The server is assembled in a temporary sibling folder and renamed into place, so an
    interrupted install never leaves a half-filled distribution behind. An installed one is left
    as it is, except that it gets the Browser jar if it has none (:func:`add_browser`).
    """
    import time

    started = time.perf_counter()
    dist = distribution or default_distribution(neo4j_version)
    if dist.is_installed() and not force:
        try:
            add_browser(dist, browser_version=browser_version, echo=echo)
            browser = _browser_report(dist, "")
        except ServerError as err:  # the server works without it; argkb browse says so again
            browser = _browser_report(dist, str(err))
        return InstallReport(
            dist,
            True,
            dist.manifest().get("neo4j", neo4j_version),
            dist.manifest().get("plugins", {}),
            time.perf_counter() - started,
            browser,
        )
    dist.root.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dist.root.name}-", dir=dist.root.parent))
    log = work / "maven.log"
    recipes = resources.files("argkb.docker")
    try:
        echo(f"Fetching Neo4j {neo4j_version} Community from Maven Central ...")
        with resources.as_file(recipes / "neo4j-server.pom.xml") as pom:
            _run_maven(pom, work / "lib", {"neo4j.version": neo4j_version}, log)
        echo(f"Fetching Neo4j Browser {browser_version} ...")
        _fetch_browser(work / "lib", browser_version, log)
        plugins: dict[str, dict] = {}
        (work / "plugins").mkdir()
        if with_plugins:
            echo(f"Fetching plugins GDS {gds_version} and APOC core {apoc_version} ...")
            plugins = _install_plugins(work, recipes, gds_version, apoc_version, log)
        else:
            plugins = {
                name: {"installed": False, "why": "installed with --no-plugins"}
                for name in PLUGIN_MARKERS
            }
        manifest = {
            "neo4j": neo4j_version,
            "gds": gds_version,
            "apoc": apoc_version,
            "browser": browser_version,
            "plugins": plugins,
        }
        (work / "manifest.json").write_text(json.dumps(manifest, indent=2))
        if dist.root.exists():
            shutil.rmtree(dist.root)
        work.rename(dist.root)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    seconds = time.perf_counter() - started
    return InstallReport(dist, False, neo4j_version, plugins, seconds, _browser_report(dist, ""))


def add_browser(
    distribution: Distribution,
    *,
    browser_version: str = BROWSER_VERSION,
    echo: Callable[[str], None] = lambda _msg: None,
) -> Path:
    """The Browser jar of an installed ``distribution``, fetched into its ``lib/`` if missing.

    Idempotent, and safe beside running servers and other argkb processes: the jar is fetched
    into a staging folder inside the distribution and renamed into ``lib/`` (one atomic rename
    on the same file system; two processes doing it at once rename the same file twice).
    Nothing else in the distribution changes. :class:`ServerError` if Maven cannot fetch it.
    """
    present = distribution.browser_jar()
    if present is not None:
        return present
    if not distribution.is_installed():
        raise ServerError(
            f"Neo4j is not installed at {distribution.root}: run 'argkb server install'."
        )
    echo(f"Adding Neo4j Browser {browser_version} to {distribution.root} ...")
    staging = Path(tempfile.mkdtemp(prefix=".browser-", dir=distribution.root))
    try:
        _fetch_browser(staging, browser_version, staging / "maven.log")
        jars = sorted(staging.glob(BROWSER_JAR + "*.jar"))
        if not jars:
            raise ServerError(f"Maven fetched no {BROWSER_JAR}*.jar into {staging}")
        target = distribution.lib / jars[0].name
        jars[0].replace(target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _fetch_browser(into: Path, browser_version: str, log: Path) -> None:
    with resources.as_file(resources.files("argkb.docker") / "neo4j-browser.pom.xml") as pom:
        _run_maven(pom, into, {"browser.version": browser_version}, log)


def _browser_report(dist: Distribution, why: str) -> dict[str, object]:
    jar = dist.browser_jar()
    match = _JAR.match(jar.name) if jar is not None else None
    return {"installed": jar is not None, "version": match and match.group("version"), "why": why}


def _install_plugins(
    work: Path, recipes: object, gds_version: str, apoc_version: str, log: Path
) -> dict[str, dict]:
    staging = work / "plugins-staging"
    try:
        with resources.as_file(recipes / "neo4j-plugins.pom.xml") as pom:  # type: ignore[operator]
            _run_maven(
                pom, staging, {"gds.version": gds_version, "apoc.version": apoc_version}, log
            )
    except ServerError as err:
        return {name: {"installed": False, "why": str(err)} for name in PLUGIN_MARKERS}
    server_keys = {_jar_key(jar.name) for jar in (work / "lib").glob("*.jar")}
    for jar in staging.glob("*.jar"):
        if _jar_key(jar.name) not in server_keys:
            shutil.move(str(jar), work / "plugins" / jar.name)
    shutil.rmtree(staging)
    report = {}
    for name, marker in PLUGIN_MARKERS.items():
        found = any((work / "plugins").glob(marker + "*.jar"))
        why = "" if found else f"no {marker}*.jar after Maven resolution"
        report[name] = {"installed": found, "why": why}
    return report
