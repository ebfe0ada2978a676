"""RULES.md section 5.1-5.2: the talon is shown to all, taken by the declarer, and he gives."""

import pytest

from .conftest import (
    WORKED_A,
    WORKED_B,
    WORKED_DECLARER,
    WORKED_TALON,
    hand,
    offered,
    refusal,
    replay,
)

PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]
AUCTION = ["1 bid 100", "2 pass", "0 pass"]  # seat 1 is the declarer


def talon_seen_by(state, seat):
    talon = state.observation(seat).talon
    return None if talon is None else [str(card) for card in talon]


def test_the_talon_is_hidden_during_the_auction():
    for items in ([], ["1 bid 100"], ["1 bid 100", "2 pass"]):
        state = replay(PLAIN, WORKED_TALON, items)
        assert all(talon_seen_by(state, seat) is None for seat in (0, 1, 2, None))


@pytest.mark.parametrize("players", [3, 4])
def test_the_talon_is_shown_to_every_seat_after_the_auction(players):
    auction = AUCTION if players == 3 else ["1 bid 100", "2 pass", "3 pass"]
    for extra in ([], ["1 give QH 2"]):
        state = replay(PLAIN, WORKED_TALON, [*auction, *extra], players=players)
        for seat in (*range(players), None):
            assert talon_seen_by(state, seat) == ["TH", "9S", "QH"]


def test_the_declarer_takes_the_talon_into_his_hand():
    state = replay(PLAIN, WORKED_TALON, AUCTION)
    assert hand(state, 1) == set(WORKED_DECLARER.split()) | {"TH", "9S", "QH"}
    assert state.observation(0).hand_sizes == (7, 10, 7)


def test_the_declarer_gives_one_card_to_each_other_player():
    state = replay(PLAIN, WORKED_TALON, AUCTION)
    assert state.to_act == 1
    ten = hand(state, 1)
    assert offered(state) == {f"give {card} {to}" for card in ten for to in (2, 0)} | {"concede"}

    state = replay(PLAIN, WORKED_TALON, [*AUCTION, "1 give 9H 2"])
    assert state.phase_name == "giving"
    assert offered(state) == {f"give {card} 0" for card in ten - {"9H"}} | {"concede"}

    state = replay(PLAIN, WORKED_TALON, [*AUCTION, "1 give 9H 2", "1 give AS 0"])
    assert state.phase_name == "contract"
    assert state.observation(1).hand_sizes == (8, 8, 8)
    assert "9H" in hand(state, 2) and "AS" in hand(state, 0)
    assert not {"9H", "AS"} & hand(state, 1)


def test_the_declarer_may_give_a_talon_card():
    state = replay(PLAIN, WORKED_TALON, [*AUCTION, "1 give QH 2", "1 give TH 0"])
    assert "QH" in hand(state, 2) and "TH" in hand(state, 0)
    assert str(state.observation(2).received) == "QH"
    assert str(state.observation(0).received) == "TH"


def test_the_declarer_cannot_give_to_himself():
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, "1 give AS 1"])
    assert message == "action 3: the declarer gives cards to the other players, not to himself"


def test_the_declarer_cannot_give_twice_to_one_player():
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, "1 give QH 2", "1 give TH 2"])
    assert message == "action 4: seat 2 has already been given a card"


def test_the_declarer_cannot_give_to_a_dealer_who_sits_out():
    auction = ["1 bid 100", "2 pass", "3 pass"]
    message = refusal(PLAIN, WORKED_TALON, [*auction, "1 give QH 0"], players=4)
    assert message == "action 3: seat 0 does not play this deal"


def test_the_declarer_gives_only_cards_he_holds():
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, "1 give KS 2"])
    assert message == "action 3: seat 1 does not hold KS"


def test_only_the_declarer_gives():
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, "2 give QD 0"])
    assert message == "action 3: it is seat 1's turn, not seat 2's"


@pytest.mark.parametrize("gives", [[], ["1 give QH 2"]])
def test_no_contract_or_play_before_both_cards_are_given(gives):
    index = len(AUCTION) + len(gives)
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, *gives, "1 contract 100"])
    assert message == f"action {index}: the declarer must first give one card to each other player"
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, *gives, "1 play AS"])
    assert message == f"action {index}: the declarer must first give one card to each other player"
