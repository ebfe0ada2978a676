"""Score sheets: every rule a row can break, the game's end, quick totals and engine-made sheets."""

import json
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules import DEFAULT_RULES, Game, RuleSet
from rules import actions as A
from rules.deal import BIDDING, CONTRACT, DealState
from rules.simulate import shuffled_deck
from scoring.score_sheet import (
    ScoreSheetError,
    sheet_from_deals,
    sheet_from_game,
    validate_score_sheet,
)
from tests.hypothesis_profiles import examples

SHORT = RuleSet(target=200)


def row(dealer, declarer, bid, contract, outcome, scores, *, forced=False):
    return {
        "dealer": dealer,
        "declarer": declarer,
        "bid": bid,
        "contract": contract,
        "outcome": outcome,
        "forced": forced,
        "scores": scores,
    }


def base_rows():
    """A complete 3-player game to 200: seat 1 reaches the target as declarer in row 4."""
    return [
        row(0, 1, 100, 110, "made", [10, 110, 0]),
        row(1, 2, 60, 60, "failed", [40, 30, -60]),
        row(2, 0, 120, 120, "made", [120, 0, 0]),
        row(0, 1, 70, 70, "made", [25, 70, 5]),
    ]


def validate(rows, *, players=3, first_dealer=0, rules=SHORT, **options):
    sheet = {"mode": "deals", "rows": rows}
    return validate_score_sheet(
        sheet, players=players, first_dealer=first_dealer, rules=rules, **options
    )


def messages(rows, **options):
    with pytest.raises(ScoreSheetError) as caught:
        validate(rows, **options)
    return caught.value.messages


def first_row_replaced(new_row, **options):
    """The messages about the row when it is the first row of a sheet (the game's end aside)."""
    return [text for text in messages([new_row], **options) if text.startswith("row ")]


# --------------------------------------------------------------------------- a valid sheet
def test_a_valid_sheet_gives_totals_running_totals_winner_and_places():
    result = validate(base_rows())
    assert result.totals == (195, 210, -55)
    assert result.running_totals == ((10, 110, 0), (50, 140, -60), (170, 140, -60), (195, 210, -55))
    assert result.winner == 1
    assert result.placements == (2, 1, 3)
    assert result.deals == 4
    assert result.mode == "deals"


def test_the_normalized_sheet_validates_to_the_same_result():
    result = validate(base_rows())
    stored = json.loads(json.dumps(result.as_sheet()))
    again = validate_score_sheet(stored, players=3, first_dealer=0, rules=SHORT)
    assert again == result


def test_table_result_maps_seats_to_players_and_a_bot_seat_to_none():
    result = validate(base_rows())
    table = result.table_result(round_number=2, table_number=5, players=("ann", None, "cy"))
    assert table.players == ("ann", None, "cy")
    assert table.totals == (195, 210, -55)
    assert table.placements == (2, 1, 3)
    assert table.winner is None  # the bot in seat 1 won
    named = result.table_result(round_number=2, table_number=5, players=("ann", "bo", "cy"))
    assert named.winner == "bo"


# --------------------------------------------------------------------------- one rule per test
def test_the_dealer_rotates_from_the_first_dealer():
    rows = base_rows()
    rows[1]["dealer"] = 2
    assert messages(rows) == [
        "row 2: the dealer must be seat 2, not seat 3 "
        "(the deal passes to the left after every deal)"
    ]


def test_the_first_dealer_is_where_the_rotation_starts():
    rows = [dict(r, dealer=(r["dealer"] + 1) % 3) for r in base_rows()]
    assert validate(rows, first_dealer=1).deals == 4


def test_the_declarer_is_a_seat_of_the_table():
    assert first_row_replaced(row(0, 3, 100, 110, "made", [10, 110, 0])) == [
        "row 1: the declarer must be a seat from 1 to 3"
    ]


def test_the_dealer_of_four_cannot_declare():
    rows = [row(0, 0, 100, 100, "made", [100, 10, 5, 5])]
    assert messages(rows, players=4) == [
        "row 1: the declarer cannot be seat 1: the dealer sits out the deal",
        "the game is not over after the last row (1): no total has reached 200",
    ]


def test_a_forced_declarer_is_the_third_active_player():
    assert first_row_replaced(row(0, 1, 40, 40, "made", [10, 40, 0], forced=True)) == [
        "row 1: a forced declarer is the third active player, seat 1, after the first two pass "
        "without a bid"
    ]


def test_a_forced_declarer_plays_for_the_lowest_bid():
    assert first_row_replaced(row(0, 0, 50, 50, "made", [50, 0, 0], forced=True)) == [
        "row 1: a forced declarer plays for the lowest bid, 40, not 50"
    ]


def test_the_bid_is_a_multiple_of_five():
    assert first_row_replaced(row(0, 1, 102, 110, "made", [10, 110, 0])) == [
        "row 1: the bid must be a multiple of 5, not 102"
    ]


def test_the_bid_is_at_least_the_lowest_bid():
    assert first_row_replaced(row(0, 1, 35, 110, "made", [10, 110, 0])) == [
        "row 1: the bid must be at least 40, not 35"
    ]


def test_without_jumps_a_bid_is_reached_in_steps():
    rules = RuleSet(target=200, bid_jumps=False, bid_step=10)
    assert first_row_replaced(row(0, 1, 105, 110, "made", [10, 110, 0]), rules=rules) == [
        "row 1: without jumps (bid_jumps off) every bid is 40 plus steps of 10, "
        "so 105 cannot be bid"
    ]
    rows = base_rows()
    rows[0]["bid"] = 100
    assert validate(rows, rules=rules).winner == 1


def test_a_bid_is_capped_by_the_marriages_seven_cards_can_hold():
    assert first_row_replaced(row(0, 1, 365, 365, "made", [0, 365, 0])) == [
        "row 1: the bid may not exceed 360 "
        "(120 plus the three marriages a hand of 7 cards can hold)"
    ]


def test_without_a_bid_cap_no_bid_exceeds_what_a_deal_can_score():
    rules = RuleSet(target=200, bid_cap="none")
    assert first_row_replaced(row(0, 1, 405, 405, "made", [0, 405, 0]), rules=rules) == [
        "row 1: the bid may not exceed 400: no deal can score more"
    ]


def test_the_outcome_is_made_failed_or_conceded():
    assert first_row_replaced(row(0, 1, 100, 110, "won", [10, 110, 0])) == [
        "row 1: the outcome must be 'made', 'failed' or 'conceded', not 'won'"
    ]


def test_a_played_deal_has_a_contract():
    assert first_row_replaced(row(0, 1, 100, None, "made", [10, 110, 0])) == [
        "row 1: a played deal needs its contract"
    ]


def test_the_contract_is_a_multiple_of_five():
    assert first_row_replaced(row(0, 1, 100, 112, "made", [10, 112, 0])) == [
        "row 1: the contract must be a multiple of 5, not 112"
    ]


def test_the_contract_is_not_below_the_bid():
    assert first_row_replaced(row(0, 1, 100, 95, "made", [10, 95, 0])) == [
        "row 1: the contract (95) may not be below the bid (100)"
    ]


def test_the_contract_is_capped_by_all_cards_and_marriages():
    assert first_row_replaced(row(0, 1, 100, 405, "made", [0, 405, 0])) == [
        "row 1: the contract may not exceed 400 (120 card points plus all four marriages)"
    ]


def test_a_made_contract_scores_plus_the_contract():
    assert first_row_replaced(row(0, 1, 100, 110, "made", [10, 100, 0])) == [
        "row 1: the declarer (seat 2) made the contract 110 and scores +110, not 100"
    ]


def test_a_failed_contract_scores_minus_the_contract():
    rows = base_rows()
    rows[1]["scores"] = [40, 30, 60]
    assert messages(rows) == [
        "row 2: the declarer (seat 3) failed the contract 60 and scores -60, not 60"
    ]


def test_conceding_after_the_contract_scores_minus_the_contract():
    assert first_row_replaced(row(0, 1, 100, 110, "conceded", [50, -100, 50])) == [
        "row 1: the declarer (seat 2) conceded the contract 110 and scores -110, not -100"
    ]


def test_conceding_before_the_contract_scores_minus_the_bid():
    assert first_row_replaced(row(0, 1, 100, None, "conceded", [50, -110, 50])) == [
        "row 1: the declarer (seat 2) conceded before naming a contract and scores minus the "
        "bid, -100, not -110"
    ]


def test_a_forced_declarer_who_concedes_scores_nothing():
    assert first_row_replaced(row(0, 0, 40, None, "conceded", [-40, 50, 50], forced=True)) == [
        "row 1: the forced declarer (seat 1) conceded and scores 0, not -40"
    ]
    assert first_row_replaced(row(0, 0, 40, None, "conceded", [0, 50, 50], forced=True)) == []


def test_the_other_players_score_the_concede_bonus():
    assert first_row_replaced(row(0, 1, 100, None, "conceded", [50, -100, 40])) == [
        "row 1: seat 3 scores +50 when the declarer concedes (concede_bonus), not 40"
    ]
    rules = RuleSet(target=200, concede_bonus=0)
    rows = [row(0, 1, 100, None, "conceded", [0, -100, 0]), *base_rows()[1:]]
    assert messages(rows, rules=rules)[0].startswith("the game is not over")


def test_a_defender_cannot_score_below_zero():
    assert first_row_replaced(row(0, 1, 100, 110, "made", [-5, 110, 0])) == [
        "row 1: seat 1 defends and cannot score below 0, not -5"
    ]


def test_a_defender_scores_rounded_points():
    assert first_row_replaced(row(0, 1, 100, 110, "made", [12, 110, 0])) == [
        "row 1: seat 1 defends and scores his deal points rounded to 5; 12 is not a multiple of 5"
    ]
    rules = RuleSet(target=200, rounding=10)
    assert first_row_replaced(row(0, 1, 100, 110, "made", [15, 110, 0]), rules=rules) == [
        "row 1: seat 1 defends and scores his deal points rounded to 10; 15 is not a multiple of 10"
    ]


def test_a_defender_scores_at_most_all_cards_and_marriages():
    assert first_row_replaced(row(0, 1, 100, 110, "failed", [405, -110, 0])) == [
        "row 1: seat 1 defends and can score at most 400 (120 card points plus all four "
        "marriages), not 405"
    ]


def test_the_defenders_together_share_one_deck_and_the_marriages():
    assert first_row_replaced(row(0, 1, 100, 100, "failed", [300, -100, 300])) == [
        "row 1: the defenders (seats 1 and 3) score 300 and 300, more than one deal holds "
        "(120 card points, and each marriage is declared at most once)"
    ]


def test_a_made_contract_needs_the_points_the_defenders_left():
    # Whichever marriages the defenders declared, at most 222 deal points remain for the declarer.
    assert first_row_replaced(row(0, 1, 300, 300, "made", [100, 300, 80])) == [
        "row 1: the declarer cannot have made 300 when the defenders (seats 1 and 3) score 100 "
        "and 80: too few card points and marriages are left for him"
    ]


def test_a_failed_contract_needs_the_defenders_to_have_taken_enough():
    assert first_row_replaced(row(0, 1, 100, 110, "failed", [0, -110, 5])) == [
        "row 1: the declarer cannot have failed 110 when the defenders (seats 1 and 3) score "
        "only 0 and 5: the card points they did not take are enough"
    ]


def test_defenders_may_score_their_marriages_beyond_the_card_points():
    # 100 and 80 are the hearts and diamonds marriages; the declarer failed with his cards.
    assert first_row_replaced(row(0, 1, 120, 120, "failed", [100, -120, 80])) == []


def test_the_dealer_of_four_scores_a_possible_talon():
    rows = [row(0, 1, 100, 100, "made", [40, 100, 10, 5])]
    assert messages(rows, players=4, rules=RuleSet(target=100)) == [
        "row 1: the dealer (seat 1) scores the talon: 100 for three nines, otherwise its card "
        "points rounded to 5; 40 is not possible"
    ]
    for talon in (0, 35, 100):
        rows = [row(0, 1, 100, 100, "made", [talon, 100, 10, 5])]
        assert validate(rows, players=4, rules=RuleSet(target=100)).winner == 1


def test_the_dealer_of_four_scores_the_talon_in_a_conceded_deal_too():
    rules = RuleSet(target=100, concede_bonus=100)
    conceded = row(0, 1, 100, None, "conceded", [15, -100, 100, 100])
    assert first_row_replaced(conceded, players=4, rules=rules) == []
    conceded["scores"][0] = 40
    assert first_row_replaced(conceded, players=4, rules=rules) == [
        "row 1: the dealer (seat 1) scores the talon: 100 for three nines, otherwise its card "
        "points rounded to 5; 40 is not possible"
    ]


# --------------------------------------------------------------------------- the game's end
def test_rows_after_the_end_of_the_game_are_an_error():
    rows = [*base_rows(), row(1, 2, 60, 60, "made", [20, 30, 60])]
    assert messages(rows) == [
        "row 5: the game ended after row 4 (seat 2 won); the sheet stops at the deal that ends "
        "the game"
    ]


def test_a_sheet_must_reach_the_end_of_the_game():
    assert messages(base_rows()[:3]) == [
        "the game is not over after the last row (3): no total has reached 200"
    ]


def test_a_tie_for_the_lead_between_defenders_means_one_more_deal():
    rows = [
        row(0, 1, 100, 100, "failed", [100, -100, 100]),
        row(1, 1, 100, 100, "failed", [100, -100, 100]),
    ]
    assert messages(rows) == [
        "the game is not over after the last row (2): seats 1 and 3 tie for the lead at 200, "
        "so one more deal is played"
    ]
    rows.append(row(2, 0, 60, 60, "made", [60, 10, 20]))
    result = validate(rows)
    assert (result.totals, result.winner, result.placements) == ((260, -190, 220), 0, (1, 3, 2))


def test_the_declarer_at_the_target_wins_over_a_higher_defender():
    rows = [
        row(0, 1, 100, 100, "failed", [150, -100, 20]),
        row(1, 2, 180, 180, "made", [80, 0, 180]),
    ]
    result = validate(rows)
    assert result.totals == (230, -100, 200)
    assert result.winner == 2
    assert result.placements == (2, 3, 1)


def test_a_sole_leader_at_the_target_wins_when_the_declarer_does_not_reach_it():
    rows = [row(0, 1, 100, 100, "failed", [200, -100, 0])]
    result = validate(rows)
    assert (result.winner, result.placements) == (0, (1, 3, 2))


# --------------------------------------------------------------------------- fixed deals
def test_a_fixed_game_has_exactly_its_deals_and_ignores_the_target():
    result = validate(base_rows()[:3], fixed_deals=3, rules=RuleSet(target=100))
    assert result.totals == (170, 140, -60)
    assert (result.winner, result.placements, result.deals) == (0, (1, 2, 3), 3)
    assert messages(base_rows()[:2], fixed_deals=3) == [
        "this table plays 3 deals, but the sheet has only 2 rows"
    ]
    assert messages(base_rows(), fixed_deals=3) == [
        "row 4: this table plays 3 deals, so the sheet has 3 rows, not 4"
    ]


def test_a_fixed_game_with_a_tie_for_the_lead_has_no_winner():
    rows = [
        row(0, 1, 40, None, "conceded", [50, -40, 50]),
        row(1, 2, 40, None, "conceded", [50, 50, -40]),
        row(2, 0, 40, None, "conceded", [-40, 50, 50]),
    ]
    result = validate(rows, fixed_deals=3)
    assert (result.totals, result.winner, result.placements) == ((60, 60, 60), None, (1, 1, 1))


# --------------------------------------------------------------------------- error reports
def test_every_row_is_checked_and_each_reports_its_first_error():
    rows = base_rows()
    rows[0]["dealer"] = 1
    rows[0]["bid"] = 102  # a second error in the same row is not reported
    rows[2]["scores"] = [125, 0, 3]
    assert messages(rows) == [
        "row 1: the dealer must be seat 1, not seat 2 (the deal passes to the left after every "
        "deal)",
        "row 3: the declarer (seat 1) made the contract 120 and scores +120, not 125",
    ]


def test_the_game_end_is_not_judged_after_unreadable_scores():
    rows = base_rows()[:3]
    rows[1]["scores"] = [40, 30]
    assert messages(rows) == ["row 2: 'scores' must list 3 whole numbers, one per seat"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"scores": None}, "row 1: 'scores' must list 3 whole numbers, one per seat"),
        ({"note": "x"}, "row 1: unknown field 'note'"),
        ({"bid": "100"}, "row 1: 'bid' must be a whole number"),
        ({"dealer": True}, "row 1: 'dealer' must be a whole number"),
        (
            {"contract": 1.5},
            "row 1: 'contract' must be a whole number (or empty if none was named)",
        ),
        ({"forced": "no"}, "row 1: 'forced' must be true or false"),
        ({"scores": [10, 110, "0"]}, "row 1: 'scores' must list 3 whole numbers, one per seat"),
    ],
)
def test_malformed_fields_are_named(change, message):
    rows = base_rows()
    rows[0].update(change)
    assert messages(rows) == [message]


def test_missing_fields_and_non_objects_are_named():
    rows = base_rows()
    del rows[0]["declarer"]
    rows[1] = [1, 2, 60]
    assert messages(rows) == [
        "row 1: 'declarer' is missing",
        "row 2: a row must be an object with dealer, declarer, bid, contract, outcome and scores",
    ]


def test_contract_and_forced_may_be_left_out():
    conceded = {
        "dealer": 0,
        "declarer": 1,
        "bid": 100,
        "outcome": "conceded",
        "scores": [50, -100, 50],
    }
    assert first_row_replaced(conceded) == []


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ([], "a score sheet must be an object with 'mode' and its rows or totals"),
        ({"rows": []}, "the sheet's 'mode' must be 'deals' or 'totals'"),
        ({"mode": "deals", "rows": [], "extra": 1}, "the sheet has no field 'extra'"),
        ({"mode": "deals", "rows": {}}, "'rows' must be a list with one row per deal"),
        ({"mode": "deals", "rows": []}, "the sheet has no rows"),
        (
            {"mode": "totals", "totals": [1005, 0, 0]},
            "this tournament does not accept final totals only; enter the score sheet deal by deal",
        ),
    ],
)
def test_malformed_sheets_are_refused(sheet, message):
    with pytest.raises(ScoreSheetError) as caught:
        validate_score_sheet(sheet, players=3, first_dealer=0, rules=DEFAULT_RULES)
    assert caught.value.messages == [message]
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "options",
    [
        {"players": 5, "first_dealer": 0},
        {"players": 3, "first_dealer": 3},
        {"players": 3, "first_dealer": 0, "fixed_deals": 4},
        {"players": 4, "first_dealer": 0, "fixed_deals": 0},
    ],
)
def test_a_wrong_table_description_is_the_callers_error(options):
    with pytest.raises(ValueError) as caught:
        validate_score_sheet({"mode": "deals", "rows": base_rows()}, rules=SHORT, **options)
    assert type(caught.value) is ValueError


# --------------------------------------------------------------------------- final totals only
def quick(totals, winner=None, *, fixed_deals=None, rules=DEFAULT_RULES):
    sheet = {"mode": "totals", "totals": totals}
    if winner is not None:
        sheet["winner"] = winner
    return validate_score_sheet(
        sheet,
        players=len(totals),
        first_dealer=0,
        rules=rules,
        fixed_deals=fixed_deals,
        quick_allowed=True,
    )


def quick_messages(*args, **options):
    with pytest.raises(ScoreSheetError) as caught:
        quick(*args, **options)
    return caught.value.messages


def test_final_totals_give_the_sole_leader_as_winner():
    result = quick([1005, 420, -35])
    assert (result.winner, result.placements, result.deals, result.rows) == (0, (1, 2, 3), None, ())
    assert result.as_sheet() == {"mode": "totals", "totals": [1005, 420, -35], "winner": 0}


def test_final_totals_may_name_a_declarer_who_won_below_the_top_total():
    result = quick([1010, 1005, 0, 5], winner=1)
    assert (result.winner, result.placements) == (1, (2, 1, 4, 3))


def test_final_totals_need_the_winner_named_on_a_tie_for_the_lead():
    assert quick_messages([1010, 1010, 0]) == [
        "seats 1 and 2 tie for the lead: name the winner (the declarer who reached 1001 in the "
        "last deal)"
    ]
    assert quick([1010, 1010, 0], winner=1).placements == (2, 1, 3)


def test_final_totals_are_checked():
    assert quick_messages([1010, 900, 0], winner=1) == [
        "seat 2 cannot have won with 900: the winner reaches 1001"
    ]
    assert quick_messages([1003, 900, 1]) == [
        "seat 1's total 1003 must be a multiple of 5: every deal scores multiples of 5",
        "seat 3's total 1 must be a multiple of 5: every deal scores multiples of 5",
    ]
    assert quick_messages([995, 900, 0]) == ["no total reaches 1001, so the game is not over"]
    assert quick_messages([1005, 900, "0"]) == ["'totals' must list 3 whole numbers, one per seat"]
    assert quick_messages([1005, 900, 0], winner=3) == ["the winner must be a seat from 1 to 3"]


def test_final_totals_of_a_fixed_game_are_ranked_by_total():
    assert quick([300, 300, 100], fixed_deals=3).winner is None
    assert quick([300, 300, 100], fixed_deals=3).placements == (1, 1, 3)
    assert quick([300, 200, 100], fixed_deals=3).winner == 0
    assert quick_messages([300, 200, 100], winner=1, fixed_deals=3) == [
        "seat 2 cannot have won: a game of 3 deals is won by the highest total alone"
    ]


# --------------------------------------------------------------------------- engine-made sheets
def play_deal(state: DealState, rng: random.Random, concede_rate: float) -> None:
    """Random play that bids and contracts low, so that totals climb, conceding now and then."""
    while not state.done:
        codes = state.legal_codes()
        if A.CONCEDE in codes and rng.random() < concede_rate:
            state.step(A.CONCEDE)
            continue
        codes = [code for code in codes if code != A.CONCEDE]
        if state.phase == BIDDING:
            codes = codes[:2]
        elif state.phase == CONTRACT:
            codes = codes[: rng.choice((1, 2))]
        state.step(rng.choice(codes))


rule_sets = st.builds(
    RuleSet,
    bid_jumps=st.booleans(),
    bid_cap=st.sampled_from(["held_marriages", "none"]),
    must_beat=st.booleans(),
    marriage_on_first_trick=st.booleans(),
    round_declarer_points=st.booleans(),
    rounding=st.sampled_from([5, 10]),
    concede_bonus=st.sampled_from([0, 50]),
    target=st.sampled_from([100, 300, 1001]),
)


@st.composite
def finished_games(draw):
    players = draw(st.sampled_from([3, 4]))
    rules = draw(rule_sets)
    fixed = draw(st.one_of(st.none(), st.integers(1, 3).map(lambda k: k * players)))
    game = Game(
        players=players,
        first_dealer=draw(st.integers(0, players - 1)),
        rules=rules,
        fixed_deals=fixed,
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    concede_rate = draw(st.sampled_from([0.0, 0.05, 0.3]))
    while not game.over and len(game.deals) < 200:
        deal = game.start_deal(shuffled_deck(rng))
        play_deal(deal, rng, concede_rate)
        game.close_deal(deal)
    assume(game.over)
    return game


def validate_game_sheet(game, sheet, **options):
    return validate_score_sheet(
        sheet,
        players=game.players,
        first_dealer=game.first_dealer,
        rules=game.rules,
        fixed_deals=game.fixed_deals,
        **options,
    )


@settings(max_examples=examples(150), deadline=None)
@given(game=finished_games())
def test_engine_games_give_valid_sheets_with_the_engines_result(game):
    sheet = json.loads(json.dumps(sheet_from_game(game)))
    result = validate_game_sheet(game, sheet)
    assert result.totals == tuple(game.totals)
    assert result.winner == game.winner
    assert result.deals == len(game.deals)
    running = [0] * game.players
    for deal, totals in zip(game.deals, result.running_totals, strict=True):
        running = [total + score for total, score in zip(running, deal.scores, strict=True)]
        assert totals == tuple(running)
    ranking = game.ranking()
    places = [result.placements[seat] for seat in ranking]
    assert places == sorted(places)
    if game.winner is not None:
        assert result.placements[game.winner] == 1
        assert list(result.placements).count(1) == 1
    for seat in range(game.players):
        for other in range(game.players):
            if game.winner not in (seat, other):
                same_total = game.totals[seat] == game.totals[other]
                assert same_total == (result.placements[seat] == result.placements[other])

    # The quick path gives the same result from the final totals and the winner.
    quick_sheet = {"mode": "totals", "totals": game.totals, "winner": game.winner}
    quick_result = validate_game_sheet(game, quick_sheet, quick_allowed=True)
    assert (quick_result.totals, quick_result.winner, quick_result.placements) == (
        result.totals,
        result.winner,
        result.placements,
    )


@settings(max_examples=examples(80), deadline=None)
@given(game=finished_games())
def test_engine_sheets_cut_short_or_run_long_are_refused(game):
    rows = sheet_from_game(game)["rows"]
    count = len(rows)
    if count > 1:
        with pytest.raises(ScoreSheetError) as caught:
            validate_game_sheet(game, {"mode": "deals", "rows": rows[:-1]})
        expected = (
            f"this table plays {count} deals, but the sheet has only {count - 1} rows"
            if game.fixed_deals
            else f"the game is not over after the last row ({count - 1}):"
        )
        assert caught.value.messages[-1].startswith(expected)
    with pytest.raises(ScoreSheetError) as caught:
        validate_game_sheet(game, {"mode": "deals", "rows": [*rows, rows[-1]]})
    expected = (
        f"row {count + 1}: this table plays {count} deals"
        if game.fixed_deals
        else f"row {count + 1}: the game ended after row {count} (seat {game.winner + 1} won)"
    )
    assert caught.value.messages == [caught.value.messages[0]]
    assert caught.value.messages[0].startswith(expected)


def test_a_sheet_is_made_from_finished_deals_only():
    deal = DealState.deal(shuffled_deck(random.Random(1)))
    with pytest.raises(ValueError, match="deal 1 is not finished"):
        sheet_from_deals([deal])
