"""Every bot returns only legal actions, in thousands of random states of every rule option, at
tables of 3 and 4: each example plays a random deal from a random moment to its end with the bot
in every seat, and every action goes through the engine's checked `apply`."""

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bots import make_bot
from tests.hypothesis_profiles import examples

from .conftest import random_state, tiny_strong

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def play_to_the_end(state, bots) -> int:
    decisions = 0
    while not state.done:
        seat = state.to_act
        observation = state.observation(seat)
        action = bots[seat].choose(observation)
        assert action in observation.legal, f"{action} is not legal"
        assert action.seat == seat
        state.apply(action)
        decisions += 1
    return decisions


@settings(max_examples=examples(300), deadline=None)
@given(seed=seeds)
def test_random_and_heuristic_bots_play_only_legal_actions(seed):
    rng = random.Random(seed)
    state = random_state(rng)
    names = [rng.choice(["random", "heuristic"]) for _ in range(state.players)]
    bots = [make_bot(name, seed=seed + seat) for seat, name in enumerate(names)]
    assert play_to_the_end(state, bots) >= 1


@settings(max_examples=examples(300), deadline=None)
@given(seed=seeds)
def test_heuristic_bot_alone_plays_only_legal_actions(seed):
    rng = random.Random(seed)
    state = random_state(rng)
    bots = [make_bot("heuristic", seed=seed) for _ in range(state.players)]
    play_to_the_end(state, bots)


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=seeds, exact=st.booleans(), defence=st.booleans(), own=st.booleans(), share=st.booleans()
)
def test_strong_bot_plays_only_legal_actions(seed, exact, defence, own, share):
    rng = random.Random(seed)
    state = random_state(rng)
    bots = [tiny_strong(seed + seat, exact=exact) for seat in range(state.players)]
    for bot in bots:
        # The exact auction model's options: solving the others' declaring too, and its own
        # points as their defender; the card play's own points of a defender; or bidding by
        # the share of samples its declaring makes instead of the auction model.
        bot.budget = replace(
            bot.budget,
            exact_defence=defence,
            own_defence=own,
            own_points=own,
            contract_margin=10 if own else 0,
            make_share=0.5 if share else 0.0,
        )
    play_to_the_end(state, bots)


def test_strong_bot_at_its_real_budget_plays_legal_actions():
    rng = random.Random(2024)
    for level in ("normal", "hard", "pimc"):
        bot = make_bot(level, seed=5)
        for _ in range(4):
            state = random_state(rng)
            observation = state.observation(state.to_act)
            assert bot.choose(observation) in observation.legal
