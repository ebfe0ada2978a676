"""The season table: the club's rule (tournament points, best N, placement points), attendance,
ties and the tiebreak chain."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.season import (
    SCORING_PLACEMENT_POINTS,
    SeasonRule,
    TournamentFinish,
    compute_season,
    placement_value,
    validate_season_rule,
)

# Three tournaments: (event, player, rank, tournament points).
FINISHES = [
    TournamentFinish("t1", "ann", 1, 12.0),
    TournamentFinish("t1", "bob", 2, 9.0),
    TournamentFinish("t1", "cid", 3, 4.5),
    TournamentFinish("t2", "bob", 1, 13.0),
    TournamentFinish("t2", "ann", 2, 7.5),
    TournamentFinish("t2", "dan", 3, 3.0),
    TournamentFinish("t3", "cid", 1, 11.0),
    TournamentFinish("t3", "bob", 2, 2.0),
]
PLAYERS = ["ann", "bob", "cid", "dan", "eve"]


def by_player(rows):
    return {row.player: row for row in rows}


def test_the_sum_of_tournament_points_ranks_every_player_with_attendance():
    rows = compute_season(PLAYERS, FINISHES, rule=SeasonRule(), seed=1)

    assert [row.player for row in rows] == ["bob", "ann", "cid", "dan", "eve"]
    table = by_player(rows)
    assert table["bob"].season_points == 24.0 and table["bob"].tournaments_played == 3
    assert table["ann"].season_points == 19.5 and table["ann"].tournament_wins == 1
    # Someone who played nothing is listed last, with nothing.
    assert table["eve"].tournaments_played == 0 and table["eve"].rank == 5


def test_the_best_n_tournaments_leave_out_a_players_worst():
    rows = compute_season(PLAYERS, FINISHES, rule=SeasonRule(best_count=2), seed=1)

    table = by_player(rows)
    assert table["bob"].season_points == 22.0
    assert set(table["bob"].counted) == {"t1", "t2"}
    assert table["bob"].all_points == 24.0
    # Ann's two tournaments count in full: 19.5 against Bob's 22.
    assert [row.player for row in rows][:2] == ["bob", "ann"]


def test_placement_points_give_each_final_rank_its_points():
    rule = SeasonRule(scoring=SCORING_PLACEMENT_POINTS, placement_points=(10, 6, 4))

    table = by_player(compute_season(PLAYERS, FINISHES, rule=rule, seed=1))

    assert table["bob"].season_points == 6 + 10 + 6
    assert table["ann"].season_points == 10 + 6
    assert table["cid"].season_points == 4 + 10
    assert table["dan"].season_points == 4


def test_a_shared_final_rank_shares_the_placement_points_of_the_ranks_it_covers():
    finishes = [
        TournamentFinish("t1", "ann", 1, 9.0),
        TournamentFinish("t1", "bob", 2, 6.0),
        TournamentFinish("t1", "cid", 2, 6.0),
        TournamentFinish("t1", "dan", 4, 1.0),
    ]
    rule = SeasonRule(scoring=SCORING_PLACEMENT_POINTS, placement_points=(25, 18, 15, 12))

    table = by_player(compute_season(["ann", "bob", "cid", "dan"], finishes, rule=rule, seed=1))

    assert table["bob"].season_points == table["cid"].season_points == (18 + 15) / 2
    assert table["bob"].rank == table["cid"].rank == 2 and table["bob"].tied
    assert table["dan"].rank == 4
    assert placement_value(11, 2, (25, 18)) == 0


def test_the_tiebreak_chain_decides_equal_points_in_order():
    finishes = [
        TournamentFinish("t1", "ann", 1, 6.0),
        TournamentFinish("t1", "bob", 2, 3.0),
        TournamentFinish("t2", "bob", 2, 3.0),
        TournamentFinish("t3", "cid", 3, 6.0),
    ]
    players = ["cid", "bob", "ann"]

    wins_first = compute_season(players, finishes, rule=SeasonRule(), seed=1)
    attendance_first = compute_season(
        players,
        finishes,
        rule=SeasonRule(precedence=("season_points", "tournaments_played", "best_rank")),
        seed=1,
    )

    # All three have 6 points. Ann won a tournament; Bob played the most.
    assert [row.player for row in wins_first] == ["ann", "bob", "cid"]
    assert [row.player for row in attendance_first] == ["bob", "ann", "cid"]


def test_equal_players_share_a_rank_unless_the_random_draw_settles_it():
    finishes = [TournamentFinish("t1", "ann", 1, 3.0), TournamentFinish("t1", "bob", 1, 3.0)]

    shared = compute_season(["ann", "bob"], finishes, rule=SeasonRule(), seed=1)
    drawn = compute_season(
        ["ann", "bob"],
        finishes,
        rule=SeasonRule(precedence=("season_points", "random")),
        seed=1,
    )

    assert [row.rank for row in shared] == [1, 1]
    assert sorted(row.rank for row in drawn) == [1, 2]


@pytest.mark.parametrize(
    "rule",
    [
        SeasonRule(scoring="goals"),
        SeasonRule(best_count=0),
        SeasonRule(best_count=10**6),
        SeasonRule(placement_points=()),
        SeasonRule(placement_points=(1, 2)),
        SeasonRule(placement_points=(-1,)),
        SeasonRule(precedence=()),
        SeasonRule(precedence=("random", "season_points")),
        SeasonRule(precedence=("elo",)),
        SeasonRule(precedence=("season_points", "season_points")),
    ],
)
def test_an_invalid_rule_is_refused_with_a_reason(rule):
    with pytest.raises(ValueError, match=r"\w"):
        validate_season_rule(rule)


finishes_strategy = st.lists(
    st.tuples(
        st.sampled_from(["t1", "t2", "t3", "t4"]),
        st.sampled_from(PLAYERS),
        st.integers(1, 8),
        st.sampled_from([0.0, 1.5, 3.0, 4.25, 7.0]),
    ),
    max_size=20,
    unique_by=lambda item: (item[0], item[1]),
)


@given(finishes_strategy, st.integers(1, 4), st.booleans())
def test_ranks_follow_the_points_and_best_n_never_adds(items, best, placements):
    finishes = [TournamentFinish(*item) for item in items]
    scoring = SCORING_PLACEMENT_POINTS if placements else "tournament_points"

    everything = by_player(compute_season(PLAYERS, finishes, rule=SeasonRule(scoring), seed=3))
    rows = compute_season(PLAYERS, finishes, rule=SeasonRule(scoring, best_count=best), seed=3)

    for row in rows:
        assert row.season_points <= everything[row.player].season_points + 1e-9
        assert len(row.counted) == min(best, row.tournaments_played)
    for better, worse in zip(rows, rows[1:], strict=False):
        assert better.season_points >= worse.season_points
        assert better.rank <= worse.rank
