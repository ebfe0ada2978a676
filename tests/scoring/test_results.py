"""Submitting, confirming, disputing and correcting table results, and the standings they feed."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from core.exceptions import Conflict
from draws import services as draw_services
from scoring import selectors
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from scoring.services import (
    result_confirm,
    result_dispute,
    result_submit,
    standings_catch_up,
    standings_recompute,
)
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def round_of_eight(director):
    """A published round of 8 players with logins at two tables of 4."""
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Friday", date=datetime.date(2026, 12, 4)
    )
    for _ in range(8):
        player = PlayerFactory(club=club, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    return draw_services.round_publish(actor=director, round_=round_)


def players_at(table):
    return [seat.registration.player.user for seat in table.seats.order_by("position")]


def test_a_player_submits_and_a_table_mate_confirms(
    round_of_eight, django_capture_on_commit_callbacks
):
    table = round_of_eight.tables.get(number=1)
    first, second, *_ = players_at(table)

    version = result_submit(
        actor=first, table=table, sheet=game_sheet(players=4), expected_version=0
    )
    assert version.status == ResultVersion.Status.SUBMITTED
    assert selectors.standings_latest(round_of_eight.tournament) is None

    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(actor=second, table=table, version_number=1)

    result = TableResult.objects.get(table=table)
    assert result.status == TableResult.Status.CONFIRMED and result.confirmed.number == 1
    snapshot = selectors.standings_latest(round_of_eight.tournament)
    assert snapshot.version == 1
    ranked = {row["registration"]: row for row in snapshot.rows}
    assert len(ranked) == 8
    winner_seat = table.seats.get(position=version.winner_position)
    assert ranked[winner_seat.registration_id]["games_won"] == 1
    assert sorted(row["tournament_points"] for row in snapshot.rows) == [0, 0, 0, 0, 0, 1, 2, 3]


def test_only_players_of_the_table_or_directors_enter_results(round_of_eight):
    table = round_of_eight.tables.get(number=1)
    stranger = players_at(round_of_eight.tables.get(number=2))[0]

    with pytest.raises(PermissionDenied):
        result_submit(actor=stranger, table=table, sheet=game_sheet(players=4), expected_version=0)
    with pytest.raises(PermissionDenied):
        result_submit(
            actor=players_at(table)[0],
            table=table,
            sheet=game_sheet(players=4),
            expected_version=0,
            confirm=True,
        )


def test_nobody_confirms_his_own_sheet_except_a_director(round_of_eight, director):
    table = round_of_eight.tables.get(number=1)
    submitter = players_at(table)[0]
    result_submit(actor=submitter, table=table, sheet=game_sheet(players=4), expected_version=0)

    with pytest.raises(PermissionDenied, match="Another player"):
        result_confirm(actor=submitter, table=table, version_number=1)
    assert result_confirm(actor=director, table=table, version_number=1).status == "confirmed"


def test_a_second_writer_with_a_stale_version_gets_a_conflict(round_of_eight):
    table = round_of_eight.tables.get(number=1)
    first, second, *_ = players_at(table)
    result_submit(actor=first, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0)

    with pytest.raises(Conflict):
        result_submit(
            actor=second, table=table, sheet=game_sheet(players=4, seed=2), expected_version=0
        )
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_a_correction_is_a_new_version_and_the_old_one_counts_until_confirmed(
    round_of_eight, django_capture_on_commit_callbacks
):
    table = round_of_eight.tables.get(number=1)
    first, second, third, _ = players_at(table)
    result_submit(actor=first, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0)
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(actor=second, table=table, version_number=1)

    result_submit(actor=third, table=table, sheet=game_sheet(players=4, seed=2), expected_version=1)
    result = TableResult.objects.get(table=table)
    assert (result.status, result.confirmed.number) == ("submitted", 1)

    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(actor=first, table=table, version_number=2)

    trail = list(selectors.result_history(table))
    assert [(v.number, v.status, v.submitted_by) for v in trail] == [
        (1, "superseded", first),
        (2, "confirmed", third),
    ]
    assert trail[1].reviewed_by == first and trail[1].reviewed_at is not None
    assert selectors.standings_latest(round_of_eight.tournament).version == 2


def test_a_bad_sheet_is_refused_naming_the_row_and_nothing_is_stored(round_of_eight):
    table = round_of_eight.tables.get(number=1)
    sheet = game_sheet(players=4)
    sheet["rows"][2]["scores"][sheet["rows"][2]["declarer"]] += 5

    with pytest.raises(ValidationError) as refused:
        result_submit(actor=players_at(table)[0], table=table, sheet=sheet, expected_version=0)

    assert any(message.startswith("row 3:") for message in refused.value.message_dict["sheet"])
    assert not ResultVersion.objects.exists()
    assert TableResult.objects.get(table=table).version == 0


def test_a_disputed_sheet_waits_for_the_director(round_of_eight, director):
    table = round_of_eight.tables.get(number=1)
    first, second, *_ = players_at(table)
    result_submit(actor=first, table=table, sheet=game_sheet(players=4), expected_version=0)

    result_dispute(actor=second, table=table, version_number=1, note="Deal 4 was 120, not 110")

    assert TableResult.objects.get(table=table).status == "disputed"
    with pytest.raises(ValidationError, match="disputed"):
        result_confirm(actor=players_at(table)[2], table=table, version_number=1)
    assert result_confirm(actor=director, table=table, version_number=1).status == "confirmed"


def test_final_totals_alone_only_when_the_tournament_allows(round_of_eight, director):
    table = round_of_eight.tables.get(number=1)
    totals = {"mode": "totals", "totals": [1005, 600, 300, 20]}
    with pytest.raises(ValidationError, match="deal by deal"):
        result_submit(actor=director, table=table, sheet=totals, expected_version=0)

    services.tournament_update(
        actor=director, tournament=round_of_eight.tournament, quick_results_allowed=True
    )
    version = result_submit(actor=director, table=table, sheet=totals, expected_version=0)
    assert version.placements == [1, 2, 3, 4]


def test_the_round_finishes_with_its_last_confirmed_table(round_of_eight, director):
    for table in round_of_eight.tables.all():
        result_submit(
            actor=director,
            table=table,
            sheet=game_sheet(players=4),
            expected_version=0,
            confirm=True,
        )
    round_of_eight.refresh_from_db()
    assert round_of_eight.status == Round.Status.FINISHED


def test_a_recomputation_of_a_stored_version_does_nothing(round_of_eight, director):
    table = round_of_eight.tables.get(number=1)
    result_submit(
        actor=director, table=table, sheet=game_sheet(players=4), expected_version=0, confirm=True
    )
    tournament_id = round_of_eight.tournament_id

    first = standings_recompute(tournament_id=tournament_id)
    again = standings_recompute(tournament_id=tournament_id)

    assert first is not None and again is None
    assert StandingsSnapshot.objects.filter(tournament_id=tournament_id).count() == 1


def test_standings_a_lost_task_left_behind_are_caught_up_once(round_of_eight, director):
    # The confirmation's on-commit computation never runs inside a test's transaction: the same
    # as a task lost with a restarted broker.
    table = round_of_eight.tables.get(number=1)
    result_submit(
        actor=director, table=table, sheet=game_sheet(players=4), expected_version=0, confirm=True
    )
    tournament_id = round_of_eight.tournament_id
    assert not StandingsSnapshot.objects.filter(tournament_id=tournament_id).exists()

    assert standings_catch_up() == 1
    assert standings_catch_up() == 0
    snapshot = StandingsSnapshot.objects.get(tournament_id=tournament_id)
    assert (
        snapshot.version
        == round_of_eight.tournament.__class__.objects.get(pk=tournament_id).results_version
    )


def test_every_write_of_a_result_stamps_when_it_changed(round_of_eight, director):
    # `updated_at` is a default, not auto_now (an archive's import keeps the archived time), so
    # each write of the services stamps it.
    table = round_of_eight.tables.get(number=1)
    first, second, *_ = players_at(table)
    opened = TableResult.objects.get(table=table).updated_at

    result_submit(actor=first, table=table, sheet=game_sheet(players=4), expected_version=0)
    submitted = TableResult.objects.get(table=table).updated_at
    result_dispute(actor=second, table=table, version_number=1, note="Deal 4 was 120, not 110")
    disputed = TableResult.objects.get(table=table).updated_at
    result_confirm(actor=director, table=table, version_number=1)
    confirmed = TableResult.objects.get(table=table).updated_at

    assert opened < submitted < disputed < confirmed
