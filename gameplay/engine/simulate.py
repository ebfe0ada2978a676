"""Deals played with uniformly random legal actions: a baseline player, a test tool, a benchmark."""

from __future__ import annotations

import random

from .cards import DECK_SIZE
from .deal import DONE, DealState
from .rules import DEFAULT_RULES, RuleSet

_ORDER = tuple(range(DECK_SIZE))


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(_ORDER)
    rng.shuffle(deck)
    return deck


def play_random(state: DealState, rng: random.Random) -> DealState:
    """Play `state` to its end with uniformly random legal actions; returns the same state."""
    legal = state.legal_codes
    step = state.step
    draw = rng.random
    while state.phase != DONE:
        codes = legal()
        step(codes[int(draw() * len(codes))])
    return state


def random_deal(
    rng: random.Random, *, players: int = 3, dealer: int = 0, rules: RuleSet = DEFAULT_RULES
) -> DealState:
    state = DealState.deal(shuffled_deck(rng), players=players, dealer=dealer, rules=rules)
    return play_random(state, rng)
