"""The wheel ships every argkb package, the Cypher files, the loaders and the server recipes."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "argkb").rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    mapped = config["package-dir"]
    assert mapped["argkb.cypher"] == "cypher" and mapped["argkb.loaders"] == "loaders"
    assert mapped["argkb.docker"] == "docker"


def test_cypher_and_docker_files_are_package_data() -> None:
    from importlib import resources

    assert resources.files("argkb.cypher").joinpath("schema.cypher").is_file()
    assert resources.files("argkb.docker").joinpath("neo4j.conf.template").is_file()
    assert resources.files("argkb.docker").joinpath("neo4j-server.pom.xml").is_file()


def test_relevance_model_is_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    assert "relevance_model.json" in data["argkb.retrieve"]


def test_argument_prior_and_docker_env_template_are_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    assert "argument_prior.json" in data["argkb.retrieve"]
    assert ".env.example" in data["argkb.docker"]
    assert (REPO / "docker" / ".env.example").is_file()


def test_every_model_file_beside_the_code_is_package_data() -> None:
    """A model or data file (.json, .npz, .safetensors, .tsv) in an argkb package ships in the
    wheel, so that an installed argkb loads it as the checkout does."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    missing = []
    for path in (REPO / "argkb").rglob("*"):
        if path.suffix in (".json", ".npz", ".safetensors", ".tsv") and "static" not in path.parts:
            package = ".".join(path.parent.relative_to(REPO).parts)
            if path.name not in data.get(package, []):
                missing.append(f"{package}: {path.name}")
    assert not missing, f"add to [tool.setuptools.package-data]: {missing}"


def test_every_file_git_tracks_in_a_package_is_package_data() -> None:
    """Every file beside the code in an argkb package (git-tracked, not Python) matches a
    package-data pattern of its package, so a wheel install serves what a checkout serves (the
    explorer's favicon was left out, and a wheel install logged its 404 again)."""
    import fnmatch
    import subprocess

    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    data = config["tool"]["setuptools"]["package-data"]
    tracked = subprocess.run(["git", "ls-files", "argkb"], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout.split()  # fmt: skip
    missing = []
    for name in tracked:
        path = REPO / name
        if path.suffix == ".py":
            continue
        package = next(p for p in path.parents if (p / "__init__.py").is_file())
        dotted = ".".join(package.relative_to(REPO).parts)
        inside = path.relative_to(package).as_posix()
        if not any(fnmatch.fnmatch(inside, pattern) for pattern in data.get(dotted, [])):
            missing.append(f"{dotted}: {inside}")
    assert not missing, f"add to [tool.setuptools.package-data]: {missing}"


def test_every_folder_of_data_files_is_listed_as_a_package() -> None:
    """setuptools warns of each data folder (cypher/query/, argkb/serve/static/, ...) that is
    not in ``packages``: 18 warnings of 40 lines each filled `make demo`'s first screen."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    folders = {
        "argkb.cypher." + ".".join(d.relative_to(REPO / "cypher").parts)
        for d in (REPO / "cypher").rglob("*") if d.is_dir() and d.name != "__pycache__"
    } | {
        ".".join(d.relative_to(REPO).parts)
        for d in (REPO / "argkb" / "serve" / "static").rglob("*") if d.is_dir()
    } | {"argkb.serve.static"}  # fmt: skip
    assert folders <= listed, f"add to [tool.setuptools] packages: {sorted(folders - listed)}"
