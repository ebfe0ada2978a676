"""A table's result counts only as the club would expect: a live table's comes from its game, a
finished tournament's results stay as they were, and a result the director entered or confirmed
is changed only with the director.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client

from draws import services as draw_services
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def api(user) -> Client:
    client = Client()
    client.raise_request_exception = False
    client.force_login(user)
    return client


def submit(user, table, sheet, version):
    return api(user).post(
        f"/api/tables/{table.pk}/results/",
        json.dumps({"sheet": sheet, "expected_version": version}),
        content_type="application/json",
    )


def review(user, table, number, what="confirm", note="Deal 2 is wrong."):
    return api(user).post(
        f"/api/tables/{table.pk}/results/{number}/{what}/",
        json.dumps({"note": note}),
        content_type="application/json",
    )


def users_at(table):
    return [seat.registration.player.user for seat in table.seats.order_by("position")]


@pytest.fixture
def evening():
    """One round of one table of four, published, in a tournament of one round."""
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="One table",
        date=datetime.date(2026, 12, 4),
        rounds_planned=1,
    )
    for number in range(4):
        PlayerFactory(club=club, user=UserFactory(), name=f"Player {number}")
    services.registration_create_from_names(
        actor=director, tournament=tournament, names=[f"Player {n}" for n in range(4)]
    )
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=1)
    round_ = draw_services.round_publish(actor=director, round_=round_)
    return director, tournament, round_.tables.get()


# --------------------------------------------------------------------------- live tables
def test_players_of_a_live_table_cannot_replace_the_games_result(world):
    seated = [user for user in world.live_seated.values() if user is not None]
    sheet = game_sheet(players=4, seed=5)

    response = submit(seated[0], world.live_table, sheet, 0)

    assert response.status_code == 400
    assert "played live" in json.dumps(response.json())
    assert not ResultVersion.objects.filter(table=world.live_table).exists()
    page = api(seated[0]).get(f"/tables/{world.live_table.pk}/sheet/").content.decode()
    assert 'name="rows-0-bid"' not in page and "played live" in page


def test_a_table_mate_cannot_make_a_typed_sheet_count_at_a_live_table(world):
    # A sheet a director typed at the live table (say, while the game stalled) waits.
    scoring_services.result_submit(
        actor=world.director,
        table=world.live_table,
        sheet=game_sheet(players=4),
        expected_version=0,
    )
    seated = [user for user in world.live_seated.values() if user is not None]

    assert review(seated[0], world.live_table, 1).status_code == 400
    assert review(seated[1], world.live_table, 1, "dispute").status_code == 400

    result = TableResult.objects.get(table=world.live_table)
    assert result.confirmed is None and result.status == TableResult.Status.SUBMITTED


# --------------------------------------------------------------------------- finished
def test_finishing_waits_for_a_pending_correction(evening):
    director, tournament, table = evening
    enter_confirmed_result(table, seed=1)
    first, second, *_ = users_at(table)
    assert submit(first, table, game_sheet(players=4, seed=9), 1).status_code == 201

    with pytest.raises(Exception) as refused:
        services.tournament_finish(actor=director, tournament=tournament)

    assert "round 1 table 1" in str(refused.value)
    tournament.refresh_from_db()
    assert tournament.status != Tournament.Status.FINISHED
    # The director settles it (the correction needs him: he entered the result), then finishes.
    assert review(director, table, 2).status_code == 200
    services.tournament_finish(actor=director, tournament=tournament)


def test_once_finished_players_neither_submit_confirm_nor_dispute(evening):
    director, tournament, table = evening
    enter_confirmed_result(table, seed=1)
    services.tournament_finish(actor=director, tournament=tournament)
    # Only a director corrects a finished tournament; his correction waits for his own word.
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=3), expected_version=1
    )
    first, second, *_ = users_at(table)

    assert submit(first, table, game_sheet(players=4, seed=4), 2).status_code == 400
    assert review(second, table, 2).status_code == 400
    assert review(second, table, 2, "dispute").status_code == 400

    result = TableResult.objects.get(table=table)
    assert result.version == 2 and result.confirmed.number == 1


# --------------------------------------------------------------------------- the director's word
def test_a_correction_of_the_directors_result_needs_the_director(evening):
    director, _tournament, table = evening
    enter_confirmed_result(table, seed=1)
    first, second, *_ = users_at(table)
    assert submit(first, table, game_sheet(players=4, seed=7), 1).status_code == 201

    refused = review(second, table, 2)

    assert refused.status_code == 403
    assert "only a director" in refused.json()["detail"]
    assert TableResult.objects.get(table=table).confirmed.number == 1
    page = api(second).get(f"/tables/{table.pk}/sheet/").content.decode()
    assert "Confirm this result" not in page and "only a director may accept" in page
    assert review(director, table, 2).status_code == 200
    assert TableResult.objects.get(table=table).confirmed.number == 2


def test_a_correction_of_a_result_players_confirmed_is_confirmed_by_a_table_mate(evening):
    _director, _tournament, table = evening
    first, second, third, _fourth = users_at(table)
    assert submit(first, table, game_sheet(players=4, seed=1), 0).status_code == 201
    assert review(second, table, 1).status_code == 200
    assert submit(third, table, game_sheet(players=4, seed=2), 1).status_code == 201

    assert review(first, table, 2).status_code == 200
    assert TableResult.objects.get(table=table).confirmed.number == 2
