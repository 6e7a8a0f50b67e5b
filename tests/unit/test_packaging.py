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
