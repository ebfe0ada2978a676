"""RULES.md section 6: who leads, following suit, trumping, and the must_beat option."""

import pytest

from rules import Action, Card, DealState, IllegalActionError
from rules.records import replay_deal

from .conftest import (
    MARRIAGE_TRICKS,
    MUST_BEAT_TRICKS,
    WORKED_A,
    WORKED_B,
    WORKED_DECLARER,
    WORKED_TALON,
    hand,
    marriage_deal,
    must_beat_deal,
    offered,
    plays_of,
    refusal,
    replay,
    worked_record,
)

PLAIN = [WORKED_DECLARER, WORKED_A, WORKED_B]
START = ["1 bid 100", "2 pass", "0 pass", "1 give QH 2", "1 give TH 0", "1 contract 100"]


def rejection(state: DealState, text: str) -> str:
    """The message of playing `text` ("seat card") now, which must be illegal."""
    seat, card = text.split()
    before = (offered(state), state.history())
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Action("play", seat=int(seat), card=Card.parse(card)))
    assert (offered(state), state.history()) == before  # nothing was applied
    return str(caught.value)


def test_the_declarer_leads_the_first_trick():
    state = replay(PLAIN, WORKED_TALON, START)
    assert state.to_act == 1
    assert offered(state) == plays_of("AS TS AC TC AD AH 9H 9S") | {"concede"}
    message = refusal(PLAIN, WORKED_TALON, [*START, "2 play JS"])
    assert message == "action 6: it is seat 1's turn, not seat 2's"


def test_a_forced_declarer_leads_the_first_trick_too():
    record = worked_record(forced=True)
    state = replay_deal({**record, "actions": record["actions"][:5]})
    assert state.phase_name == "play"
    assert state.to_act == 0  # the forced declarer, not the first active player


def test_follow_suit():
    state = replay(PLAIN, WORKED_TALON, [*START, "1:AS"])
    assert state.to_act == 2
    assert offered(state) == plays_of("JS QS")
    message = refusal(PLAIN, WORKED_TALON, [*START, "1:AS", "2 play TD"])
    assert message == "action 7: seat 2 must follow suit (spades)"
    assert rejection(state, "2 QH") == "seat 2 must follow suit (spades)"


def test_a_card_not_held_cannot_be_played():
    message = refusal(PLAIN, WORKED_TALON, [*START, "1 play KS"])
    assert message == "action 6: seat 1 does not hold KS"


def test_without_trump_a_player_void_in_the_suit_plays_any_card():
    # Marriage deal, trick 1: seat 2 has no diamond and nobody has declared a marriage yet.
    state = marriage_deal(["1:KD"])
    assert offered(state) == plays_of("9S JS KC QC AH QH 9C 9H")


def test_void_in_the_suit_a_player_must_trump():
    # Spades are trump since trick 2; seat 2 has no diamond but holds JS.
    state = marriage_deal([*MARRIAGE_TRICKS[:2], "1:AD"])
    assert state.to_act == 2
    assert offered(state) == plays_of("JS")
    assert rejection(state, "2 QH") == "seat 2 has no diamonds and must play a trump (spades)"


def test_void_in_the_suit_and_in_trumps_any_card():
    # Trick 2: spades (led, and trump) are missing from seat 0's hand.
    state = marriage_deal([MARRIAGE_TRICKS[0], "1:KS* 2:9S"])
    assert offered(state) == {f"play {card}" for card in hand(state, 0)}
    assert len(offered(state)) == 7


def test_no_obligation_to_beat_by_default():
    state = must_beat_deal([MUST_BEAT_TRICKS[0], "1:QH"], must_beat=False)
    assert offered(state) == plays_of("JH TH 9H")  # JH and 9H do not beat QH
    state = must_beat_deal([MUST_BEAT_TRICKS[0], "1:QH 2:TH"], must_beat=False)
    assert offered(state) == plays_of("KH AH")


def test_by_default_any_trump_when_void():
    state = must_beat_deal([*MUST_BEAT_TRICKS, "1:TC 2:JD"], must_beat=False)
    assert offered(state) == plays_of("9D KD")


# ----------------------------------------------------------------------------- must_beat


def test_must_beat_a_higher_card_of_the_suit_led():
    state = must_beat_deal([MUST_BEAT_TRICKS[0], "1:QH"])
    assert offered(state) == plays_of("TH")
    assert rejection(state, "2 JH") == "seat 2 must beat the winning card QH (must_beat)"
    state = must_beat_deal([MUST_BEAT_TRICKS[0], "1:QH 2:TH"])
    assert offered(state) == plays_of("AH")  # KH does not beat TH
    assert rejection(state, "0 KH") == "seat 0 must beat the winning card TH (must_beat)"


def test_must_beat_a_marriage_lead():
    # Trick 3: seat 0 leads QD and declares diamonds; each follower must beat the best diamond.
    state = must_beat_deal([*MUST_BEAT_TRICKS[:2], "0:QD*"])
    assert offered(state) == plays_of("TD")
    state = must_beat_deal([*MUST_BEAT_TRICKS[:2], "0:QD* 1:TD"])
    assert offered(state) == plays_of("AD")
    assert rejection(state, "2 JD") == "seat 2 must beat the winning card TD (must_beat)"
    state = must_beat_deal([*MUST_BEAT_TRICKS[:2], "0:QD* 1:TD"], must_beat=False)
    assert offered(state) == plays_of("JD AD")


def test_must_beat_unable_to_beat_any_card_of_the_suit():
    state = marriage_deal(["1:KD 2:9C"], rules={"must_beat": True})
    assert offered(state) == plays_of("9D QD JD")  # none beats KD


def test_must_beat_after_a_trump_any_card_of_the_suit_led():
    rules = {"must_beat": True}
    state = marriage_deal([*MARRIAGE_TRICKS[:2], "1:AD 2:JS"], rules=rules)
    assert offered(state) == plays_of("9D QD")


def test_must_beat_void_any_trump_beats_a_card_of_the_suit_led():
    state = must_beat_deal([*MUST_BEAT_TRICKS, "1:TC"])
    assert offered(state) == plays_of("JD")


def test_must_beat_void_must_overtrump():
    state = must_beat_deal([*MUST_BEAT_TRICKS, "1:TC 2:JD"])
    assert offered(state) == plays_of("KD")
    assert rejection(state, "0 9D") == "seat 0 must beat the winning trump JD (must_beat)"
    assert rejection(state, "0 AS") == "seat 0 has no clubs and must play a trump (diamonds)"


def test_must_beat_the_whole_must_beat_deal_replays():
    state = must_beat_deal([*MUST_BEAT_TRICKS, "1:TC 2:JD 0:KD"])
    assert [trick.winner for trick in state.tricks()] == [1, 0, 2, 1, 0]
