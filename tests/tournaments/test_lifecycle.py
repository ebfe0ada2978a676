"""A tournament's life: finishing (early only with a reason that names what is missing),
reopening and deleting an empty tournament, each recorded in its audit trail."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from draws import services as draw_services
from gameplay import services as gameplay_services
from gameplay.models import LiveGame
from scoring import services as scoring_services
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import selectors, services
from tournaments.models import Player, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


def tournament_of(director, club, *, players=8, rounds=3):
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Вечірній турнір",
        date=datetime.date(2026, 12, 5),
        rounds_planned=rounds,
    )
    for player in PlayerFactory.create_batch(players, club=club):
        services.registration_create(actor=director, tournament=tournament, player=player)
    return tournament


def published_round(director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    return draw_services.round_publish(actor=director, round_=round_)


def refusal(call) -> ValidationError:
    with pytest.raises(ValidationError) as refused:
        call()
    return refused.value


# --------------------------------------------------------------------------- finish
def test_a_tournament_where_nothing_was_played_is_not_finished_but_may_be_deleted(director, club):
    tournament = tournament_of(director, club, players=0, rounds=5)

    error = refusal(
        lambda: services.tournament_finish(actor=director, tournament=tournament, note="x")
    )

    assert "Nothing was played" in error.messages[0] and "delete it" in error.messages[0]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT
    assert not tournament.events.exists()


def test_finishing_early_names_what_is_missing_and_asks_for_a_reason(director, club):
    tournament = tournament_of(director, club, rounds=5)
    round_ = published_round(director, tournament)
    first, second = round_.tables.order_by("number")
    enter_confirmed_result(first, seed=1)
    scoring_services.result_submit(
        actor=director, table=second, sheet=game_sheet(players=4, seed=2), expected_version=0
    )

    gaps = selectors.tournament_finish_gaps(tournament)
    assert gaps == [
        "4 rounds of 5 are not drawn (rounds 2 to 5).",
        "Round 1 is not finished.",
        "Table 2 of round 1 waits for its result to be confirmed.",
    ]
    error = refusal(lambda: services.tournament_finish(actor=director, tournament=tournament))
    assert error.message_dict == {
        "note": ["The tournament is not complete: say why you finish it now."]
    }
    error = refusal(
        lambda: services.tournament_finish(actor=director, tournament=tournament, note="x" * 1001)
    )
    assert "at most 1000 characters" in error.message_dict["note"][0]

    services.tournament_finish(
        actor=director, tournament=tournament, note="  The hall   closes at 23:00. "
    )

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    event = tournament.events.get()
    assert (event.kind, event.actor, event.note) == (
        TournamentEvent.Kind.FINISHED,
        director,
        "The hall closes at 23:00.",
    )
    assert event.details["missing"] == gaps


def test_the_missing_rounds_and_tables_are_counted_in_words(director, club):
    tournament = tournament_of(director, club, rounds=2)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    assert selectors.tournament_finish_gaps(tournament) == [
        "Round 2 of 2 is not drawn.",
        "Round 1 is drawn but not published.",
    ]
    draw_services.round_publish(actor=director, round_=round_)
    first, second = round_.tables.order_by("number")
    enter_confirmed_result(first, seed=1)
    assert selectors.tournament_finish_gaps(tournament)[-1] == (
        "Table 2 of round 1 has no confirmed result."
    )


def test_a_complete_tournament_finishes_without_a_reason_and_it_is_recorded(
    director, club, finish_round
):
    tournament = tournament_of(director, club, rounds=1)
    finish_round(published_round(director, tournament))

    assert selectors.tournament_finish_gaps(tournament) == []
    services.tournament_finish(actor=director, tournament=tournament)

    event = tournament.events.get()
    assert (event.kind, event.note, event.details) == ("finished", "", {"missing": []})


def test_only_the_clubs_directors_finish_reopen_or_delete(director, club, finish_round):
    tournament = tournament_of(director, club, rounds=1)
    finish_round(published_round(director, tournament))
    outsider = UserFactory()
    ClubFactory(directors=[outsider])

    with pytest.raises(PermissionDenied):
        services.tournament_finish(actor=outsider, tournament=tournament)
    services.tournament_finish(actor=director, tournament=tournament)
    with pytest.raises(PermissionDenied):
        services.tournament_reopen(actor=outsider, tournament=tournament, note="why not")
    with pytest.raises(PermissionDenied):
        services.tournament_delete(actor=outsider, tournament=tournament)


# --------------------------------------------------------------------------- reopen
def test_a_finished_tournament_is_reopened_with_a_reason(director, club, finish_round):
    tournament = tournament_of(director, club, rounds=2)
    finish_round(published_round(director, tournament))
    services.tournament_finish(actor=director, tournament=tournament, note="Late hour")

    error = refusal(
        lambda: services.tournament_reopen(actor=director, tournament=tournament, note=" ")
    )
    assert error.message_dict == {"note": ["Say why you reopen the tournament."]}

    services.tournament_reopen(
        actor=director, tournament=tournament, note="Round 2 is played next Friday"
    )

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert list(tournament.events.values_list("kind", "note")) == [
        ("finished", "Late hour"),
        ("reopened", "Round 2 is played next Friday"),
    ]
    # Running again: the next round can be drawn.
    assert draw_services.round_draw(actor=director, tournament=tournament).number == 2


def test_a_tournament_that_is_not_finished_is_not_reopened(director, club):
    tournament = tournament_of(director, club)
    error = refusal(
        lambda: services.tournament_reopen(actor=director, tournament=tournament, note="x")
    )
    assert error.messages == ["Only a finished tournament can be reopened."]


# --------------------------------------------------------------------------- delete
def test_an_empty_tournament_is_deleted_and_its_players_stay_in_the_club(director, club):
    tournament = tournament_of(director, club, players=4)
    draw_services.round_draw(actor=director, tournament=tournament, seed=1)  # a draft round too

    name = services.tournament_delete(actor=director, tournament=tournament)

    assert name.startswith("Вечірній турнір")
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert Player.objects.filter(club=club).count() == 4


def test_a_tournament_with_a_score_sheet_is_not_deleted(director, club):
    tournament = tournament_of(director, club, players=4)
    table = published_round(director, tournament).tables.get()
    # A sheet waiting for confirmation is something played, although nothing counts yet.
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=2), expected_version=0
    )

    error = refusal(lambda: services.tournament_delete(actor=director, tournament=tournament))

    assert "cannot be deleted" in error.messages[0] and "Finish it instead" in error.messages[0]
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_tournament_with_a_live_table_in_play_is_not_deleted_one_not_started_is(director, club):
    tournament = tournament_of(director, club, players=4)
    table = published_round(director, tournament).tables.get()
    game = gameplay_services.live_game_create_for_table(actor=director, table=table)
    assert not selectors.tournament_play_recorded(tournament)

    LiveGame.objects.filter(pk=game.pk).update(sequence=3)  # three moves were made

    refusal(lambda: services.tournament_delete(actor=director, tournament=tournament))
    LiveGame.objects.filter(pk=game.pk).update(sequence=0)
    services.tournament_delete(actor=director, tournament=tournament)
    assert not LiveGame.objects.filter(pk=game.pk).exists()
