"""RULES.md section 6: declaring a marriage, its value, and the trump it makes."""

import pytest

from rules import Suit
from rules.records import deal_record, replay_deal, summarize_deal

from .conftest import (
    MARRIAGE_BIDDING,
    MARRIAGE_HANDS,
    MARRIAGE_TALON,
    MARRIAGE_TRICKS,
    hand,
    marriage_deal,
    offered,
    plays_of,
    record,
    refusal,
    replay,
    scores,
)

MARRIAGE_START = [*MARRIAGE_BIDDING, "1 contract 100"]  # six actions; the play starts at index 6

# Seat 1 holds K and Q of spades, clubs and diamonds and KH; the talon brings QH. He gives the two
# nines of the talon away and keeps all four marriages.
FOUR_HANDS = ["KS QS KC QC KD QD KH", "AS TS JS 9S AC TC JC", "AD TD JD 9D AH TH JH"]
FOUR_TALON = "QH 9C 9H"
FOUR_START = ["1 bid 100", "2 pass", "0 pass", "1 give 9C 2", "1 give 9H 0"]


def marriages(state):
    return [(m["seat"], m["suit"]) for m in summarize_deal(state)["marriages"]]


def trump_seen(state, seat=0):
    trump = state.observation(seat).trump
    return None if trump is None else "SCDH"[trump]


def test_no_marriage_on_the_first_trick_by_default():
    state = marriage_deal()
    assert state.to_act == 1 and {"KS", "QS"} <= hand(state, 1)
    assert not any(name.endswith("*") for name in offered(state))
    message = refusal(MARRIAGE_HANDS, MARRIAGE_TALON, [*MARRIAGE_START, "1 play KS marriage"])
    assert message == "action 6: no marriage may be declared on the first trick"


def test_marriage_on_the_first_trick_with_the_option():
    rules = {"marriage_on_first_trick": True}
    state = marriage_deal(rules=rules)
    assert {"play KS*", "play QS*"} <= offered(state)
    state = marriage_deal(["1:QS*"], rules=rules)
    assert state.deal_points()[1] == 40
    assert trump_seen(state) == "S"
    assert marriages(state) == [(1, "S")]


@pytest.mark.parametrize(("suit", "value"), [("S", 40), ("C", 60), ("D", 80), ("H", 100)])
@pytest.mark.parametrize("rank", ["K", "Q"])
def test_a_marriage_scores_its_value_and_becomes_trump(suit, value, rank):
    rules = {"marriage_on_first_trick": True}
    items = [*FOUR_START, "1 contract 100", f"1:{rank}{suit}*"]
    state = replay(FOUR_HANDS, FOUR_TALON, items, rules=rules)
    assert state.deal_points()[1] == value
    assert marriages(state) == [(1, suit)]
    for seat in (0, 1, 2, None):
        assert trump_seen(state, seat) == suit
    assert summarize_deal(state)["tricks"][0]["trump"] == suit


def test_four_marriages_held_allow_a_contract_of_400():
    state = replay(FOUR_HANDS, FOUR_TALON, FOUR_START)
    assert "contract 400" in offered(state)
    assert "contract 405" not in offered(state)


def test_declaring_on_a_later_trick_scores_and_makes_trump_for_that_trick():
    state = marriage_deal([MARRIAGE_TRICKS[0]])
    assert state.to_act == 1
    assert {"play KS*", "play QS*"} <= offered(state)
    state = marriage_deal([MARRIAGE_TRICKS[0], "1:KS*"])
    assert trump_seen(state) == "S"
    assert state.deal_points()[1] == 6 + 40  # trick 1 (KD 9C JD) and the marriage
    assert state.tricks()[-1].trump == Suit.SPADES
    state = marriage_deal(MARRIAGE_TRICKS[:2])
    assert marriages(state) == [(1, "S")]
    assert summarize_deal(state)["tricks"][1]["trump"] == "S"
    assert summarize_deal(state)["tricks"][0]["trump"] is None


def test_a_marriage_needs_both_king_and_queen():
    # After trick 1 seat 1 holds KH, but QH is in seat 2's hand.
    items = [*MARRIAGE_START, MARRIAGE_TRICKS[0], "1 play KH marriage"]
    message = refusal(MARRIAGE_HANDS, MARRIAGE_TALON, items)
    assert message == "action 9: seat 1 does not hold the marriage of hearts"


def test_a_marriage_is_declared_by_leading_its_king_or_queen():
    items = [*MARRIAGE_START, MARRIAGE_TRICKS[0], "1 play AS marriage"]
    message = refusal(MARRIAGE_HANDS, MARRIAGE_TALON, items)
    assert message == "action 9: a marriage is declared by leading its king or queen"


def test_only_the_player_leading_declares():
    items = [*MARRIAGE_START, MARRIAGE_TRICKS[0], "1:AS", "2 play QH marriage"]
    message = refusal(MARRIAGE_HANDS, MARRIAGE_TALON, items)
    assert message == "action 10: a marriage may be declared only by the player leading to a trick"


def test_a_defender_declares_and_the_new_trump_counts_at_once():
    state = marriage_deal([*MARRIAGE_TRICKS[:3], "2:KC* 0:AC"])
    assert trump_seen(state) == "C"
    assert state.deal_points()[2] == 13 + 60
    # Seat 1 has no club; spades are no longer trump, so he need not play one.
    assert offered(state) == plays_of("AS TS QS KH TD")
    state = marriage_deal(MARRIAGE_TRICKS[:4])
    assert state.tricks()[3].winner == 0  # AC wins: QS is no trump any more
    assert state.to_act == 0
    assert marriages(state) == [(1, "S"), (2, "C")]


def test_leading_a_marriage_king_without_declaring_changes_nothing():
    # Trick 4 again, but seat 2 leads KC without declaring: spades stay trump and QS wins.
    state = marriage_deal([*MARRIAGE_TRICKS[:3], "2:KC 0:AC"])
    assert trump_seen(state) == "S"
    assert state.deal_points()[2] == 13
    assert offered(state) == plays_of("AS TS QS")  # he must trump with a spade
    state = marriage_deal([*MARRIAGE_TRICKS[:3], "2:KC 0:AC 1:QS"])
    assert state.tricks()[3].winner == 1
    assert marriages(state) == [(1, "S")]


def test_leading_the_king_undeclared_gives_no_trump_and_spends_the_marriage():
    state = marriage_deal([MARRIAGE_TRICKS[0], "1:KS 2:9S 0:JC"])
    assert trump_seen(state) is None
    assert marriages(state) == []
    assert state.deal_points()[1] == 12  # card points only
    # Trick 3: seat 2 has no diamond and, with no trump, may play any card.
    state = marriage_deal([MARRIAGE_TRICKS[0], "1:KS 2:9S 0:JC", "1:AD"])
    assert offered(state) == {f"play {card}" for card in hand(state, 2)}
    # The queen alone is no marriage any more.
    items = [*MARRIAGE_START, MARRIAGE_TRICKS[0], "1:KS 2:9S 0:JC", "1 play QS marriage"]
    message = refusal(MARRIAGE_HANDS, MARRIAGE_TALON, items)
    assert message == "action 12: seat 1 does not hold the marriage of spades"


def test_the_marriage_deal_scores_marriages_as_deal_points():
    state = marriage_deal(MARRIAGE_TRICKS)
    # Card points 41 + 66 + 13 = 120; D 66 + 40 = 106 >= 100; A 13 + 60 = 73 -> 75; B 41 -> 40.
    assert state.observation(0).card_points == (41, 66, 13)
    assert state.deal_points() == [41, 106, 73]
    assert scores(state) == {0: 40, 1: 100, 2: 75}


def test_the_marriage_deal_fails_a_contract_above_its_points():
    state = marriage_deal(MARRIAGE_TRICKS, contract=110)
    assert scores(state) == {0: 40, 1: -110, 2: 75}


def test_the_marriage_deal_record_round_trips():
    items = [*MARRIAGE_START, *MARRIAGE_TRICKS]
    original = record(MARRIAGE_HANDS, MARRIAGE_TALON, items)
    assert deal_record(replay_deal(original)) == original
