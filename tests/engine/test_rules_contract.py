"""RULES.md section 5.3: naming the contract after giving."""

import pytest

from .conftest import (
    WORKED_A,
    WORKED_B,
    WORKED_DECLARER,
    WORKED_TALON,
    offered,
    refusal,
    replay,
)

PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]
GIVEN = ["1 bid 100", "2 pass", "0 pass", "1 give QH 2", "1 give TH 0"]

# Seat 1 holds KH; the talon brings him QH, so the heart marriage is his only after the auction.
TALON_MARRIAGE = [
    "AS TS AC TC AD AH KH",
    WORKED_A,
    "KS JC KC JD KD JH 9H",
]

# Seat 1 holds the spade and heart marriages (cap 260); the talon is 9D JD TD.
MARRIED = ["KS QS KH QH AS TS AH", "KC QC 9S JS 9H JH TH", "AC TC JC 9C KD QD AD"]
MARRIED_TALON = "9D JD TD"


def contracts(state):
    return sorted(int(name.split()[1]) for name in offered(state) if name.startswith("contract"))


def test_the_declarer_may_name_his_bid():
    state = replay(PLAIN, WORKED_TALON, GIVEN)
    assert state.phase_name == "contract"
    assert "contract 100" in offered(state)
    assert "concede" in offered(state)
    state = replay(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 100"])
    assert state.contract == 100
    assert state.phase_name == "play"
    assert state.observation(2).contract == 100


def test_a_higher_contract_by_fives_up_to_the_cap():
    state = replay(PLAIN, WORKED_TALON, GIVEN)
    assert contracts(state) == [100, 105, 110, 115, 120]
    state = replay(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 120"])
    assert state.contract == 120
    message = refusal(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 125"])
    assert message.startswith("action 5: the contract may not exceed 120")
    message = refusal(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 107"])
    assert message == "action 5: the contract must be a multiple of 5"


def test_the_contract_may_not_be_below_the_bid():
    message = refusal(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 95"])
    assert message == "action 5: the contract may not be below the bid (100)"


def test_the_cap_counts_a_marriage_completed_by_the_talon():
    # During the auction seat 1 holds KH alone: no marriage, no bid above 120.
    message = refusal(TALON_MARRIAGE, WORKED_TALON, ["1 bid 125"])
    assert message == "action 0: seat 1 holds no marriage and may not bid above 120"
    # With QH from the talon kept, his 8 cards hold the heart marriage: up to 220.
    items = ["1 bid 100", "2 pass", "0 pass", "1 give 9S 2", "1 give TH 0"]
    state = replay(TALON_MARRIAGE, WORKED_TALON, items)
    assert contracts(state) == list(range(100, 225, 5))
    state = replay(TALON_MARRIAGE, WORKED_TALON, [*items, "1 contract 220"])
    assert state.contract == 220
    message = refusal(TALON_MARRIAGE, WORKED_TALON, [*items, "1 contract 225"])
    assert message == "action 5: the contract may not exceed 220 (120 plus the marriages held now)"


def test_giving_away_a_talon_marriage_card_keeps_the_cap_at_120():
    items = ["1 bid 100", "2 pass", "0 pass", "1 give QH 2", "1 give TH 0"]
    state = replay(TALON_MARRIAGE, WORKED_TALON, items)
    assert contracts(state) == [100, 105, 110, 115, 120]


def test_giving_away_one_of_two_marriages_lowers_the_cap():
    items = ["1 bid 150", "2 pass", "0 pass", "1 give QH 2", "1 give 9D 0"]
    state = replay(MARRIED, MARRIED_TALON, items)
    assert contracts(state) == [150, 155, 160]  # only the spade marriage is left


@pytest.mark.parametrize("given", [["QS", "QH"], ["KS", "KH"], ["QH", "KS"]])
def test_giving_away_the_marriages_leaves_only_the_bid(given):
    first, second = given
    items = ["1 bid 150", "2 pass", "0 pass", f"1 give {first} 2", f"1 give {second} 0"]
    state = replay(MARRIED, MARRIED_TALON, items)
    assert contracts(state) == [150]
    message = refusal(MARRIED, MARRIED_TALON, [*items, "1 contract 155"])
    assert message == "action 5: the contract may only be the bid (150) with the marriages held now"
    state = replay(MARRIED, MARRIED_TALON, [*items, "1 contract 150"])
    assert state.contract == 150


def test_bid_cap_none_allows_any_contract_without_a_marriage():
    state = replay(PLAIN, WORKED_TALON, GIVEN, rules={"bid_cap": "none"})
    assert {100, 125, 200} <= set(contracts(state))
    state = replay(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 200"], rules={"bid_cap": "none"})
    assert state.contract == 200


def test_the_contract_is_named_once():
    message = refusal(PLAIN, WORKED_TALON, [*GIVEN, "1 contract 100", "1 contract 110"])
    assert message == "action 6: the play has already started"
