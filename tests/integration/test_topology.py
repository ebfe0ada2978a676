"""A round with live bot tables, played through the production topology as separate processes.

PostgreSQL, a Redis server of the test's own, uvicorn with two worker processes in production
mode, two Celery workers and Celery beat, the way docker/compose.yaml runs them. The test is
only a client: it sets up the club through the services, then works as the director and the
players over HTTP and a websocket, and checks the database afterwards.
"""

import asyncio
import json
import random
import threading
import time

import pytest

from gameplay.models import LiveAction, LiveGame
from scoring.models import TableResult
from tests.integration.driver import (
    Director,
    PlayerClient,
    club_with_players,
    wait_until,
)
from tournaments.models import Round

pytestmark = pytest.mark.integration

GAME_SECONDS = 240


def test_a_round_of_live_tables_plays_through_web_workers_and_beat(stack, transactional_db):
    tournament, director_user, players = club_with_players(count=7)
    director = Director(stack.base_url, director_user)

    round_id = director.draw_and_publish(tournament.pk)
    tables = director.tables(round_id)
    assert len(tables) == 2  # 7 players at tables of 4: one bot seat, filled by the draw
    games = [director.play_live(table["id"]) for table in tables]

    # Table 1 becomes a bot table: the director puts bots in its players' seats.
    bot_game, human_game = games
    for seat in bot_game.seats.filter(user__isnull=False):
        director.seat_bot(bot_game.pk, seat.position, level="easy")

    # Table 2 is played by its people in their browsers' way: moves over HTTP, the view pushed
    # over a websocket from whichever process made the move (a worker, for the bots).
    humans = [
        PlayerClient(stack.base_url, seat.user_id, secret_key=stack.secret_key)
        for seat in human_game.seats.filter(user__isnull=False)
    ]
    watcher = humans[0]
    pushed: list[dict] = []
    listening = threading.Thread(
        target=lambda: asyncio.run(watcher.listen(human_game.pk, pushed, GAME_SECONDS)),
        daemon=True,
    )
    listening.start()
    rng = random.Random(5)
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        stack.check_alive()
        if all(game_finished(game.pk) for game in games):
            break
        moved = False
        for human in humans:
            view = human.state(human_game.pk)
            if view["status"] != "finished" and view["legal"]:
                human.act(human_game.pk, rng.choice(view["legal"]), view["sequence"])
                moved = True
        if not moved:
            time.sleep(0.05)
    else:
        pytest.fail(f"the tables did not finish in {GAME_SECONDS} s\n{stack.report()}")
    listening.join(timeout=30)

    for game in LiveGame.objects.filter(pk__in=[g.pk for g in games]):
        actions = list(LiveAction.objects.filter(game=game).order_by("sequence"))
        # Every move exactly once, in order, whichever process played it.
        assert [a.sequence for a in actions] == list(range(1, game.sequence + 1))
        assert any(a.by_bot for a in actions)
    bot_actions = LiveAction.objects.filter(game=bot_game, by_bot=True).count()
    assert bot_actions == LiveGame.objects.get(pk=bot_game.pk).sequence
    # Both workers took bot turns.
    for worker in stack.workers:
        assert "gameplay.tasks.play_bot_turn" in worker.log(), worker.tail()

    # The websocket carried the other processes' moves to the watcher, up to the end.
    sequences = [message["view"]["sequence"] for message in pushed if message["type"] == "view"]
    assert sequences and sequences[-1] == LiveGame.objects.get(pk=human_game.pk).sequence
    assert any(m["type"] == "view" and m["view"]["status"] == "finished" for m in pushed), (
        "the watcher never saw the end"
    )

    # Each finished game filed its table's result; the worker computed the standings.
    confirmed = TableResult.objects.filter(
        table__round_id=round_id, status=TableResult.Status.CONFIRMED
    )
    assert confirmed.count() == 2
    standings = wait_until(
        lambda: _complete_standings(director.standings(tournament.pk), players=7),
        seconds=60,
        what="standings with every player's table",
    )
    assert sorted(row["start_number"] for row in standings["rows"]) == list(range(1, 8))
    # The last confirmed table finished the round.
    assert Round.objects.get(pk=round_id).status == Round.Status.FINISHED
    # A public page through the production server (static files too).
    page = director.public(f"/tournaments/{tournament.pk}/standings/")
    assert page.status_code == 200 and players_named(page.text, tournament)
    assert director.public("/static/css/app.css").status_code == 200


def game_finished(game_id: int) -> bool:
    return LiveGame.objects.get(pk=game_id).status == LiveGame.Status.FINISHED


def _complete_standings(standings: dict, *, players: int) -> dict | None:
    rows = standings.get("rows") or []
    if len(rows) == players and all(row["games_played"] == 1 for row in rows):
        return standings
    return None


def players_named(html: str, tournament) -> bool:
    names = tournament.registrations.values_list("player__name", flat=True)
    return all(json.dumps(name)[1:-1] in html or name in html for name in names)
