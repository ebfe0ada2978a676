"""RULES.md sections 7 and 10: scoring a deal."""

import pytest

from rules.records import replay_deal, summarize_deal

from .conftest import CARD_ORDER, record, scores, worked_play, worked_record

# Other ways to play the worked deal (dealer 0: declarer seat 1, then seats 2 and 0).
B13 = [
    "1:TC 2:QC 0:JC", "1:AH 2:QH 0:KH", "1:9H 2:QD 0:TH", "0:KS 1:TS 2:JS",
    "1:AC 2:9C 0:KC", "1:AS 2:QS 0:JD", "1:9S 2:9D 0:KD", "1:AD 2:TD 0:JH",
]  # fmt: skip
B17 = [
    "1:TC 2:QC 0:JC", "1:AD 2:TD 0:JD", "1:AS 2:JS 0:KS", "1:AH 2:QH 0:KH",
    "1:TS 2:QS 0:KC", "1:AC 2:9C 0:JH", "1:9H 2:9D 0:TH", "0:KD 1:9S 2:QD",
]  # fmt: skip
B18 = [
    "1:9S 2:JS 0:KS", "0:KH 1:AH 2:QH", "1:TS 2:QS 0:KC", "1:9H 2:TD 0:JH",
    "0:JC 1:TC 2:QC", "1:AC 2:9C 0:KD", "1:AS 2:9D 0:TH", "1:AD 2:QD 0:JD",
]  # fmt: skip
A14 = [
    "1:AS 2:JS 0:KS", "1:TS 2:QS 0:JH", "1:AC 2:QC 0:JC", "1:TC 2:9C 0:KC",
    "1:AD 2:QD 0:JD", "1:AH 2:QH 0:TH", "1:9H 2:9D 0:KH", "0:KD 1:9S 2:TD",
]  # fmt: skip
A15 = [
    "1:TC 2:9C 0:JC", "1:9S 2:QS 0:KS", "0:KD 1:AD 2:TD", "1:AH 2:QH 0:JH",
    "1:AC 2:QC 0:KC", "1:9H 2:9D 0:TH", "0:JD 1:TS 2:QD", "2:JS 0:KH 1:AS",
]  # fmt: skip
BASE = worked_play(1, 2, 0)


def played(tricks, *, contract=100, players=3, rules=None):
    def play(d, a, b):
        assert (d, a, b) == (1, 2, 0 if players == 3 else 3)
        return tricks if players == 3 else [t.replace("0:", "3:") for t in tricks]

    return replay_deal(worked_record(contract=contract, players=players, rules=rules, play=play))


def test_worked_example_contract_made():
    state = played(BASE)
    assert state.deal_points() == [4, 104, 12]
    assert state.outcome == "made"
    assert scores(state) == {1: 100, 2: 10, 0: 5}


def test_worked_example_contract_failed():
    state = played(BASE, contract=110)
    assert state.deal_points() == [4, 104, 12]
    assert state.outcome == "failed"
    assert scores(state) == {1: -110, 2: 10, 0: 5}


@pytest.mark.parametrize(
    ("tricks", "points", "expected"),
    [
        (BASE, [4, 104, 12], [5, 100, 10]),  # 4 -> 5, 12 -> 10
        (B13, [13, 107, 0], [15, 100, 0]),  # 13 -> 15
        (A14, [4, 102, 14], [5, 100, 15]),  # 14 -> 15
        (A15, [17, 88, 15], [15, -100, 15]),  # 17 -> 15, 15 stays
        (B17, [17, 103, 0], [15, 100, 0]),  # 17 -> 15
        (B18, [18, 102, 0], [20, 100, 0]),  # 18 -> 20
    ],
    ids=["12-and-4", "13", "14", "15-and-17-failed", "17", "18"],
)
def test_defenders_score_their_points_rounded_to_5(tricks, points, expected):
    state = played(tricks)
    assert state.deal_points() == points
    assert sum(state.observation(None).card_points) == 120
    assert list(state.scores) == expected


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        (BASE, [0, 100, 10]),  # 4 -> 0, 12 -> 10
        (B13, [10, 100, 0]),  # 13 -> 10
        (A14, [0, 100, 10]),  # 14 -> 10
        (A15, [20, -100, 20]),  # 17 -> 20, 15 -> 20
        (B18, [20, 100, 0]),  # 18 -> 20
    ],
    ids=["12-and-4", "13", "14", "15-and-17", "18"],
)
def test_rounding_option_10_rounds_5_up(tricks, expected):
    state = played(tricks, rules={"rounding": 10})
    assert list(state.scores) == expected


@pytest.mark.parametrize(
    ("tricks", "declarer_points", "contract", "unrounded", "rounded"),
    [
        (BASE, 104, 105, -105, 105),  # 104 rounds up to 105
        (B17, 103, 105, -105, 105),  # 103 rounds up to 105
        (B18, 102, 105, -105, -105),  # 102 rounds down to 100
        (B13, 107, 105, 105, 105),
        (B13, 107, 110, -110, -110),  # 107 rounds down to 105
        (BASE, 104, 100, 100, 100),
    ],
)
def test_declarer_points_are_compared_unrounded_unless_the_option_is_on(
    tricks, declarer_points, contract, unrounded, rounded
):
    state = played(tricks, contract=contract)
    assert state.deal_points()[1] == declarer_points
    assert state.scores[1] == unrounded
    state = played(tricks, contract=contract, rules={"round_declarer_points": True})
    assert state.scores[1] == rounded
    assert state.outcome == ("made" if rounded > 0 else "failed")


def test_the_declarer_scores_exactly_the_contract():
    state = played(BASE, contract=120, rules={"rounding": 10})
    assert state.scores[1] == -120
    state = played(BASE, contract=100, rules={"rounding": 10})
    assert state.scores[1] == 100  # not his 104 card points, rounded or not


def test_four_players_the_dealer_scores_the_talon_of_a_played_deal():
    state = played(BASE, players=4)
    assert state.deal_points() == [None, 104, 12, 4]
    assert scores(state) == {0: 15, 1: 100, 2: 10, 3: 5}  # talon TH 9S QH: 13 -> 15
    assert summarize_deal(state)["points"] == [None, 104, 12, 4]


def talon_deal(talon: str, rules=None):
    """A 4-player deal, dealer 0, with this talon; seat 1 bids 40 and concedes."""
    rest = [card for card in CARD_ORDER if card not in talon.split()]
    hands = [" ".join(rest[k : k + 7]) for k in (0, 7, 14)]
    items = ["1 bid 40", "2 pass", "3 pass", "1 concede"]
    return replay_deal(record(hands, talon, items, players=4, rules=rules))


@pytest.mark.parametrize(
    ("talon", "expected"),
    [
        ("9S 9C 9D", 100),  # three nines
        ("9H 9C 9S", 100),
        ("9S 9C JD", 0),  # 2 -> 0
        ("TS JS 9H", 10),  # 12 -> 10
        ("TH 9S QH", 15),  # 13 -> 15
        ("TS KS 9H", 15),  # 14 -> 15
        ("TS KS QS", 15),  # 17 -> 15
        ("AS KS QS", 20),  # 18 -> 20
        ("AS AC AD", 35),  # 33 -> 35
    ],
)
def test_four_players_the_dealer_scores_the_talon(talon, expected):
    state = talon_deal(talon)
    assert state.scores[0] == expected


@pytest.mark.parametrize(
    ("talon", "expected"),
    [("9S 9C 9D", 100), ("AS KS 9H", 20), ("TS KS 9H", 10), ("TS JS 9H", 10), ("TS KS QS", 20)],
)
def test_four_players_talon_with_rounding_10(talon, expected):
    state = talon_deal(talon, rules={"rounding": 10})
    assert state.scores[0] == expected


def test_card_points_of_all_tricks_sum_to_120():
    for tricks in (BASE, B13, B17, B18, A14, A15):
        state = played(tricks)
        summary = summarize_deal(state)
        assert len(summary["tricks"]) == 8
        assert sum(summary["points"]) == 120  # no marriage declared here
