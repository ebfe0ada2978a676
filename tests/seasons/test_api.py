"""The seasons API: a director creates a season and puts tournaments into it; everyone reads the
season's table and a player's rating; bad numbers are a clear 400."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from seasons import services
from seasons.models import PlayerRating

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def test_a_director_builds_a_season_and_everyone_reads_its_table(
    api, club, play_tournament, django_capture_on_commit_callbacks
):
    tournament = play_tournament(date=datetime.date(2026, 2, 1))
    created = api.post(
        "/api/seasons/",
        {
            "club": club.pk,
            "name": "Spring",
            "starts_on": "2026-01-01",
            "ends_on": "2026-06-30",
            "scoring": "placement_points",
            "best_count": 3,
            "placement_points": [10, 6, 4, 2],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    season_id = created.json()["id"]

    with django_capture_on_commit_callbacks(execute=True):
        added = api.post(
            f"/api/seasons/{season_id}/tournaments/",
            {"tournament": tournament.pk, "included": True},
            format="json",
        )
    assert added.status_code == 200

    table = APIClient().get(f"/api/seasons/{season_id}/standings/").json()
    assert [t["id"] for t in table["tournaments"]] == [tournament.pk]
    assert len(table["rows"]) == 8
    assert table["rows"][0]["season_points"] == 10


def test_a_players_rating_and_its_history(club, players, play_tournament):
    tournament = play_tournament()

    answer = APIClient().get(f"/api/players/{players[0].pk}/rating/").json()

    rating = PlayerRating.objects.get(player=players[0])
    assert answer["rating"] == pytest.approx(rating.conservative)
    assert answer["tables"] == 2
    assert [point["tournament"] for point in answer["history"]] == [tournament.pk]


@pytest.mark.parametrize(
    "changes",
    [
        {"best_count": 0},
        {"best_count": 10**9},
        {"placement_points": [-1]},
        {"placement_points": [1e300]},
        {"placement_points": list(range(500))},
        {"placement_points": [1, 5]},
        {"precedence": ["random", "season_points"]},
        {"precedence": ["elo"]},
        {"name": "x" * 500},
        {"ends_on": "2025-01-01"},
        {"ends_on": "9999-12-31"},
        {"scoring": "goals"},
    ],
)
def test_bad_numbers_and_rules_are_a_clear_400(api, director, club, changes):
    season = services.season_create(
        actor=director,
        club=club,
        name="Spring",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )

    response = api.patch(f"/api/seasons/{season.pk}/", changes, format="json")

    assert response.status_code == 400, response.content
