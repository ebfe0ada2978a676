"""The pure modules (rules engine, bots, seat draw, score sheet, standings, names) run without
Django: the import contract of pyproject.toml ([tool.importlinter], checked by `make lint`) says
what none of them may import, and here a fresh interpreter that imports all of them, their
command lines and their packages' __init__ modules too, has loaded no Django at all."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PURE = next(c for c in CONTRACT["contracts"] if c["type"] == "forbidden")["source_modules"]
LAYERS = next(c for c in CONTRACT["contracts"] if c["type"] == "layers")["layers"]
ENTRY_POINTS = ["rules.__main__", "draws.seating.__main__"]


def test_importing_every_pure_module_loads_no_django():
    modules = [*PURE, "rules.records", "rules.simulate", *ENTRY_POINTS]
    modules += ["bots.strong", "bots.arena"]
    code = (
        f"import sys, {', '.join(modules)}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'celery', 'channels'}))"
    )

    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )

    assert result.stdout.strip() == "[]"


def test_the_import_contract_holds_for_every_module_of_the_pure_packages():
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )

    assert result.returncode == 0, result.stdout[-2000:]
    assert f"{len(CONTRACT['contracts'])} kept, 0 broken" in result.stdout
    assert {"rules", "bots", "draws.seating"} <= set(PURE)
    assert {"scoring.score_sheet", "standings", "tournaments.names"} <= set(PURE)


def test_the_layers_contract_puts_every_app_in_one_layer():
    apps = {name for layer in LAYERS for name in layer.replace(":", "|").split("|")}

    assert {a.strip() for a in apps} == {
        "config",
        "web",
        "api",
        "archive",
        "gameplay",
        "draws",
        "seasons",
        "scoring",
        "tournaments",
        "core",
    }
    assert LAYERS[0] == "config" and LAYERS[-1] == "core"


def test_the_type_checker_covers_every_pure_module():
    """mypy ([tool.mypy], run by `make lint`) checks the modules the contract keeps pure, and
    beside them only the benchmarks of those modules (bench/, which sets up no Django)."""
    checked = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["files"]
    as_modules = {path.removesuffix(".py").replace("/", ".") for path in checked}
    benchmarks = {module for module in as_modules if module.startswith("bench.")}

    assert as_modules - benchmarks == set(PURE)
    assert benchmarks and all(
        "django" not in (ROOT / f"{module.replace('.', '/')}.py").read_text().lower()
        for module in benchmarks
    )
