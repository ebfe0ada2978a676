"""A club with a director and a finished public tournament of eight players (two rounds)."""

from __future__ import annotations

import datetime

import pytest

from draws.services import round_draw, round_publish
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.services import tournament_finish


@pytest.fixture
def director(db):
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def players(club):
    return [PlayerFactory(club=club, name=f"Player {n:02d}") for n in range(1, 9)]


@pytest.fixture
def play_tournament(director, club, players, finish_round, django_capture_on_commit_callbacks):
    """A tournament of the club's players, `rounds` rounds played and confirmed, then finished."""

    def play(*, date=datetime.date(2026, 3, 1), rounds=2, finish=True, field=None, **fields):
        tournament = TournamentFactory(club=club, date=date, rounds_planned=rounds, **fields)
        for number, player in enumerate(field or players, start=1):
            RegistrationFactory(tournament=tournament, player=player, start_number=number)
        for _ in range(rounds):
            round_ = round_draw(actor=director, tournament=tournament)
            round_publish(actor=director, round_=round_)
            finish_round(round_)
        if finish:
            with django_capture_on_commit_callbacks(execute=True):
                tournament_finish(actor=director, tournament=tournament)
        tournament.refresh_from_db()
        return tournament

    return play
