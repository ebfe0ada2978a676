"""RULES.md section 9: deal records, their validation, and the rule options they carry."""

import pytest

from rules import (
    Action,
    Card,
    IllegalActionError,
    RecordError,
    RuleOptionError,
    RuleSet,
)
from rules.records import deal_record, replay_deal

from .conftest import (
    DEAL_FORMAT,
    MARRIAGE_BIDDING,
    MARRIAGE_HANDS,
    MARRIAGE_TALON,
    MARRIAGE_TRICKS,
    MUST_BEAT_HANDS,
    MUST_BEAT_START,
    MUST_BEAT_TALON,
    MUST_BEAT_TRICKS,
    conceded_record,
    record,
    rejected,
    worked_record,
)

WORKED = worked_record()  # 3 auction + 2 gives + 1 contract + 24 plays = 30 actions


def cut(deal, count):
    return {**deal, "actions": deal["actions"][:count]}


def changed(deal=None, **fields):
    return {**(deal or WORKED), **fields}


def with_action(index, action, deal=None):
    deal = deal or WORKED
    actions = [*deal["actions"][:index], action]
    return {**deal, "actions": actions}


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(
    "deal",
    [
        WORKED,
        cut(WORKED, 0),
        cut(WORKED, 2),
        cut(WORKED, 4),
        cut(WORKED, 6),
        cut(WORKED, 17),
        worked_record(players=4, dealer=3),
        worked_record(forced=True, contract=105),
        conceded_record(declarer=2, bid=85),
        worked_record(rules={"rounding": 10, "round_declarer_points": True}),
        record(
            MARRIAGE_HANDS, MARRIAGE_TALON, [*MARRIAGE_BIDDING, "1 contract 100", *MARRIAGE_TRICKS]
        ),
        record(
            MUST_BEAT_HANDS,
            MUST_BEAT_TALON,
            [*MUST_BEAT_START, *MUST_BEAT_TRICKS],
            rules={"must_beat": True},
        ),
    ],
    ids=[
        "worked",
        "no-actions",
        "mid-auction",
        "mid-giving",
        "before-first-card",
        "mid-trick",
        "four-players",
        "forced",
        "conceded",
        "rule-options",
        "marriages",
        "must-beat",
    ],
)
def test_deal_records_round_trip(deal):
    assert deal_record(replay_deal(deal)) == deal


# ----------------------------------------------------------------------------- malformed records


def test_a_record_is_a_json_object():
    assert rejected([WORKED]) == "a deal record must be a JSON object"
    assert rejected("1001") == "a deal record must be a JSON object"


def test_a_record_names_its_format():
    message = rejected(changed(format="1001-deal/2"))
    assert message == "'format' must be '1001-deal/1', not '1001-deal/2'"
    deal = dict(WORKED)
    del deal["format"]
    assert rejected(deal) == "'format' must be '1001-deal/1', not None"
    assert rejected(changed(format="1001-game/1")).startswith("'format' must be '1001-deal/1'")


def test_a_record_has_no_unknown_fields():
    assert rejected(changed(score=[0, 0, 0])) == "a deal record has no field 'score'"


def test_a_record_has_3_or_4_players_and_a_dealer_among_them():
    assert rejected(changed(players=5)) == "'players' must be 3 or 4"
    assert rejected(changed(players=True)) == "'players' must be 3 or 4"
    # 3.0 == 3 in Python: a float count once passed and failed later with a TypeError.
    assert rejected(changed(players=3.0)) == "'players' must be 3 or 4"
    assert rejected(changed(dealer=3)) == "'dealer' must be a seat from 0 to 2"
    assert rejected(changed(dealer="0")) == "'dealer' must be a seat from 0 to 2"


def test_a_bad_card_in_the_deck():
    deck = ["XX", *WORKED["deck"][1:]]
    message = rejected(changed(deck=deck))
    assert message == "deck: 'XX' is not a card (rank 9 J Q K T A then suit S C D H, e.g. 'TH')"


def test_a_duplicate_card_in_the_deck():
    deck = list(WORKED["deck"])
    missing = deck[5]
    deck[5] = deck[0]
    message = rejected(changed(deck=deck))
    assert message == f"deck: a deck holds each of the 24 cards exactly once; missing: {missing}"


def test_a_short_deck():
    message = rejected(changed(deck=WORKED["deck"][:23]))
    last = WORKED["deck"][23]
    assert message == f"deck: a deck holds each of the 24 cards exactly once; missing: {last}"
    assert rejected(changed(deck="9S JS")) == "'deck' must be a list of the 24 cards"


def test_an_unknown_rule_option():
    message = rejected(changed(rules={"must_bet": True}))
    assert message.startswith("rules: unknown rule option 'must_bet'; known options: ")
    assert "must_beat" in message


def test_a_bad_rule_value():
    message = rejected(changed(rules={"rounding": 7}))
    assert message == "rules: rule option rounding must be 5 or 10"
    message = rejected(changed(rules=["must_beat"]))
    assert message == "rules: rules must be an object of rule options"


def test_a_bad_action_type():
    message = rejected(with_action(0, {"seat": 1, "type": "bet", "value": 40}))
    assert message.startswith("action 0: unknown action type 'bet'")
    assert rejected(with_action(0, "1 bid 40")) == (
        "action 0: an action must be an object with 'seat' and 'type'"
    )


def test_bad_action_fields():
    message = rejected(with_action(0, {"seat": 1, "type": "bid"}))
    assert message == "action 0: 'value' must be a whole number"
    message = rejected(with_action(0, {"seat": 1, "type": "pass", "value": 40}))
    assert message == "action 0: a pass action has no field 'value'"
    message = rejected(with_action(6, {"seat": 1, "type": "play", "card": "1S"}))
    assert message == (
        "action 6: '1S' is not a card (rank 9 J Q K T A then suit S C D H, e.g. 'TH')"
    )
    message = rejected(with_action(6, {"seat": 1, "type": "play", "card": "AS", "marriage": 1}))
    assert message == "action 6: 'marriage' must be true or false"
    message = rejected(with_action(3, {"seat": 1, "type": "give", "card": "QH"}))
    assert message == "action 3: 'to' must be a whole number"
    message = rejected(with_action(0, {"seat": 7, "type": "pass"}))
    assert message == "action 0: there is no seat 7 at a table of 3"


def test_an_illegal_action_names_its_index_and_the_rule():
    # Trick 3: seat 1 leads AC (action 12), seat 2 follows QC, seat 0 throws KH holding clubs.
    illegal = with_action(14, {"seat": 0, "type": "play", "card": "KH"})
    assert rejected(illegal) == "action 14: seat 0 must follow suit (clubs)"
    # The same with the rest of the deal after it: nothing after it is applied.
    rest = {**WORKED, "actions": [*illegal["actions"], *WORKED["actions"][15:]]}
    assert rejected(rest) == "action 14: seat 0 must follow suit (clubs)"


def test_no_action_after_the_deal_is_over():
    message = rejected(with_action(30, {"seat": 0, "type": "pass"}))
    assert message == "action 30: the deal is over"


def test_an_illegal_action_leaves_a_live_deal_unchanged():
    state = replay_deal(cut(WORKED, 14))
    before = (state.history(), state.legal_actions(), state.to_act)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Action("play", seat=0, card=Card.parse("KH")))
    assert str(caught.value) == "seat 0 must follow suit (clubs)"
    assert (state.history(), state.legal_actions(), state.to_act) == before
    state.apply(Action("play", seat=0, card=Card.parse("JC")))
    assert state.tricks()[2].winner == 1


def test_a_record_error_is_a_value_error():
    with pytest.raises(ValueError):
        replay_deal(changed(players=2))
    assert issubclass(RecordError, ValueError)


# ----------------------------------------------------------------------------- rule options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounding": 3}, "rule option rounding must be 5 or 10"),
        ({"bid_cap": "all"}, "rule option bid_cap must be one of held_marriages, none, not 'all'"),
        ({"must_beat": "yes"}, "rule option must_beat must be true or false"),
        ({"bid_jumps": 1}, "rule option bid_jumps must be true or false"),
        ({"min_bid": 42}, "rule option min_bid must be a multiple of 5 from 5 to 120"),
        ({"bid_step": 0}, "rule option bid_step must be a multiple of 5 from 5 to 100"),
        ({"target": 50}, "rule option target must be from 100 to 100000"),
        ({"target": True}, "rule option target must be a whole number"),
        ({"target": 1001.0}, "rule option target must be a whole number"),
        ({"concede_bonus": -5}, "rule option concede_bonus must be from 0 to 1000"),
    ],
)
def test_rule_options_are_validated(options, message):
    with pytest.raises(RuleOptionError) as caught:
        RuleSet(**options)
    assert str(caught.value) == message
    with pytest.raises(RuleOptionError):
        RuleSet.from_dict(options)


def test_unknown_rule_options_are_rejected():
    with pytest.raises(RuleOptionError) as caught:
        RuleSet.from_dict({"must_beat": True, "trumps": "always"})
    assert str(caught.value).startswith("unknown rule option 'trumps'; known options: ")
    with pytest.raises(RuleOptionError, match="rules must be an object of rule options"):
        RuleSet.from_dict(["must_beat"])
    assert issubclass(RuleOptionError, ValueError)


def test_to_dict_holds_only_options_that_differ_from_the_defaults():
    assert RuleSet().to_dict() == {}
    assert RuleSet(target=1001, must_beat=False).to_dict() == {}
    rules = RuleSet(must_beat=True, target=500, bid_cap="none", rounding=10)
    assert rules.to_dict() == {"must_beat": True, "target": 500, "bid_cap": "none", "rounding": 10}
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict({}) == RuleSet()


def test_defaults_are_the_rules_of_the_page():
    rules = RuleSet()
    assert (rules.min_bid, rules.bid_step, rules.bid_jumps) == (40, 5, True)
    assert (rules.bid_cap, rules.concede_bonus) == ("held_marriages", 50)
    assert (rules.must_beat, rules.marriage_on_first_trick) == (False, False)
    assert (rules.round_declarer_points, rules.rounding, rules.target) == (False, 5, 1001)


def test_a_record_keeps_only_non_default_rules():
    deal = worked_record(rules={"must_beat": False, "target": 1001, "rounding": 10})
    assert deal_record(replay_deal(deal))["rules"] == {"rounding": 10}
    assert replay_deal(deal).rules == RuleSet(rounding=10)
    assert deal_record(replay_deal(deal))["format"] == DEAL_FORMAT
