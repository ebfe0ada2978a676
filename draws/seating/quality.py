"""How good a seating is: who met whom how often, and how long the schedule stayed repeat-free."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations
from typing import cast

Table = Sequence[Hashable | None]


def _tables(round_: object) -> Iterable[Table]:
    # A round is either a Draw (with .tables) or a plain sequence of tables.
    return cast(Iterable[Table], getattr(round_, "tables", round_))


def meeting_counts(rounds: Iterable[object]) -> Counter[frozenset[Hashable]]:
    """Times each pair of humans sat at one table, keyed by frozenset({a, b}); bot seats (None)
    meet nobody."""
    counts: Counter[frozenset[Hashable]] = Counter()
    for round_ in rounds:
        for table in _tables(round_):
            humans = [player for player in table if player is not None]
            for a, b in combinations(humans, 2):
                counts[frozenset((a, b))] += 1
    return counts


def evaluate(rounds: Iterable[object]) -> dict[str, int]:
    """repeat_free_rounds: leading rounds in which no pair meets a second time; max_meetings: most
    times one pair met; repeated_pairs: pairs that met more than once; meeting_cost: the sum over
    pairs of (times met) squared, which the balanced draw minimizes."""
    counts: Counter[frozenset[Hashable]] = Counter()
    repeat_free = 0
    still_free = True
    for round_ in rounds:
        for table in _tables(round_):
            humans = [player for player in table if player is not None]
            for a, b in combinations(humans, 2):
                pair = frozenset((a, b))
                counts[pair] += 1
                if counts[pair] > 1:
                    still_free = False
        if still_free:
            repeat_free += 1
    return {
        "repeat_free_rounds": repeat_free,
        "max_meetings": max(counts.values(), default=0),
        "repeated_pairs": sum(1 for times in counts.values() if times > 1),
        "meeting_cost": sum(times * times for times in counts.values()),
    }


def repeated_meetings(rounds: Iterable[object]) -> dict[frozenset[Hashable], list[int]]:
    """The pairs of humans who meet more than once, each with the rounds (numbered from 1) in
    which they meet: what the director sees when a schedule cannot stay repeat-free."""
    met: dict[frozenset[Hashable], list[int]] = {}
    for number, round_ in enumerate(rounds, start=1):
        for table in _tables(round_):
            humans = [player for player in table if player is not None]
            for a, b in combinations(humans, 2):
                met.setdefault(frozenset((a, b)), []).append(number)
    return {pair: numbers for pair, numbers in met.items() if len(numbers) > 1}
