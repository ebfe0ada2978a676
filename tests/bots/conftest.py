"""Helpers of the bot tests: random deal states of every rule option, and small search budgets."""

from __future__ import annotations

import dataclasses
import random

from bots.strong import Budget, StrongBot
from rules import DealState, RuleSet
from rules import actions as A

# A small search, so that property tests can ask the strong bot thousands of questions; the
# deadline is far away so that a slow machine never changes a decision.
TINY = Budget(
    playouts=12,
    min_samples=3,
    bid_samples=3,
    give_samples=2,
    give_candidates=3,
    contract_samples=4,
    exact_tricks=2,
    infer=True,
    deadline=60.0,
)
NO_DEADLINE = {
    level: Budget(**{**budget.__dict__, "deadline": 60.0})
    for level, budget in __import__("bots.strong", fromlist=["BUDGETS"]).BUDGETS.items()
}


# The same with every phase decided by exact solves in its samples, as `hard` decides.
TINY_EXACT = dataclasses.replace(TINY, exact_samples=3)


def tiny_strong(seed: int = 0, *, exact: bool = False) -> StrongBot:
    return StrongBot(seed=seed, budget=TINY_EXACT if exact else TINY)


def random_rules(rng: random.Random) -> RuleSet:
    return RuleSet(
        bid_jumps=rng.random() < 0.5,
        bid_cap=rng.choice(["held_marriages", "none"]),
        must_beat=rng.random() < 0.5,
        marriage_on_first_trick=rng.random() < 0.5,
        round_declarer_points=rng.random() < 0.5,
        rounding=rng.choice([5, 10]),
        concede_bonus=rng.choice([0, 50]),
    )


def random_state(rng: random.Random, *, rules: RuleSet | None = None) -> DealState:
    """A deal stopped at a random moment before its end, reached by random legal play that
    rarely concedes (so that the card play is reached often)."""
    while True:
        players = rng.choice([3, 4])
        deck = list(range(24))
        rng.shuffle(deck)
        state = DealState.deal(
            deck, players=players, dealer=rng.randrange(players), rules=rules or random_rules(rng)
        )
        stop = rng.randrange(45)
        for _ in range(stop):
            if state.done:
                break
            codes = state.legal_codes()
            if A.CONCEDE in codes and rng.random() < 0.97:
                codes = tuple(c for c in codes if c != A.CONCEDE)
            state.step(rng.choice(codes))
        if not state.done:
            return state
