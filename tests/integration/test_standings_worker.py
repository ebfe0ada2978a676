"""A confirmation reaches the standings through a real Celery worker on Redis and PostgreSQL."""

import datetime

import pytest

from draws import services as draw_services
from scoring.models import StandingsSnapshot
from scoring.services import result_confirm, result_submit
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tests.integration.driver import wait_until
from tournaments import services

pytestmark = pytest.mark.integration


def published_round(players: int):
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Integration cup", date=datetime.date(2026, 12, 1)
    )
    for _ in range(players):
        player = PlayerFactory(club=club, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    return director, draw_services.round_publish(actor=director, round_=round_)


def test_the_worker_stores_standings_after_a_confirmation(celery_worker_process):
    _, round_ = published_round(8)
    table = round_.tables.get(number=1)
    first, second = (seat.registration.player.user for seat in table.seats.order_by("position")[:2])
    result_submit(actor=first, table=table, sheet=game_sheet(players=4), expected_version=0)
    assert not StandingsSnapshot.objects.exists()

    result_confirm(actor=second, table=table, version_number=1)

    snapshot = wait_until(
        lambda: StandingsSnapshot.objects.filter(version=1).first(), seconds=30, what="snapshot"
    )
    assert snapshot is not None, "the worker stored no standings"
    assert len(snapshot.rows) == 8
    assert sum(row["tournament_points"] for row in snapshot.rows) == 6  # 3 + 2 + 1 + 0


def test_a_burst_of_confirmations_ends_in_one_snapshot_per_version_at_most(celery_worker_process):
    director, round_ = published_round(16)
    for table in round_.tables.order_by("number"):
        result_submit(
            actor=director,
            table=table,
            sheet=game_sheet(players=4, seed=table.number),
            expected_version=0,
            confirm=True,
        )
    tournament = round_.tournament
    tournament.refresh_from_db()
    assert tournament.results_version == 4

    latest = wait_until(
        lambda: StandingsSnapshot.objects.filter(version=4).first(), seconds=30, what="snapshot"
    )
    assert latest is not None
    versions = list(
        StandingsSnapshot.objects.filter(tournament=tournament).values_list("version", flat=True)
    )
    assert len(versions) == len(set(versions)) <= 4
    assert sum(row["games_played"] for row in latest.rows) == 16
