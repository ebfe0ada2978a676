"""Browser tests: Playwright for Python driving Debian's Chromium against a live test server."""

import os
from pathlib import Path

import pytest

# The live server runs in a thread beside Playwright's event loop; Django must allow it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 780}
LAPTOP = {"width": 1280, "height": 860}


# How long an assertion waits for the page to show what it expects: the actions' 10 s (the
# contexts below), not Playwright's 5 s, which a CI machine running the suite on every core
# (and the server, and Chromium) sometimes needs more than for one save and its swap.
EXPECT_TIMEOUT_MS = 10_000


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """Pages in fresh browser contexts (a context is one person: own cookies, own viewport)."""
    contexts = []

    def open_page(*, viewport=LAPTOP, language="en"):
        context = browser.new_context(viewport=viewport, locale=language)
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot as a test artifact (artifacts/ is not committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
