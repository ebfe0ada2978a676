"""A club's world for the security tests, built once per module, and clients for each role.

The world is built inside a transaction that is rolled back at the end of the module; every test
runs in its own savepoint inside it (pytest-django's `django_db`), so a test's writes are undone
before the next one.
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from draws import services as draw_services
from gameplay import services as gameplay_services
from gameplay.routing import websocket_urlpatterns
from scoring.services import result_submit, standings_recompute
from seasons.models import Season
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import services
from tournaments.models import Tournament

# The people every matrix is about, in the order the matrices list their outcomes.
ROLES = ("anonymous", "player", "other_director", "director")
# Names nobody outside the club may ever read; the tests search every answer for them.
PRIVATE_NAME = "Secret Night Cup"
PRIVATE_PLAYER_NAME = "Zoryana Hidden-Player"


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    # The suite's fast hasher is a function fixture, so too late for a module fixture.
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), fast, transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(shared_world, db):
    return shared_world


def build_world() -> SimpleNamespace:
    """Club A (its director) with tournaments in every state that matters, and club B's director.

    - `public`: 12 players with logins in tables of four, round 1 published: table 1 has a
      confirmed result, at table 2 seat 0 submitted a sheet (version 1) that waits for
      confirmation (`player` sits in seat 1 there), table 3 is played live.
    - `fresh`: 4 players, round 1 drawn but not published.
    - `private`: not public; round 1 published with a confirmed result; one of its players
      plays nowhere else.
    """
    director, other_director = UserFactory(), UserFactory()
    club = ClubFactory(directors=[director])
    other_club = ClubFactory(directors=[other_director])

    def tournament(name, names, **options):
        """A tournament of the club with these players registered, each with a login."""
        made = services.tournament_create(
            actor=director, club=club, name=name, date=datetime.date(2026, 12, 4), **options
        )
        for player_name in names:
            PlayerFactory(club=club, user=UserFactory(), name=player_name)
        return made, services.registration_create_from_names(
            actor=director, tournament=made, names=names
        )

    def published(made, seed):
        drawn = draw_services.round_draw(actor=director, tournament=made, seed=seed)
        return draw_services.round_publish(actor=director, round_=drawn)

    public, public_registrations = tournament(
        "Open Cup", [f"Player {number}" for number in range(1, 13)], rounds_planned=3
    )
    public_round = published(public, 11)
    confirmed_table, waiting_table, live_table = public_round.tables.order_by("number")
    enter_confirmed_result(confirmed_table, seed=1)

    def user_in_seat(table, position):
        return table.seats.get(position=position).registration.player.user

    result_submit(
        actor=user_in_seat(waiting_table, 0),
        table=waiting_table,
        sheet=game_sheet(players=4, seed=2),
        expected_version=0,
    )
    live_game = gameplay_services.live_game_create_for_table(actor=director, table=live_table)
    standings_recompute(tournament_id=public.pk)

    fresh, fresh_registrations = tournament("Fresh Cup", [f"Newcomer {n}" for n in range(1, 5)])
    fresh_round = draw_services.round_draw(actor=director, tournament=fresh, seed=5)

    private, private_registrations = tournament(
        PRIVATE_NAME, [PRIVATE_PLAYER_NAME, "Hidden 2", "Hidden 3", "Hidden 4"], is_public=False
    )
    hidden = private_registrations[0].player
    private_round = published(private, 7)
    private_table = private_round.tables.get()
    enter_confirmed_result(private_table, seed=3)
    standings_recompute(tournament_id=private.pk)

    # A club season holding both the public and the private tournament (issue 18).
    season = Season.objects.create(
        club=club,
        name="Club Season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    Tournament.objects.filter(pk__in=[public.pk, private.pk]).update(season=season)

    player = user_in_seat(waiting_table, 1)
    return SimpleNamespace(
        season=season,
        public_player=public_registrations[0].player,
        club=club,
        other_club=other_club,
        director=director,
        other_director=other_director,
        player=player,
        submitter=user_in_seat(waiting_table, 0),
        public=public,
        public_registration=public_registrations[0],
        public_round=public_round,
        confirmed_table=confirmed_table,
        waiting_table=waiting_table,
        live_table=live_table,
        live_game=live_game,
        live_seated={seat.position: seat.user for seat in live_game.seats.order_by("position")},
        fresh=fresh,
        fresh_registration=fresh_registrations[0],
        fresh_round=fresh_round,
        fresh_seats=list(fresh_round.seats.order_by("table__number", "position")),
        private=private,
        private_registration=private_registrations[0],
        private_player=hidden,
        private_round=private_round,
        private_table=private_table,
        tokens={
            "director": Token.objects.create(user=director).key,
            "other_director": Token.objects.create(user=other_director).key,
            "player": Token.objects.create(user=player).key,
        },
    )


def user_of(world, role: str):
    """The user of a role, or None for the anonymous visitor."""
    return None if role == "anonymous" else getattr(world, role)


@pytest.fixture
def client_as(world):
    """A test client signed in as a role (or anonymous), optionally enforcing CSRF checks."""

    def make(role: str, *, enforce_csrf_checks: bool = False) -> Client:
        client = Client(enforce_csrf_checks=enforce_csrf_checks)
        client.raise_request_exception = False
        user = user_of(world, role)
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def websocket_for(monkeypatch, settings):
    """A websocket to a live game as `user` would open it (the session middleware's work done).

    The consumer's database calls come back to the test's thread (asgiref), so they see the
    module's world; Channels' closing of "old" connections around each call is turned off, as
    Django's test client does around a request, or it would close the test's transaction.
    """
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setattr("channels.db.close_old_connections", lambda: None)

    def connect(user, game_id: int) -> WebsocketCommunicator:
        communicator = WebsocketCommunicator(
            URLRouter(websocket_urlpatterns), f"/ws/games/{game_id}/"
        )
        communicator.scope["user"] = user
        return communicator

    return connect
