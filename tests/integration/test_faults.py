"""Faults under running live tables: a Celery worker killed outright, Redis restarted.

The production topology of tests/integration/stack.py plays three bot tables; mid-game a worker
gets SIGKILL (no chance to finish or acknowledge its task) or Redis goes away with every queued
task and comes back empty. Every table must still finish, each move stored exactly once, and the
stored moves must replay to the stored outcome.
"""

import time

import pytest
import requests

from gameplay import selectors
from gameplay.models import LiveAction, LiveGame
from scoring.models import ResultVersion, TableResult
from tests.integration.driver import Director, club_with_players, wait_until

pytestmark = pytest.mark.integration

TABLES = 3
GAME_SECONDS = 240


def bot_tables(stack) -> list[int]:
    """Three tables of a published round played live, every seat a bot."""
    tournament, director_user, _players = club_with_players(count=TABLES * 4 - 1)
    director = Director(stack.base_url, director_user)
    round_id = director.draw_and_publish(tournament.pk)
    game_ids = []
    for table in director.tables(round_id):
        game = director.play_live(table["id"])
        for seat in game.seats.filter(user__isnull=False):
            director.seat_bot(game.pk, seat.position, level="easy")
        game_ids.append(game.pk)
    assert len(game_ids) == TABLES
    return game_ids


def moves_made(game_ids: list[int]) -> int:
    return LiveAction.objects.filter(game_id__in=game_ids).count()


def wait_for_progress(stack, game_ids: list[int], *, moves: int) -> int:
    start = moves_made(game_ids)
    return wait_until(
        lambda: stack.check_alive() or moves_made(game_ids) >= start + moves,
        seconds=60,
        what=f"{moves} more moves",
    )


def all_finished(stack, game_ids: list[int]) -> None:
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        games = LiveGame.objects.filter(pk__in=game_ids)
        if all(game.status == LiveGame.Status.FINISHED for game in games):
            return
        time.sleep(0.25)
    pytest.fail(f"the tables did not finish in {GAME_SECONDS} s\n{stack.report()}")


def assert_played_exactly_once(game_ids: list[int]) -> None:
    for game in LiveGame.objects.filter(pk__in=game_ids):
        sequences = list(
            LiveAction.objects.filter(game=game)
            .order_by("sequence")
            .values_list("sequence", flat=True)
        )
        assert sequences == list(range(1, game.sequence + 1)), f"game {game.pk}"
        # Replaying the stored moves through the rules engine gives the stored outcome.
        state = selectors.replay_live_game(game)
        assert state.over and state.winner == game.winner
        # One result per table, filed once.
        assert ResultVersion.objects.filter(table=game.table).count() == 1
        assert TableResult.objects.get(table=game.table).status == TableResult.Status.CONFIRMED


def test_a_worker_killed_in_the_middle_of_bot_turns(stack, transactional_db):
    game_ids = bot_tables(stack)
    victim, survivor = stack.workers
    wait_for_progress(stack, game_ids, moves=30)
    victim.kill()  # the way `docker kill` or the kernel's OOM killer ends a container
    killed_at = moves_made(game_ids)
    assert not all(
        game.status == LiveGame.Status.FINISHED for game in LiveGame.objects.filter(pk__in=game_ids)
    ), "the games ended before the kill; nothing was tested"
    wait_for_progress(stack, game_ids, moves=20)  # the other worker carries on alone
    stack.start_worker(victim)  # compose's restart policy brings it back
    survivor.kill()  # and now the other one, so the restarted one must do the rest
    all_finished(stack, game_ids)
    assert moves_made(game_ids) > killed_at
    assert_played_exactly_once(game_ids)


def test_tables_recover_after_redis_restarts(stack, transactional_db):
    game_ids = bot_tables(stack)
    wait_for_progress(stack, game_ids, moves=30)
    stack.redis.stop()
    # While Redis is away the health check says so (a load balancer stops sending players).
    health = requests.get(f"{stack.base_url}/healthz", timeout=10)
    assert health.status_code == 503 and health.json()["redis"] is False
    time.sleep(2)
    stack.start_redis()  # empty: every task that was queued is gone
    all_finished(stack, game_ids)
    assert requests.get(f"{stack.base_url}/healthz", timeout=10).status_code == 200
    assert_played_exactly_once(game_ids)
