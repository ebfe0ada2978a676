"""A bot's decision is fixed by its seed and the observation: asked again, by a new instance of the
same bot, or in another order, it answers the same."""

import random

import pytest

from bots import make_bot
from bots.strong import StrongBot

from .conftest import NO_DEADLINE, random_state


def observations(count: int, seed: int):
    rng = random.Random(seed)
    result = []
    while len(result) < count:
        state = random_state(rng)
        if len(state.legal_codes()) > 1:
            result.append(state.observation(state.to_act))
    return result


def test_random_and_heuristic_bots_are_deterministic():
    views = observations(60, 1)
    for name in ("random", "heuristic"):
        first = [make_bot(name, seed=9).choose(v) for v in views]
        again = [make_bot(name, seed=9).choose(v) for v in reversed(views)]
        assert first == list(reversed(again))


def test_random_bot_depends_on_its_seed():
    views = observations(40, 2)
    a = [make_bot("random", seed=1).choose(v) for v in views]
    b = [make_bot("random", seed=2).choose(v) for v in views]
    assert a != b


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_strong_bot_is_deterministic(level):
    views = observations(8, 3)
    bot = StrongBot(seed=4, budget=NO_DEADLINE[level])
    first = [bot.choose(v) for v in views]
    other = StrongBot(seed=4, budget=NO_DEADLINE[level])
    assert [other.choose(v) for v in reversed(views)] == list(reversed(first))
