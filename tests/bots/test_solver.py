"""The exact solver of the card play (issue 16): exact values on hand-built endgames (marriages,
trump changes, must-beat, the first-trick option), the same values as an exhaustive search with
the rules engine itself, the compiled core and the pure-Python reference agreeing on thousands
of random positions, best moves the engine accepts, and bad positions refused."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import solver
from bots.solver import MARRIAGE, Position, best_move, engine_code, reaches, solve
from rules import actions as A
from rules.cards import CARD_NAMES, mask_of
from rules.deal import PLAY, DealState
from rules.options import RuleSet
from rules.simulate import random_play_position
from tests.hypothesis_profiles import examples


def hand(*names: str) -> int:
    return mask_of(CARD_NAMES.index(name) for name in names)


def reference(position: Position, side: int) -> int:
    return solver._Reference.solve(*solver._arguments(position, side), 0, solver.MOST_POINTS + 1)


def reference_best(position: Position, side: int) -> tuple[int, int]:
    return solver._Reference.best(*solver._arguments(position, side))


# --- hand-built endgames ------------------------------------------------------------------------


def test_one_trick_left_goes_to_the_highest_card_of_the_suit_led():
    position = Position(hands=(hand("AH"), hand("TH"), hand("9S")), leader=0)
    assert solve(position, 0b001) == 11 + 10 + 0
    assert solve(position, 0b110) == 0


def test_a_trump_takes_a_trick_the_others_cannot_follow():
    # Hearts are trump: seat 1, void in spades, ruffs seat 0's ace.
    position = Position(hands=(hand("AS"), hand("9H"), hand("TS")), leader=0, trump=3)
    assert solve(position, 0b010) == 11 + 0 + 10


def test_a_marriage_on_lead_scores_and_makes_its_suit_trump():
    # Seat 0 leads K♥ or Q♥ as a marriage (100), hearts trump: his two hearts take both tricks
    # against seat 1's aces of spades and clubs, which cannot follow.
    position = Position(hands=(hand("KH", "QH"), hand("AS", "AC"), hand("9S", "9C")), leader=0)
    assert solve(position, 0b001) == 100 + 4 + 11 + 0 + 3 + 11 + 0
    move, value = best_move(position, 0b001)
    assert move in (MARRIAGE + 20, MARRIAGE + 21) and value == solve(position, 0b001)


def test_a_second_marriage_changes_the_trump():
    # Spades are trump (declared before); seat 0 declares diamonds (80) on lead and the nine of
    # diamonds of seat 2 beats seat 1's spade no longer.
    position = Position(
        hands=(hand("KD", "QD"), hand("AS", "JS"), hand("9D", "TC")), leader=0, trump=0
    )
    # Diamonds trump: K♦ led, seat 1 may not follow and has no trump: any spade; seat 2 follows.
    assert solve(position, 0b001) == 80 + (4 + 11 + 0) + (3 + 2 + 10)


def test_no_marriage_on_the_first_trick_unless_the_option_allows_it():
    hands = (hand("KH", "QH"), hand("AS", "AC"), hand("9S", "9C"))
    first = Position(hands=hands, leader=0, first_trick=True)
    # Without the marriage no trump: K♥ takes its trick only as the suit led... and seat 0 can
    # never take a trick led by the others' aces afterwards.
    assert solve(first, 0b001) < 100
    allowed = replace(first, marriage_on_first_trick=True)
    assert solve(allowed, 0b001) == 100 + 4 + 11 + 0 + 3 + 11 + 0


def test_must_beat_makes_a_follower_play_over_the_best_card():
    # Hearts trump; seat 0 has led the jack of spades. Seat 1 holds the ace and the nine: free,
    # he plays the nine, since seat 2 (void in spades) trumps anyway; under must-beat he must
    # play the ace into seat 2's trick. The last trick goes to seat 0's king of diamonds.
    position = Position(
        hands=(hand("KD"), hand("AS", "9S"), hand("9H", "9D")), trick=(1,), leader=0, trump=3
    )
    assert solve(position, 0b100) == 2 + 0 + 0
    assert solve(replace(position, must_beat=True), 0b100) == 2 + 11 + 0
    assert best_move(position, 0b100) == (0, 2)  # the nine of spades


def test_the_threshold_search_agrees_with_the_value():
    position = Position(
        hands=(hand("AH", "KS", "9D"), hand("TH", "QS", "JD"), hand("9H", "AS", "TD")), leader=1
    )
    value = solve(position, 0b001)
    assert reaches(position, 0b001, value)
    assert not reaches(position, 0b001, value + 1)
    assert reaches(position, 0b001, 0)


def test_bad_positions_are_refused():
    with pytest.raises(ValueError):
        solve(Position(hands=(hand("AH"), hand("AH"), hand("9S"))), 0b001)
    with pytest.raises(ValueError):
        solve(Position(hands=(hand("AH", "KH"), hand("TH"), hand("9S"))), 0b001)
    with pytest.raises(ValueError):
        solve(Position(hands=(hand("AH"), hand("TH"), hand("9S")), trick=(5,)), 0b001)
    with pytest.raises(ValueError):
        solve(Position(hands=(hand("AH"), hand("TH"), hand("9S"))), 8)


# --- against the rules engine ---------------------------------------------------------------------


def play_position(seed: int, tricks_left: int, rules: RuleSet, players: int) -> DealState:
    return random_play_position(
        random.Random(seed), tricks_left=tricks_left, rules=rules, players=players
    )


def engine_value(state: DealState, side_seats: set[int]) -> int:
    """The side's points from here, every legal line tried with the engine itself."""

    def points(s: DealState) -> int:
        return sum(s.won[seat] + s.marriage_points[seat] for seat in side_seats)

    start = points(state)

    def search(s: DealState) -> int:
        if s.phase != PLAY:
            return points(s) - start
        values = []
        for code in s.legal_codes():
            if code == A.CONCEDE:
                continue
            child = s.clone()
            child.step(code)
            values.append(search(child))
        return max(values) if s.to_act in side_seats else min(values)

    return search(state)


RULES = st.sampled_from(
    [
        RuleSet(),
        RuleSet(must_beat=True),
        RuleSet(marriage_on_first_trick=True),
        RuleSet(must_beat=True, marriage_on_first_trick=True),
    ]
)


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=st.integers(0, 10**9),
    tricks=st.integers(1, 4),
    rules=RULES,
    players=st.sampled_from([3, 4]),
    side=st.integers(1, 6),
)
def test_the_solver_finds_what_an_exhaustive_search_with_the_engine_finds(
    seed, tricks, rules, players, side
):
    state = play_position(seed, tricks, rules, players)
    position, seats = Position.of(state)
    side_seats = {seats[i] for i in range(3) if side >> i & 1}
    expected = engine_value(state, side_seats)
    assert solve(position, side) == expected
    assert reference(position, side) == expected
    move, value = best_move(position, side)
    assert engine_code(move) in state.legal_codes()
    after = state.clone()
    after.step(engine_code(move))
    gained = sum(
        after.won[s] + after.marriage_points[s] - state.won[s] - state.marriage_points[s]
        for s in side_seats
    )
    assert value == expected
    if after.phase == PLAY:
        assert gained + engine_value(after, side_seats) == value


# --- compiled core and reference ------------------------------------------------------------------


@pytest.mark.skipif(not solver.COMPILED, reason="the compiled core is not built here")
@settings(max_examples=examples(2000), deadline=None)
@given(
    seed=st.integers(0, 10**9),
    tricks=st.integers(1, 4),
    rules=RULES,
    side=st.integers(1, 6),
)
def test_the_compiled_core_and_the_reference_agree(seed, tricks, rules, side):
    state = play_position(seed, tricks, rules, 3)
    position, _ = Position.of(state)
    assert solver._solver.solve(*solver._arguments(position, side), 0, 401) == reference(
        position, side
    )
    assert solver._solver.best(*solver._arguments(position, side)) == reference_best(position, side)
    exact = reference(position, side)
    for target in (exact - 5, exact, exact + 1):
        found = solver._solver.solve(*solver._arguments(position, side), target - 1, target)
        assert (found >= target) == (exact >= target)
        assert reaches(position, side, target) == (exact >= target)


def test_the_compiled_core_is_built_where_a_compiler_is():
    import shutil

    if shutil.which("cc") or shutil.which("gcc"):
        assert solver.COMPILED


@settings(max_examples=examples(300), deadline=None)
@given(
    seed=st.integers(0, 10**9),
    tricks=st.integers(1, 4),
    rules=RULES,
    side=st.integers(1, 6),
    low=st.integers(0, 200),
    width=st.integers(0, 80),
)
def test_a_window_gives_the_value_inside_it_and_a_true_bound_outside(
    seed, tricks, rules, side, low, width
):
    position, _ = Position.of(play_position(seed, tricks, rules, 3))
    exact = reference(position, side)
    high = low + width
    assert_windowed(solve(position, side, low=low, high=high), exact, low, high)


def assert_windowed(found: int, exact: int, low: int, high: int) -> None:
    """A windowed answer: the value inside [low, high], a true bound outside it."""
    if low <= exact <= high:
        assert found == exact
    elif exact < low:
        assert exact <= found < low
    else:
        assert high < found <= exact


@settings(max_examples=examples(100), deadline=None)
@given(
    seed=st.integers(0, 10**9),
    rules=RULES,
    windows=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 80)), min_size=2, max_size=6),
)
def test_a_kept_table_gives_the_same_values_in_any_window(seed, rules, windows):
    # The solves of one decision keep the table: each candidate card of the same deal, then
    # other deals and other sides. Inside its window each answer is the fresh solve's; outside
    # it, a true bound; the compiled core and the reference alike.
    base = play_position(seed, 3, rules, 3)
    positions = [Position.of(base)[0]]
    for move in base.legal_codes()[:3]:
        child = base.clone()
        child.step(move)
        if child.phase == PLAY:
            positions.append(Position.of(child)[0])
    positions.append(Position.of(play_position(seed + 1, 2, rules, 3))[0])
    cores = [solver._Reference, *([solver._solver] if solver.COMPILED else [])]
    for core in cores:
        for index, (low, width) in enumerate(windows):
            position = positions[index % len(positions)]
            side = 1 << index % 3 if index % 4 else 3
            exact = reference(position, side)
            high = low + width
            found = core.solve(*solver._arguments(position, side), low - 1, high + 1, True)
            assert_windowed(found, exact, low, high)


# --- the work a solve does ------------------------------------------------------------------------


@pytest.mark.parametrize("core", ["reference", "compiled"])
def test_a_solve_counts_its_moves_and_a_forgotten_table_counts_them_again(core):
    if core == "compiled" and not solver.COMPILED:
        pytest.skip("the compiled core is not built here")
    search = solver._Reference if core == "reference" else solver._solver
    position = Position.of(play_position(11, 4, RuleSet(), 3))[0]
    arguments = (*solver._arguments(position, 1), -1, solver.MOST_POINTS + 1, True)

    def work() -> tuple[int, int]:
        before = search.nodes()
        found = search.solve(*arguments)
        return found, search.nodes() - before

    search.forget()
    value, first = work()
    assert first > 0
    # Kept, the same position is found in the table: next to no work.
    again, kept = work()
    assert again == value and kept < first
    # Forgotten, the table starts anew even though the solve asks to keep it: the same work.
    search.forget()
    assert work() == (value, first)
