"""Practice in one click, as a visitor who never signed in: from the home page straight into a
game, a whole deal played, "continue my game" afterwards, the options, and another browser kept
out. On a 360x740 phone and a 1366x657 laptop, in English and in Ukrainian.

Locators use ids, names and data attributes, never translated text.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from gameplay.models import LiveGame

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 657}
DEAL_TIMEOUT_S = 120
START = f"form[action='{reverse('practice-start')}'] button[type=submit]"


def deal_over(page: Page, before: int) -> bool:
    """Whether a deal ended since `before` deals were on the score sheet (or its summary shows)."""
    return page.evaluate(
        """(before) => {
            const table = document.getElementById("live-table");
            const finished = document.querySelectorAll("#score-sheet tbody a").length;
            return finished > before || Boolean(table.dataset.summary);
        }""",
        before,
    )


def wait_for_my_turn_or_deal_end(page: Page, before: int) -> None:
    page.wait_for_function(
        """(before) => {
            const table = document.getElementById("live-table");
            const finished = document.querySelectorAll("#score-sheet tbody a").length;
            return finished > before || Boolean(table.dataset.summary) || (
                table.dataset.myTurn === "true" && table.getAttribute("aria-busy") !== "true"
            );
        }""",
        arg=before,
        timeout=30_000,
    )


def act(page: Page, target) -> None:
    """Click a control and wait until the page shows a newer table."""
    sequence = page.locator("#live-table").get_attribute("data-sequence")
    target.click()
    page.wait_for_function(
        """(sequence) => document.getElementById("live-table").dataset.sequence !== sequence""",
        arg=sequence,
        timeout=30_000,
    )


def play_a_deal(page: Page, screenshot, name: str) -> set[str]:
    """Play the visitor's seat to the end of a deal: he bids once, then passes; gives the first
    cards he may; names the lowest contract; plays the first playable card. Each phase's first
    turn is photographed. Returns the phases he acted in."""
    before = page.locator("#score-sheet tbody a").count()
    phases: set[str] = set()
    bid_once = False
    deadline = time.monotonic() + DEAL_TIMEOUT_S
    while not deal_over(page, before):
        assert time.monotonic() < deadline, "the deal did not finish in time"
        wait_for_my_turn_or_deal_end(page, before)
        if deal_over(page, before):
            break
        phase = page.locator("#live-table").get_attribute("data-phase")
        if phase not in phases:
            phases.add(phase)
            expect(page.locator("#hand")).to_be_visible()
            screenshot(page, f"{name}-{phase}")
        controls = page.locator("#controls")
        if phase == "bidding":
            bid = controls.locator('[data-key="bid"]')
            if not bid_once and bid.count():
                bid_once = True
                act(page, bid)
            else:
                act(page, controls.locator('[data-key="pass"]'))
        elif phase == "giving":
            page.locator("#hand button.card.givable").first.click()
            expect(page.locator('#hand button.card[aria-pressed="true"]')).to_have_count(1)
            act(page, controls.locator('[data-key^="give-"]').first)
        elif phase == "contract":
            act(page, controls.locator('[data-key="contract"]'))
        elif phase == "play":
            act(page, page.locator("#hand button.card.playable").first)
        else:
            raise AssertionError(f"the visitor's turn in the phase {phase!r}")
    return phases


@pytest.mark.parametrize("language", ["en", "uk"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_visitor_practises_in_one_click_and_plays_a_whole_deal(
    live_server, open_page, screenshot, size, language
):
    viewport = PHONE if size == "phone" else LAPTOP
    name = f"guest-{size}-{language}"
    page = open_page(viewport=viewport, language=language)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(live_server.url)
    expect(page.locator("html")).to_have_attribute("lang", language)
    start = page.locator(START)
    # The button is on the first screen: one tap, no scrolling.
    expect(start).to_be_in_viewport()
    expect(page.locator("#practice-continue")).to_have_count(0)
    screenshot(page, f"{name}-home")

    with page.expect_navigation():
        start.click()
    game = LiveGame.objects.get()
    assert game.practice_owner is None and game.practice_guest
    assert game.players == 3
    expect(page).to_have_url(f"{live_server.url}{reverse('live-game', args=[game.pk])}")
    expect(page.locator("#hand button.card").first).to_be_visible()

    phases = play_a_deal(page, screenshot, name)

    assert "bidding" in phases
    page.wait_for_function(
        """() => document.querySelectorAll("#score-sheet tbody a").length >= 1
            || Boolean(document.getElementById("live-table").dataset.summary)"""
    )
    screenshot(page, f"{name}-deal-over")
    assert LiveGame.objects.get(pk=game.pk).deals.exclude(finished_at=None).count() >= 1
    # The guest may replay his finished deal, every hand shown.
    replay = page.goto(f"{live_server.url}{reverse('live-deal-replay', args=[game.pk, 1])}")
    assert replay.status == 200
    expect(page.locator(".replay-hands").first).to_be_visible()
    screenshot(page, f"{name}-replay")

    # Back home, the game is offered to be continued, and it is the same game.
    page.goto(live_server.url)
    continue_link = page.locator("#practice-continue")
    expect(continue_link).to_be_in_viewport()
    screenshot(page, f"{name}-home-continue")
    with page.expect_navigation():
        continue_link.click()
    expect(page).to_have_url(f"{live_server.url}{reverse('live-game', args=[game.pk])}")
    assert not errors, errors


def test_the_options_start_four_players_and_another_browser_is_kept_out(
    live_server, open_page, screenshot, settings
):
    settings.PRACTICE_LIMITS = {"per_guest": 1}
    page = open_page(viewport=PHONE, language="uk")
    page.goto(live_server.url)
    page.locator(".practice-options summary").click()
    page.locator("label[for='practice-players_1']").click()  # 4 players
    expect(page.locator("#practice-players_1")).to_be_checked()
    expect(page.locator("#practice-bot_level_0")).to_be_checked()  # easy, the default
    screenshot(page, "guest-options-phone-uk")
    with page.expect_navigation():
        page.locator(START).click()
    game = LiveGame.objects.get()
    assert game.players == 4
    expect(page.locator("#hand button.card").first).to_be_visible()
    expect(page.locator("#seats [data-seat]")).to_have_count(4)
    screenshot(page, "guest-four-players-phone-uk")

    # One more game is over this guest's limit: he is told so and offered the one he has.
    page.goto(live_server.url)
    with page.expect_navigation():
        page.locator(START).click()
    expect(page.locator("#practice [role=alert]")).to_be_visible()
    expect(page.locator("#practice-continue")).to_have_attribute(
        "href", reverse("live-game", args=[game.pk])
    )
    assert LiveGame.objects.count() == 1
    screenshot(page, "guest-limit-phone-uk")

    # Another visitor who plays too (another session) cannot open this game.
    stranger = open_page(viewport=LAPTOP, language="en")
    stranger.goto(live_server.url)
    with stranger.expect_navigation():
        stranger.locator(START).click()
    response = stranger.goto(f"{live_server.url}{reverse('live-game', args=[game.pk])}")
    assert response.status == 404
    state = stranger.goto(f"{live_server.url}{reverse('live-game-state', args=[game.pk])}")
    assert state.status == 404
    screenshot(stranger, "guest-stranger-404-laptop-en")
