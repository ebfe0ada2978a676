"""A club evening in a real browser: the director sets up and draws a round, a player enters the
score sheet on a phone, a table-mate confirms it, and the public standings update by themselves.

Locators use form actions, field names and ids, so the same test runs in English and Ukrainian.
"""

import re

import pytest
from playwright.sync_api import expect

from rules import RuleSet
from tests.e2e.conftest import LAPTOP, PHONE
from tests.factories import ClubFactory, UserFactory, game_sheet
from tournaments.models import Player, Tournament
from tournaments.selectors import player_personal_link

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Olena Koval",
    "Taras Shevchuk",
    "Iryna Bondar",
    "Andrii Melnyk",
    "Nataliia Tkachuk",
    "Bohdan Kravets",
    "Oksana Lysenko",
    "Mykhailo Honchar",
    "Yuliia Savchuk",
    "Vasyl Rudenko",
]
TARGET = 150  # a short game keeps the sheet to a few deals


def sign_in(page, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("form button[type=submit] >> nth=-1")


def submit(page, form_action_part: str) -> None:
    form = page.locator(f"form[action*='{form_action_part}']").first
    with page.expect_navigation():
        form.locator("button[type=submit]").first.click()


def director_sets_up_round_one(page, base_url: str, screenshot, language: str) -> Tournament:
    page.goto(f"{base_url}/manage/tournaments/new/")
    page.fill("input[name=name]", f"Friday cup ({language})")
    page.fill("input[name=date]", "2026-12-04")
    page.fill("input[name=rounds_planned]", "3")
    page.select_option("select[name=table_size]", "4")
    page.fill("input[name=rule_target]", str(TARGET))
    screenshot(page, f"{language}-director-new-tournament")
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()
    tournament = Tournament.objects.get(name=f"Friday cup ({language})")
    assert tournament.rules == {"target": TARGET}

    page.goto(f"{base_url}/manage/tournaments/{tournament.pk}/players/")
    page.fill("textarea[name=names]", "\n".join(NAMES))
    submit(page, "/players/paste/")
    assert tournament.registrations.count() == 10
    screenshot(page, f"{language}-director-players")

    page.goto(f"{base_url}/manage/tournaments/{tournament.pk}/")
    submit(page, f"/manage/tournaments/{tournament.pk}/draw/")
    expect(page).to_have_url(re.compile(r"/manage/rounds/\d+/$"))
    screenshot(page, f"{language}-director-draw-preview")
    submit(page, "/publish/")
    round_ = tournament.rounds.get(number=1)
    assert round_.status == "published"
    assert sorted(table.seats.count() for table in round_.tables.all()) == [3, 3, 4]
    return tournament


def sign_in_by_personal_link(page, base_url: str, player: Player) -> None:
    page.goto(base_url + player_personal_link(player.registrations.get()))
    page.click("main form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/me/$"))


def enter_sheet_on_a_phone(page, table, screenshot, language: str) -> None:
    sheet = game_sheet(players=table.seats.count(), rules=RuleSet(target=TARGET), seed=3)
    page.click(f"a[href$='/tables/{table.pk}/sheet/']")
    expect(page.locator("#sheet-form")).to_be_visible()
    for index, row in enumerate(sheet["rows"]):
        prefix = f"rows-{index}-"
        if page.locator(f"[name='{prefix}declarer']").count() == 0:
            page.click("[data-add-deal]")
        page.select_option(f"[name='{prefix}dealer']", str(row["dealer"]))
        page.select_option(f"[name='{prefix}declarer']", str(row["declarer"]))
        page.fill(f"[name='{prefix}bid']", str(row["bid"]))
        page.fill(f"[name='{prefix}contract']", str(row["contract"] or ""))
        page.select_option(f"[name='{prefix}outcome']", row["outcome"])
        if row["forced"]:
            page.check(f"[name='{prefix}forced']")
        for seat, score in enumerate(row["scores"]):
            if seat != row["declarer"]:  # the declarer's score is filled in, not typed
                page.fill(f"[name='{prefix}score_{seat}']", str(score))
    # The running totals and the check as you type come from the server's validation.
    expect(page.locator("#sheet-form .errorlist, #sheet-form [role=alert]")).to_have_count(0)
    screenshot(page, f"{language}-player-sheet-phone")
    with page.expect_navigation():
        page.click("#sheet-form button[type=submit]:not([formaction])")


def test_a_round_from_draw_to_live_standings(
    live_server, open_page, screenshot, language, django_user_model
):
    director = UserFactory(username="director-e2e")
    director.set_password("director-password")
    director.save()
    ClubFactory(name="Friday club", directors=[director])
    base = live_server.url

    desk = open_page(viewport=LAPTOP, language=language)
    sign_in(desk, base, "director-e2e", "director-password")
    tournament = director_sets_up_round_one(desk, base, screenshot, language)
    assert desk.locator("html").get_attribute("lang") == language

    wall = open_page(viewport=LAPTOP, language=language)
    wall.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    expect(wall.locator("#standings-live table")).to_have_count(0)

    table = tournament.rounds.get(number=1).tables.order_by("-number").first()
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    submitter, confirmer = seats[0].registration.player, seats[1].registration.player

    phone = open_page(viewport=PHONE, language=language)
    sign_in_by_personal_link(phone, base, submitter)
    screenshot(phone, f"{language}-player-my-table-phone")
    enter_sheet_on_a_phone(phone, table, screenshot, language)
    assert table.result_versions.get().status == "submitted"

    mate = open_page(viewport=PHONE, language=language)
    sign_in_by_personal_link(mate, base, confirmer)
    mate.goto(f"{base}/tables/{table.pk}/sheet/")
    screenshot(mate, f"{language}-table-mate-review-phone")
    submit(mate, "/confirm/")
    assert table.result_versions.get().status == "confirmed"

    # No reload: the standings page polls and swaps in the new snapshot by itself.
    expect(wall.locator("#standings-live table")).to_have_count(1, timeout=2_000)
    expect(wall.locator("#standings-live")).to_contain_text(submitter.name)
    screenshot(wall, f"{language}-public-standings")
    assert wall.locator("html").get_attribute("lang") == language


@pytest.fixture(params=["en", "uk"])
def language(request):
    return request.param
