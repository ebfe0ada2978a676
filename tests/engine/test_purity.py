"""The engine is pure Python: nothing under gameplay/engine imports Django, directly or not."""

import ast
import subprocess
import sys
from pathlib import Path

import gameplay.engine

ENGINE = Path(gameplay.engine.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_engine_module_imports_django():
    sources = sorted(ENGINE.rglob("*.py"))
    assert len(sources) >= 8
    offenders = {
        str(path.relative_to(ENGINE)): sorted(
            m for m in imported_modules(path) if m.startswith("django")
        )
        for path in sources
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, gameplay.engine, gameplay.engine.records, gameplay.engine.simulate, "
        "gameplay.engine.__main__; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ENGINE.parents[1],
    )
    assert result.stdout.strip() == "[]"
