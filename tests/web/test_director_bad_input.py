"""Input to the director's pages that once made them fail or took garbage: each is refused, with
a message (a 4xx, or the page again with the message as every refused button of these pages).

Names that break a rule (too long, nothing visible, control characters, unreadable characters),
version numbers that only look like numbers, and a score sheet's garbled row count.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from draws import services as draw_services
from scoring.models import ResultVersion, TableResult
from scoring.services import result_submit
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    game_sheet,
)
from tests.web.test_director_pages import sheet_data
from tournaments.models import Player
from web.forms.director import NAMES_MAX_LENGTH
from web.forms.sheet import DealRowFormSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def desk(client, director):
    client.raise_request_exception = False
    client.force_login(director)
    return client


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club)


@pytest.fixture
def playing(director, club):
    """A published table of four whose first version (seat 1's sheet) waits for confirmation."""
    tournament = TournamentFactory(club=club, rounds_planned=1)
    RegistrationFactory.create_batch(4, tournament=tournament)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get()
    result_submit(actor=director, table=table, sheet=game_sheet(players=4), expected_version=0)
    return table


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def registered(tournament) -> list[str]:
    return list(tournament.registrations.values_list("player__name", flat=True))


# --------------------------------------------------------------------------- names
BAD_NAMES = {
    "too long": ("x" * 121, "A name has at most 120 characters."),
    "invisible only": ("\u200b\u2060\u200b", "The name has no visible letters."),
    "a Hangul filler": ("\u3164", "The name has no visible letters."),
    "a control character": ("Olena\x07Koval", "invisible control character (U+0007)"),
    "an escape sequence": ("Taras\x1b[31m", "invisible control character (U+001B)"),
    "a direction override": ("Ivan \u202eokhcnep", "invisible control character (U+202E)"),
    "an unreadable character": ("Iryna \ufffd", "could not be read"),
}


@pytest.mark.parametrize(("name", "message"), BAD_NAMES.values(), ids=BAD_NAMES.keys())
@pytest.mark.parametrize(
    ("view", "field"),
    [("director-registration-bulk", "names"), ("director-registration-add", "name")],
    ids=["pasted list", "one name"],
)
def test_one_bad_name_is_refused_with_its_message(desk, tournament, view, field, name, message):
    response = desk.post(reverse(view, args=[tournament.pk]), {field: name})

    assert response.status_code == 400
    assert message in page(response)
    assert registered(tournament) == []
    assert not Player.objects.exists()


@pytest.mark.parametrize(("name", "message"), BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_a_bad_name_in_a_list_names_its_line_and_registers_nobody(desk, tournament, name, message):
    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]),
        {"names": f"Olena Koval\nTaras Shevchuk\n{name}\nIryna Bondar"},
    )

    assert response.status_code == 400
    assert "Line 3 (" in page(response) and message in page(response)
    assert registered(tournament) == []


def test_a_lone_surrogate_sent_by_a_browser_is_refused(desk, tournament):
    # Bytes that are no UTF-8 (here a lone surrogate's) arrive as replacement characters.
    for view, field in [
        ("director-registration-bulk", "names"),
        ("director-registration-add", "name"),
    ]:
        response = desk.post(
            reverse(view, args=[tournament.pk]),
            f"{field}=Ann%ED%A0%80",
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code == 400, view
        assert "could not be read" in page(response)
    assert not Player.objects.exists()


def test_a_csv_row_of_invisible_characters_is_refused(desk, tournament):
    upload = SimpleUploadedFile("players.csv", "name\nOlena\n\u200b\u200b\n".encode(), "text/csv")

    response = desk.post(
        reverse("director-registration-csv", args=[tournament.pk]), {"file": upload}
    )

    assert response.status_code == 400
    assert "Line 3 (" in page(response) and "no visible letters" in page(response)
    assert registered(tournament) == []


@pytest.mark.parametrize(
    "name",
    ["Олена Коваль", "Zoë O'Brien-Łukasz", "می\u200cخواهم", "Ірина 🃏", "李小龙"],
    ids=["cyrillic", "latin marks", "a joiner inside", "a symbol", "han"],
)
def test_real_names_of_every_script_are_still_registered(desk, tournament, name):
    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]), {"names": name}
    )

    assert response.status_code == 302
    assert registered(tournament) == [name]


def test_the_api_refuses_the_same_names(director, club):
    client = APIClient()
    client.force_login(director)
    player = PlayerFactory(club=club, name="Olena")
    for name, message in BAD_NAMES.values():
        response = client.post("/api/players/", {"club": club.pk, "name": name}, format="json")
        assert response.status_code == 400, name
        assert message in response.json()["name"][0] or "120" in response.json()["name"][0]
        response = client.patch(f"/api/players/{player.pk}/", {"name": name}, format="json")
        assert response.status_code == 400, name
    player.refresh_from_db()
    assert player.name == "Olena"
    assert Player.objects.count() == 1


# --------------------------------------------------------------------------- confirming a version
@pytest.mark.parametrize("version", ["²", "¹", "one", "", "0", "-1", "1e0"])
def test_a_version_that_is_not_a_number_is_refused(desk, playing, version):
    url = reverse("director-table-confirm", args=[playing.pk])

    response = desk.post(url, {"version": version})

    # As every refused button of the director's pages: back to the page, with the message.
    assert response.status_code == 302
    assert response["Location"] == reverse("director-table-result", args=[playing.pk])
    assert "Choose the version to confirm." in page(desk.get(response["Location"]))
    assert TableResult.objects.get(table=playing).status == TableResult.Status.SUBMITTED


def test_a_version_in_other_digits_still_confirms(desk, playing):
    # Django's number fields read every script's decimal digits: "١" is Arabic-Indic one.
    response = desk.post(reverse("director-table-confirm", args=[playing.pk]), {"version": "١"})

    assert response.status_code == 302
    assert TableResult.objects.get(table=playing).status == TableResult.Status.CONFIRMED


def test_a_version_that_is_not_the_current_one_is_explained(desk, playing):
    response = desk.post(
        reverse("director-table-confirm", args=[playing.pk]), {"version": "9" * 40}, follow=True
    )

    assert "Version 1 is the latest version of this result" in page(response)
    assert TableResult.objects.get(table=playing).status == TableResult.Status.SUBMITTED


# --------------------------------------------------------------------------- the sheet's row count
@pytest.mark.parametrize("add_rows", [False, True], ids=["save", "add rows"])
@pytest.mark.parametrize(
    "management",
    [
        {"rows-TOTAL_FORMS": "abc", "rows-INITIAL_FORMS": "0"},
        {"rows-TOTAL_FORMS": "²", "rows-INITIAL_FORMS": "0"},
        {"rows-TOTAL_FORMS": "3", "rows-INITIAL_FORMS": "x"},
        {"rows-INITIAL_FORMS": "0"},
        {},
    ],
    ids=["text", "superscript", "initial forms", "no total", "none"],
)
def test_a_garbled_row_count_is_refused_and_saves_nothing(desk, playing, management, add_rows):
    data = sheet_data(game_sheet(players=4, seed=1), expected_version=1)
    for key in ("rows-TOTAL_FORMS", "rows-INITIAL_FORMS"):
        data.pop(key)
    data.update(management)
    if add_rows:
        data["add_rows"] = "1"

    response = desk.post(reverse("director-table-result", args=[playing.pk]), data)

    assert response.status_code == 400
    assert "The sheet arrived damaged" in page(response)
    assert 'name="rows-TOTAL_FORMS"' in page(response)  # a fresh sheet to enter again
    assert ResultVersion.objects.filter(table=playing).count() == 1


@pytest.mark.parametrize("total", ["99999999999", "295", "300", "-5"])
def test_adding_rows_stops_at_the_largest_sheet(desk, playing, total):
    data = {"mode": "deals", "expected_version": "1", "note": "", "add_rows": "1"}
    data.update({"rows-TOTAL_FORMS": total, "rows-INITIAL_FORMS": "0"})

    response = desk.post(reverse("director-table-result", args=[playing.pk]), data)

    assert response.status_code == 200
    rows = min(max(int(total), 0) + 10, 300)
    assert f'name="rows-TOTAL_FORMS" value="{rows}"' in page(response)
    assert ResultVersion.objects.filter(table=playing).count() == 1


# --------------------------------------------------------------------------- the player's pages
@pytest.mark.parametrize("total", ["abc", "²", "-5", "99999999999", ""])
@pytest.mark.parametrize("view", ["table-sheet", "table-sheet-check"])
def test_a_players_sheet_with_a_garbled_row_count_is_answered(client, playing, view, total):
    player = playing.seats.get(position=1).registration.player
    player.user = UserFactory()
    player.save(update_fields=["user"])
    client.raise_request_exception = False
    client.force_login(player.user)

    response = client.post(
        reverse(view, args=[playing.pk]),
        {
            "mode": "deals",
            "expected_version": "1",
            "rows-TOTAL_FORMS": total,
            "rows-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code < 500
    assert ResultVersion.objects.filter(table=playing).count() == 1


def test_the_sheets_empty_row_for_scripts_can_be_built():
    formset = DealRowFormSet(form_kwargs={"seat_names": ["A", "B", "C"]})

    assert "rows-__prefix__-bid" in str(formset.empty_form["bid"])


def test_a_pasted_list_longer_than_any_list_is_refused_at_once(desk, tournament):
    names = "\n".join(f"Player {'x' * 150} {number}" for number in range(400))
    assert len(names) > NAMES_MAX_LENGTH

    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]), {"names": names}
    )

    assert response.status_code == 400
    assert f"at most {NAMES_MAX_LENGTH} characters" in page(response)
    assert registered(tournament) == []
