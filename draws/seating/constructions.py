"""Known repeat-free schedules: affine geometries, and stored schedules developed and verified.

Players are points 0..n-1 here; the draw relabels them. Every schedule handed out has been checked
to seat everyone once per round at full tables with no pair meeting twice.
"""

from __future__ import annotations

import json
import warnings
from functools import cache
from importlib import resources
from itertools import combinations, product
from typing import Any

Rounds = list[list[list[int]]]
# The same, immutable (what the cache keeps).
FrozenRounds = tuple[tuple[tuple[int, ...], ...], ...]

# Best known (and, since each equals the counting bound, proven) repeat-free rounds for the
# instances the tournaments issue names; players/table size -> rounds.
KNOWN_MAXIMA = {
    (16, 4): 5,
    (24, 4): 7,
    (28, 4): 9,
    (32, 4): 10,
    (40, 4): 13,
    (48, 4): 15,
    (64, 4): 21,
    (9, 3): 4,
    (15, 3): 7,
    (18, 3): 8,
    (21, 3): 10,
    (27, 3): 13,
}


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q) for q = 3 (integers mod 3) or 4 (GF(2)[x] mod
    x^2 + x + 1, elements as 2-bit polynomials)."""
    if q == 3:
        return (
            [[(a + b) % 3 for b in range(3)] for a in range(3)],
            [[(a * b) % 3 for b in range(3)] for a in range(3)],
        )
    if q == 4:

        def times(a: int, b: int) -> int:
            product_ = 0
            for bit in range(2):
                if b >> bit & 1:
                    product_ ^= a << bit
            if product_ & 4:
                product_ ^= 0b111
            return product_

        return [[a ^ b for b in range(4)] for a in range(4)], [
            [times(a, b) for b in range(4)] for a in range(4)
        ]
    raise ValueError(f"no field of order {q} here")


def affine_rounds(q: int, dimension: int) -> Rounds:
    """The parallel classes of lines of the affine space AG(dimension, q): q**dimension players,
    tables of q, (q**dimension - 1) / (q - 1) rounds. Two points lie on exactly one line, so no two
    players ever meet twice, and everyone meets everyone once."""
    add, mul = _field(q)
    points = list(product(range(q), repeat=dimension))
    number = {point: i for i, point in enumerate(points)}
    # One direction per point of the projective space: first nonzero coordinate 1.
    directions = [p for p in points if any(p) and p[next(i for i, c in enumerate(p) if c)] == 1]
    rounds = []
    for direction in directions:
        seen: set[int] = set()
        tables = []
        for point in points:
            if number[point] in seen:
                continue
            line = sorted(
                number[tuple(add[c][mul[t][d]] for c, d in zip(point, direction, strict=True))]
                for t in range(q)
            )
            seen.update(line)
            tables.append(line)
        rounds.append(tables)
    return rounds


def develop_cyclic(entry: dict[str, Any]) -> Rounds:
    """Rounds of a stored difference-method schedule: points part * order + x for x in Z_order,
    then `fixed` points that translation leaves alone; each base round gives `order` rounds."""
    order: int = entry["order"]
    parts: int = entry["parts"]
    moving = order * parts

    def shift(point: int, step: int) -> int:
        if point >= moving:
            return point
        return point - point % order + (point % order + step) % order

    rounds = [
        [sorted(shift(p, step) for p in table) for table in base]
        for base in entry["base_rounds"]
        for step in range(order)
    ]
    return rounds + [[list(table) for table in round_] for round_ in entry["invariant_rounds"]]


def is_repeat_free(rounds: Rounds, players: int, table_size: int) -> bool:
    met: set[tuple[int, int]] = set()
    for tables in rounds:
        if sorted(p for table in tables for p in table) != list(range(players)):
            return False
        for table in tables:
            if len(table) != table_size:
                return False
            for pair in combinations(sorted(table), 2):
                if pair in met:
                    return False
                met.add(pair)
    return True


def stored_schedules(*, strict: bool = False) -> dict[tuple[int, int], Rounds]:
    """The shipped schedules found offline by `python -m draws.schedule_search`, developed
    and verified. A broken entry is skipped with a warning (or raises when `strict`), so a bad
    data file costs schedule quality, never a crash at the tournament."""
    text = resources.files(__package__).joinpath("schedules.json").read_text(encoding="utf-8")
    found = {}
    for name, entry in json.loads(text).items():
        players, table_size = entry["players"], entry["table_size"]
        rounds = develop_cyclic(entry) if entry["method"] == "cyclic" else entry["rounds"]
        if not is_repeat_free(rounds, players, table_size):
            message = f"stored seat schedule {name} is not repeat-free; ignoring it"
            if strict:
                raise ValueError(message)
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            continue
        found[(players, table_size)] = rounds
    return found


@cache
def _stored() -> dict[tuple[int, int], Rounds]:
    return stored_schedules()


def _power_of(base: int, value: int) -> int | None:
    exponent = 0
    while value > 1 and value % base == 0:
        value //= base
        exponent += 1
    return exponent if value == 1 else None


@cache
def _known_schedule(players: int, table_size: int) -> tuple[str, FrozenRounds] | None:
    dimension = _power_of(table_size, players) if table_size in (3, 4) else None
    rounds: Rounds | None
    if dimension is not None and dimension >= 2:
        rounds = affine_rounds(table_size, dimension)
        method = f"affine geometry AG({dimension},{table_size})"
    else:
        rounds = _stored().get((players, table_size))
        method = "stored schedule"
    if rounds is None:
        return None
    if not is_repeat_free(rounds, players, table_size):  # pragma: no cover - guards the algebra
        return None
    return method, tuple(tuple(tuple(table) for table in round_) for round_ in rounds)


def known_schedule(players: int, table_size: int) -> tuple[str, Rounds] | None:
    """A verified repeat-free schedule of points 0..players-1 at full tables, with how it was
    made, or None when none is known."""
    found = _known_schedule(players, table_size)
    if found is None:
        return None
    method, rounds = found
    return method, [[list(table) for table in round_] for round_ in rounds]
