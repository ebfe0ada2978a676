"""Browser tests: Playwright for Python driving Debian's Chromium against a live test server."""

import contextlib
import os
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

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


# The live table shows the bots' moves at a quarter of a human's pauses (gameplay.pacing): the
# browser tests watch every step of whole deals, the steps in the same order, only sooner.
TEST_PACE = 0.25


@pytest.fixture(autouse=True)
def quick_table_pace(settings):
    settings.LIVE_TABLE_PACE = TEST_PACE


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


# Timer ids count up from 1: clearing every id up to a new one clears them all.
STOP_TIMERS = """() => {
    const last = setTimeout(() => {}, 0);
    for (let id = 1; id <= last; id += 1) {
        clearTimeout(id);
        clearInterval(id);
    }
}"""


@pytest.fixture
def open_page(browser):
    """Pages in fresh browser contexts (a context is one person: own cookies, own viewport)."""
    contexts = []
    in_flight: set = set()

    def open_page(*, viewport=LAPTOP, language="en"):
        context = browser.new_context(viewport=viewport, locale=language)
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        context.on("request", lambda request: in_flight.add(request))
        context.on("requestfinished", lambda request: in_flight.discard(request))
        context.on("requestfailed", lambda request: in_flight.discard(request))
        contexts.append(context)
        return context.new_page()

    yield open_page
    # The pages stop their timers (a page's polls, htmx's included, run on them) and every request
    # they sent is answered before the test's database is emptied: the live server's threads share
    # the test's SQLite connection, and a poll answered during the flush locked its table. (Not by
    # leaving the page: a page may refuse to be left, as the score sheet does with unsaved deals.)
    pages = [page for context in contexts for page in context.pages]
    for page in pages:
        with contextlib.suppress(PlaywrightError):
            page.evaluate(STOP_TIMERS)
    waited_ms = 0
    while in_flight and pages and waited_ms < EXPECT_TIMEOUT_MS:
        pages[0].wait_for_timeout(50)  # Playwright reports the requests' ends while it waits
        waited_ms += 50
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
