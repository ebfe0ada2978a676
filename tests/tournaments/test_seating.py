"""The seat draw (draws.seating): valid tables every round, repeats avoided, known schedules.

Pure tests, no database. Timing goals are in bench/seating.py, not here.
"""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draws.seating import (
    SeatingError,
    draw_round,
    draw_schedule,
    evaluate,
    meeting_counts,
    plan_tables,
    table_plan,
)
from draws.seating.constructions import KNOWN_MAXIMA, stored_schedules
from tests.hypothesis_profiles import examples

ROOT = Path(__file__).resolve().parents[2]

policies = st.sampled_from(
    [(3, "mixed"), (4, "mixed"), (3, "bots"), (4, "bots"), ("mixed", "mixed")]
)


def drawable(n: int, table_size, fill) -> bool:
    try:
        plan_tables(n, table_size=table_size, fill=fill)
    except SeatingError:
        return False
    return True


def assert_valid_round(tables, players, table_size, fill):
    seated = [p for table in tables for p in table if p is not None]
    assert sorted(seated) == sorted(players), "everyone sits exactly once"
    for table in tables:
        humans = sum(p is not None for p in table)
        assert len(table) >= 3 and humans >= 2
        assert table[0] is not None, "a person deals first, never a bot"
        if fill == "bots":
            assert len(table) == table_size
        else:
            assert humans == len(table) and len(table) in (3, 4)
    bot_tables = [sum(p is None for p in table) for table in tables]
    if fill == "bots":
        assert max(bot_tables) - min(bot_tables) <= 1, "bot seats are spread over the tables"
    else:
        assert sum(bot_tables) == 0


# --- table plans ---------------------------------------------------------------------------


@given(n=st.integers(3, 400), policy=policies)
def test_a_table_plan_seats_everyone_at_valid_tables(n, policy):
    table_size, fill = policy
    try:
        plan = table_plan(n, table_size=table_size, fill=fill)
    except SeatingError:
        # Only 5 players cannot be split into tables of 3 and 4.
        assert n == 5 and fill == "mixed"
        return
    assert sum(table.humans for table in plan) == n
    assert all(table.seats >= 3 and table.humans >= 2 for table in plan)
    if fill == "bots":
        assert {table.seats for table in plan} == {table_size}
        assert max(t.bots for t in plan) - min(t.bots for t in plan) <= 1
    else:
        assert all(table.bots == 0 and table.seats in (3, 4) for table in plan)
        if table_size in (3, 4):
            other = sum(table.seats != table_size for table in plan)
            assert other < table_size, "as few tables of the other size as possible"


def test_plan_tables_counts_humans_per_table():
    assert plan_tables(13, table_size=4, fill="mixed") == [4, 3, 3, 3]
    assert plan_tables(13, table_size=4, fill="bots") == [4, 3, 3, 3]
    assert plan_tables(10, table_size=3, fill="mixed") == [4, 3, 3]
    assert plan_tables(5, table_size=4, fill="bots") == [3, 2]
    assert plan_tables(4, table_size=3, fill="bots") == [2, 2]
    assert plan_tables(9, table_size="mixed", fill="mixed") == [3, 3, 3]


@pytest.mark.parametrize(
    ("n", "table_size", "fill", "words"),
    [
        (5, 4, "mixed", "cannot be split"),
        (5, 3, "mixed", "cannot be split"),
        (2, 4, "bots", "at least 3"),
        (0, 3, "mixed", "at least 3"),
        (12, 5, "mixed", "table size"),
        (12, 4, "robots", "fill"),
        (12, "mixed", "bots", "fixed table size"),
    ],
)
def test_impossible_table_plans_are_refused_with_a_reason(n, table_size, fill, words):
    with pytest.raises(SeatingError, match=words):
        plan_tables(n, table_size=table_size, fill=fill)


# --- single rounds -------------------------------------------------------------------------


@st.composite
def histories(draw):
    n = draw(st.integers(3, 40))
    table_size, fill = draw(policies)
    if not drawable(n, table_size, fill):
        n += 1
    players = [100 + i for i in range(n)]
    earlier = draw(st.lists(st.permutations(players), max_size=3))
    meetings = Counter()
    for order in earlier:
        for start in range(0, n - 2, 3):
            for a in order[start : start + 3]:
                for b in order[start : start + 3]:
                    if a < b:
                        meetings[frozenset((a, b))] += 1
    return players, table_size, fill, meetings


@settings(max_examples=examples(60), deadline=None)
@given(
    case=histories(),
    mode=st.sampled_from(["balanced", "standings"]),
    seed=st.integers(0, 10**6) | st.text(max_size=5),
)
def test_every_drawn_round_is_valid_and_reproducible(case, mode, seed):
    players, table_size, fill, meetings = case
    kwargs = dict(
        table_size=table_size,
        fill=fill,
        mode=mode,
        meetings=meetings,
        standings=list(reversed(players)),
    )
    draw = draw_round(players, seed=seed, **kwargs)
    assert_valid_round(draw.tables, players, table_size, fill)
    assert draw.seed == seed
    assert draw_round(players, seed=seed, **kwargs) == draw


def test_a_different_seed_gives_a_different_draw():
    players = list(range(24))
    draws = {
        draw_round(players, table_size=4, fill="mixed", mode="balanced", seed=s).tables
        for s in range(5)
    }
    assert len(draws) == 5


def test_balanced_rounds_avoid_repeats_while_they_can():
    players = list(range(40))
    earlier = []
    for number in range(6):
        draw = draw_round(
            players,
            table_size=4,
            fill="mixed",
            mode="balanced",
            seed=number,
            meetings=meeting_counts(earlier),
        )
        assert draw.new_repeat_pairs == 0
        earlier.append(draw)
    assert evaluate(earlier)["repeat_free_rounds"] == 6


def test_quality_fields_count_the_history():
    players = [1, 2, 3]
    meetings = {frozenset((1, 2)): 2, frozenset((5, 6)): 4}
    draw = draw_round(
        players, table_size=3, fill="mixed", mode="balanced", seed=0, meetings=meetings
    )
    assert draw.new_repeat_pairs == 1  # 1 and 2 again
    assert draw.repeated_pairs == 2  # (1, 2) and the earlier (5, 6)
    assert draw.max_meetings == 4


def test_standings_mode_seats_neighbours_in_the_standings_together():
    players = list(range(16))
    standings = [7, 3, 12, 0, 9, 1, 14, 5, 2, 11, 4, 15, 6, 8, 13, 10]
    draw = draw_round(
        players, table_size=4, fill="mixed", mode="standings", seed=1, standings=standings
    )
    assert [set(table) for table in draw.tables] == [
        set(standings[i : i + 4]) for i in range(0, 16, 4)
    ]


def test_standings_mode_still_avoids_a_rematch():
    players = list(range(16))
    meetings = {frozenset((0, 1)): 1}
    draw = draw_round(
        players,
        table_size=4,
        fill="mixed",
        mode="standings",
        seed=1,
        standings=players,
        meetings=meetings,
    )
    assert draw.new_repeat_pairs == 0
    top = set(draw.tables[0])
    assert len(top & {0, 1}) == 1 and top <= set(range(8))


def test_seat_zero_goes_to_the_player_who_dealt_first_least():
    players = [1, 2, 3, 4]
    seat_counts = {1: [3, 0, 0, 0], 2: [2, 1, 0, 0], 3: [1, 1, 1, 0], 4: [0, 1, 1, 1]}
    for seed in range(10):
        draw = draw_round(
            players,
            table_size=4,
            fill="mixed",
            mode="balanced",
            seed=seed,
            seat_counts=seat_counts,
        )
        assert draw.tables[0][0] == 4


def test_bot_seats_go_to_those_who_had_them_least():
    players = list(range(10))
    bot_counts = {p: (2 if p < 4 else 0) for p in players}
    draw = draw_round(
        players, table_size=4, fill="bots", mode="balanced", seed=3, bot_counts=bot_counts
    )
    (full,) = [table for table in draw.tables if None not in table]
    assert set(full) == {0, 1, 2, 3}


def test_a_bot_never_deals_first():
    # Counts that leave one or two bot seats at some tables of 4.
    for n in (5, 6, 7, 9, 10):
        for seed in range(12):
            draw = draw_round(list(range(n)), table_size=4, fill="bots", mode="balanced", seed=seed)
            assert all(table[0] is not None for table in draw.tables)
        schedule = draw_schedule(list(range(n)), rounds=3, table_size=4, fill="bots", seed=n)
        assert all(table[0] is not None for draw in schedule.rounds for table in draw.tables)
    # Bots still take other seats than the last: the humans' seats stay balanced.
    seen = {
        table.index(None)
        for seed in range(30)
        for table in draw_round(
            list(range(5)), table_size=4, fill="bots", mode="balanced", seed=seed
        ).tables
    }
    assert 0 not in seen and len(seen) > 1


@pytest.mark.parametrize(
    ("players", "kwargs", "words"),
    [
        ([1, 2, 2, 3], {}, "twice"),
        ([1, 2, None], {}, "bot seat"),
        ([1, 2, 3], {"mode": "random"}, "mode"),
        ([1, 2, 3], {"mode": "schedule"}, "draw_schedule"),
        ([1, 2, 3], {"seed": 1.5}, "seed"),
    ],
)
def test_bad_round_requests_raise_seating_error(players, kwargs, words):
    arguments = {"table_size": 3, "fill": "mixed", "mode": "balanced", "seed": 1, **kwargs}
    with pytest.raises(SeatingError, match=words):
        draw_round(players, **arguments)


# --- whole schedules -----------------------------------------------------------------------


def assert_repeat_free(rounds):
    assert all(times == 1 for times in meeting_counts(rounds).values())


@pytest.mark.parametrize(("n", "table_size"), sorted(KNOWN_MAXIMA))
def test_known_instances_reach_the_known_maximum(n, table_size):
    best = KNOWN_MAXIMA[(n, table_size)]
    schedule = draw_schedule(
        list(range(n)), rounds=best, table_size=table_size, fill="mixed", seed=7
    )
    assert schedule.repeat_free_rounds == best == schedule.known_max
    assert schedule.proven_max
    assert_repeat_free(schedule.rounds)
    for draw in schedule.rounds:
        assert_valid_round(draw.tables, range(n), table_size, "mixed")
        assert draw.new_repeat_pairs == 0


def test_stored_schedules_are_verified_repeat_free():
    stored = stored_schedules(strict=True)
    assert {(15, 3), (18, 3), (21, 3), (24, 4), (28, 4), (32, 4), (40, 4)} <= set(stored)
    for (n, _), rounds in stored.items():
        assert_repeat_free(rounds)
        assert all(sorted(p for t in tables for p in t) == list(range(n)) for tables in rounds)


def test_every_stored_schedule_is_used_in_full():
    for (n, table_size), rounds in stored_schedules(strict=True).items():
        schedule = draw_schedule(
            list(range(n)), rounds=len(rounds), table_size=table_size, fill="bots", seed=n
        )
        assert schedule.repeat_free_rounds == len(rounds) == schedule.known_max
        # Proven only where the counting bound is reached (20 players at 4: 5 of a bound of 6).
        assert schedule.proven_max == (len(rounds) == schedule.upper_bound)


def test_twelve_players_at_tables_of_four_have_one_repeat_free_round():
    schedule = draw_schedule(list(range(12)), rounds=3, table_size=4, fill="mixed", seed=1)
    assert (schedule.repeat_free_rounds, schedule.known_max, schedule.proven_max) == (1, 1, True)
    assert "only 1 repeat-free round is possible" in schedule.summary


def test_rounds_beyond_the_maximum_repeat_as_little_as_possible():
    schedule = draw_schedule(list(range(16)), rounds=6, table_size=4, fill="mixed", seed=2)
    assert schedule.repeat_free_rounds == 5 and schedule.known_max == 5
    # After five rounds everyone has met everyone, so round six repeats exactly its own pairs.
    assert evaluate(schedule.rounds)["max_meetings"] == 2
    assert "only 5 repeat-free rounds are possible" in schedule.summary


def test_schedules_are_reproducible_and_differ_by_seed():
    players = [f"p{i}" for i in range(24)]
    first = draw_schedule(players, rounds=7, table_size=4, fill="mixed", seed="a")
    again = draw_schedule(players, rounds=7, table_size=4, fill="mixed", seed="a")
    other = draw_schedule(players, rounds=7, table_size=4, fill="mixed", seed="b")
    assert first == again
    assert first.rounds != other.rounds
    assert other.repeat_free_rounds == 7


def test_seats_are_balanced_over_a_schedule():
    schedule = draw_schedule(list(range(16)), rounds=5, table_size=4, fill="mixed", seed=3)
    dealt_first = Counter(table[0] for draw in schedule.rounds for table in draw.tables)
    assert max(dealt_first.values()) <= 2


@settings(max_examples=examples(8), deadline=None)
@given(n=st.integers(6, 14), policy=policies, rounds=st.integers(1, 3), seed=st.integers(0, 99))
def test_searched_schedules_are_valid(n, policy, rounds, seed):
    table_size, fill = policy
    if not drawable(n, table_size, fill):
        return
    schedule = draw_schedule(
        list(range(n)), rounds=rounds, table_size=table_size, fill=fill, seed=seed
    )
    assert len(schedule.rounds) == rounds
    for draw in schedule.rounds:
        assert_valid_round(draw.tables, range(n), table_size, fill)
    assert schedule.repeat_free_rounds <= schedule.upper_bound


def test_bot_seats_rotate_over_a_schedule():
    for n, rounds in ((10, 3), (22, 5)):
        schedule = draw_schedule(list(range(n)), rounds=rounds, table_size=4, fill="bots", seed=5)
        with_bots = Counter(
            p for draw in schedule.rounds for table in draw.tables if None in table for p in table
        )
        del with_bots[None]
        counts = [with_bots[p] for p in range(n)]
        # Nobody sits with bots every round while someone else never does.
        assert max(counts) - min(counts) <= 2


# --- quality measures ----------------------------------------------------------------------


def test_evaluate_counts_leading_repeat_free_rounds():
    rounds = [
        [[1, 2, 3], [4, 5, 6]],
        [[1, 4, None], [2, 5, 3, 6]],
        [[1, 2, 6], [3, 4, 5]],
        [[1, 5, 6], [2, 3, 4]],
    ]
    assert meeting_counts(rounds)[frozenset((1, 2))] == 2
    assert evaluate(rounds) == {
        "repeat_free_rounds": 1,
        "max_meetings": 3,
        "repeated_pairs": 8,
        "meeting_cost": 49,
    }


# --- command line and purity ---------------------------------------------------------------


def run_cli(*arguments):
    return subprocess.run(
        [sys.executable, "-m", "draws.seating", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_prints_the_schedule_as_json():
    result = run_cli(
        "--players", "9", "--table-size", "3", "--rounds", "4", "--mode", "schedule", "--seed", "1"
    )
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert {"rounds", "repeat_free_rounds", "max_meetings", "repeated_pairs", "seconds"} <= set(
        output
    )
    assert output["repeat_free_rounds"] == 4 and output["max_meetings"] == 1
    assert len(output["rounds"]) == 4
    assert all(
        sorted(p for t in tables for p in t) == list(range(9)) for tables in output["rounds"]
    )


def test_cli_marks_bot_seats_as_null():
    result = run_cli(
        "--players",
        "10",
        "--table-size",
        "4",
        "--bots",
        "--rounds",
        "2",
        "--mode",
        "standings",
        "--seed",
        "4",
    )
    assert result.returncode == 0, result.stderr
    rounds = json.loads(result.stdout)["rounds"]
    assert all(sum(p is None for t in tables for p in t) == 2 for tables in rounds)


@pytest.mark.parametrize(
    "arguments",
    [
        ("--players", "5", "--table-size", "4", "--mixed"),
        ("--players", "2", "--table-size", "3"),
        ("--players", "8", "--table-size", "5"),
        ("--players", "8", "--mixed", "--bots"),
        ("--players", "8", "--rounds", "0"),
    ],
)
def test_cli_rejects_bad_input_with_one_line_and_status_2(arguments):
    result = run_cli(*arguments)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: ")
