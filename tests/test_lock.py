"""The lock files pin a version inside every range of pyproject.toml, so what CI and the image
install is what the project asks for; a range changed without `make lock` fails here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pinned(lock: str) -> dict[str, Version]:
    versions = {}
    for line in (ROOT / "requirements" / lock).read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if match:
            versions[canonicalize_name(match.group(1))] = Version(match.group(2))
    return versions


def extra(name: str) -> list[str]:
    """The requirements of an extra, with the project's own extras it names spelled out."""
    requirements = []
    for text in PROJECT["optional-dependencies"][name]:
        requirement = Requirement(text)
        if canonicalize_name(requirement.name) == canonicalize_name(PROJECT["name"]):
            for included in sorted(requirement.extras):
                requirements += extra(included)
        else:
            requirements.append(text)
    return requirements


@pytest.mark.parametrize(
    ("lock", "requirements"),
    [
        ("base.txt", PROJECT["dependencies"]),
        ("dev.txt", PROJECT["dependencies"] + extra("dev")),
    ],
)
def test_every_dependency_is_locked_inside_its_range(lock, requirements):
    versions = pinned(lock)

    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in versions, f"{name} is not in requirements/{lock}: run make lock"
        assert requirement.specifier.contains(versions[name], prereleases=True), (
            f"requirements/{lock} pins {name} {versions[name]}, outside {requirement.specifier}: "
            "run make lock"
        )


def test_the_image_gets_no_test_or_bench_tool_nor_the_development_server():
    base, dev = pinned("base.txt"), pinned("dev.txt")

    # (websockets is a test dependency too, but uvicorn[standard] needs it in production.)
    tools = {"pytest", "pytest-django", "hypothesis", "ruff", "playwright", "schemathesis"}
    tools |= {"locust", "factory-boy", "uv", "import-linter", "daphne"}
    assert tools.isdisjoint(base)
    assert all(dev[name] == version for name, version in base.items())


def test_the_image_gets_brotli_for_the_static_files_brotli_copies():
    # Without the module servestatic writes only gzip copies; in development it came only with a
    # benchmark tool, so the image had none.
    from servestatic import compress

    assert "brotli" in pinned("base.txt")
    assert compress.brotli is not None
