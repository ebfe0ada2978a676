"""Whole-tournament seat schedules for every club size (issue 15): the best known repeat-free
rounds for every count, shipped data verified, valid and reproducible schedules for any count,
rounds and seed. Pure tests, no database; timings are in bench/seating.py.
"""

import json
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draws.cyclic_search import BaseRoundShape, find_base_rounds
from draws.seating import (
    draw_schedule,
    evaluate,
    meeting_counts,
    repair_schedule,
    repeat_free_bound,
    repeated_meetings,
    table_plan,
)
from draws.seating.constructions import (
    BEST_KNOWN,
    PROVEN_MAXIMA,
    best_known,
    known_schedule,
    load_stored,
    order_rounds,
    remove_players,
    repeats,
    resolvable_transversal_rounds,
    stored_beyond,
    transversal_rounds,
)
from tests.hypothesis_profiles import examples

CLUB_SIZES = sorted(BEST_KNOWN, key=lambda key: (key[1], key[0]))


def humans_of(n, table_size, fill="mixed"):
    return tuple(table.humans for table in table_plan(n, table_size=table_size, fill=fill))


def assert_partition(tables, players, plan):
    """Everyone seated once at tables of 3 or 4 seats, at least 2 humans each, as the plan says."""
    seated = [p for table in tables for p in table if p is not None]
    assert sorted(seated) == sorted(players)
    assert [len(table) for table in tables] == [t.seats for t in plan]
    assert [sum(p is not None for p in table) for table in tables] == [t.humans for t in plan]
    assert all(len(table) in (3, 4) and sum(p is not None for p in table) >= 2 for table in tables)


def assert_repeats_true(draws, players, plan, history, *, most=True):
    """Every round a partition as the plan says, and the repeats it states true given the
    meetings of `history` before it (a Counter, updated)."""
    for draw in draws:
        assert_partition(draw.tables, players, plan)
        pairs = [
            frozenset(pair)
            for t in draw.tables
            for pair in combinations([p for p in t if p is not None], 2)
        ]
        assert draw.new_repeat_pairs == sum(history[pair] > 0 for pair in pairs)
        history.update(pairs)
        assert draw.repeated_pairs == sum(times > 1 for times in history.values())
        if most:
            assert draw.max_meetings == max(history.values())


def assert_valid(schedule, players, plan, rounds, seed):
    assert len(schedule.rounds) == rounds
    assert all(draw.seed == seed for draw in schedule.rounds)
    assert_repeats_true(schedule.rounds, players, plan, Counter())
    assert schedule.repeat_free_rounds == evaluate(schedule.rounds)["repeat_free_rounds"]


# --- the best known for every club size ----------------------------------------------------


@pytest.mark.parametrize(("n", "table_size"), CLUB_SIZES)
def test_every_club_size_reaches_the_best_known_repeat_free_rounds(n, table_size):
    best = BEST_KNOWN[(n, table_size)]
    plan = table_plan(n, table_size=table_size, fill="mixed")
    schedule = draw_schedule(
        list(range(n)), rounds=best, table_size=table_size, fill="mixed", seed=n
    )
    assert schedule.repeat_free_rounds == best
    assert schedule.known_max >= best
    assert schedule.upper_bound == repeat_free_bound(plan) >= best
    assert all(times == 1 for times in meeting_counts(schedule.rounds).values())
    for draw in schedule.rounds:
        assert_partition(draw.tables, range(n), plan)
        assert draw.new_repeat_pairs == 0


@pytest.mark.parametrize(("n", "table_size"), CLUB_SIZES)
def test_the_known_schedule_of_every_club_size_is_verified(n, table_size):
    plan = humans_of(n, table_size)
    method, rounds = best_known(plan)
    assert len(rounds) >= BEST_KNOWN[(n, table_size)], method
    assert repeats(rounds, n, plan) == (0, 1)
    assert all([len(table) for table in tables] == list(plan) for tables in rounds)


def test_the_best_known_figures_are_those_of_the_seating_notes():
    # Spot checks of SEATING-NOTES.md, "Club sizes", and of what the table covers.
    assert {n for n, size in BEST_KNOWN if size == 4} == set(range(8, 65))
    assert {n for n, size in BEST_KNOWN if size == 3} == set(range(6, 46))
    notes = {(44, 4): 14, (56, 4): 18, (60, 4): 19, (27, 4): 9, (31, 4): 10, (39, 4): 13}
    notes |= {(63, 4): 21, (19, 3): 7, (23, 3): 8, (43, 3): 18, (44, 3): 17, (13, 4): 4}
    assert {key: BEST_KNOWN[key] for key in notes} == notes
    for key, best in BEST_KNOWN.items():
        assert best <= repeat_free_bound(table_plan(key[0], table_size=key[1], fill="mixed"))


def test_proven_maxima_are_reported_as_proven():
    for n, table_size in ((13, 4), (14, 4), (13, 3), (14, 3), (12, 3)):
        schedule = draw_schedule(
            list(range(n)), rounds=4, table_size=table_size, fill="mixed", seed=1
        )
        assert schedule.repeat_free_rounds == schedule.known_max == 4
        assert schedule.upper_bound == 5 and schedule.proven_max
        assert humans_of(n, table_size) in PROVEN_MAXIMA
    schedule = draw_schedule(list(range(13)), rounds=5, table_size=4, fill="mixed", seed=1)
    assert schedule.repeat_free_rounds == 4
    assert "only 4 repeat-free rounds are possible" in schedule.summary


def test_mixed_counts_come_from_a_larger_schedule_with_players_taken_away():
    method, rounds = best_known(humans_of(27, 4))
    assert method.startswith("28/4 minus 1") and len(rounds) == 9
    method, rounds = best_known(humans_of(57, 4))
    assert method.startswith("60/4 minus 3") and len(rounds) == 19
    method, rounds = best_known(humans_of(13, 3))
    assert method.startswith("16/4 minus 3") and len(rounds) == 4


# --- shipped data ----------------------------------------------------------------------------


def test_every_shipped_schedule_is_verified_on_load():
    stored = load_stored(strict=True)
    names = {item.name for item in stored}
    assert {"60/4", "43/3", "19/3", "25/3"} <= names
    for item in stored:
        rounds = [[list(table) for table in tables] for tables in item.rounds]
        # Independently of the loader: a partition at the plan's tables every round, and the
        # stated repeats.
        for tables in rounds:
            assert sorted(p for table in tables for p in table) == list(range(item.players))
            assert sorted((len(table) for table in tables), reverse=True) == list(item.plan)
        counts = Counter(
            pair for tables in rounds for table in tables for pair in combinations(sorted(table), 2)
        )
        assert sum(times > 1 for times in counts.values()) == item.repeated_pairs
        assert max(counts.values()) == item.max_meetings


def test_a_broken_shipped_schedule_is_refused(monkeypatch, tmp_path):
    from importlib import resources

    real = resources.files("draws.seating").joinpath("schedules.json").read_text()
    data = json.loads(real)
    entry = data["43/3"]
    base = entry["base_rounds"][0]
    base[0][0] = base[1][0]  # one player at two tables, another at none
    broken = tmp_path / "schedules.json"
    broken.write_text(json.dumps({"43/3": entry}))

    class Files:
        def joinpath(self, name):
            return broken

    monkeypatch.setattr(resources, "files", lambda package: Files())
    with pytest.raises(ValueError, match="43/3"):
        load_stored(strict=True)
    with pytest.warns(RuntimeWarning, match="43/3"):
        assert load_stored() == []


def test_the_offline_search_finds_a_cyclic_schedule():
    shape = BaseRoundShape(7, 2, 1, (3,) * 5)
    bases = find_base_rounds(shape, seconds=30, seed=1)
    assert bases is not None
    assert repeats(shape.developed(bases), 15, (3,) * 5) == (0, 1)
    entry = shape.entry(bases, "test")
    assert entry["method"] == "cyclic" and entry["table_size"] == 3


# --- constructions ---------------------------------------------------------------------------


def test_twelve_players_at_tables_of_three_have_four_rounds_by_construction():
    rounds = transversal_rounds()
    assert repeats(rounds, 12, (3, 3, 3, 3)) == (0, 1) and len(rounds) == 4


PRIMES = [5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]


@settings(max_examples=examples(30), deadline=None)
@given(size=st.sampled_from([3, 4]), order=st.sampled_from(PRIMES))
def test_a_resolvable_transversal_design_seats_order_rounds_without_a_repeat(size, order):
    rounds = resolvable_transversal_rounds(size, order)

    assert len(rounds) == order
    assert repeats(rounds, size * order, (size,) * order) == (0, 1)
    # The groups never meet, so players can be taken away from it without losing a round.
    met = meeting_counts(rounds)
    assert not any(frozenset((j * order, j * order + 1)) in met for j in range(size))


def test_larger_fields_at_tables_of_four_start_from_a_transversal_design():
    """Past the stored schedules, 4p players (p a prime) get p repeat-free rounds at least, and
    4p - k as many: 188 players 47 rounds, where the search alone found 17."""
    for n, rounds in ((68, 20), (92, 23), (188, 47), (187, 47)):
        schedule = draw_schedule(range(n), rounds=rounds, table_size=4, fill="mixed", seed=3)
        assert schedule.repeat_free_rounds == rounds, n
        assert "transversal design" in schedule.method
        for draw in schedule.rounds:
            assert_partition(draw.tables, range(n), table_plan(n, table_size=4, fill="mixed"))
    with pytest.raises(ValueError):
        resolvable_transversal_rounds(4, 25)


@settings(max_examples=examples(30), deadline=None)
@given(
    full=st.sampled_from([(16, 4), (20, 4), (24, 4), (28, 4), (32, 4), (18, 3), (15, 3), (60, 4)]),
    k=st.integers(1, 3),
)
def test_taking_players_away_keeps_the_rounds_repeat_free(full, k):
    n, size = full
    if k >= size:
        k = size - 1
    _, rounds = known_schedule(n, size)
    reduced, gone = remove_players(rounds, n, k)
    assert len(gone) == k
    plan = (size,) * (n // size - k) + (size - 1,) * k
    assert repeats(reduced, n - k, plan) == (0, 1)
    # At most one round is lost: k strangers lose none, k from one table lose that one.
    assert len(reduced) >= len(rounds) - 1


@settings(max_examples=examples(40), deadline=None)
@given(
    rounds=st.lists(
        st.permutations(range(8)).map(lambda p: [sorted(p[:4]), sorted(p[4:])]),
        min_size=1,
        max_size=7,
    )
)
def test_ordering_rounds_puts_the_repeats_last(rounds):
    ordered = order_rounds(rounds)
    assert sorted(map(str, ordered)) == sorted(map(str, rounds))
    free = evaluate(ordered)["repeat_free_rounds"]
    # No other order has a longer repeat-free start (checked by brute force on the sets).
    pairs = [{p for t in r for p in combinations(t, 2)} for r in rounds]
    for size in range(free + 1, len(rounds) + 1):
        for chosen in combinations(range(len(rounds)), size):
            assert any(pairs[a] & pairs[b] for a, b in combinations(chosen, 2))


# --- any count, rounds and seed ---------------------------------------------------------------

policies = st.sampled_from(
    [(3, "mixed"), (4, "mixed"), (3, "bots"), (4, "bots"), ("mixed", "mixed")]
)


@settings(max_examples=examples(40), deadline=None)
@given(
    n=st.integers(6, 64),
    policy=policies,
    extra=st.integers(-3, 1),
    seed=st.integers(0, 10**6) | st.text(max_size=4),
)
def test_every_schedule_is_valid_states_its_repeats_and_is_reproducible(n, policy, extra, seed):
    table_size, fill = policy
    plan = table_plan(n, table_size=table_size, fill=fill)
    _, known = best_known(tuple(table.humans for table in plan))
    rounds = max(1, len(known) + extra)
    players = [f"p{i}" for i in range(n)]
    schedule = draw_schedule(players, rounds=rounds, table_size=table_size, fill=fill, seed=seed)

    assert_valid(schedule, players, plan, rounds, seed)
    if stored_beyond(tuple(table.humans for table in plan), rounds) is None:
        # (A schedule shipped for this many rounds has fewer repeats and may have a shorter
        # repeat-free head: test_rounds_beyond_the_maximum_... checks those.)
        assert schedule.repeat_free_rounds >= min(rounds, len(known))
    assert schedule.repeat_free_rounds <= schedule.upper_bound
    again = draw_schedule(players, rounds=rounds, table_size=table_size, fill=fill, seed=seed)
    assert again == schedule


# --- beyond the maximum ------------------------------------------------------------------------


BEYOND = [item for item in load_stored(strict=True) if item.repeated_pairs]


def test_schedules_beyond_the_maximum_are_shipped_for_the_usual_cases():
    shipped = {(item.players, len(item.rounds)): item.repeated_pairs for item in BEYOND}
    # Issue 15: 17 to 19 players over 6 rounds, with 1 to 3 repeated pairs.
    assert {(17, 6), (18, 6), (19, 6)} <= set(shipped)
    assert all(shipped[(n, 6)] <= 3 for n in (17, 18, 19))


@pytest.mark.parametrize("item", BEYOND, ids=lambda item: item.name)
def test_rounds_beyond_the_maximum_come_from_shipped_schedules_with_few_repeats(item):
    n, rounds = item.players, len(item.rounds)
    table_size = int(item.name.split("/")[1].split()[0])  # "17/4 in 6 rounds"
    assert humans_of(n, table_size) == item.plan
    schedule = draw_schedule(
        list(range(n)), rounds=rounds, table_size=table_size, fill="mixed", seed=3
    )
    quality = evaluate(schedule.rounds)
    assert (quality["repeated_pairs"], quality["max_meetings"]) == (
        item.repeated_pairs,
        item.max_meetings,
    )
    # The fewest repeated pairs count first (20/3 over 8 rounds: 10 pairs twice with 5 rounds
    # repeat-free at the head, where 6 repeat-free rounds extended repeat 14); the repeats come
    # last, as late as any order of these rounds puts them.
    assert schedule.repeat_free_rounds == evaluate(order_rounds(item.rounds))["repeat_free_rounds"]
    assert schedule.method == stored_beyond(item.plan, rounds)[0]
    again = draw_schedule(
        [f"p{i}" for i in range(n)], rounds=rounds, table_size=table_size, fill="mixed", seed=3
    )
    assert evaluate(again.rounds)["repeated_pairs"] == item.repeated_pairs


def test_the_director_sees_which_pairs_repeat():
    schedule = draw_schedule(list(range(16)), rounds=6, table_size=4, fill="mixed", seed=4)
    repeated = schedule.repeated_meetings()
    # Five rounds of 16 players at tables of 4 seat every pair once: round six repeats its own.
    assert len(repeated) == 24
    assert all(numbers[-1] == 6 and len(numbers) == 2 for numbers in repeated.values())
    assert repeated_meetings(schedule.rounds[:5]) == {}


# --- larger fields -------------------------------------------------------------------------


@settings(max_examples=examples(6), deadline=None)
@given(
    n=st.integers(65, 200),
    policy=policies,
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
)
def test_a_large_field_schedule_is_valid_repeat_free_and_reproducible(n, policy, rounds, seed):
    table_size, fill = policy
    plan = table_plan(n, table_size=table_size, fill=fill)
    players = list(range(n))
    schedule = draw_schedule(players, rounds=rounds, table_size=table_size, fill=fill, seed=seed)
    assert_valid(schedule, players, plan, rounds, seed)
    # A handful of rounds out of dozens possible: none repeats anybody.
    assert schedule.repeat_free_rounds == rounds
    again = draw_schedule(players, rounds=rounds, table_size=table_size, fill=fill, seed=seed)
    assert again == schedule


def test_a_large_field_draws_its_rounds_one_at_a_time_far_past_the_whole_schedule_search():
    # 160 players at tables of 4 over 30 rounds (at most 53 repeat-free): the whole-schedule
    # search alone made 20 of them repeat-free; drawn one at a time, each against the rounds
    # before it, all 30 are.
    plan = table_plan(160, table_size=4, fill="mixed")
    schedule = draw_schedule(list(range(160)), rounds=30, table_size=4, fill="mixed", seed=3)
    assert_valid(schedule, list(range(160)), plan, 30, 3)
    assert schedule.repeat_free_rounds == 30
    assert "one at a time" in schedule.method
    assert schedule.summary.endswith("nobody meets anybody twice.")


def test_a_large_field_schedule_tells_how_its_search_goes():
    def drawn():
        reports = []
        schedule = draw_schedule(
            list(range(90)),
            rounds=12,
            table_size=3,
            fill="mixed",
            seed=5,
            progress=lambda share, found: reports.append((share, found)),
        )
        return schedule, reports

    schedule, reports = drawn()
    shares = [share for share, _ in reports]
    assert len(reports) >= 12  # at least once a round
    assert shares == sorted(shares) and shares[0] > 0 and shares[-1] == 1
    assert all(found <= schedule.repeat_free_rounds for _, found in reports)
    assert reports[-1] == (1, schedule.repeat_free_rounds) == (1, 12)
    # Counted in work, not time: the same reports every run.
    assert drawn()[1] == reports


# --- late entries and withdrawals ----------------------------------------------------------


def test_one_withdrawal_from_a_repeat_free_schedule_costs_no_repeat():
    schedule = draw_schedule(list(range(28)), rounds=9, table_size=4, fill="mixed", seed=2)
    field = [p for p in range(28) if p != 13]
    repaired = repair_schedule(
        schedule.rounds[:4],
        field,
        rounds=5,
        table_size=4,
        fill="mixed",
        seed=2,
        planned=schedule.rounds[4:],
    )
    assert repaired.repeat_free_rounds == 9
    assert all(draw.new_repeat_pairs == 0 for draw in repaired.rounds)
    assert "nobody meets anybody a second time" in repaired.summary


@settings(max_examples=examples(20), deadline=None)
@given(
    n=st.integers(8, 40),
    policy=policies,
    played=st.integers(1, 4),
    left=st.integers(1, 4),
    gone=st.integers(0, 3),
    came=st.integers(0, 3),
    seed=st.integers(0, 1000),
    use_plan=st.booleans(),
)
def test_a_repaired_schedule_is_valid_counts_its_repeats_and_is_reproducible(
    n, policy, played, left, gone, came, seed, use_plan
):
    table_size, fill = policy
    schedule = draw_schedule(
        list(range(n)), rounds=played + left, table_size=table_size, fill=fill, seed=seed
    )
    field = list(range(gone, n)) + [1000 + i for i in range(came)]
    if len(field) == 5 and fill == "mixed":
        field.append(2000)
    plan = table_plan(len(field), table_size=table_size, fill=fill)
    kwargs = dict(
        rounds=left,
        table_size=table_size,
        fill=fill,
        seed=seed,
        planned=schedule.rounds[played:] if use_plan else (),
    )
    repaired = repair_schedule(schedule.rounds[:played], field, **kwargs)

    assert len(repaired.rounds) == left
    history = Counter(
        frozenset(pair)
        for draw in schedule.rounds[:played]
        for table in draw.tables
        for pair in combinations([p for p in table if p is not None and p in field], 2)
    )
    assert_repeats_true(repaired.rounds, field, plan, history, most=False)
    assert repair_schedule(schedule.rounds[:played], field, **kwargs) == repaired
