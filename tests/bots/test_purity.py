"""The bots are pure Python: nothing under gameplay/bots imports Django, directly or not."""

import subprocess
import sys
from pathlib import Path

import gameplay.bots
from tests.engine.test_purity import imported_modules

BOTS = Path(gameplay.bots.__file__).parent


def test_no_bot_module_imports_django():
    sources = sorted(BOTS.rglob("*.py"))
    assert len(sources) >= 8
    offenders = {
        str(path.relative_to(BOTS)): sorted(
            m for m in imported_modules(path) if m.startswith("django")
        )
        for path in sources
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}


def test_importing_the_bots_loads_no_django():
    code = (
        "import sys, gameplay.bots, gameplay.bots.strong, gameplay.bots.arena; "
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=BOTS.parents[1],
    )
    assert result.stdout.strip() == "[]"
