"""RULES.md section 6: who wins a trick, and who leads the next one."""

from rules.records import replay_deal, summarize_deal

from .conftest import (
    MARRIAGE_TRICKS,
    MUST_BEAT_TRICKS,
    marriage_deal,
    must_beat_deal,
    rejected,
    worked_record,
)


def last_trick(state):
    return summarize_deal(state)["tricks"][-1]


def trick(leader, cards, winner, trump=None):
    return {"leader": leader, "cards": cards.split(), "winner": winner, "trump": trump}


def test_without_trump_the_highest_card_of_the_suit_led_wins():
    # Seat 2 has no diamond and throws AH: a higher card, but not of the suit led.
    state = marriage_deal(["1:KD 2:AH 0:JD"])
    assert last_trick(state) == trick(1, "KD AH JD", 1)
    assert state.deal_points() == [0, 17, 0]


def test_the_ten_ranks_between_king_and_ace():
    state = replay_deal(worked_record())
    tricks = summarize_deal(state)["tricks"]
    assert tricks[3]["cards"] == ["TC", "9C", "KC"] and tricks[3]["winner"] == 1
    assert tricks[7]["cards"] == ["JD", "9S", "TD"] and tricks[7]["winner"] == 2
    state = marriage_deal(MARRIAGE_TRICKS[:6])
    assert last_trick(state)["cards"] == ["QD", "TD", "9H"]
    assert last_trick(state)["winner"] == 1


def test_a_trump_beats_every_card_of_another_suit():
    # Trick 3 of the marriage deal: JS (spades are trump) beats the led AD.
    state = marriage_deal(MARRIAGE_TRICKS[:3])
    assert last_trick(state) == trick(1, "AD JS 9D", 2, "S")
    assert state.observation(0).card_points == (0, 12, 13)


def test_the_highest_trump_wins():
    state = must_beat_deal([*MUST_BEAT_TRICKS, "1:TC 2:JD 0:KD"])
    assert last_trick(state) == trick(1, "TC JD KD", 0, "D")


def test_the_winner_leads_the_next_trick():
    state = replay_deal(worked_record())
    tricks = summarize_deal(state)["tricks"]
    assert [t["winner"] for t in tricks] == [1, 1, 1, 1, 1, 1, 0, 2]
    assert [t["leader"] for t in tricks] == [1, 1, 1, 1, 1, 1, 1, 0]
    state = marriage_deal(MARRIAGE_TRICKS[:3])
    assert state.to_act == 2


def test_a_player_who_did_not_win_cannot_lead():
    record = worked_record()
    actions = record["actions"][:9]  # auction, giving, contract, trick 1 won by seat 1
    assert replay_deal({**record, "actions": actions}).to_act == 1
    actions.append({"seat": 2, "type": "play", "card": "QS"})
    assert rejected({**record, "actions": actions}) == "action 9: it is seat 1's turn, not seat 2's"
