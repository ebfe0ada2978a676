"""Live tables for the gameplay tests, and a scripted human who plays random legal actions."""

import datetime
import random

import pytest

from draws import services as draw_services
from gameplay import selectors, services
from gameplay.models import LiveGame
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services as tournament_services


def human_choice(legal: list[dict], rng: random.Random) -> dict:
    """A random legal action of a careful human: he mostly passes, names the bid, never concedes.

    Purely random play bids high and fails, so the totals drift below zero and a game never
    reaches 1001; this human lets the game end while still choosing at random.
    """
    kinds = {action["type"] for action in legal}
    if "pass" in kinds and rng.random() < 0.8:
        return next(action for action in legal if action["type"] == "pass")
    if "contract" in kinds:
        return min(
            (action for action in legal if action["type"] == "contract"),
            key=lambda action: action["value"],
        )
    choices = [action for action in legal if action["type"] != "concede"] or legal
    return rng.choice(choices)


def play_as_human(game: LiveGame, user, rng: random.Random) -> bool:
    """Make `user`'s move if it is his turn; whether he moved."""
    game.refresh_from_db()
    view = selectors.live_game_view(game, user=user)
    if not view["legal"]:
        return False
    services.live_game_act(
        actor=user,
        game=game,
        action=human_choice(view["legal"], rng),
        expected_sequence=view["sequence"],
    )
    return True


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a service and then its on-commit hooks (bot turns, notices), as a real commit would."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def live_table_round(*, players: int = 2, deals: int | None = 3, public: bool = True):
    """A published round of tables of 3 with bots filling empty seats; (director, round)."""
    director = UserFactory()
    club = ClubFactory(directors=[director])
    options = {"table_size": "3", "bots_allowed": True, "is_public": public}
    if deals is not None:
        options |= {"round_format": "deals", "deals_per_round": deals}
    tournament = tournament_services.tournament_create(
        actor=director, club=club, name="Live cup", date=datetime.date(2026, 12, 1), **options
    )
    for number in range(players):
        # Every other player has no login yet: a live table makes one for him.
        user = UserFactory() if number % 2 == 0 else None
        player = PlayerFactory(club=club, user=user, name=f"Player {number + 1}")
        tournament_services.registration_create(
            actor=director, tournament=tournament, player=player
        )
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    return director, draw_services.round_publish(actor=director, round_=round_)
