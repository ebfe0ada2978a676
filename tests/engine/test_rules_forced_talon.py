"""RULES.md sections 4 and 5.4: the forced talon after two passes, and its concession."""

import pytest

from rules.records import replay_deal

from .conftest import (
    WORKED_A,
    WORKED_B,
    WORKED_DECLARER,
    WORKED_TALON,
    offered,
    refusal,
    replay,
    scores,
    worked_record,
)

PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]


def test_two_passes_without_a_bid_give_the_third_player_a_forced_40():
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 pass"])
    assert state.phase_name == "giving"
    assert (state.declarer, state.bid, state.forced) == (0, 40, True)
    assert state.to_act == 0
    for seat in (0, 1, 2, None):
        view = state.observation(seat)
        assert (view.declarer, view.bid, view.forced) == (0, 40, True)
        assert [str(card) for card in view.talon] == ["TH", "9S", "QH"]
    # The third player never bid: the auction is over.
    assert "bid 45" not in offered(state)


def test_after_two_passes_the_third_player_cannot_bid():
    message = refusal(PLAIN, WORKED_TALON, ["1 pass", "2 pass", "0 bid 60"])
    assert message == "action 2: the bidding is over"


def test_forced_talon_with_four_players_goes_to_the_third_active_seat():
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 pass"], players=4, dealer=0)
    assert (state.declarer, state.bid, state.forced) == (3, 40, True)


def test_a_pass_after_a_bid_is_no_forced_talon():
    state = replay(PLAIN, WORKED_TALON, ["1 bid 40", "2 pass", "0 pass"])
    assert (state.declarer, state.forced) == (1, False)
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 bid 40", "0 pass"])
    assert (state.declarer, state.forced) == (2, False)


@pytest.mark.parametrize(
    "before",
    [
        [],
        ["0 give KS 1"],
        ["0 give KS 1", "0 give JC 2"],
        ["0 give KS 1", "0 give JC 2", "0 contract 60"],
    ],
    ids=["at-once", "after-one-give", "at-contract", "after-contract"],
)
def test_a_forced_declarer_who_concedes_scores_0_and_the_others_50(before):
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 pass", *before, "0 concede"])
    assert state.outcome == "conceded"
    assert scores(state) == {0: 0, 1: 50, 2: 50}


def test_forced_concession_pays_the_concede_bonus_option():
    items = ["1 pass", "2 pass", "0 concede"]
    state = replay(PLAIN, WORKED_TALON, items, rules={"concede_bonus": 30})
    assert scores(state) == {0: 0, 1: 30, 2: 30}


def test_forced_concession_with_four_players_still_scores_the_talon_for_the_dealer():
    # Talon TH 9S QH: 13 card points, rounded to 15.
    state = replay(PLAIN, WORKED_TALON, ["1 pass", "2 pass", "3 concede"], players=4)
    assert scores(state) == {0: 15, 1: 50, 2: 50, 3: 0}


def test_a_forced_declarer_may_name_a_higher_contract_and_play():
    # Seat 0 (third active) holds the worked example's declarer hand: 104 card points.
    record = worked_record(forced=True, contract=100)
    before_contract = {**record, "actions": record["actions"][:4]}
    state = replay_deal(before_contract)
    assert state.phase_name == "contract"
    assert {f"contract {v}" for v in range(40, 125, 5)} | {"concede"} == offered(state)
    state = replay_deal(record)
    assert state.forced
    assert state.contract == 100
    assert state.deal_points() == [104, 12, 4]
    assert scores(state) == {0: 100, 1: 10, 2: 5}


def test_a_forced_declarer_who_plays_and_fails_loses_his_contract():
    state = replay_deal(worked_record(forced=True, contract=105))
    assert state.deal_points()[0] == 104
    assert scores(state) == {0: -105, 1: 10, 2: 5}
