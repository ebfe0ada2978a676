"""The score-sheet form the director's result page shares with the player's sheet page, in a real
browser: deals are entered one at a time and saved to the table's draft, the declarer's score is
filled in, the server's check shows the running totals and what to fix as the sheet is typed (a
game not over yet is no error), a reload or a table-mate's phone finds the same sheet, two phones
never overwrite each other, a removed deal comes back with Undo, and the director's sheet counts
at once. Without scripts the same buttons work by reloading the page.

The player's page runs the same form in test_tournament_flow.py. Locators use field names, ids
and data attributes, so the same tests run in English and Ukrainian.
"""

import time

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from draws import services as draw_services
from rules import RuleSet
from scoring.models import ResultVersion, SheetDraft, TableResult
from tests.e2e.conftest import ARTIFACTS, LAPTOP, PHONE
from tests.e2e.test_tournament_flow import sign_in
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tests.factories import game_sheet as engine_game_sheet

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TARGET = 150  # a short game keeps the sheet to a few deals


def given_seats(row: dict, index: int, players: int) -> set[int]:
    """The seats whose score the deal gives: the declarer's, a conceded deal's defenders'."""
    dealer = index % players
    given = {row["declarer"]}
    if row["outcome"] == "conceded":
        given |= {seat for seat in range(players) if players == 3 or seat != dealer}
    return given


def fill_deal(page, index: int, row: dict) -> None:
    """Type a deal as a person does: the scores the deal gives are filled in, not typed."""
    prefix = f"rows-{index}-"
    players = len(row["scores"])
    page.select_option(f"[name='{prefix}declarer']", str(row["declarer"]))
    expect(page.locator(f"[name='{prefix}score_{row['declarer']}']")).to_be_disabled()
    page.fill(f"[name='{prefix}bid']", str(row["bid"]))
    page.fill(f"[name='{prefix}contract']", str(row["contract"] or ""))
    page.select_option(f"[name='{prefix}outcome']", row["outcome"])
    if row["forced"]:
        page.check(f"[name='{prefix}forced']")
    given = given_seats(row, index, players)
    for seat, score in enumerate(row["scores"]):
        if seat not in given:
            page.fill(f"[name='{prefix}score_{seat}']", str(score))
    for seat in given:
        field = page.locator(f"[name='{prefix}score_{seat}']")
        expect(field).to_have_value(str(row["scores"][seat]))
        expect(field).to_be_disabled()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_director_enters_a_sheet_with_the_shared_form(
    live_server, open_page, screenshot, viewport
):
    director = UserFactory(username="director-sheet")
    director.set_password("director-password")
    director.save()
    club = ClubFactory(directors=[director])
    tournament = TournamentFactory(club=club, rounds_planned=1, rules={"target": TARGET})
    RegistrationFactory.create_batch(4, tournament=tournament)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get()
    sheet = engine_game_sheet(players=4, rules=RuleSet(target=TARGET), seed=2)
    rows = sheet["rows"]
    assert len(rows) == 4

    page = open_page(viewport=viewport)
    sign_in(page, live_server.url, "director-sheet", "director-password")
    page.goto(f"{live_server.url}/manage/tables/{table.pk}/result/")
    form = page.locator("#sheet-form")
    expect(form.locator("[data-deal]")).to_have_count(1)
    # With the script, the buttons that reload the page for a browser without it are hidden.
    expect(form.locator("[data-nojs]").first).to_be_hidden()
    expect(form.locator("[data-add-deal]")).to_be_visible()

    # A score that breaks the rules is named under its deal as it is typed (the declarer's is
    # filled in, so a defender's score that is not rounded to 5).
    wrong = dict(rows[0], scores=list(rows[0]["scores"]))
    dealer = 0  # the first dealer sits out and scores the talon
    defender = next(s for s in range(4) if s not in given_seats(wrong, 0, 4) and s != dealer)
    wrong["scores"][defender] += 1
    fill_deal(page, 0, wrong)
    expect(page.locator("#deal-check-0 .error-text")).to_contain_text("row 1:")
    expect(page.locator("[data-deal]").first).to_have_class("deal has-error")

    fill_deal(page, 0, rows[0])
    expect(page.locator("#deal-check-0 .error-text")).to_have_count(0)
    expect(page.locator("#deal-check-0 .deal-totals")).to_be_visible()
    for index, row in enumerate(rows[1:], start=1):
        page.click("[data-add-deal]")
        # The new deal's dealer follows the rotation.
        expect(page.locator(f"[name='rows-{index}-dealer']")).to_have_value(str(index % 4))
        fill_deal(page, index, row)
    # A deal added by mistake is removed again, and the rows keep their numbers.
    page.click("[data-add-deal]")
    expect(form.locator("[data-deal]")).to_have_count(len(rows) + 1)
    form.locator("[data-deal]").last.locator("[data-remove-deal]").click()
    expect(form.locator("[data-deal]")).to_have_count(len(rows))
    expect(page.locator("input[name='rows-TOTAL_FORMS']")).to_have_value(str(len(rows)))

    expect(page.locator("#sheet-check .check-ok")).to_be_visible()
    expect(page.locator("#sheet-check table.final-totals")).to_be_visible()
    screenshot(page, f"director-sheet-{'phone' if viewport is PHONE else 'laptop'}")
    with page.expect_navigation():
        form.locator("button[type=submit]:not([formaction])").click()

    result = TableResult.objects.get(table=table)
    assert result.status == TableResult.Status.CONFIRMED
    assert result.confirmed.sheet["rows"] == rows


# --------------------------------------------------------------------------- a table plays
# The screens: a phone held in one hand, and a small laptop.
PHONE_360 = {"width": 360, "height": 740}
LAPTOP_1366 = {"width": 1366, "height": 657}


@pytest.fixture(params=["en", "uk"])
def language(request):
    return request.param


def signed_in(open_page, live_server, user, *, viewport, language):
    """A browser (its own context: one person's phone) signed in as `user`."""
    client = Client()
    client.force_login(user)
    page = open_page(viewport=viewport, language=language)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return page


def a_table_of_four(*, target: int = TARGET):
    """A published table of four players with logins, and its players' users in seat order."""
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = TournamentFactory(club=club, rounds_planned=1, rules={"target": target})
    for number, name in enumerate(
        ["Olena Koval", "Taras Shevchuk", "Iryna Bondar", "Andrii Melnyk"]
    ):
        player = PlayerFactory(club=club, name=name, user=UserFactory(username=f"p{number}"))
        RegistrationFactory(tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get()
    seats = table.seats.select_related("registration__player__user").order_by("position")
    return table, [seat.registration.player.user for seat in seats]


def save_deal(page, index: int) -> None:
    """Save deal `index` (from 0) and wait for the next one, opened by the server's answer."""
    page.locator("[data-add-deal]").click()
    expect(page.locator(f"[name='rows-{index + 1}-declarer']")).to_be_visible()
    expect(page.locator("[data-deal]").nth(index)).not_to_have_attribute("open", "")


def running_totals(rows: list[dict], count: int) -> list[str]:
    return [str(sum(row["scores"][seat] for row in rows[:count])) for seat in range(4)]


def shot(page, name: str) -> None:
    """What the person sees (the viewport), beside the whole page of the screenshot fixture."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("viewport", [PHONE_360, LAPTOP_1366], ids=["phone", "laptop"])
def test_a_table_enters_its_sheet_deal_by_deal_as_it_plays(
    live_server, open_page, screenshot, language, viewport
):
    table, users = a_table_of_four()
    rows = engine_game_sheet(players=4, rules=RuleSet(target=TARGET), seed=6)["rows"]
    assert len(rows) == 5  # the fifth deal ends the game
    url = f"{live_server.url}/tables/{table.pk}/sheet/"
    size = "phone" if viewport is PHONE_360 else "laptop"
    name = f"{language}-sheet-{size}"

    first = signed_in(open_page, live_server, users[0], viewport=viewport, language=language)
    first.goto(url)
    expect(first.locator("[data-deal]")).to_have_count(1)
    shot(first, f"{name}-1-first-deal")

    # Three deals, one at a time: each is checked as it is typed, the declarer's score is filled
    # in, and a game not over yet is said apart from the mistakes, not as one.
    for index in range(3):
        fill_deal(first, index, rows[index])
        expect(first.locator(f"#deal-check-{index} .deal-totals")).to_be_visible()
        expect(first.locator(f"#deal-check-{index} .error-text")).to_have_count(0)
        expect(first.locator("#sheet-check .check-wait")).to_be_visible()
        expect(
            first.locator("#sheet-check .check-bad, #sheet-check .check-messages")
        ).to_have_count(0)
        expect(first.locator("#sheet-totals .num")).to_have_text(running_totals(rows, index + 1))
        if index == 0:
            shot(first, f"{name}-2-deal-typed")
        save_deal(first, index)
        # The next deal's dealer is known.
        expect(first.locator(f"[name='rows-{index + 1}-dealer']")).to_have_value(
            str((index + 1) % 4)
        )
    expect(first.locator("#sheet-totals .num")).to_have_text(running_totals(rows, 3))
    # The totals stay in sight at the bottom of the sheet too.
    first.locator("#sheet-check").scroll_into_view_if_needed()
    box = first.locator("#sheet-totals").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
    shot(first, f"{name}-3-after-three-deals")
    screenshot(first, f"{name}-3-after-three-deals-page")

    # A reload finds the three deals, folded, and the fourth to enter.
    first.reload()
    expect(first.locator("[data-deal]")).to_have_count(4)
    expect(first.locator("[data-deal]:not([open])")).to_have_count(3)
    expect(first.locator("[name='rows-2-bid']")).to_have_value(str(rows[2]["bid"]))
    expect(first.locator("#sheet-totals .num")).to_have_text(running_totals(rows, 3))
    shot(first, f"{name}-4-reloaded")

    # A table-mate's phone shows the same sheet, and he enters the fourth deal.
    mate = signed_in(open_page, live_server, users[1], viewport=viewport, language=language)
    mate.goto(url)
    expect(mate.locator("[data-deal]")).to_have_count(4)
    expect(mate.locator("[name='rows-1-contract']")).to_have_value(str(rows[1]["contract"]))
    fill_deal(mate, 3, rows[3])
    save_deal(mate, 3)
    assert SheetDraft.objects.get(table=table).rows[3]["bid"] == rows[3]["bid"]

    # The first phone, which has not seen it, enters a fourth deal of its own (the declarer
    # concedes before naming a contract: the defenders' +50 are filled in too). Saving it
    # overwrites nothing: the phone gets the newer sheet, and says so.
    conceded = {
        "dealer": 3,
        "declarer": 1,
        "bid": 60,
        "contract": None,
        "outcome": "conceded",
        "forced": False,
        "scores": [50, -60, 50, 0],
    }
    fill_deal(first, 3, conceded)
    shot(first, f"{name}-5-conceded")
    first.locator("[data-add-deal]").click()
    expect(first.locator("[data-draft-notice]")).to_be_visible()
    expect(first.locator("[name='rows-3-bid']")).to_have_value(str(rows[3]["bid"]))
    expect(first.locator("#sheet-totals .num")).to_have_text(running_totals(rows, 4))
    shot(first, f"{name}-6-newer-sheet")

    # Removing a deal can be undone.
    first.locator("[data-deal]").nth(3).locator("summary").click()
    first.locator("[data-deal]").nth(3).locator("[data-remove-deal]").click()
    expect(first.locator("[data-restore-deal]")).to_be_visible()
    expect(first.locator("[data-deal]")).to_have_count(4)
    expect(first.locator("#sheet-totals .num")).to_have_text(running_totals(rows, 3))
    shot(first, f"{name}-7-removed")
    first.locator("[data-restore-deal]").click()
    expect(first.locator("[data-restore-deal]")).to_have_count(0)
    expect(first.locator("[data-deal]")).to_have_count(5)
    expect(first.locator("[name='rows-3-bid']")).to_have_value(str(rows[3]["bid"]))

    # The last deal ends the game: the sheet is complete, and submitted.
    fill_deal(first, 4, rows[4])
    expect(first.locator("#sheet-check .check-ok")).to_be_visible()
    expect(first.locator("#sheet-check .check-wait")).to_have_count(0)
    shot(first, f"{name}-8-complete")
    screenshot(first, f"{name}-8-complete-page")
    with first.expect_navigation():
        first.locator("#sheet-form button[type=submit]:not([formaction])").click()
    version = ResultVersion.objects.get(table=table)
    assert version.status == ResultVersion.Status.SUBMITTED
    assert version.sheet["rows"] == rows
    assert SheetDraft.objects.get(table=table).rows == []


def test_without_scripts_deals_are_saved_and_removed_by_reloading_the_page(
    live_server, browser, screenshot
):
    table, users = a_table_of_four()
    rows = engine_game_sheet(players=4, rules=RuleSet(target=TARGET), seed=6)["rows"]
    client = Client()
    client.force_login(users[2])
    context = browser.new_context(viewport=PHONE_360, java_script_enabled=False)
    try:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/tables/{table.pk}/sheet/")
        for index in range(2):
            row = rows[index]
            prefix = f"rows-{index}-"
            page.select_option(f"[name='{prefix}declarer']", str(row["declarer"]))
            page.fill(f"[name='{prefix}bid']", str(row["bid"]))
            page.fill(f"[name='{prefix}contract']", str(row["contract"]))
            page.select_option(f"[name='{prefix}outcome']", row["outcome"])
            # The declarer's score is left empty: the server fills it in.
            for seat, score in enumerate(row["scores"]):
                if seat != row["declarer"]:
                    page.fill(f"[name='{prefix}score_{seat}']", str(score))
            with page.expect_navigation():
                page.locator("[data-add-deal]").click()
            expect(page.locator(f"[name='{prefix}score_{row['declarer']}']")).to_have_value(
                str(row["scores"][row["declarer"]])
            )
        expect(page.locator("[data-deal]")).to_have_count(3)
        screenshot(page, "en-sheet-no-script")
        # Without scripts a folded deal still opens, and its removal can be undone.
        page.locator("[data-deal]").nth(1).locator("summary").click()
        with page.expect_navigation():
            page.locator("[data-deal]").nth(1).locator("[data-remove-deal]").click()
        expect(page.locator("[data-deal]")).to_have_count(2)
        with page.expect_navigation():
            page.locator("[data-restore-deal]").click()
        expect(page.locator("[data-deal]")).to_have_count(3)
        page.goto(f"{live_server.url}/tables/{table.pk}/sheet/")
        expect(page.locator("[name='rows-1-bid']")).to_have_value(str(rows[1]["bid"]))
        assert [row["bid"] for row in SheetDraft.objects.get(table=table).rows] == [
            row["bid"] for row in rows[:2]
        ]
    finally:
        context.close()


def test_a_deal_typed_without_a_connection_is_kept_and_leaving_it_asks_first(
    live_server, open_page
):
    table, users = a_table_of_four()
    rows = engine_game_sheet(players=4, rules=RuleSet(target=TARGET), seed=6)["rows"]
    url = f"{live_server.url}/tables/{table.pk}/sheet/"
    page = signed_in(open_page, live_server, users[0], viewport=PHONE_360, language="en")
    page.goto(url)
    fill_deal(page, 0, rows[0])

    # The phone loses its connection as the deal is saved: the table goes on with the next deal,
    # and the page says the deal is not saved yet.
    def offline(route):
        if route.request.method == "POST" and route.request.url == url:
            route.abort()
        else:
            route.continue_()

    page.route("**/*", offline)
    page.locator("[data-add-deal]").click()
    expect(page.locator("[data-save-failed]")).to_be_visible()
    expect(page.locator("[name='rows-1-declarer']")).to_be_visible()
    expect(page.locator("[name='rows-1-dealer']")).to_have_value("1")
    assert not SheetDraft.objects.filter(table=table).exists()

    # Back online, the next save keeps both deals.
    page.unroute("**/*", offline)
    fill_deal(page, 1, rows[1])
    save_deal(page, 1)
    expect(page.locator("[data-save-failed]")).to_be_hidden()
    assert [row["bid"] for row in SheetDraft.objects.get(table=table).rows] == [
        row["bid"] for row in rows[:2]
    ]

    # A deal typed but not saved: leaving the page asks first.
    page.fill("[name='rows-2-bid']", str(rows[2]["bid"]))
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.evaluate("window.location.assign('/')")
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]
    expect(page.locator("#sheet-form")).to_be_visible()


def test_a_deal_saved_right_after_its_last_score_is_typed_is_saved_on_a_slow_connection(
    live_server, open_page
):
    """The check of the sheet runs half a second after the last key; a save tapped before that,
    answered later than that (a venue's wifi, a busy server), is not cancelled by the check."""
    table, users = a_table_of_four()
    rows = engine_game_sheet(players=4, rules=RuleSet(target=TARGET), seed=6)["rows"]
    url = f"{live_server.url}/tables/{table.pk}/sheet/"
    page = signed_in(open_page, live_server, users[0], viewport=PHONE_360, language="en")
    page.goto(url)

    def slow_save(route):
        time.sleep(1.5)  # the check's delay is 0.5 s
        route.continue_()

    page.route(url, slow_save)
    fill_deal(page, 0, rows[0])
    # A score typed again just before the save: its check waits its 0.5 s while the save is sent.
    seat = min(set(range(4)) - given_seats(rows[0], 0, 4))
    page.fill(f"[name='rows-0-score_{seat}']", str(rows[0]["scores"][seat]))
    save_deal(page, 0)
    expect(page.locator("[name='rows-1-dealer']")).to_have_value("1")
    assert [row["bid"] for row in SheetDraft.objects.get(table=table).rows] == [rows[0]["bid"]]

    # The check goes on as the next deal is typed.
    page.unroute(url, slow_save)
    fill_deal(page, 1, rows[1])
    expect(page.locator("#deal-check-1 .deal-totals")).to_be_visible()
    expect(page.locator("#sheet-totals .num")).to_have_text(running_totals(rows, 2))
