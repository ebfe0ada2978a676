"""A live practice game played to 1001: a scripted human here, the two bots on a real worker."""

import random
import time

import pytest

from gameplay import selectors, services
from gameplay.models import LiveAction, LiveGame
from gameplay.shuffle import commitment_matches
from tests.factories import UserFactory
from tests.gameplay.conftest import human_choice

pytestmark = pytest.mark.integration

# A game to 1001 has some 300 to 400 actions. The test fails when the game stops moving (no
# action for STUCK_SECONDS), not when a loaded machine plays it slowly; GAME_SECONDS only keeps a
# game that never ends from running forever.
STUCK_SECONDS = 60
GAME_SECONDS = 1200


@pytest.fixture
def worker_log(celery_worker_process):
    """The worker's last log lines, for a failure message."""

    class Tail:
        def __str__(self) -> str:
            return celery_worker_process.tail(50)

    return Tail()


def test_a_human_and_two_worker_bots_play_a_whole_game_to_1001(worker_log):
    user = UserFactory()
    rng = random.Random(7)
    game = services.practice_game_start(user=user)
    deadline = time.monotonic() + GAME_SECONDS
    human_moves = 0
    moved, last_sequence = time.monotonic(), -1
    while time.monotonic() < deadline and time.monotonic() - moved < STUCK_SECONDS:
        game.refresh_from_db()
        if game.status == LiveGame.Status.FINISHED:
            break
        if game.sequence != last_sequence:
            moved, last_sequence = time.monotonic(), game.sequence
        view = selectors.live_game_view(game, user=user)
        if not view["legal"]:
            time.sleep(0.02)  # a bot's turn: the worker plays it
            continue
        services.live_game_act(
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
        human_moves += 1
    else:
        pytest.fail(
            f"the game did not move for {STUCK_SECONDS} s (or did not end in {GAME_SECONDS} s); "
            f"stuck at action {game.sequence}; "
            f"the worker's last lines:\n{worker_log}"
        )

    state = selectors.replay_live_game(game)
    assert state.over and max(state.totals) >= 1001
    assert game.winner == state.winner
    actions = list(LiveAction.objects.filter(game=game).order_by("sequence"))
    assert [action.sequence for action in actions] == list(range(1, game.sequence + 1))
    assert sum(not action.by_bot for action in actions) == human_moves
    assert {action.seat for action in actions if action.by_bot} == {1, 2}
    assert all(action.by_bot == (action.seat != 0) for action in actions)
    view = selectors.live_game_view(game, user=user)
    assert all(commitment_matches(d["deck"], d["salt"], d["commitment"]) for d in view["deals"])


def test_the_watchdog_gets_a_lost_bot_turn_played_by_the_worker(worker_log):
    user = UserFactory()
    game = services.practice_game_start(user=user)
    view = selectors.live_game_view(game, user=user)
    lost = []
    with pytest.MonkeyPatch.context() as patch:
        # The turn is enqueued nowhere, as if the worker that took it had died.
        patch.setattr(services, "enqueue_bot_turn", lambda *turn: lost.append(turn))
        services.live_game_act(actor=user, game=game, action={"type": "pass"}, expected_sequence=0)
    assert lost == [(game.pk, 1)]
    time.sleep(0.2)
    game.refresh_from_db()
    assert game.sequence == 1

    assert services.bot_turns_watchdog(older_than_seconds=0.1) == 1

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.sequence > 1:
            break
        time.sleep(0.05)
    assert game.sequence > 1
    assert LiveAction.objects.get(game=game, sequence=2).by_bot
    assert view["legal"]
