"""RULES.md sections 8 and 9: a game of deals, its end and winner, and game records."""

import pytest

from rules import Action, Game, IllegalActionError, RecordError, RuleSet
from rules.records import game_record, replay, replay_game, summarize_game

from .conftest import GAME_FORMAT, conceded_record, worked_record

TARGET = {"target": 100}


def game(deals, *, players=3, first_dealer=0, rules=TARGET, **extra):
    return {
        "format": GAME_FORMAT,
        "players": players,
        "first_dealer": first_dealer,
        "rules": dict(rules),
        "deals": deals,
        **extra,
    }


def play_into(table: Game, deal: dict) -> None:
    """Play a deal record at a live table: deal its deck, then apply its actions."""
    table.start_deal(deal["deck"])
    for action in deal["actions"]:
        table.apply(Action.from_record(action))


# Totals after each deal are in the comments, seats 0, 1, 2.
FORCED_CONCEDE_0 = conceded_record(dealer=0, declarer=0, forced=True, rules=TARGET)  # 0 50 50
SEAT_2_MAKES_45 = worked_record(dealer=1, declarer=2, bid=45, rules=TARGET)  # 10 55 95


def test_the_deal_passes_to_the_left():
    table = Game(players=4, first_dealer=2)
    dealers = []
    for _ in range(5):
        dealer = table.next_dealer
        dealers.append(dealer)
        play_into(table, conceded_record(players=4, dealer=dealer, declarer=(dealer + 1) % 4))
    assert dealers == [2, 3, 0, 1, 2]
    assert [deal.dealer for deal in table.deals] == [2, 3, 0, 1, 2]
    # The dealer sits out: the first active seat, left of him, bid and conceded each deal.
    assert [deal.declarer for deal in table.deals] == [3, 0, 1, 2, 3]
    # The sitting-out dealer scores the talon (TH 9S QH: 15), and it counts in his total.
    assert table.deals[0].scores == (50, 50, 15, -40)
    assert table.totals == [sum(deal.scores[seat] for deal in table.deals) for seat in range(4)]
    assert table.totals[2] == 15 + 50 + 50 - 40 + 15


def test_a_game_record_must_rotate_the_dealer():
    deals = [FORCED_CONCEDE_0, worked_record(dealer=2, rules=TARGET)]
    with pytest.raises(RecordError) as caught:
        replay_game(game(deals))
    assert str(caught.value) == "deal 1: the dealer must be seat 1"


def test_totals_add_up_the_deal_scores():
    table = replay_game(game([FORCED_CONCEDE_0, SEAT_2_MAKES_45]))
    assert [list(deal.scores) for deal in table.deals] == [[0, 50, 50], [10, 5, 45]]
    assert table.totals == [10, 55, 95]
    assert not table.over and table.winner is None
    summary = summarize_game(table)
    assert summary["totals"] == [10, 55, 95]
    assert summary["complete"] is False
    assert [deal["scores"] for deal in summary["deals"]] == [[0, 50, 50], [10, 5, 45]]


def test_totals_may_go_negative():
    deals = [conceded_record(dealer=0, declarer=1, bid=80, rules=TARGET)]
    assert replay_game(game(deals)).totals == [50, -80, 50]


def test_the_game_ends_after_the_deal_that_reaches_the_target():
    first = worked_record(dealer=0, rules=TARGET)  # seat 1 makes 100
    table = replay_game(game([first]))
    assert table.totals == [5, 100, 10]
    assert table.over and table.winner == 1
    with pytest.raises(RecordError) as caught:
        replay_game(game([first, SEAT_2_MAKES_45]))
    assert str(caught.value) == "deal 1: the game was already over"
    live = Game(rules=RuleSet(target=100))
    play_into(live, first)
    with pytest.raises(IllegalActionError, match="the game is over"):
        live.start_deal(first["deck"])


def test_the_default_target_is_1001():
    table = replay_game(game([worked_record(dealer=0)], rules={}))
    assert table.totals == [5, 100, 10]
    assert not table.over


def test_the_declarer_who_reaches_the_target_wins_even_below_another_total():
    last = worked_record(dealer=2, declarer=1, bid=45, rules=TARGET)
    table = replay_game(game([FORCED_CONCEDE_0, SEAT_2_MAKES_45, last]))
    assert table.totals == [15, 100, 105]
    assert table.over and table.winner == 1
    assert summarize_game(table)["winner"] == 1


def test_otherwise_the_highest_total_wins():
    last = worked_record(dealer=2, declarer=1, bid=40, rules=TARGET)
    table = replay_game(game([FORCED_CONCEDE_0, SEAT_2_MAKES_45, last]))
    assert table.totals == [15, 95, 105]
    assert table.over and table.winner == 2


def test_a_tie_between_defenders_at_the_top_means_one_more_deal():
    second = conceded_record(dealer=1, declarer=0, bid=40, rules=TARGET)
    table = replay_game(game([FORCED_CONCEDE_0, second]))
    assert table.totals == [-40, 100, 100]
    assert not table.over and table.winner is None
    third = worked_record(dealer=2, declarer=0, rules=TARGET)  # seats 1 and 2 defend
    table = replay_game(game([FORCED_CONCEDE_0, second, third]))
    assert table.totals == [60, 110, 105]
    assert table.over and table.winner == 1


def test_a_fixed_number_of_deals_ranks_by_total():
    table = Game(players=3, fixed_deals=3, rules=RuleSet(target=100))
    play_into(table, worked_record(dealer=0, rules=TARGET))
    assert table.totals == [5, 100, 10]
    assert not table.over  # the target does not end a game of fixed length
    play_into(table, worked_record(dealer=1, rules=TARGET))
    play_into(table, conceded_record(dealer=2, declarer=0, rules=TARGET))
    assert table.totals == [-25, 155, 160]
    assert table.over and table.winner == 2
    assert table.ranking() == [2, 1, 0]


def test_a_fixed_game_may_end_level():
    table = Game(players=3, fixed_deals=3)
    for dealer in range(3):
        play_into(table, conceded_record(dealer=dealer, declarer=dealer, forced=True))
    assert table.over
    assert table.totals == [100, 100, 100]  # each conceded one forced talon
    assert sorted(table.ranking()) == [0, 1, 2]


def test_a_fixed_number_of_deals_is_a_multiple_of_the_players():
    with pytest.raises(ValueError, match="multiple of 3"):
        Game(players=3, fixed_deals=4)
    with pytest.raises(ValueError, match="multiple of 4"):
        Game(players=4, fixed_deals=6)
    with pytest.raises(RecordError, match="multiple of 3"):
        replay_game(game([], fixed_deals=4))


def test_a_fixed_game_record_is_replayed_to_its_end():
    deals = [
        worked_record(dealer=0, rules=TARGET),
        worked_record(dealer=1, rules=TARGET),
        conceded_record(dealer=2, declarer=0, rules=TARGET),
    ]
    table = replay_game(game(deals, fixed_deals=3))
    assert table.over and table.winner == 2
    assert summarize_game(table)["totals"] == [-25, 155, 160]


@pytest.mark.parametrize(
    "record",
    [
        game([FORCED_CONCEDE_0, SEAT_2_MAKES_45]),
        game(
            [FORCED_CONCEDE_0, SEAT_2_MAKES_45, worked_record(dealer=2, declarer=1, rules=TARGET)]
        ),
        game([worked_record(dealer=0, rules=TARGET)], fixed_deals=3),
        game([worked_record(players=4, dealer=1, rules={})], players=4, first_dealer=1, rules={}),
        game([], rules={"target": 500, "must_beat": True}),
    ],
    ids=["unfinished", "won", "fixed", "four-players", "empty"],
)
def test_game_records_round_trip(record):
    assert game_record(replay_game(record)) == record
    assert game_record(replay(record)) == record


def test_a_game_record_with_a_deal_in_progress_round_trips():
    unfinished = worked_record(dealer=1, rules=TARGET)
    unfinished["actions"] = unfinished["actions"][:10]
    record = game([FORCED_CONCEDE_0, unfinished])
    table = replay_game(record)
    assert table.current is not None and not table.over
    assert game_record(table) == record
    assert summarize_game(table)["current"]["to_act"] == table.current.to_act


def test_every_deal_of_a_game_plays_by_the_game_rules():
    deals = [worked_record(dealer=0, rules={"target": 200})]
    with pytest.raises(RecordError) as caught:
        replay_game(game(deals))
    assert str(caught.value) == "deal 0: a deal's rules must be the rules of its game"
