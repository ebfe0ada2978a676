"""A whole practice deal in a real browser, played by clicking and with the keyboard.

The live server of pytest-django speaks plain HTTP (no websockets), so there the page falls back to
polling; a second test runs Daphne in a subprocess, where the page is live over its websocket and
reconnects after the server goes away.
Locators use ids and data attributes, never translated text.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from gameplay.models import LiveGame
from tests.e2e.conftest import LAPTOP, PHONE
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "secret-password"
DEAL_TIMEOUT_S = 90


def sign_in(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form button[type=submit] >> nth=-1")


def finished_deals(page: Page) -> int:
    return page.locator("#score-sheet tbody a").count()


def wait_for_my_turn_or_deal_end(page: Page, deals_before: int) -> None:
    page.wait_for_function(
        """(before) => {
            const table = document.getElementById("live-table");
            const finished = document.querySelectorAll("#score-sheet tbody a").length;
            return finished > before || (
                table.dataset.myTurn === "true" && table.getAttribute("aria-busy") !== "true"
            );
        }""",
        arg=deals_before,
        timeout=20_000,
    )


def act_and_wait(page: Page, target: Locator | str) -> None:
    """Click a control (or press a key) and wait until the page shows a newer table."""
    sequence = page.locator("#live-table").get_attribute("data-sequence")
    if isinstance(target, str):
        page.keyboard.press(target)
    else:
        target.click()
    page.wait_for_function(
        """(sequence) => document.getElementById("live-table").dataset.sequence !== sequence""",
        arg=sequence,
        timeout=20_000,
    )


def play_one_deal(page: Page, screenshot, name: str) -> dict:
    """Play the human seat until a deal ends; which phases were played, and how."""
    seen: dict[str, int] = {}
    deals_before = finished_deals(page)
    bid_once = False
    keyboard_play = False
    deadline = time.monotonic() + DEAL_TIMEOUT_S
    while finished_deals(page) == deals_before:
        assert time.monotonic() < deadline, "the deal did not finish in time"
        wait_for_my_turn_or_deal_end(page, deals_before)
        if finished_deals(page) > deals_before:
            break
        phase = page.locator("#live-table").get_attribute("data-phase")
        seen[phase] = seen.get(phase, 0) + 1
        if seen[phase] == 1:
            for size, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
                page.set_viewport_size(viewport)
                screenshot(page, f"{name}-{phase}-{size}")
        controls = page.locator("#controls")
        if phase == "bidding":
            # Bid once to get the talon sometimes; then pass, so the auction ends.
            if not bid_once and controls.locator('[data-key="bid"]').count():
                bid_once = True
                act_and_wait(page, controls.locator('[data-key="bid"]'))
            else:
                act_and_wait(page, controls.locator('[data-key="pass"]'))
        elif phase == "giving":
            hand = page.locator("#hand button.card.givable")
            hand.first.click()
            expect(page.locator('#hand button.card[aria-pressed="true"]')).to_have_count(1)
            act_and_wait(page, controls.locator('[data-key^="give-"]').first)
        elif phase == "contract":
            act_and_wait(page, controls.locator('[data-key="contract"]'))
        elif phase == "play":
            playable = page.locator("#hand button.card.playable")
            expect(playable.first).to_be_visible()
            if not keyboard_play:
                keyboard_play = True
                play_with_the_keyboard(page)
            else:
                act_and_wait(page, playable.first)
        else:
            raise AssertionError(f"my turn in the phase {phase!r}")
    return seen


def play_with_the_keyboard(page: Page) -> None:
    """Arrow keys move between the cards (one tab stop for the hand); Enter plays one."""
    cards = page.locator("#hand button.card")
    first_playable = page.locator("#hand button.card.playable").first
    first_playable.focus()
    index = int(first_playable.get_attribute("data-index"))
    if cards.count() > 1:
        step_away, step_back = ("ArrowLeft", "ArrowRight") if index else ("ArrowRight", "ArrowLeft")
        page.keyboard.press(step_away)
        expect(cards.nth(index - 1 if index else 1)).to_be_focused()
        page.keyboard.press(step_back)
        expect(cards.nth(index)).to_be_focused()
    act_and_wait(page, "Enter")


def test_a_practice_deal_is_played_by_clicking(live_server, open_page, screenshot):
    user = UserFactory(username="olena")
    page = open_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, live_server.url, user.username)

    # The home page's button starts a practice game against two bots and opens its table.
    page.goto(live_server.url)
    with page.expect_navigation():
        page.locator(f"form[action='{reverse('practice-start')}'] button[type=submit]").click()
    game = LiveGame.objects.get(practice_owner=user)
    expect(page).to_have_url(f"{live_server.url}{reverse('live-game', args=[game.pk])}")
    # No websocket on this server: the page says it polls instead, and keeps working.
    expect(page.locator("#connection")).to_have_attribute("data-state", "polling")
    cards = page.locator("#hand button.card")
    expect(cards.first).to_be_visible()
    assert cards.count() in (7, 10)
    # The hand is sorted by suit (spades, clubs, diamonds, hearts) and rank, ten shown as 10.
    names = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    order = ["9JQKTA".index(card[0]) + 6 * "SCDH".index(card[1]) for card in names]
    assert order == sorted(order)
    assert "T" not in page.locator("#hand").inner_text()

    seen = play_one_deal(page, screenshot, "practice")

    assert "play" in seen or "contract" in seen or "giving" in seen
    expect(page.locator("#score-sheet tbody a")).to_have_count(1)
    page.set_viewport_size(LAPTOP)
    screenshot(page, "practice-after-deal-laptop")
    page.set_viewport_size(PHONE)
    screenshot(page, "practice-after-deal-phone")
    # The replay of the finished deal shows every hand and steps through the tricks.
    with page.expect_navigation():
        page.locator("#score-sheet tbody a").first.click()
    expect(page.locator(".replay-hands").first).to_be_visible()
    assert page.locator(".replay-hands").first.locator(".card").count() >= 24
    screenshot(page, "practice-replay-phone")
    next_trick = page.locator('a[rel="next"]')
    if next_trick.count():
        with page.expect_navigation():
            next_trick.click()
        expect(page.locator('[aria-current="step"]')).to_have_text("1")
        page.set_viewport_size(LAPTOP)
        screenshot(page, "practice-replay-trick-laptop")
    assert not errors, errors


# ---------------------------------------------------------------- over a real websocket


class DaphneServer:
    """`manage.py runserver` (Daphne's, with static files) on a throwaway SQLite file."""

    def __init__(self, directory: Path) -> None:
        self.env = dict(os.environ)
        self.env.update(
            DATABASE_URL=f"sqlite:///{directory / 'live.sqlite3'}",
            DEBUG="1",
            LOG_LEVEL="WARNING",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        for name in ("REDIS_URL", "ALLOWED_HOSTS"):
            self.env.pop(name, None)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def manage(self, *arguments: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def daphne_server(tmp_path):
    server = DaphneServer(tmp_path)
    server.manage("migrate", "--noinput", "-v0")
    server.manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_user('olena', password='{PASSWORD}')",
    )
    server.start()
    yield server
    server.stop()


# A function, not an expression: the page shows the bots' moves one by one (with pauses, so the
# wait may be long), so the wait polls, and Playwright polls an expression with eval(), which
# the Content-Security-Policy forbids.
MY_TURN = '() => document.getElementById("live-table").dataset.myTurn === "true"'
MY_TURN_OR_SUMMARY = """() => {
    const table = document.getElementById("live-table");
    return table.dataset.myTurn === "true" || table.dataset.summary !== "";
}"""


def wait_for_my_turn_past_summaries(page: Page) -> None:
    """Wait for the human's turn. A deal may end before it (a bot declarer concedes at once):
    its summary waits for "Continue" as long as a person would, so the test continues."""
    for _ in range(3):
        page.wait_for_function(MY_TURN_OR_SUMMARY, timeout=30_000)
        if page.locator("#live-table").get_attribute("data-summary") == "":
            return
        page.locator("#deal-summary-continue").click()
        expect(page.locator("#live-table")).to_have_attribute("data-summary", "")
    page.wait_for_function(MY_TURN, timeout=30_000)


# A human move made while the page is away, as another device of the same player would.
MOVE_ELSEWHERE = """
from django.contrib.auth import get_user_model
from gameplay import selectors, services
from gameplay.models import LiveGame
user = get_user_model().objects.get(username="olena")
game = LiveGame.objects.get(practice_owner=user)
view = selectors.live_game_view(game, user=user)
services.live_game_act(actor=user, game=game, action=view["legal"][0],
                       expected_sequence=view["sequence"])
print(LiveGame.objects.get(pk=game.pk).sequence)
"""


@pytest.mark.django_db(transaction=False)
def test_the_table_is_live_over_the_websocket_and_catches_up_after_a_lost_connection(
    daphne_server, open_page, screenshot
):
    page = open_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, daphne_server.url, "olena")
    page.goto(daphne_server.url)
    with page.expect_navigation():
        page.locator("form[action='/practice/'] button[type=submit]").click()
    connection = page.locator("#connection")
    expect(connection).to_have_attribute("data-state", "live")
    # A few moves over the socket, the bots answering on the same page.
    for _ in range(3):
        wait_for_my_turn_past_summaries(page)
        button = page.locator('#controls [data-key="pass"], #hand button.card.playable').first
        if not button.count():
            button = page.locator("#controls button").first
        act_and_wait(page, button)
    wait_for_my_turn_past_summaries(page)
    screenshot(page, "practice-websocket-phone")

    daphne_server.stop()
    expect(connection).not_to_have_attribute("data-state", "live")
    moved_to = int(daphne_server.manage("shell", "-v0", "-c", MOVE_ELSEWHERE).split()[-1])
    daphne_server.start()

    # The page reconnects by itself and shows the move it missed, without a reload.
    expect(connection).to_have_attribute("data-state", "live", timeout=30_000)
    page.wait_for_function(
        '(n) => +document.getElementById("live-table").dataset.sequence >= n', arg=moved_to
    )
    assert not errors, errors
