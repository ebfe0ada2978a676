"""Every number people type has a bound, with a message; numbers stored before do not break pages.

The bounds: placement points within plus or minus 10,000 each (`standings.ranking`), a sheet's
totals and every number typed into a sheet within plus or minus 1,000,000
(`scoring.score_sheet`), seeds below 2**62 (`tournaments.services`).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import TableResult
from scoring.score_sheet import MAX_TOTAL
from scoring.services import standings_recompute
from standings.ranking import MAX_PLACEMENT_POINTS
from tests.web.test_director_pages import tournament_data
from tests.web.test_public_pages import page_urls
from tournaments.models import Tournament
from tournaments.services import SEED_LIMIT

pytestmark = pytest.mark.django_db

ENORMOUS = 10**400
SHEET_LIMIT_MESSAGE = f"less than or equal to {MAX_TOTAL}"


def api_as(user) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False
    client.force_login(user)
    return client


def version_of(table) -> int:
    return TableResult.objects.get(table=table).version


# --------------------------------------------------------------------------- placement points
@pytest.mark.parametrize(
    "points",
    [ENORMOUS, MAX_PLACEMENT_POINTS + 1, -ENORMOUS],
    ids=["enormous", "just beyond", "enormous below"],
)
def test_placement_points_beyond_the_bound_are_refused_by_the_api(world, points):
    scheme = {"4": [max(points, 3), 2, 1, min(points, 0)]}

    response = api_as(world.director).patch(
        f"/api/tournaments/{world.public.pk}/", {"placement_points": scheme}, format="json"
    )

    assert response.status_code == 400
    assert "from -10000 to 10000" in response.json()["placement_points"][0]
    world.public.refresh_from_db()
    assert world.public.placement_points["4"] == [3, 2, 1, 0]


def test_placement_points_up_to_the_bound_are_taken(world):
    scheme = {"4": [MAX_PLACEMENT_POINTS, 2, 1, -MAX_PLACEMENT_POINTS]}

    response = api_as(world.director).patch(
        f"/api/tournaments/{world.public.pk}/", {"placement_points": scheme}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["placement_points"]["4"] == [10000, 2, 1, -10000]


def test_the_settings_form_takes_points_up_to_the_bound_and_names_it(world, client_as):
    desk = client_as("director")
    url = reverse("director-tournament-create")

    response = desk.post(url, tournament_data(name="Too Rich", points_4_1="10000.01"))
    assert response.status_code == 400
    assert "less than or equal to 10000" in response.content.decode()
    assert not Tournament.objects.filter(name="Too Rich").exists()

    response = desk.post(url, tournament_data(name="Rich", points_4_1="10000"))
    assert response.status_code == 302
    assert Tournament.objects.get(name="Rich").placement_points["4"] == [10000, 2, 1, 0]


def test_pages_of_a_tournament_stored_with_enormous_points_still_open(world, client_as):
    # Stored before the bound existed: scored as if capped, so every page still opens.
    Tournament.objects.filter(pk=world.public.pk).update(
        placement_points={"3": [3, 1.5, 0], "4": [ENORMOUS, 2, 1, -ENORMOUS]}
    )
    standings_recompute(tournament_id=world.public.pk)
    visitor = client_as("anonymous")

    for url in page_urls(world.public):
        assert visitor.get(url).status_code == 200, url
    assert visitor.get(f"/api/tournaments/{world.public.pk}/standings/").status_code == 200
    director = client_as("director")
    assert director.get(reverse("director-round", args=[world.public_round.pk])).status_code == 200
    edit = director.get(reverse("director-tournament-edit", args=[world.public.pk]))
    assert edit.status_code == 200


# --------------------------------------------------------------------------- totals and sheets
@pytest.fixture
def quick(world):
    Tournament.objects.filter(pk=world.public.pk).update(quick_results_allowed=True)
    return world.waiting_table  # version 1 waits for confirmation


@pytest.mark.parametrize(
    "total", [10**4299, MAX_TOTAL + 5, -(10**30)], ids=["enormous", "just beyond", "below"]
)
def test_totals_beyond_the_bound_are_refused_by_the_api(world, quick, total):
    sheet = {"mode": "totals", "totals": [total, 1005, 0, 0], "winner": 1}

    response = api_as(world.director).post(
        f"/api/tables/{quick.pk}/results/",
        {"sheet": sheet, "expected_version": 1, "confirm": True},
        format="json",
    )

    assert response.status_code == 400
    assert "seat 1's total must be from -1000000 to 1000000" in response.json()["sheet"]
    assert version_of(quick) == 1


def test_totals_within_the_bound_are_taken(world, quick):
    sheet = {"mode": "totals", "totals": [MAX_TOTAL, 420, -35, -MAX_TOTAL], "winner": None}

    response = api_as(world.director).post(
        f"/api/tables/{quick.pk}/results/",
        {"sheet": sheet, "expected_version": 1, "confirm": True},
        format="json",
    )

    assert response.status_code == 201, response.content


def test_the_directors_totals_form_names_the_bound(world, quick, client_as):
    data = {"mode": "totals", "expected_version": "1", "note": "", "winner": ""}
    data.update(total_0=str(10**4299), total_1="1005", total_2="0", total_3="0")

    response = client_as("director").post(reverse("director-table-result", args=[quick.pk]), data)

    assert response.status_code == 200
    assert SHEET_LIMIT_MESSAGE in response.content.decode()
    assert version_of(quick) == 1


def test_the_directors_deal_rows_name_the_bound(world, client_as):
    table = world.waiting_table
    data = {"mode": "deals", "expected_version": "1", "note": ""}
    data.update({"rows-TOTAL_FORMS": "1", "rows-INITIAL_FORMS": "0", "rows-0-dealer": "0"})
    data.update({"rows-0-declarer": "1", "rows-0-bid": "1" + "0" * 50, "rows-0-outcome": "made"})
    data.update({f"rows-0-score_{seat}": "0" for seat in range(4)})

    response = client_as("director").post(reverse("director-table-result", args=[table.pk]), data)

    assert response.status_code == 200
    assert SHEET_LIMIT_MESSAGE in response.content.decode()
    assert version_of(table) == 1


def test_a_players_totals_beyond_the_bound_are_refused(world, quick, client_as):
    data = {"mode": "totals", "expected_version": "1", "winner": ""}
    data.update(total_0="999999995", total_1="1005", total_2="0", total_3="0")

    response = client_as("player").post(reverse("table-sheet", args=[quick.pk]), data)

    assert response.status_code == 200
    # The form names the bound (the engine's "'totals' must be from ..." would say it again).
    assert "less than or equal to 1000000" in response.content.decode()
    assert version_of(quick) == 1


# --------------------------------------------------------------------------- seeds
def test_a_seed_beyond_the_bound_is_refused_by_the_api(world):
    url = f"/api/rounds/{world.fresh_round.pk}/redraw/"

    response = api_as(world.director).post(url, {"seed": SEED_LIMIT}, format="json")

    assert response.status_code == 400
    assert response.json()["seed"]
    world.fresh_round.refresh_from_db()
    assert world.fresh_round.seed == 5
    response = api_as(world.director).post(url, {"seed": SEED_LIMIT - 1}, format="json")
    assert response.status_code == 200, response.content
