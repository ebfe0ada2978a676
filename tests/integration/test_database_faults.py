"""The database connection dropped in the middle of a result submission: all or nothing.

PostgreSQL itself ends the request's connection (pg_terminate_backend, as a restart or a network
cut would) at several points inside the submission's transaction. Each time the client gets a
clear 503, nothing of the submission is stored, and sending it again stores it exactly once.
"""

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from draws import services as draw_services
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from tests.factories import game_sheet
from tests.integration.conftest import shared_database_url
from tests.integration.driver import club_with_players
from tournaments.models import Tournament

pytestmark = pytest.mark.integration

TOTALS = {"total_0": 1010, "total_1": 640, "total_2": 330, "total_3": -20}


def drop_this_connection() -> None:
    """Have the server end this process's database session, from another session."""
    pid = connection.connection.info.backend_pid
    with psycopg.connect(shared_database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def table(transactional_db):
    tournament, director, _players = club_with_players(
        count=4,
        bots_allowed=False,
        round_format=Tournament.RoundFormat.GAME,
        deals_per_round=None,
        quick_results_allowed=True,
    )
    round_ = draw_services.round_draw(actor=director, tournament=tournament)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get()


def _after(original, effect):
    def wrapper(*args, **kwargs):
        value = original(*args, **kwargs)
        effect()
        return value

    return wrapper


def _before(original, effect):
    def wrapper(*args, **kwargs):
        effect()
        return original(*args, **kwargs)

    return wrapper


FAULT_POINTS = {
    # The result row is locked and the sheet checked; nothing written yet.
    "after the lock": lambda mp: mp.setattr(
        scoring_services,
        "validate_sheet_for_table",
        _after(scoring_services.validate_sheet_for_table, drop_this_connection),
    ),
    # The new version row is written; the result row is not updated yet.
    "after the version row": lambda mp: mp.setattr(
        ResultVersion.objects,
        "create",
        _after(ResultVersion.objects.create, drop_this_connection),
    ),
    # Everything written but the confirmation.
    "before the confirmation": lambda mp: mp.setattr(
        scoring_services, "_confirm", _before(scoring_services._confirm, drop_this_connection)
    ),
}


def _nothing_stored(table) -> None:
    connection.close()  # the next request would open a new connection the same way
    assert ResultVersion.objects.filter(table=table).count() == 0
    result = TableResult.objects.get(table=table)
    assert (result.version, result.status) == (0, TableResult.Status.PENDING)


@pytest.mark.parametrize("point", FAULT_POINTS)
def test_an_api_submission_is_stored_whole_or_refused_with_503(table, monkeypatch, point):
    director = table.round.tournament.club.directors.get()
    client = APIClient()
    client.force_authenticate(director)
    payload = {"sheet": game_sheet(players=4, seed=3), "expected_version": 0, "confirm": True}

    with monkeypatch.context() as patched:
        FAULT_POINTS[point](patched)
        response = client.post(f"/api/tables/{table.pk}/results/", payload, format="json")
    assert response.status_code == 503, response.content
    assert "nothing was saved" in response.json()["detail"]
    _nothing_stored(table)

    again = client.post(f"/api/tables/{table.pk}/results/", payload, format="json")
    assert again.status_code == 201, again.content
    versions = ResultVersion.objects.filter(table=table)
    assert versions.count() == 1
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED
    # The same submission sent a third time is refused as stale, not stored twice.
    third = client.post(f"/api/tables/{table.pk}/results/", payload, format="json")
    assert third.status_code == 409
    assert versions.count() == 1


def test_a_result_page_says_nothing_was_saved_when_the_connection_drops(table, client, monkeypatch):
    director = table.round.tournament.club.directors.get()
    client.force_login(director)
    form = {"mode": "totals", "expected_version": 0, "note": "", "winner": ""} | TOTALS
    with monkeypatch.context() as patched:
        FAULT_POINTS["after the version row"](patched)
        response = client.post(f"/manage/tables/{table.pk}/result/", form)
    assert response.status_code == 503
    assert b"nothing was saved" in response.content
    _nothing_stored(table)

    client.force_login(director)
    again = client.post(f"/manage/tables/{table.pk}/result/", form)
    assert again.status_code == 302
    assert ResultVersion.objects.filter(table=table).count() == 1
