"""The standings seat draw seeds round 1 by the players' club ratings (issue 18)."""

from __future__ import annotations

import datetime

import pytest

from draws.services import round_draw
from seasons.models import PlayerRating
from seasons.selectors import registrations_by_rating
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def test_round_1_of_a_standings_draw_seats_the_best_rated_together(
    play_tournament, director, club, players
):
    play_tournament(date=datetime.date(2026, 2, 1), rounds=3)
    ranked = [
        rating.player_id
        for rating in sorted(PlayerRating.objects.all(), key=lambda r: -r.conservative)
    ]
    newcomer = PlayerFactory(club=club, name="Newcomer")
    tournament = TournamentFactory(
        club=club, date=datetime.date(2026, 3, 1), seating_mode="standings", rounds_planned=3
    )
    # Registered in the reverse order of their ratings, the newcomer first.
    field = [newcomer] + [p for p in reversed(players) if p.pk in ranked[:7]]
    for number, player in enumerate(field, start=1):
        RegistrationFactory(tournament=tournament, player=player, start_number=number)

    order = registrations_by_rating(
        list(tournament.registrations.order_by("start_number").values_list("pk", flat=True))
    )
    by_player = {r.pk: r.player_id for r in tournament.registrations.all()}
    assert [by_player[pk] for pk in order] == ranked[:7] + [newcomer.pk]

    round_ = round_draw(actor=director, tournament=tournament, seed=5)

    tables = [
        {seat.registration.player_id for seat in table.seats.select_related("registration")}
        for table in round_.tables.order_by("number")
    ]
    assert set(ranked[:4]) in tables
