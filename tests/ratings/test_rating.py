"""Ratings from table results: the same numbers as OpenSkill's own Plackett-Luce model on
hand-built tables, bots left out, and a history replayed in date order whatever order it came in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ratings.rating import RatedTable, recompute_ratings, table_ranks


def library_rate(ratings, ranks):
    """One table rated by the library itself, players as one-person teams."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def fresh(count):
    model = PlackettLuce()
    return [(model.mu, model.sigma)] * count


def close(pairs, expected):
    flat = [value for pair in pairs for value in pair]
    return flat == pytest.approx([value for pair in expected for value in pair], rel=1e-12)


def as_pairs(history, players):
    return [(history.ratings[p].mu, history.ratings[p].sigma) for p in players]


def test_a_table_of_four_with_a_tie_rates_as_the_library_does():
    table = RatedTable((1,), "t1", ("a", "b", "c", "d"), (1, 2, 2, 4))

    history = recompute_ratings([table])

    expected = library_rate(fresh(4), [1, 2, 2, 4])
    assert close(as_pairs(history, "abcd"), expected)
    # The tied players get the same rating, between the winner and the last.
    assert history.ratings["b"] == history.ratings["c"]
    assert history.ratings["a"].mu > history.ratings["b"].mu > history.ratings["d"].mu


def test_a_table_of_three_rates_as_the_library_does():
    history = recompute_ratings([RatedTable((1,), "t1", ("x", "y", "z"), (2, 3, 1))])

    expected = library_rate(fresh(3), [2, 3, 1])
    assert close(as_pairs(history, "xyz"), expected)
    assert history.ratings["z"].conservative > history.ratings["x"].conservative


def test_a_withdrawn_player_keeps_what_he_played_and_the_others_go_on_without_him():
    # Round 1 at a table of four; "d" withdraws, round 2 is a table of three.
    tables = [
        RatedTable((1, 1), "t1", ("a", "b", "c", "d"), (4, 3, 2, 1)),
        RatedTable((1, 2), "t1", ("a", "b", "c"), (1, 2, 3)),
    ]

    history = recompute_ratings(tables)

    after_round_1 = library_rate(fresh(4), [4, 3, 2, 1])
    after_round_2 = library_rate(after_round_1[:3], [1, 2, 3])
    assert close(as_pairs(history, "abc"), after_round_2)
    assert close(as_pairs(history, "d"), [after_round_1[3]])
    assert history.ratings["d"].tables == 1 and history.ratings["a"].tables == 2


def test_bot_seats_do_not_rate_and_the_people_are_rated_by_their_order_among_themselves():
    table = RatedTable((1,), "t1", ("a", None, "b", "c"), (2, 1, 4, 3))

    history = recompute_ratings([table])

    assert set(history.ratings) == {"a", "b", "c"}
    expected = library_rate(fresh(3), [1, 3, 2])
    assert close(as_pairs(history, "abc"), expected)


def test_a_table_with_one_person_and_bots_rates_nobody():
    history = recompute_ratings([RatedTable((1,), "t1", ("a", None, None), (1, 2, 3))])

    assert history.ratings == {} and history.points == []


def test_the_history_records_one_point_per_player_and_tournament():
    tables = [
        RatedTable((2, 1), "t2", ("a", "b", "c"), (1, 2, 3)),
        RatedTable((1, 1), "t1", ("a", "b", "c"), (3, 2, 1)),
        RatedTable((1, 2), "t1", ("a", "b", "c"), (3, 1, 2)),
    ]

    history = recompute_ratings(tables)

    assert [(point.event, point.player) for point in history.points] == [
        ("t1", "a"),
        ("t1", "b"),
        ("t1", "c"),
        ("t2", "a"),
        ("t2", "b"),
        ("t2", "c"),
    ]
    assert history.points[-1].rating == history.ratings["c"]


def test_ranks_skip_after_a_tie():
    assert table_ranks([1, 2, 2, 4]) == [1, 2, 2, 4]
    assert table_ranks([1, 2.5, 2.5, 4]) == [1, 2, 2, 4]
    assert table_ranks([3, 3, 1]) == [2, 2, 1]


tables_strategy = st.lists(
    st.tuples(
        st.permutations(["a", "b", "c", "d", "e"]).map(lambda p: tuple(p[:4])),
        st.lists(st.integers(1, 4), min_size=4, max_size=4),
    ),
    min_size=1,
    max_size=8,
)


@given(tables_strategy, st.randoms(use_true_random=False))
def test_the_order_tables_are_handed_in_does_not_change_the_ratings(rows, random):
    tables = [
        RatedTable((number,), f"t{number // 3}", players, tuple(places))
        for number, (players, places) in enumerate(rows)
    ]
    shuffled = list(tables)
    random.shuffle(shuffled)

    assert recompute_ratings(shuffled) == recompute_ratings(tables)


@given(tables_strategy)
def test_a_rating_shown_is_below_its_mean_and_uncertainty_shrinks_with_play(rows):
    tables = [
        RatedTable((number,), "t", players, tuple(places))
        for number, (players, places) in enumerate(rows)
    ]

    history = recompute_ratings(tables)

    for rating in history.ratings.values():
        assert rating.conservative < rating.mu
        assert rating.sigma < PlackettLuce().sigma
        assert rating.tables >= 1
