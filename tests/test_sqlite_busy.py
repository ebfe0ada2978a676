"""SQLite with several writers: a request waits for another writer's lock, or says "busy".

The embedded mode keeps everything in one SQLite file, which lets one writer in at a time: a
second web worker, a management command or a backup holds the lock for moments. Requests here
run against a real database file while another connection (the sqlite3 module, as another
process would) holds its write lock.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections
from django.urls import reverse

from gameplay import selectors as gameplay_selectors
from gameplay import services as gameplay_services
from gameplay.models import LiveGame
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Player

BUSY = "The database is busy; try again in a moment."
UNREACHABLE = "could not be reached"


@pytest.fixture
def database_file(transactional_db, tmp_path):
    """Point the app at an SQLite file (the test database's tables, the project's options).

    Returns a function that takes the options to change (such as a shorter timeout).
    """
    test_connection = connections[DEFAULT_DB_ALIAS]
    if test_connection.vendor != "sqlite":
        pytest.skip("SQLite's own locking: the SQLite pass of the suite runs it")
    path = tmp_path / "club.sqlite3"
    test_connection.ensure_connection()
    with sqlite3.connect(path) as copy:
        test_connection.connection.backup(copy)
    copy.close()
    made = []

    def use(**options) -> str:
        settings_dict = {
            **test_connection.settings_dict,
            "NAME": str(path),
            "OPTIONS": {**settings.DATABASES[DEFAULT_DB_ALIAS].get("OPTIONS", {}), **options},
        }
        wrapper = test_connection.__class__(settings_dict, alias=DEFAULT_DB_ALIAS)
        made.append(wrapper)
        connections[DEFAULT_DB_ALIAS] = wrapper
        return str(path)

    yield use
    for wrapper in made:
        wrapper.close()
    connections[DEFAULT_DB_ALIAS] = test_connection


class WriteLock:
    """Another connection to the file that holds SQLite's write lock (BEGIN IMMEDIATE)."""

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=30
        )
        self.connection.execute("BEGIN IMMEDIATE")

    def release_after(self, seconds: float) -> threading.Timer:
        timer = threading.Timer(seconds, self.release)
        timer.start()
        return timer

    def release(self) -> None:
        self.connection.execute("COMMIT")
        self.connection.close()


@pytest.fixture
def practice(client):
    """A signed-in player at a practice table, and how to send his first move."""

    def start():
        user = UserFactory()
        client.force_login(user)
        game = gameplay_services.practice_game_start(user=user)
        view = gameplay_selectors.live_game_view(game, user=user)

        def move():
            return client.post(
                reverse("live-game-act", args=[game.pk]),
                {"action": view["legal"][0], "sequence": view["sequence"]},
                content_type="application/json",
            )

        return game, view, move

    return start


def test_a_move_waits_for_another_writer_and_then_goes_through(database_file, practice):
    path = database_file()
    game, view, move = practice()
    lock = WriteLock(path)
    release = lock.release_after(0.5)

    started = time.monotonic()
    response = move()
    waited = time.monotonic() - started
    release.join()

    # The move reads the game and then writes it: it must wait for the lock, not fail at once.
    assert response.status_code == 200, response.content
    assert "error" not in response.json()
    assert LiveGame.objects.get(pk=game.pk).sequence > view["sequence"]
    assert waited >= 0.4


def test_a_lock_held_too_long_gets_a_busy_answer_on_the_table(database_file, practice):
    path = database_file(timeout=0.2)
    game, view, move = practice()
    lock = WriteLock(path)
    try:
        response = move()
    finally:
        lock.release()

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    # static/js/table.js shows the "error" of the table's JSON answers.
    assert BUSY in response.json()["error"]
    assert LiveGame.objects.get(pk=game.pk).sequence == view["sequence"]


def test_a_lock_held_too_long_gets_a_busy_page_not_an_unreachable_database(database_file, client):
    path = database_file(timeout=0.2)
    user = UserFactory()
    client.force_login(user)
    lock = WriteLock(path)
    try:
        response = client.post(reverse("practice-start"))
    finally:
        lock.release()

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert BUSY in page
    assert UNREACHABLE not in page
    assert not LiveGame.objects.filter(practice_owner=user).exists()


def test_a_lock_held_too_long_gets_a_busy_answer_from_the_api(database_file, client):
    path = database_file(timeout=0.2)
    director = UserFactory()
    club = ClubFactory(directors=[director])
    client.force_login(director)
    lock = WriteLock(path)
    try:
        response = client.post(
            reverse("player-list"),
            {"club": club.pk, "name": "Olena"},
            content_type="application/json",
        )
    finally:
        lock.release()

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {"detail": BUSY + " Nothing was saved."}
    assert not Player.objects.filter(name="Olena").exists()


def test_a_lost_database_is_still_told_apart_from_a_busy_one(client, db, monkeypatch):
    user = UserFactory()
    client.force_login(user)

    def lost(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("web.views.practice.services.practice_game_start", lost)

    response = client.post(reverse("practice-start"))

    assert response.status_code == 503
    assert UNREACHABLE in response.content.decode()
    assert BUSY not in response.content.decode()
    assert "Retry-After" not in response


def test_a_postgresql_deadlock_is_busy_too(client, db, monkeypatch):
    from psycopg import errors

    director = UserFactory()
    club = ClubFactory(directors=[director])
    client.force_login(director)

    def deadlocked(**kwargs):
        # As Django raises it: its own OperationalError, the driver's error as the cause.
        raise OperationalError("deadlock detected") from errors.DeadlockDetected()

    monkeypatch.setattr("api.tournaments.services.player_create", deadlocked)

    response = client.post(
        reverse("player-list"), {"club": club.pk, "name": "Olena"}, content_type="application/json"
    )

    assert response.status_code == 503
    assert response.json()["detail"].startswith(BUSY)
