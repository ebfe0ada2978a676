"""`make_bot` gives a bot by name or level; a bot answers for the seat to act, with its seat."""

import random

import pytest

from bots import BOT_NAMES, HeuristicBot, RandomBot, make_bot, solver
from bots.strong import BUDGETS, StrongBot
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
    assert set(BOT_NAMES) == {"random", "heuristic", "strong", "easy", "normal", "hard", "pimc"}
    pimc = make_bot("pimc", seed=1)
    assert pimc.level == "pimc" and pimc.budget.playouts > normal.budget.playouts
    # hard decides by exact solves where the solver's core is compiled, else it is pimc.
    assert hard.budget == (BUDGETS["hard"] if solver.COMPILED else pimc.budget)


def test_hard_falls_back_to_playouts_without_the_compiled_solver(monkeypatch):
    monkeypatch.setattr(solver, "COMPILED", False)
    assert make_bot("hard", seed=1).budget == BUDGETS["pimc"]
    assert make_bot("normal", seed=1).budget == BUDGETS["normal"]


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
