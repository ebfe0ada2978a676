"""An observation shows a seat its own and the public cards, never another's hidden cards."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Card, DealState, deck_from_hands
from rules.cards import CARD_NAMES, mask_cards
from tests.hypothesis_profiles import examples

from .strategies import fresh_deals

CARD_NAME_SET = set(CARD_NAMES)


def card_names_in(value) -> set[str]:
    """Every card name anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in CARD_NAME_SET else set()
    if isinstance(value, dict):
        return set().union(*(card_names_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_names_in(v) for v in value)) if value else set()
    return set()


def may_know(state, seat, given_cards, received) -> set[str]:
    known = state.played
    if seat is not None:
        known |= state.hands[seat] | given_cards.get(seat, 0) | received.get(seat, 0)
    if state.talon_revealed:
        known |= state.talon
    return {CARD_NAMES[c] for c in mask_cards(known)}


@settings(max_examples=examples(120), deadline=None)
@given(state=fresh_deals(), data=st.data())
def test_no_observation_ever_shows_hidden_cards(state, data):
    given_cards: dict[int, int] = {}
    received: dict[int, int] = {}
    while True:
        for seat in [*range(state.players), None]:
            observation = state.observation(seat)
            shown = card_names_in(json.loads(json.dumps(observation.to_dict())))
            allowed = may_know(state, seat, given_cards, received)
            assert shown <= allowed, f"seat {seat} sees {sorted(shown - allowed)}"
            if seat is not None:
                assert {str(c) for c in observation.hand} == {
                    CARD_NAMES[c] for c in mask_cards(state.hands[seat])
                }
                assert bool(observation.legal) == (seat == state.to_act)
        if state.done:
            break
        action = data.draw(st.sampled_from(state.legal_actions()))
        if action.type == "give":
            given_cards[action.seat] = given_cards.get(action.seat, 0) | action.card.bit
            received[action.to] = action.card.bit
        state.apply(action)


def test_spectator_sees_talon_only_after_the_auction_and_no_hand():
    deck = deck_from_hands(
        [
            ["KH", "QH", "AS", "TS", "KS", "QS", "JS"],
            ["9S", "AC", "TC", "KC", "QC", "JC", "9C"],
            ["AD", "TD", "KD", "QD", "JD", "9D", "AH"],
        ],
        ["TH", "JH", "9H"],
    )
    state = DealState.deal(deck)
    spectator = state.observation(None)
    assert spectator.hand == () and spectator.talon is None
    assert spectator.hand_sizes == (7, 7, 7)
    for action in state.legal_actions():
        if action.type == "bid" and action.value == 120:
            state.apply(action)
            break
    state.apply(state.legal_actions()[0])  # seat 2 passes
    state.apply(state.legal_actions()[0])  # seat 0 passes
    for seat in (None, 0, 1, 2):
        view = state.observation(seat)
        assert [str(c) for c in view.talon] == ["TH", "JH", "9H"]
        assert view.declarer == 1 and view.bid == 120
    assert state.observation(1).hand_sizes == (7, 10, 7)
    state.apply(
        next(
            a
            for a in state.legal_actions()
            if a.type == "give" and a.to == 2 and a.card == Card.parse("TH")
        )
    )
    assert state.observation(2).received == Card.parse("TH")
    assert state.observation(0).received is None
    assert state.observation(1).given == ((2, Card.parse("TH")),)
    assert state.observation(0).gives_done == (2,)
    assert "TH" not in card_names_in(state.observation(0).to_dict()["given"])
