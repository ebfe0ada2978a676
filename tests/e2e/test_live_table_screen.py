"""The live table on a phone and on a laptop, in English and in Ukrainian: the hand stays on the
screen, the bots' moves are shown one by one, a defender sees the talon the bot takes, and a
finished deal's summary waits for "Continue".

Each combination plays the same practice deal (a fixed deck and fixed bot seeds, so the bots'
moves are the same every run): the human passes, a bot takes the talon and plays its contract out.
Locators use ids and data attributes, never translated text; screenshots are saved for review.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from gameplay import pacing, selectors, services
from gameplay.models import LiveDeal, LiveGame
from rules import CARDS
from rules.deal import TALON_POSITIONS
from tests.e2e.conftest import TEST_PACE
from tests.e2e.test_practice_deal import act_and_wait, sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {
    "phone": {"width": 360, "height": 740},
    "laptop": {"width": 1366, "height": 657},
}
# What a card's corner shows in each language (the server's faces, web.presenters.table).
RANK_FACES = {
    "en": {"9", "10", "J", "Q", "K", "A"},
    "uk": {"9", "10", "В", "Д", "К", "Т"},
}
DEAL_TIMEOUT_S = 120
# The shuffle of the deal played: one in which the bot that wins the auction plays it out.
DECK_SEED = 7
HAND = "#hand button.card"
TALON = '#talon-box[data-revealed="true"] .card[data-card]'


@pytest.fixture
def fixed_deal(monkeypatch):
    """Every deal from the same deck, every bot with the seed of its seat (not of its game)."""

    def deck() -> list[str]:
        cards = [str(card) for card in CARDS]
        random.Random(DECK_SEED).shuffle(cards)
        return cards

    monkeypatch.setattr(services, "secure_deck", deck)
    monkeypatch.setattr(services, "bot_seed", lambda game_id, position: position)


# The boxes of every element a selector matches, found and measured in one script: the page
# redraws the hand whenever a view comes in, and a locator's evaluate_all finds the elements in
# one call and measures them in another, so a redraw between the two measured detached buttons
# (all zeros) once in a while.
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
    const box = element.getBoundingClientRect();
    return {x: box.x, y: box.y, width: box.width, height: box.height};
})"""


def assert_inside(page: Page, selector: str, screen: dict) -> None:
    """Every element `selector` matches lies wholly inside the viewport (no scrolling needed)."""
    assert_boxes_inside(page.evaluate(BOXES, selector), selector, screen)


def assert_boxes_inside(boxes: list[dict], selector: str, screen: dict) -> None:
    assert boxes, f"nothing to measure: {selector}"
    for box in boxes:
        assert box["width"] > 0 and box["height"] > 0, (selector, box)
        assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= screen["width"] + 0.5, (selector, box, screen)
        assert box["y"] + box["height"] <= screen["height"] + 0.5, (selector, box, screen)


def assert_above_the_hand(page: Page, selector: str) -> None:
    top, bottom, hand_top = page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            const hand = document.getElementById("hand").getBoundingClientRect();
            return [box.top, box.bottom, hand.top];
        }""",
        selector,
    )
    assert 0 <= top < bottom <= hand_top, (selector, top, bottom, hand_top)


def assert_one_screen(page: Page, screen: dict) -> None:
    """The page itself never scrolls, either way: only the table above the hand may."""
    width, height, beyond = page.evaluate(
        """(screen) => [
            document.documentElement.scrollWidth,
            document.documentElement.scrollHeight,
            [...document.querySelectorAll("body *")]
                .filter((element) => {
                    const box = element.getBoundingClientRect();
                    return box.right > screen.width + 0.5 || box.bottom > screen.height + 0.5;
                })
                .filter((element) => {
                    // Not what a scrolling box holds (the table above the hand scrolls).
                    for (let up = element.parentElement; up; up = up.parentElement) {
                        if (getComputedStyle(up).overflowY !== "visible" && up !== document.body) {
                            return false;
                        }
                    }
                    return true;
                })
                .map((element) => `${element.tagName}#${element.id}.${element.className}`),
        ]""",
        screen,
    )
    assert width <= screen["width"] and height <= screen["height"], (width, height, beyond)


def wait_for_my_turn_or_summary(page: Page) -> None:
    page.wait_for_function(
        """() => {
            const table = document.getElementById("live-table");
            return table.dataset.summary !== "" || (
                table.dataset.myTurn === "true" && table.getAttribute("aria-busy") !== "true"
            );
        }""",
        timeout=30_000,
    )


def rank_faces(page: Page, scope: str) -> set[str]:
    return set(page.locator(f"{scope} .card-rank").all_inner_texts())


def talon_of_deal(game: LiveGame, number: int) -> list[str]:
    deck = LiveDeal.objects.get(game=game, number=number).deck
    return sorted(deck[position] for position in TALON_POSITIONS)


# The talon's words as a player reads them (web/presenters/table.py).
TALON_TAKEN = {"en": "The talon is turned up for everyone", "uk": "Прикуп відкрито для всіх"}
NO_CARDS_GIVEN = {"en": "Cards given: 0", "uk": "Віддано карт: 0"}


@pytest.mark.parametrize("language", ["en", "uk"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_deal_at_the_live_table_fits_the_screen_and_shows_the_bots_moves(
    live_server, open_page, screenshot, fixed_deal, size, language
):
    screen = SCREENS[size]
    name = f"live-table-{language}-{size}"
    user = UserFactory(username=f"oksana-{language}-{size}")
    page = open_page(viewport=screen, language=language)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in(page, live_server.url, user.username)
    # Started beside the browser's event loop: the move tells the (absent) watchers at once.
    with ThreadPoolExecutor(1) as pool:
        game = pool.submit(services.practice_game_start, user=user).result()
    page.goto(f"{live_server.url}{reverse('live-game', args=[game.pk])}")
    assert page.locator("html").get_attribute("lang") == language
    table = page.locator("#live-table")

    # Bidding: the hand, the auction and the move fit the screen, the auction above the hand.
    wait_for_my_turn_or_summary(page)
    assert table.get_attribute("data-phase") == "bidding"
    hand = page.locator(HAND)
    expect(hand).to_have_count(7)
    screenshot(page, f"{name}-1-bidding")
    assert_inside(page, HAND, screen)
    assert_inside(page, '#controls [data-key="pass"]', screen)
    assert_above_the_hand(page, "#auction-box")
    assert_one_screen(page, screen)
    assert rank_faces(page, "#hand") <= RANK_FACES[language]

    # The human passes, so a bot wins the auction and takes the talon: it is turned up for
    # him too, for a while, though the bots answered at once.
    act_and_wait(page, page.locator('#controls [data-key="pass"]'))
    # Watched at every frame (expect() polls up to a second apart, and at the test pace a step
    # is shown for a fraction of a second), so the time is the talon's.
    # What is checked of the talon is read in the frame it is first shown: it stays a fraction
    # of a second, which a busy machine may spend on a few of the test's calls.
    shown = page.wait_for_function(
        f"""selector => {{
            const cards = [...document.querySelectorAll(selector)];
            if (cards.length !== 3) return null;
            return {{
                cards: cards.map((card) => card.dataset.card),
                boxes: ({BOXES})(selector),
                ranks: [...document.querySelectorAll("#talon .card-rank")].map((r) => r.innerText),
                notes: ["#table-status", "#talon-note"].map(
                    (id) => document.querySelector(id).innerText
                ),
                at: performance.now(),
            }};
        }}""",
        arg=TALON,
        polling="raf",
        timeout=20_000,
    ).json_value()
    assert sorted(shown["cards"]) == talon_of_deal(game, 1)
    assert_boxes_inside(shown["boxes"], TALON, screen)
    assert set(shown["ranks"]) <= RANK_FACES[language]
    # Who takes the talon is said once, in the status line above the hand; the talon's own note
    # counts the cards given.
    status, note = shown["notes"]
    assert TALON_TAKEN[language] in status
    assert TALON_TAKEN[language] not in note and NO_CARDS_GIVEN[language] == note.strip()
    assert page.locator(".seat.me .badge-declarer").count() == 0
    expect(page.locator(".seat:not(.me) .badge-declarer")).to_have_count(1)
    screenshot(page, f"{name}-2-talon")
    # The gifts are counted as the bot makes them: the human's seat shows the card he got.
    received_at = page.wait_for_function(
        """selector => [...document.querySelectorAll(selector)].some(b => b.checkVisibility())
            && performance.now()""",
        arg=".seat.me .badge-received",
        polling="raf",
        timeout=10_000,
    ).json_value()
    # Most of its pause (the test's pace) passed before the first gift. Both times are the
    # browser's frames, so the test's own calls in between (slow on a busy machine) do not count.
    left_in_sight = pacing.TALON_SECONDS * TEST_PACE * 2 / 3
    assert (received_at - shown["at"]) / 1000 > left_in_sight, "the talon was not left in sight"
    screenshot(page, f"{name}-3-gift")

    # The play: every turn the hand and the current trick are on the screen.
    deadline = time.monotonic() + DEAL_TIMEOUT_S
    plays = 0
    last_trick_seen = False
    while True:
        assert time.monotonic() < deadline, "the deal did not finish in time"
        wait_for_my_turn_or_summary(page)
        if table.get_attribute("data-summary"):
            break
        assert table.get_attribute("data-phase") == "play"
        playable = page.locator("#hand button.card.playable")
        expect(playable.first).to_be_visible()
        assert_inside(page, HAND, screen)
        assert_above_the_hand(page, "#current-trick-box")
        assert_inside(page, "#current-trick-box", screen)
        if plays == 0:
            assert_one_screen(page, screen)
            screenshot(page, f"{name}-4-play")
        toggle = page.locator("#last-trick-toggle")
        if not last_trick_seen and toggle.is_visible():
            # The last trick, on tap, and away again.
            toggle.click()
            expect(page.locator("#last-trick-box .card[data-card]")).to_have_count(3)
            assert_inside(page, "#last-trick-box", screen)
            screenshot(page, f"{name}-5-last-trick")
            toggle.click()
            expect(page.locator("#last-trick-box")).to_be_hidden()
            last_trick_seen = True
        act_and_wait(page, playable.first)
        plays += 1
    assert plays >= 6

    # The end of the deal: its summary, which waits; the next deal stays out of sight.
    summary = page.locator("#deal-summary")
    expect(summary).to_be_visible()
    assert_inside(page, "#deal-summary-continue", screen)
    assert_inside(page, "#deal-summary-table", screen)
    game = LiveGame.objects.get(pk=game.pk)
    finished = selectors.live_game_view(game, user=user)["deals"][0]
    rows = page.locator("#deal-summary-rows tr")
    expect(rows).to_have_count(3)
    for seat in range(3):
        row = page.locator(f'#deal-summary-rows tr[data-seat="{seat}"]')
        cells = row.locator("td").all_inner_texts()
        assert cells[-1].replace("\u2212", "-") == str(finished["totals"][seat])
    assert (
        page.locator("#deal-summary-outcome").get_attribute("data-outcome") == (finished["outcome"])
    )
    screenshot(page, f"{name}-6-summary")
    assert_one_screen(page, screen)
    page.wait_for_timeout(2000)  # longer than any pause between moves (at the test pace)
    expect(summary).to_be_visible()
    expect(page.locator("#hand-area")).to_be_hidden()
    assert table.get_attribute("data-summary") == "1"

    # "Continue": the next deal, the hand back at the bottom, the replay one tap away.
    page.locator("#deal-summary-continue").click()
    expect(summary).to_be_hidden()
    expect(page.locator(HAND).first).to_be_visible()
    assert page.locator(HAND).count() >= 7
    assert_inside(page, HAND, screen)
    replay = page.locator("#replay-link")
    expect(replay).to_be_visible()
    assert replay.get_attribute("href") == reverse("live-deal-replay", args=[game.pk, 1])
    screenshot(page, f"{name}-7-next-deal")
    assert not errors, errors
