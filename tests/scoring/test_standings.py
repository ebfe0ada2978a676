"""Standings: placement points and ties, the metrics, precedence, shared ranks, the random key."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standings.ranking import (
    DEFAULT_PRECEDENCE,
    METRICS,
    TableResult,
    compute_standings,
    row_to_dict,
    table_points,
    validate_placement_points,
    validate_precedence,
)
from tests.hypothesis_profiles import examples


def table(round_number, table_number, players, placements, totals=None, winner=None):
    totals = totals or [100 * (len(players) - int(place)) for place in placements]
    return TableResult(
        round_number=round_number,
        table_number=table_number,
        players=tuple(players),
        totals=tuple(totals),
        placements=tuple(placements),
        winner=winner,
    )


def by_player(rows):
    return {row.player: row for row in rows}


# --------------------------------------------------------------------------- placement points
def test_three_player_tables_score_3_1_5_0_and_ties_average_them():
    assert table_points(table(1, 1, "abc", [1, 2, 3])) == (3, 1.5, 0)
    assert table_points(table(1, 1, "abc", [1, 2, 2])) == (3, 0.75, 0.75)
    assert table_points(table(1, 1, "abc", [1, 1, 3])) == (2.25, 2.25, 0)
    assert table_points(table(1, 1, "abc", [1, 1, 1])) == (1.5, 1.5, 1.5)


def test_four_player_tables_score_3_2_1_0_and_ties_average_them():
    assert table_points(table(1, 1, "abcd", [2, 1, 4, 3])) == (2, 3, 0, 1)
    assert table_points(table(1, 1, "abcd", [1, 2, 2, 4])) == (3, 1.5, 1.5, 0)
    assert table_points(table(1, 1, "abcd", [1, 2.5, 2.5, 4])) == (3, 1.5, 1.5, 0)
    assert table_points(table(1, 1, "abcd", [1, 2, 2, 2])) == (3, 1, 1, 1)


def test_a_tournament_may_set_its_own_placement_points():
    scheme = {"4": [4, 2, 1, 0], "3": [4, 1, 0]}
    assert table_points(table(1, 1, "abcd", [1, 1, 3, 4]), scheme) == (3, 3, 1, 0)
    rows = compute_standings(
        "abc", [table(1, 1, "abc", [1, 2, 3])], placement_points=scheme, seed=1
    )
    assert [row.tournament_points for row in rows] == [4, 1, 0]


@pytest.mark.parametrize(
    ("scheme", "message"),
    [
        ({4: (3, 2, 1)}, "a table of 4 needs 4 numbers of placement points"),
        ({4: (0, 1, 2, 3)}, "placement points for tables of 4 may not grow with the place"),
        ({5: (1, 1, 1, 1, 1)}, "placement points are for tables of 3 or 4, not 5"),
        ({3: (3, "1.5", 0)}, "a table of 3 needs 3 numbers of placement points"),
        ({3: (3, 1.5, 0), "3": (3, 1.5, 0)}, "placement points for tables of 3 are given twice"),
        ([3, 2, 1, 0], "placement points map a table size (3 or 4) to the points per place"),
    ],
)
def test_bad_placement_points_are_refused(scheme, message):
    with pytest.raises(ValueError) as caught:
        validate_placement_points(scheme)
    assert str(caught.value).startswith(message)


def test_a_table_size_without_placement_points_is_refused():
    with pytest.raises(ValueError, match="no placement points are set for tables of 3"):
        compute_standings(
            "abc", [table(1, 1, "abc", [1, 2, 3])], placement_points={4: (1, 0, 0, 0)}, seed=1
        )


# --------------------------------------------------------------------------- the metrics
def test_mixed_tables_of_three_and_four():
    results = [
        table(1, 1, "abcd", [1, 2, 3, 4], totals=[1005, 700, 300, -50], winner="a"),
        table(1, 2, "efg", [1, 2, 3], totals=[1010, 500, 100], winner="e"),
        table(2, 1, "aefb", [4, 3, 1, 2], totals=[0, 200, 1020, 900], winner="f"),
        table(2, 2, "cdg", [2, 1, 2], totals=[400, 1001, 400], winner="d"),
    ]
    rows = by_player(compute_standings("abcdefg", results, seed=7))
    assert rows["a"].tournament_points == 3 + 0
    assert rows["b"].tournament_points == 2 + 2
    assert rows["c"].tournament_points == 1 + 0.75
    assert rows["d"].tournament_points == 0 + 3
    assert rows["e"].tournament_points == 3 + 1
    assert rows["f"].tournament_points == 1.5 + 3
    assert rows["g"].tournament_points == 0 + 0.75
    assert rows["a"].total_score == 1005
    assert rows["b"].total_score == 1600
    assert rows["b"].average_placement == 2
    assert rows["c"].average_placement == (3 + 2.5) / 2
    assert rows["f"].games_won == 1
    assert rows["f"].games_played == 2
    # Opponent strength: the final points of everyone met, once per table.
    points = {player: row.tournament_points for player, row in rows.items()}
    assert rows["a"].opponent_strength == (points["b"] + points["c"] + points["d"]) + (
        points["e"] + points["f"] + points["b"]
    )
    assert rows["g"].opponent_strength == points["e"] + points["f"] + points["c"] + points["d"]
    assert [row.player for row in compute_standings("abcdefg", results, seed=7)][:2] == ["f", "b"]


def test_bots_are_not_players_but_hold_their_place_at_the_table():
    results = [table(1, 1, ["a", None, "b", "c"], [2, 1, 3, 4], winner=None)]
    rows = by_player(compute_standings("abc", results, seed=1))
    assert rows["a"].tournament_points == 2
    assert rows["b"].tournament_points == 1
    assert rows["a"].opponent_strength == 1 + 0
    assert rows["a"].games_won == 0
    assert set(rows) == {"a", "b", "c"}


def test_players_without_results_appear_with_zeros_below_those_who_placed():
    results = [table(1, 1, "abc", [1, 2, 3], totals=[1005, 0, 0], winner="a")]
    rows = compute_standings(
        "zabc", results, precedence=["tournament_points", "average_placement"], seed=1
    )
    assert [row.player for row in rows] == ["a", "b", "c", "z"]
    idle = rows[-1]
    assert (idle.tournament_points, idle.total_score, idle.average_placement) == (0, 0, 0)
    assert (idle.games_played, idle.games_won, idle.opponent_strength) == (0, 0, 0)
    assert idle.rank == 4


def test_a_row_is_a_json_ready_dict():
    rows = compute_standings("abc", [table(1, 1, "abc", [1, 2, 3], winner="a")], seed=1)
    assert row_to_dict(rows[0]) == {
        "rank": 1,
        "tied": False,
        "player": "a",
        "tournament_points": 3.0,
        "total_score": 200,
        "average_placement": 1.0,
        "games_won": 1,
        "opponent_strength": 1.5,
        "games_played": 1,
        "random": rows[0].random,
    }


# --------------------------------------------------------------------------- ranks and precedence
def test_equal_keys_share_a_rank():
    results = [
        table(1, 1, "abcd", [1, 2, 2, 4], totals=[500, 300, 300, 0]),
    ]
    rows = compute_standings("abcd", results, seed=3)
    assert [(row.player, row.rank, row.tied) for row in rows] == [
        ("a", 1, False),
        ("b", 2, True),
        ("c", 2, True),
        ("d", 4, False),
    ]


def test_random_as_the_last_tiebreak_makes_ranks_strict():
    results = [table(1, 1, "abcd", [1, 2, 2, 4], totals=[500, 300, 300, 0])]
    rows = compute_standings("abcd", results, precedence=[*DEFAULT_PRECEDENCE, "random"], seed=3)
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    assert not any(row.tied for row in rows)
    assert [row.player for row in rows][::3] == ["a", "d"]
    middle = rows[1:3]
    assert middle[0].random < middle[1].random


@given(st.permutations(range(10, 30)), st.integers(0, 2**32))
def test_draw_keys_make_the_random_order_independent_of_the_player_ids(ids, seed):
    # A restored archive gives the players new database ids but the same start numbers.
    results = [table(1, 1, "abcd", [1, 1, 1, 1], totals=[100, 100, 100, 100])]
    precedence = [*DEFAULT_PRECEDENCE, "random"]
    by_letter = compute_standings(
        "abcd",
        results,
        precedence=precedence,
        seed=seed,
        draw_keys=dict(zip("abcd", range(4), strict=True)),
    )
    renamed = dict(zip("abcd", ids[:4], strict=True))
    moved = [table(1, 1, [renamed[p] for p in "abcd"], [1, 1, 1, 1], totals=[100] * 4)]
    by_id = compute_standings(
        [renamed[p] for p in "abcd"],
        moved,
        precedence=precedence,
        seed=seed,
        draw_keys={renamed[p]: number for number, p in enumerate("abcd")},
    )
    assert [renamed[row.player] for row in by_letter] == [row.player for row in by_id]


def test_the_precedence_changes_the_order():
    results = [
        table(1, 1, "abc", [1, 2, 3], totals=[1005, 990, 0], winner="a"),
        table(2, 1, "abc", [2, 1, 3], totals=[400, 1010, 300], winner="b"),
        table(3, 1, "abc", [3, 2, 1], totals=[-100, 100, 1101], winner="c"),
    ]
    points_first = compute_standings("abc", results, seed=1)
    assert [row.player for row in points_first] == ["b", "a", "c"]
    score_first = compute_standings("abc", results, precedence=["total_score"], seed=1)
    assert [row.player for row in score_first] == ["b", "c", "a"]
    wins_only = compute_standings("abc", results, precedence=["games_won"], seed=1)
    assert [row.rank for row in wins_only] == [1, 1, 1]


def test_average_placement_ranks_lower_first():
    results = [
        table(1, 1, "abc", [1, 2, 3]),
        table(2, 1, "abc", [3, 1, 2]),
    ]
    rows = compute_standings("abc", results, precedence=["average_placement"], seed=1)
    assert [(row.player, row.average_placement) for row in rows] == [
        ("b", 1.5),
        ("a", 2),
        ("c", 2.5),
    ]


@pytest.mark.parametrize(
    ("precedence", "message"),
    [
        ([], "the precedence needs at least one metric"),
        ("tournament_points", "the precedence is a list of metric names, not one name"),
        (["points"], "unknown standings metric 'points'; the metrics are tournament_points"),
        (["games_won", "games_won"], "metric 'games_won' appears twice in the precedence"),
        (["random", "games_won"], "'random' settles every tie, so it can only be the last metric"),
    ],
)
def test_bad_precedences_are_refused(precedence, message):
    with pytest.raises(ValueError) as caught:
        validate_precedence(precedence)
    assert str(caught.value).startswith(message)
    with pytest.raises(ValueError):
        compute_standings("ab", [], precedence=precedence, seed=1)


def test_every_metric_can_lead_the_precedence():
    for name in METRICS:
        assert validate_precedence([name]) == (name,)


# --------------------------------------------------------------------------- bad results
def test_inconsistent_results_are_refused():
    with pytest.raises(ValueError, match="player 'x' is not in the list"):
        compute_standings("abc", [table(1, 1, "abx", [1, 2, 3])], seed=1)
    with pytest.raises(ValueError, match="player 'a' plays twice in round 1"):
        compute_standings(
            "abcdef", [table(1, 1, "abc", [1, 2, 3]), table(1, 2, "ade", [1, 2, 3])], seed=1
        )
    with pytest.raises(ValueError, match="round 1, table 1 has two results"):
        compute_standings(
            "abcdef", [table(1, 1, "abc", [1, 2, 3]), table(1, 1, "def", [1, 2, 3])], seed=1
        )
    with pytest.raises(ValueError, match="player 'a' is listed twice"):
        compute_standings("aab", [], seed=1)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": ("a", "b")}, "round 1, table 1: a table has 3 or 4 seats, not 2"),
        ({"totals": (1, 2)}, "round 1, table 1: totals and placements need one value per seat"),
        ({"placements": (1, 2, 4)}, "round 1, table 1: a placement is a number from 1 to 3"),
        ({"totals": (1, 2, 2.5)}, "round 1, table 1: totals must be whole numbers"),
        ({"players": ("a", "a", "b")}, "round 1, table 1: a player sits at the table twice"),
        ({"winner": "z"}, "round 1, table 1: the winner must be one of the table's players"),
    ],
)
def test_a_malformed_table_result_is_refused(fields, message):
    values = {
        "round_number": 1,
        "table_number": 1,
        "players": ("a", "b", "c"),
        "totals": (1005, 0, 0),
        "placements": (1, 2, 3),
        "winner": "a",
    } | fields
    with pytest.raises(ValueError) as caught:
        TableResult(**values)
    assert str(caught.value) == message


# --------------------------------------------------------------------------- the random key
def test_the_random_key_depends_on_the_seed_and_the_player_alone():
    players = [f"p{n}" for n in range(40)]
    before = by_player(compute_standings(players, [], seed=11))
    results = [table(1, 1, players[:3], [1, 2, 3])]
    after = by_player(compute_standings(players, results, seed=11))
    assert {p: row.random for p, row in before.items()} == {
        p: row.random for p, row in after.items()
    }
    other = compute_standings(players, [], precedence=["random"], seed=12)
    same = compute_standings(players, [], precedence=["random"], seed=11)
    assert [row.player for row in other] != [row.player for row in same]


# --------------------------------------------------------------------------- properties
@st.composite
def tournaments(draw):
    """Random rounds of tables of 3 and 4 with random places (ties included) and bot seats."""
    count = draw(st.integers(3, 30))
    players = [f"p{n}" for n in range(count)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    results = []
    for round_number in range(1, draw(st.integers(1, 5)) + 1):
        seats: list[str | None] = players[:]
        if rng.random() < 0.3:
            seats.append(None)  # a bot fills a seat
        while 3 * ((-len(seats)) % 4) > len(seats):
            seats.append(None)
        rng.shuffle(seats)
        threes = (-len(seats)) % 4
        sizes = [3] * threes + [4] * ((len(seats) - 3 * threes) // 4)
        start = 0
        for table_number, size in enumerate(sizes, start=1):
            seated = seats[start : start + size]
            start += size
            placements = [rng.randint(1, size) for _ in seated]
            totals = [rng.randrange(-40, 220) * 5 for _ in seated]
            firsts = [who for who, place in zip(seated, placements, strict=True) if place == 1]
            winner = rng.choice(firsts) if firsts and rng.random() < 0.8 else None
            results.append(table(round_number, table_number, seated, placements, totals, winner))
    precedence = draw(
        st.permutations(list(DEFAULT_PRECEDENCE)).map(lambda p: p[: rng.randint(1, 5)])
    )
    if draw(st.booleans()):
        precedence = (*precedence, "random")
    return players, results, precedence, draw(st.integers(0, 1000))


def sort_key(row, precedence):
    key = []
    for name in precedence:
        value = getattr(row, name)
        if name == "average_placement" and not row.games_played:
            value = float("inf")
        key.append(-value if METRICS[name] else value)
    return tuple(key)


@settings(max_examples=examples(150), deadline=None)
@given(case=tournaments())
def test_standings_invariants(case):
    players, results, precedence, seed = case
    rows = compute_standings(players, results, precedence=precedence, seed=seed)
    assert sorted(row.player for row in rows) == sorted(players)

    # Each table hands out exactly its scheme's points, bots' seats included.
    schemes = {4: 6, 3: 4.5}
    handed_to_players = 0
    for result in results:
        points = table_points(result)
        assert sum(points) == pytest.approx(schemes[len(result.players)])
        handed_to_players += sum(p for p, who in zip(points, result.players, strict=True) if who)
    assert sum(row.tournament_points for row in rows) == pytest.approx(handed_to_players)
    assert sum(row.games_played for row in rows) == sum(
        1 for result in results for who in result.players if who is not None
    )

    # Ranks never go down the list; they are shared exactly by equal keys, never with random.
    strict = "random" in precedence
    for number, (above, below) in enumerate(zip(rows, rows[1:], strict=False), start=2):
        assert above.rank <= below.rank
        assert sort_key(above, precedence) <= sort_key(below, precedence)
        if strict or sort_key(above, precedence) != sort_key(below, precedence):
            assert below.rank == number
        else:
            assert below.rank == above.rank
    assert rows[0].rank == 1
    for row in rows:
        assert row.tied == (sum(1 for other in rows if other.rank == row.rank) > 1)

    # The same input, in any order, gives the same standings.
    again = compute_standings(
        list(reversed(players)) if strict else players,
        list(reversed(results)),
        precedence=precedence,
        seed=seed,
    )
    assert again == rows
