"""The score-sheet form the director's result page shares with the player's sheet page, in a real
browser: its script adds and removes deals, the server's check shows the running totals and what
to fix as the sheet is typed, and the director's sheet counts at once.

The player's page runs the same form in test_tournament_flow.py.
"""

import pytest
from playwright.sync_api import expect

from draws import services as draw_services
from rules import RuleSet
from scoring.models import TableResult
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.test_tournament_flow import sign_in
from tests.factories import ClubFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.factories import game_sheet as engine_game_sheet

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TARGET = 150  # a short game keeps the sheet to a few deals


def fill_deal(page, index: int, row: dict) -> None:
    prefix = f"rows-{index}-"
    page.select_option(f"[name='{prefix}declarer']", str(row["declarer"]))
    page.fill(f"[name='{prefix}bid']", str(row["bid"]))
    page.fill(f"[name='{prefix}contract']", str(row["contract"] or ""))
    page.select_option(f"[name='{prefix}outcome']", row["outcome"])
    if row["forced"]:
        page.check(f"[name='{prefix}forced']")
    for seat, score in enumerate(row["scores"]):
        page.fill(f"[name='{prefix}score_{seat}']", str(score))


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

    # A score that breaks the rules is named under its deal as it is typed.
    wrong = dict(rows[0], scores=list(rows[0]["scores"]))
    wrong["scores"][wrong["declarer"]] += 5
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
