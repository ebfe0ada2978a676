"""RULES.md section 5.4: the declarer may concede until the first card is played."""

import pytest

from rules.records import replay_deal

from .conftest import (
    WORKED_A,
    WORKED_B,
    WORKED_DECLARER,
    WORKED_TALON,
    conceded_record,
    offered,
    refusal,
    replay,
    scores,
)

PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]
AUCTION = ["1 bid 100", "2 pass", "0 pass"]
GIVES = ["1 give QH 2", "1 give TH 0"]


@pytest.mark.parametrize(
    ("before", "loss"),
    [
        (AUCTION, 100),
        ([*AUCTION, GIVES[0]], 100),
        ([*AUCTION, *GIVES], 100),
        ([*AUCTION, *GIVES, "1 contract 110"], 110),
        ([*AUCTION, *GIVES, "1 contract 100"], 100),
    ],
    ids=["before-giving", "while-giving", "at-contract", "after-contract-110", "after-contract"],
)
def test_conceding_before_the_first_card_costs_the_bid_or_contract(before, loss):
    state = replay(PLAIN, WORKED_TALON, before)
    assert "concede" in offered(state)
    state = replay(PLAIN, WORKED_TALON, [*before, "1 concede"])
    assert state.done
    assert state.outcome == "conceded"
    assert scores(state) == {1: -loss, 2: 50, 0: 50}


def test_the_defenders_bonus_is_the_concede_bonus_option():
    items = [*AUCTION, "1 concede"]
    state = replay(PLAIN, WORKED_TALON, items, rules={"concede_bonus": 25})
    assert scores(state) == {1: -100, 2: 25, 0: 25}


def test_no_concession_after_the_first_card():
    start = [*AUCTION, *GIVES, "1 contract 100"]
    # The declarer has led: it is seat 2's turn, and he is no declarer.
    message = refusal(PLAIN, WORKED_TALON, [*start, "1:AS", "2 concede"])
    assert message == "action 7: only the declarer may concede"
    # On the lead to the second trick the declarer may no longer concede.
    state = replay(PLAIN, WORKED_TALON, [*start, "1:AS 2:JS 0:KS"])
    assert state.to_act == 1
    assert "concede" not in offered(state)
    message = refusal(PLAIN, WORKED_TALON, [*start, "1:AS 2:JS 0:KS", "1 concede"])
    assert message == "action 9: the declarer may concede only before the first card is played"


def test_only_the_declarer_concedes():
    message = refusal(PLAIN, WORKED_TALON, [*AUCTION, "2 concede"])
    assert message == "action 3: it is seat 1's turn, not seat 2's"


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_four_players_the_dealer_scores_the_talon_in_a_conceded_deal(dealer):
    declarer = (dealer + 1) % 4
    state = replay_deal(conceded_record(players=4, dealer=dealer, declarer=declarer, bid=60))
    expected = {seat: 50 for seat in range(4)}
    expected[declarer] = -60
    expected[dealer] = 15  # talon TH 9S QH: 13 card points, rounded to 15
    assert scores(state) == expected


def test_four_players_three_nines_in_the_talon_score_100_in_a_conceded_deal():
    hands = ["AS TS KS QS JS AH TH", "AC TC KC QC JC KH QH", "AD TD KD QD JD JH 9H"]
    items = ["1 bid 40", "2 pass", "3 pass", "1 concede"]
    state = replay(hands, "9S 9C 9D", items, players=4)
    assert scores(state) == {0: 100, 1: -40, 2: 50, 3: 50}
