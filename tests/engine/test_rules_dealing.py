"""RULES.md sections 2 and 3: who plays a deal, and how a deck order is dealt."""

import pytest

from rules.records import replay_deal

from .conftest import CARD_ORDER, DEAL_FORMAT, hand, offered, rejected, seats_of

# Every card once: 9S JS QS KS TS AS 9C JC ... TH AH.
DECK = CARD_ORDER
HAND_POSITIONS = [(k, 4 + k, 8 + k, 12 + k, 15 + k, 18 + k, 21 + k) for k in range(3)]
TALON_POSITIONS = (3, 7, 11)


def dealt(deck, *, players=3, dealer=0, actions=()):
    return replay_deal(
        {
            "format": DEAL_FORMAT,
            "players": players,
            "dealer": dealer,
            "rules": {},
            "deck": list(deck),
            "actions": list(actions),
        }
    )


def quick_auction(players, dealer):
    """The first active player bids 40 and the others pass: the talon is turned up."""
    first, second, third = seats_of(players, dealer)
    return [
        {"seat": first, "type": "bid", "value": 40},
        {"seat": second, "type": "pass"},
        {"seat": third, "type": "pass"},
    ]


def test_three_players_get_the_cards_of_section_3():
    state = dealt(DECK)
    # Dealer 0: the active players are seats 1, 2, 0 in this order.
    for k, seat in enumerate((1, 2, 0)):
        assert hand(state, seat) == {DECK[i] for i in HAND_POSITIONS[k]}
    assert hand(state, 1) == {"9S", "TS", "QC", "9D", "KD", "9H", "KH"}
    assert [state.observation(seat).hand_sizes for seat in (0, 1, 2)] == [(7, 7, 7)] * 3


def test_the_talon_is_the_4th_8th_and_12th_card():
    state = dealt(DECK, actions=quick_auction(3, 0))
    assert [str(card) for card in state.observation(2).talon] == ["KS", "JC", "AC"]
    assert [DECK[i] for i in TALON_POSITIONS] == ["KS", "JC", "AC"]
    # The declarer (seat 1) has taken the talon into his hand.
    assert hand(state, 1) == {DECK[i] for i in HAND_POSITIONS[0]} | {"KS", "JC", "AC"}


@pytest.mark.parametrize("shift", range(0, 24, 3))
def test_first_and_last_cards_of_the_deck_never_go_to_the_talon(shift):
    deck = DECK[shift:] + DECK[:shift]
    state = dealt(deck, actions=quick_auction(3, 0))
    talon = [str(card) for card in state.observation(0).talon]
    assert talon == [deck[3], deck[7], deck[11]]
    assert deck[0] not in talon and deck[-1] not in talon
    assert deck[0] in hand(state, 1)  # dealt first, to the first active player
    assert deck[-1] in hand(state, 0)  # dealt last, to the third active player (the dealer)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_players_the_dealer_gets_no_cards(dealer):
    state = dealt(DECK, players=4, dealer=dealer)
    active = [(dealer + k) % 4 for k in (1, 2, 3)]
    for k, seat in enumerate(active):
        assert hand(state, seat) == {DECK[i] for i in HAND_POSITIONS[k]}
    assert hand(state, dealer) == set()
    assert state.observation(dealer).hand_sizes[dealer] == 0


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_players_active_seats_rotate_with_the_dealer(dealer):
    state = dealt(DECK, dealer=dealer)
    first, second, third = (dealer + 1) % 3, (dealer + 2) % 3, dealer
    assert state.to_act == first
    assert "bid 40" in offered(state)
    state = dealt(
        DECK,
        dealer=dealer,
        actions=[{"seat": first, "type": "pass"}, {"seat": second, "type": "pass"}],
    )
    # Two passes: the third active player, here the dealer himself, gets the forced talon.
    assert state.declarer == third
    assert state.forced


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_players_active_seats_rotate_and_the_dealer_sits_out(dealer):
    first, second, third = ((dealer + k) % 4 for k in (1, 2, 3))
    state = dealt(DECK, players=4, dealer=dealer)
    assert state.to_act == first
    assert state.observation(dealer).legal == ()
    message = rejected(
        {
            "format": DEAL_FORMAT,
            "players": 4,
            "dealer": dealer,
            "rules": {},
            "deck": DECK,
            "actions": [{"seat": dealer, "type": "bid", "value": 40}],
        }
    )
    assert message == f"action 0: seat {dealer} deals and sits out this deal"
    state = dealt(
        DECK,
        players=4,
        dealer=dealer,
        actions=[{"seat": first, "type": "pass"}, {"seat": second, "type": "pass"}],
    )
    assert state.declarer == third
