"""Deals played with uniformly random legal actions: a baseline player, a test tool, a benchmark."""

from __future__ import annotations

import random

from .actions import CONCEDE
from .cards import DECK_SIZE
from .deal import BIDDING, CONTRACT, DONE, GIVING, PLAY, DealState
from .game import Game
from .options import DEFAULT_RULES, RuleSet

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


def play_cautiously(state: DealState, rng: random.Random) -> DealState:
    """Random legal play by cautious players: they bid only the lowest bid or pass, name the bid as
    the contract and never concede, so their games reach the target like real ones do."""
    while state.phase != DONE:
        codes = state.legal_codes()
        if state.phase == BIDDING:
            codes = codes[:2]  # pass, or the lowest bid
        elif state.phase == CONTRACT:
            codes = codes[:1]  # the bid itself
        elif codes[-1] == CONCEDE:
            codes = codes[:-1]
        state.step(codes[int(rng.random() * len(codes))])
    return state


def cautious_game(
    rng: random.Random, *, players: int = 3, first_dealer: int = 0, rules: RuleSet = DEFAULT_RULES
) -> Game:
    """A whole game to the target played by cautious random players."""
    game = Game(players=players, first_dealer=first_dealer, rules=rules)
    while not game.over:
        deal = game.start_deal(shuffled_deck(rng))
        play_cautiously(deal, rng)
        game.close_deal(deal)
    return game


def random_play_position(
    rng: random.Random, *, tricks_left: int, players: int = 3, rules: RuleSet = DEFAULT_RULES
) -> DealState:
    """A deal played at random (the lowest bid or a pass, random gives, the bid as contract,
    random cards, no conceding) to `tricks_left` tricks from its end, with 0 to 2 cards of the
    next trick played: positions for testing and measuring the card-play solver."""
    state = DealState.deal(
        shuffled_deck(rng), players=players, dealer=rng.randrange(players), rules=rules
    )
    while state.phase != PLAY:
        codes = [code for code in state.legal_codes() if code != CONCEDE]
        if state.phase == BIDDING:
            state.step(rng.choice(codes[:2]))
        elif state.phase == GIVING:
            state.step(rng.choice(codes))
        else:
            state.step(codes[0])
    stop = 8 - tricks_left
    partial = rng.randrange(3)
    while state.trick_no < stop or (state.trick_no == stop and len(state.trick) < partial):
        state.step(rng.choice([code for code in state.legal_codes() if code != CONCEDE]))
    return state
