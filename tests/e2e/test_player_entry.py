"""Getting in and live status in a real browser (issue 13): a player scans his table's QR code
with a fresh phone, taps his seat, types the code of his player card and is at his sheet without
a password; a table-mate's /me/ shows "waiting for your confirmation" by itself once the sheet is
submitted, he confirms, and the first phone shows the confirmation by itself.

Locators use ids, names and classes, so the same test runs in English and Ukrainian; the English
run also reads the words. A mark set in each page's window before the news proves that no reload
brought it.
"""

import datetime
import re

import pytest
from playwright.sync_api import expect

from draws import services as draw_services
from scoring import services as scoring_services
from tests.e2e.conftest import ARTIFACTS
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 657}
NEWS = 12_000  # the pages poll every 3 seconds
NAMES = ["Olena Koval", "Taras Shevchuk", "Iryna Bondar", "Andrii Melnyk"]


def round_one(language: str) -> Tournament:
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name=f"Evening cup ({language})",
        date=datetime.date(2026, 12, 4),
    )
    for name in NAMES:  # pasted names: players without logins or passwords
        player = PlayerFactory(club=club, name=name, user=None)
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    return tournament


def in_by_table_code(page, base: str, table, seat, screenshot, name: str) -> None:
    """Scan the table's QR code (its address), tap the seat, type the card's code."""
    page.goto(f"{base}/tables/{table.pk}/sheet/")
    expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/seat/$"))
    expect(page.locator("input[type=password]")).to_have_count(0)
    expect(page.locator(".seat-choice")).to_have_count(table.seats.count())
    screenshot(page, f"{name}-1-which-seat")
    page.locator(f".seat-choice:has(input[value='{seat.position}'])").click()
    page.fill("input[name=code]", seat.registration.entry_code_display.lower())
    screenshot(page, f"{name}-2-code-typed")
    # The seats, the code and the button fit the screen: no scrolling on a phone or a laptop.
    button = page.locator(".seat-form button[type=submit]").bounding_box()
    assert button["y"] + button["height"] <= page.viewport_size["height"], button
    with page.expect_navigation():
        page.click(".seat-form button[type=submit]")
    expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/sheet/$"))
    expect(page.locator("input[type=password]")).to_have_count(0)


def in_view(page, selector: str, name: str) -> None:
    """A screenshot of the screen as the player sees it with `selector` at its top."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.evaluate(f"document.querySelector({selector!r}).scrollIntoView()")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def watch_policy(page, refusals: list[str]) -> None:
    """Collect the Content-Security-Policy refusals the page's console reports."""
    page.on(
        "console",
        lambda message: (
            refusals.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )


def mark(page) -> None:
    page.evaluate("window.__noReload = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.__noReload === true")


@pytest.mark.parametrize("language", ["en", "uk"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360x740", "1366x657"])
def test_from_the_table_qr_code_to_a_confirmed_sheet_without_a_password_or_a_reload(
    live_server, open_page, screenshot, language, viewport
):
    base = live_server.url
    tournament = round_one(language)
    table = tournament.rounds.get(number=1).tables.get()
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    size = "phone" if viewport is PHONE else "laptop"
    name = f"entry-{language}-{size}"

    first = open_page(viewport=viewport, language=language)
    refusals: list[str] = []
    watch_policy(first, refusals)
    in_by_table_code(first, base, table, seats[0], screenshot, f"{name}-first")
    assert first.locator("html").get_attribute("lang") == language
    expect(first.locator("#sheet-live")).to_be_attached()
    screenshot(first, f"{name}-first-3-at-the-sheet")

    mate = open_page(viewport=viewport, language=language)
    watch_policy(mate, refusals)
    in_by_table_code(mate, base, table, seats[1], screenshot, f"{name}-mate")
    mate.goto(f"{base}/me/")
    expect(mate.locator("#player-live .status-pending")).to_be_visible()
    screenshot(mate, f"{name}-mate-3-my-table")
    mark(mate)
    mark(first)

    # The first player submits the sheet (through the service, as his page's form would).
    seats[0].registration.player.refresh_from_db()
    submitter = seats[0].registration.player.user
    scoring_services.result_submit(
        actor=submitter, table=table, sheet=game_sheet(players=4, seed=3), expected_version=0
    )

    waiting = mate.locator("#player-live .status-submitted")
    expect(waiting).to_be_visible(timeout=NEWS)
    if language == "en":
        expect(waiting).to_have_text("waiting for your confirmation")
    assert not_reloaded(mate)
    expect(first.locator("#sheet-live .notice-wait")).to_be_visible(timeout=NEWS)
    assert not_reloaded(first)
    screenshot(mate, f"{name}-mate-4-waits-for-me")
    screenshot(first, f"{name}-first-4-waiting")
    in_view(first, "#sheet-live", f"{name}-first-4-waiting-screen")

    with mate.expect_navigation():
        mate.click(f"#player-live a[href$='/tables/{table.pk}/sheet/']")
    expect(mate.locator("form[action$='/confirm/']")).to_be_visible()
    screenshot(mate, f"{name}-mate-5-review")
    # What he confirms is all in sight: the four players' scores beside each deal and the final
    # totals with their places, no column pushed off the phone's screen.
    widths = mate.evaluate(
        """() => Array.from(document.querySelectorAll('#sheet-live .table-wrap'))
            .map((wrap) => [wrap.scrollWidth, wrap.clientWidth])"""
    )
    assert len(widths) == 2 and all(needed <= shown for needed, shown in widths), widths
    with mate.expect_navigation():
        mate.click("form[action$='/confirm/'] button[type=submit]")
    expect(mate.locator("#sheet-live .notice-ok")).to_be_visible()
    assert table.result_versions.get().status == "confirmed"

    confirmed = first.locator("#sheet-live .notice-ok")
    expect(confirmed).to_be_visible(timeout=NEWS)
    if language == "en":
        expect(confirmed).to_contain_text("Version 1 is confirmed")
    assert not_reloaded(first)
    screenshot(first, f"{name}-first-5-confirmed")
    in_view(first, "#sheet-live", f"{name}-first-5-confirmed-screen")
    screenshot(mate, f"{name}-mate-6-confirmed")
    assert refusals == []


@pytest.mark.parametrize("language", ["en", "uk"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["360x740", "1366x657"])
def test_for_players_on_the_home_page_leads_to_the_code_and_the_players_table(
    live_server, open_page, screenshot, language, viewport
):
    base = live_server.url
    tournament = round_one(language)
    registration = tournament.registrations.get(start_number=3)
    seat = registration.seats.select_related("table").get()
    name = f"entry-{language}-{'phone' if viewport is PHONE else 'laptop'}-home"

    page = open_page(viewport=viewport, language=language)
    page.goto(f"{base}/")
    entry = page.locator(".roles a[href='/me/enter/']")
    expect(entry).to_be_visible()
    screenshot(page, f"{name}-1-home")
    with page.expect_navigation():
        entry.click()
    expect(page.locator("input[type=password]")).to_have_count(0)
    page.fill("input[name=code]", "ZZZ ZZZ")
    with page.expect_navigation():
        page.click(".entry-form button[type=submit]")
    expect(page.locator("#id_code[aria-invalid=true]")).to_be_visible()
    screenshot(page, f"{name}-2-wrong-code")
    page.fill("input[name=code]", registration.entry_code_display)
    with page.expect_navigation():
        page.click(".entry-form button[type=submit]")

    expect(page).to_have_url(re.compile(r"/me/$"))
    expect(page.locator(".my-seat-table")).to_contain_text(str(seat.table.number))
    expect(page.locator(".my-seat-seat")).to_contain_text(str(seat.number))
    screenshot(page, f"{name}-3-my-table")


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_printed_cards_carry_the_codes_and_the_table_cards_say_how(
    live_server, open_page, screenshot, language
):
    from tests.e2e.test_tournament_flow import sign_in

    tournament = round_one(language)
    director = tournament.club.directors.get()
    director.set_password("director-password")
    director.save()
    page = open_page(viewport=LAPTOP, language=language)
    sign_in(page, live_server.url, director.username, "director-password")

    page.goto(f"{live_server.url}/manage/tournaments/{tournament.pk}/players/cards/")
    for registration in tournament.registrations.all():
        expect(page.locator(".player-cards")).to_contain_text(registration.entry_code_display)
    screenshot(page, f"entry-{language}-player-cards")
    round_ = tournament.rounds.get(number=1)
    page.goto(f"{live_server.url}/manage/rounds/{round_.pk}/print/")
    expect(page.locator(".qr .qr-how")).to_be_visible()
    screenshot(page, f"entry-{language}-table-cards")


def seen_as(page, state: str) -> None:
    """Make the page believe its tab is hidden or shown (a phone put away, taken out)."""
    page.evaluate(
        """(state) => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_a_hidden_page_does_not_poll_and_asks_at_once_when_shown_again(live_server, open_page):
    tournament = round_one("en")
    table = tournament.rounds.get(number=1).tables.get()
    seat = table.seats.select_related("registration__player").get(position=2)
    page = open_page(viewport=PHONE)
    in_by_table_code(page, live_server.url, table, seat, lambda *args: None, "hidden")
    polls: list[str] = []
    page.on(
        "request", lambda request: polls.append(request.url) if "/status/" in request.url else None
    )
    page.goto(f"{live_server.url}/me/")
    page.wait_for_timeout(3_500)
    assert polls, "the visible page polls"

    seen_as(page, "hidden")
    polls.clear()
    page.wait_for_timeout(7_000)
    assert polls == [], "a hidden page asks for nothing"

    seen_as(page, "visible")
    page.wait_for_timeout(500)
    assert len(polls) == 1, polls  # at once, not at the next tick
