"""`make test` on a machine without the browser: it installs Debian's Chromium where it can (as
root with apt-get) and otherwise stops at once with one line naming the command to run; pytest on
its own stops the same way before any browser test starts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_make_without_chromium_and_without_apt_stops_with_one_line(tmp_path):
    make = shutil.which("make")
    assert make is not None
    # An empty PATH: no apt-get to install with (nor `id`, so not root either).
    result = subprocess.run(
        [
            make,
            "--no-print-directory",
            "-C",
            str(ROOT),
            "browser",
            "CHROMIUM=/nonexistent/chromium",
        ],
        env={"PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if not line.startswith("make")]
    assert lines == [
        "/nonexistent/chromium is missing: run 'sudo apt-get install chromium', then make again"
    ]


def test_make_finds_an_installed_chromium_and_goes_on():
    chromium = shutil.which("true")  # any executable stands in for the browser here
    result = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "browser", f"CHROMIUM={chromium}"],
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == result.stderr == ""


def test_pytest_without_chromium_stops_before_the_browser_tests_with_one_line():
    env = dict(os.environ, CHROMIUM="/nonexistent/chromium")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/e2e", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 4  # pytest's usage error: nothing ran
    output = result.stdout + result.stderr
    assert "The browser tests need Chromium at /nonexistent/chromium" in output
    assert "apt-get install chromium" in output
    assert "Traceback" not in output and " passed" not in output
