"""The one score-sheet entry of the director's result page and the player's sheet page: the same
form, template and script, and the same input answered the same way on both (only the director's
sheet counts at once); the running totals come from one computation."""

import datetime

import pytest
from django.urls import reverse
from django.utils.html import escape

from draws import services as draw_services
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tests.web.test_player_pages import form_data
from tournaments import services
from web.forms.sheet import MAX_DEALS

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def table(director):
    """A published table of four players with logins, with no result yet."""
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Entry Cup", date=datetime.date(2026, 12, 4)
    )
    for number in range(4):
        player = PlayerFactory(club=club, name=f"Player {number}", user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get()


@pytest.fixture(params=["director", "player"])
def entry(request, client, director, table):
    """(the client, the page's URL, its check URL) of one of the two pages that enter a sheet."""
    client.raise_request_exception = False
    if request.param == "director":
        client.force_login(director)
        url = reverse("director-table-result", args=[table.pk])
        return client, url, url
    client.force_login(table.seats.get(position=0).registration.player.user)
    return (
        client,
        reverse("table-sheet", args=[table.pk]),
        reverse("table-sheet-check", args=[table.pk]),
    )


def text_of(response) -> str:
    return response.content.decode()


def stored(table) -> int:
    return ResultVersion.objects.filter(table=table).count()


def test_both_pages_show_the_same_form_and_script(entry):
    client, url, check_url = entry

    page = text_of(client.get(url))

    assert 'id="sheet-form"' in page and f'hx-post="{check_url}"' in page
    assert 'name="rows-TOTAL_FORMS"' in page and 'name="rows-0-bid"' in page
    assert 'name="expected_version" value="0"' in page
    assert '<option value="0" selected>1 · Player' in page  # seat 1 deals the first deal
    assert 'id="deal-template"' in page and "rows-__prefix__-score_3" in page
    assert "/static/js/sheet.js" in page and "/static/css/sheet.css" in page
    assert "data-sheet" not in page  # the director's old table of rows and its script are gone


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows-0-bid": "1" + "0" * 50}, "Row 1, Bid: Ensure this value is less than or equal to"),
        ({"rows-0-score_1": "-" + "9" * 400}, "greater than or equal to -1000000"),
        ({"rows-1-bid": ""}, "Row 2, Bid: Enter the bid."),
        ({"rows-1-declarer": ""}, "Row 2, Declarer: Choose the declarer"),
        ({"rows-2-outcome": "lost"}, "Row 3, Outcome: Select a valid choice."),
        ({"rows-0-score_2": "lots"}, "Row 1, Seat 3 (Player"),
    ],
    ids=["huge bid", "huge negative score", "no bid", "no declarer", "unknown outcome", "words"],
)
def test_a_field_the_form_cannot_read_is_refused_alike_on_both_pages(entry, table, change, message):
    client, url, check_url = entry
    data = form_data(game_sheet(players=4, seed=1)) | change

    saved = client.post(url, data)
    checked = client.post(check_url, data, headers={"HX-Request": "true"})

    assert saved.status_code == 200
    assert "The result was not saved: the score sheet breaks these rules." in text_of(saved)
    assert escape(message) in text_of(saved) and escape(message) in text_of(checked)
    assert stored(table) == 0


def test_a_deal_the_form_refused_is_reported_once_not_again_by_the_engine(entry):
    client, _url, check_url = entry
    data = form_data(game_sheet(players=4, seed=1)) | {"rows-1-bid": ""}

    fragment = text_of(client.post(check_url, data, headers={"HX-Request": "true"}))

    line = fragment.split('id="deal-check-1"', 1)[1].split("</div>", 1)[0]
    assert "Row 2, Bid: Enter the bid." in line
    assert "row 2:" not in line  # the engine's "'bid' is missing" would say it again


def test_a_rule_the_engine_finds_is_shown_alike_on_both_pages(entry, table):
    client, url, check_url = entry
    sheet = game_sheet(players=4, seed=3)
    sheet["rows"][2]["scores"][sheet["rows"][2]["declarer"]] += 5

    saved = text_of(client.post(url, form_data(sheet)))
    fragment = text_of(client.post(check_url, form_data(sheet), headers={"HX-Request": "true"}))

    for text in (saved, fragment):
        assert escape("row 3: the declarer") in text
        third = text.split('id="deal-check-2"', 1)[1].split("</div>", 1)[0]
        assert escape("row 3: the declarer") in third
    assert stored(table) == 0


def banner(text: str) -> str:
    """The notice at the top of the page that says why the sheet was not saved."""
    return text.split('role="alert"', 1)[1].split("</div>", 1)[0]


def test_a_sheet_submitted_before_the_game_ends_says_so_at_the_top(entry, table):
    client, url, _check_url = entry
    sheet = game_sheet(players=4, seed=3)
    sheet["rows"] = sheet["rows"][:2]

    top = banner(text_of(client.post(url, form_data(sheet))))

    assert "The result was not saved: the game is not finished yet." in top
    assert "breaks these rules" not in top and "Check the fields marked below" not in top
    assert stored(table) == 0


def test_the_rules_a_refused_sheet_breaks_are_listed_at_the_top(entry, table):
    client, url, _check_url = entry
    sheet = game_sheet(players=4, seed=3)
    sheet["rows"][2]["scores"][sheet["rows"][2]["declarer"]] += 5

    top = banner(text_of(client.post(url, form_data(sheet))))

    assert "the score sheet breaks these rules" in top
    assert escape("row 3: the declarer") in top


def test_a_total_the_form_cannot_read_is_not_reported_again_in_the_apis_words(desk_totals, table):
    client, url = desk_totals
    data = {"mode": "totals", "expected_version": "0", "note": "", "winner": ""}
    data.update(total_0="1005", total_1="99999999999999", total_2="-35", total_3="300")

    text = text_of(client.post(url, data))

    assert "less than or equal to 1000000" in text
    assert "totals" not in banner(text).replace("Totals", "") and "whole number" not in text
    assert stored(table) == 0


@pytest.fixture
def desk_totals(client, director, table):
    tournament = table.round.tournament
    tournament.quick_results_allowed = True
    tournament.save()
    client.force_login(director)
    return client, reverse("director-table-result", args=[table.pk])


@pytest.mark.parametrize("total", ["", "many", "-1x", "²"])
def test_a_damaged_row_count_is_a_400_on_both_pages_and_a_check_says_so(entry, table, total):
    client, url, check_url = entry
    data = form_data(game_sheet(players=4, seed=1)) | {"rows-TOTAL_FORMS": total}

    saved = client.post(url, data)
    checked = client.post(check_url, data | {"check": "1"})  # as the check button posts it

    assert saved.status_code == 400 and "The sheet arrived damaged" in text_of(saved)
    assert checked.status_code == 200 and "The sheet arrived damaged" in text_of(checked)
    assert 'name="rows-TOTAL_FORMS"' in text_of(saved)  # a fresh sheet to enter again
    assert stored(table) == 0


def test_both_pages_take_the_largest_honest_sheet_and_refuse_a_longer_one(entry, table):
    client, url, _check_url = entry
    data = form_data(game_sheet(players=4, seed=1))

    largest = client.post(url, data | {"rows-TOTAL_FORMS": str(MAX_DEALS)})
    longer = client.post(url, data | {"rows-TOTAL_FORMS": str(MAX_DEALS + 1)})

    assert MAX_DEALS == 300
    assert "Please submit at most" not in text_of(largest)
    assert largest.status_code == 302  # the fresh rows after the last deal are left out
    assert "Please submit at most 300 forms." in text_of(longer)
    assert stored(table) == 1


def test_adding_rows_without_scripts_works_alike_on_both_pages(entry, table):
    client, url, check_url = entry
    sheet = game_sheet(players=4, seed=1)
    data = form_data(sheet) | {"add_rows": "1"}

    response = client.post(check_url, data)

    page = text_of(response)
    rows = len(sheet["rows"])
    assert response.status_code == 200
    assert f'name="rows-TOTAL_FORMS" value="{rows + 10}"' in page
    dealer = page.split(f'name="rows-{rows}-dealer"', 1)[1]
    assert f'<option value="{rows % 4}" selected>' in dealer
    assert stored(table) == 0


def test_the_check_without_scripts_adds_a_deal_to_fill_in_on_both_pages(entry):
    client, _url, check_url = entry
    sheet = game_sheet(players=4, seed=4)
    sheet["rows"] = sheet["rows"][:2]

    page = text_of(client.post(check_url, form_data(sheet) | {"check": "1"}))

    assert "the game is not over after the last row (2)" in page
    assert 'name="rows-2-declarer"' in page


def test_the_same_sheet_is_stored_alike_and_only_the_directors_counts_at_once(
    client, director, table
):
    sheet = game_sheet(players=4, seed=7)
    player = table.seats.get(position=0).registration.player.user

    client.force_login(player)
    assert client.post(reverse("table-sheet", args=[table.pk]), form_data(sheet)).status_code == 302
    client.force_login(director)
    response = client.post(
        reverse("director-table-result", args=[table.pk]), form_data(sheet, version=1)
    )

    assert response.status_code == 302
    first, second = ResultVersion.objects.filter(table=table).order_by("number")
    assert first.sheet == second.sheet == sheet
    assert first.status == ResultVersion.Status.SUPERSEDED
    assert second.status == ResultVersion.Status.CONFIRMED
    assert TableResult.objects.get(table=table).confirmed == second


def test_the_running_totals_of_a_stored_sheet_are_the_engines_and_the_public_pages(director, table):
    sheet = game_sheet(players=4, seed=5)
    validated = scoring_services.validate_sheet_for_table(table, sheet)
    scoring_services.result_submit(
        actor=director, table=table, sheet=sheet, expected_version=0, confirm=True
    )

    running = scoring_selectors.sheet_running_totals(sheet, 4)

    assert running == list(validated.running_totals)
    assert scoring_services.sheet_check(table=table, sheet=sheet).running_totals == running
    deals = scoring_selectors.confirmed_deals(table)
    assert [deal.running for deal in deals] == running
    assert scoring_selectors.sheet_running_totals({"mode": "totals", "totals": [1, 2]}, 2) == []
