"""`make_bot` gives a bot by name or level; a bot answers for the seat to act, with its seat."""

import random

import pytest

from bots import BOT_NAMES, HeuristicBot, RandomBot, make_bot
from bots.strong import StrongBot
from rules import Action, DealState

from .conftest import random_state


def test_names_and_levels():
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot("heuristic", seed=1), HeuristicBot)
    assert isinstance(make_bot("easy", seed=1), HeuristicBot)
    normal, hard, strong = (make_bot(n, seed=1) for n in ("normal", "hard", "strong"))
    assert isinstance(normal, StrongBot) and normal.level == "normal"
    assert isinstance(strong, StrongBot) and strong.level == "normal"
    assert isinstance(hard, StrongBot) and hard.level == "hard"
    assert hard.budget.playouts > normal.budget.playouts
    assert set(BOT_NAMES) == {"random", "heuristic", "strong", "easy", "normal", "hard", "exact"}
    assert make_bot("exact", seed=1).level == "exact"


def test_unknown_name_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", seed=1)


def test_a_bot_refuses_an_observation_of_a_seat_not_to_act():
    state = DealState.deal(list(range(24)))
    not_to_act = (state.to_act + 1) % 3
    for name in ("random", "heuristic", "normal"):
        with pytest.raises(ValueError, match="seat to act"):
            make_bot(name, seed=0).choose(state.observation(not_to_act))
        with pytest.raises(ValueError, match="seat to act"):
            make_bot(name, seed=0).choose(state.observation(None))


def test_actions_carry_the_seat_and_apply():
    rng = random.Random(3)
    for _ in range(5):
        state = random_state(rng)
        seat = state.to_act
        action = make_bot("heuristic", seed=0).choose(state.observation(seat))
        assert isinstance(action, Action) and action.seat == seat
        state.apply(action)
