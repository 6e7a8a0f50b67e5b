"""Assemble a Neo4j Community server, with GDS and APOC core as plugins, from Maven Central.

Hosts without Docker still get the genuine server: ``docker/neo4j-server.pom.xml`` lists
``org.neo4j:neo4j`` (which holds ``org.neo4j.server.CommunityEntryPoint``) and the import tool;
``docker/neo4j-plugins.pom.xml`` lists GDS and APOC core. Maven's dependency plugin copies their
runtime jars into ``<cache>/neo4j-<version>/lib`` and a staging folder; the plugins folder gets
only the jars whose ``groupId.artifactId`` the server's lib does not already hold, so the server
keeps its own versions of shared libraries (Jackson, SLF4J, ...).

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

    def admin_tool_available(self) -> bool:
        return any(self.lib.glob("org.neo4j.neo4j-import-tool-*.jar"))


def default_distribution(neo4j_version: str = NEO4J_VERSION) -> Distribution:
    return Distribution(cache_root() / f"neo4j-{neo4j_version}")


@dataclass
class InstallReport:
    distribution: Distribution
    already_installed: bool
    neo4j_version: str
    plugins: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0


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
    with_plugins: bool = True,
    force: bool = False,
    echo: Callable[[str], None] = lambda _msg: None,
) -> InstallReport:
    """Fetch Neo4j (and plugins) with Maven into ``distribution.root``; a no-op when present.

    The server is assembled in a temporary sibling folder and renamed into place, so an
    interrupted install never leaves a half-filled distribution behind.
    """
    import time

    started = time.perf_counter()
    dist = distribution or default_distribution(neo4j_version)
    if dist.is_installed() and not force:
        return InstallReport(
            dist,
            True,
            dist.manifest().get("neo4j", neo4j_version),
            dist.manifest().get("plugins", {}),
        )
    dist.root.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dist.root.name}-", dir=dist.root.parent))
    log = work / "maven.log"
    recipes = resources.files("argkb.docker")
    try:
        echo(f"Fetching Neo4j {neo4j_version} Community from Maven Central ...")
        with resources.as_file(recipes / "neo4j-server.pom.xml") as pom:
            _run_maven(pom, work / "lib", {"neo4j.version": neo4j_version}, log)
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
            "plugins": plugins,
        }
        (work / "manifest.json").write_text(json.dumps(manifest, indent=2))
        if dist.root.exists():
            shutil.rmtree(dist.root)
        work.rename(dist.root)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return InstallReport(dist, False, neo4j_version, plugins, time.perf_counter() - started)


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
