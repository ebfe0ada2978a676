"""RULES.md section 4: the auction."""

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

# Dealer 0: seat 1 bids first, then seat 2, then seat 0. Nobody holds a marriage.
PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]

# Seat 1 holds the spade and heart marriages (140), seat 2 clubs (60), seat 0 diamonds (80).
MARRIED = ["KS QS KH QH AS TS AH", "KC QC 9S JS 9H JH TH", "AC TC JC 9C KD QD AD"]
MARRIED_TALON = "9D JD TD"


def bids(state):
    return sorted(int(name.split()[1]) for name in offered(state) if name.startswith("bid"))


def test_the_first_bid_is_at_least_min_bid():
    state = replay(PLAIN, WORKED_TALON)
    assert state.to_act == 1
    assert bids(state)[0] == 40
    assert "pass" in offered(state)
    assert refusal(PLAIN, WORKED_TALON, ["1 bid 35"]) == "action 0: the lowest bid is 40"


def test_min_bid_is_a_rule_option():
    state = replay(PLAIN, WORKED_TALON, rules={"min_bid": 60})
    assert bids(state)[0] == 60
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 55"], rules={"min_bid": 60})
    assert message == "action 0: the lowest bid is 60"


def test_bids_are_multiples_of_5():
    state = replay(PLAIN, WORKED_TALON)
    assert all(value % 5 == 0 for value in bids(state))
    assert bids(state) == list(range(40, 125, 5))
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 42"])
    assert message == "action 0: a bid must be a multiple of 5"


def test_a_bid_must_raise_by_at_least_5():
    state = replay(PLAIN, WORKED_TALON, ["1 bid 60"])
    assert bids(state)[0] == 65
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 60", "2 bid 60"])
    assert message == "action 1: a bid must be at least 5 above the highest bid (60)"
    state = replay(PLAIN, WORKED_TALON, ["1 bid 60", "2 bid 65"])
    assert state.bid == 65
    assert state.to_act == 0


def test_jump_bids_are_allowed_by_default():
    state = replay(PLAIN, WORKED_TALON, ["1 bid 45", "2 bid 60", "0 bid 100"])
    assert state.bid == 100
    assert state.to_act == 1
    assert bids(state) == [105, 110, 115, 120]


def test_without_bid_jumps_a_raise_is_exactly_one_step():
    rules = {"bid_jumps": False}
    state = replay(PLAIN, WORKED_TALON, ["1 bid 40"], rules=rules)
    assert offered(state) == {"pass", "bid 45"}
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 40", "2 bid 50"], rules=rules)
    assert message == "action 1: a bid may only be 45: jumps are not allowed (bid_jumps is off)"
    state = replay(PLAIN, WORKED_TALON, ["1 bid 40", "2 bid 45", "0 bid 50"], rules=rules)
    assert state.bid == 50


def test_no_bid_above_120_without_a_marriage():
    state = replay(PLAIN, WORKED_TALON)
    assert max(bids(state)) == 120
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 125"])
    assert message == "action 0: seat 1 holds no marriage and may not bid above 120"
    state = replay(PLAIN, WORKED_TALON, ["1 bid 120"])
    assert state.bid == 120
    # Seat 2 has no marriage either: after 120 he can only pass.
    assert offered(state) == {"pass"}
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 120", "2 bid 125"])
    assert message == "action 1: seat 2 holds no marriage and may not bid above 120"


@pytest.mark.parametrize(
    ("before", "seat", "cap"),
    [
        ([], 1, 260),  # spades 40 + hearts 100
        (["1 pass"], 2, 180),  # clubs 60
        (["1 pass", "2 bid 40"], 0, 200),  # diamonds 80
    ],
)
def test_marriages_held_raise_the_cap(before, seat, cap):
    state = replay(MARRIED, MARRIED_TALON, before)
    assert state.to_act == seat
    assert max(bids(state)) == cap
    state = replay(MARRIED, MARRIED_TALON, [*before, f"{seat} bid {cap}"])
    assert state.bid == cap
    message = refusal(MARRIED, MARRIED_TALON, [*before, f"{seat} bid {cap + 5}"])
    assert message == (
        f"action {len(before)}: seat {seat} may not bid above {cap} (120 plus the marriages held)"
    )


def test_bid_cap_none_lets_a_player_without_marriage_bid_above_120():
    rules = {"bid_cap": "none"}
    state = replay(PLAIN, WORKED_TALON, rules=rules)
    assert {"bid 125", "bid 200"} <= offered(state)
    state = replay(PLAIN, WORKED_TALON, ["1 bid 125", "2 bid 200"], rules=rules)
    assert state.bid == 200


def test_a_passed_player_takes_no_more_part():
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "0 bid 45"])
    assert state.to_act == 2  # seat 1 has passed and is skipped
    message = refusal(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "0 bid 45", "1 bid 50"])
    assert message == "action 3: it is seat 2's turn, not seat 1's"
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "0 bid 45", "2 bid 50"])
    assert state.to_act == 0


def test_four_players_a_passed_player_is_skipped_and_the_dealer_never_bids():
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "3 bid 45"], players=4)
    assert state.to_act == 2  # not seat 1 (passed), not seat 0 (the dealer)
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "3 bid 45", "2 pass"], players=4)
    assert (state.declarer, state.bid) == (3, 45)


def test_the_auction_ends_when_all_but_one_have_passed():
    items = ["1 bid 40", "2 bid 45", "0 pass", "1 bid 50"]
    state = replay(PLAIN, WORKED_TALON, items)
    assert state.phase_name == "bidding"
    assert state.to_act == 2  # seat 0 has passed
    state = replay(PLAIN, WORKED_TALON, [*items, "2 pass"])
    assert state.phase_name == "giving"
    assert (state.declarer, state.bid, state.forced) == (1, 50, False)
    assert state.to_act == 1
    view = state.observation(0)
    assert (view.declarer, view.bid, view.forced) == (1, 50, False)
    message = refusal(PLAIN, WORKED_TALON, [*items, "2 pass", "1 bid 55"])
    assert message == "action 5: the bidding is over"


def test_the_last_bidder_wins_even_if_he_bid_first():
    state = replay(PLAIN, WORKED_TALON, ["1 bid 70", "2 pass", "0 pass"])
    assert (state.declarer, state.bid) == (1, 70)
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "0 pass"])
    assert (state.declarer, state.bid, state.forced) == (2, 40, False)


def test_bidding_out_of_turn_names_the_seat_to_act():
    message = refusal(PLAIN, WORKED_TALON, ["2 bid 40"])
    assert message == "action 0: it is seat 1's turn, not seat 2's"
    message = refusal(PLAIN, WORKED_TALON, ["1 bid 40", "0 pass"])
    assert message == "action 1: it is seat 2's turn, not seat 0's"


def test_only_bid_or_pass_during_the_auction():
    message = refusal(PLAIN, WORKED_TALON, ["1 give AS 2"])
    assert message == "action 0: seat 1 must bid or pass: the bidding is not over"
    message = refusal(PLAIN, WORKED_TALON, ["1 concede"])
    assert message == "action 0: seat 1 must bid or pass: the bidding is not over"
    message = refusal(PLAIN, WORKED_TALON, ["1 play AS"])
    assert message == "action 0: seat 1 must bid or pass: the bidding is not over"
