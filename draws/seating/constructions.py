"""Known seat schedules: affine geometries, a transversal design, stored schedules developed and
verified, and schedules for mixed tables made from them by taking players away.

Players are points 0..n-1 here; the draw relabels them. A table plan is the tuple of humans per
table, fullest first (`(4, 4, 3, 3)` for 14 players at tables of 4 and 3): what makes a schedule
repeat-free depends on nothing else, so a plan with bot seats uses the same schedules. Every
schedule handed out has been checked to seat everyone once per round at the plan's tables, with no
pair meeting twice (or, for stored schedules beyond the repeat-free maximum, exactly the stated
repeats).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations, product
from typing import Any

from .tables import table_plan

Rounds = list[list[list[int]]]
# The same, immutable (what the caches keep).
FrozenRounds = tuple[tuple[tuple[int, ...], ...], ...]
Plan = tuple[int, ...]

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

# The most repeat-free rounds known for every club size (SEATING-NOTES.md, "Club sizes"):
# (players, table size) -> rounds, with tables of the other size where the count does not divide
# (the plan of `table_plan(players, table_size=size, fill="mixed")`). Where the figure is below
# the counting bound it is either proven (PROVEN_MAXIMA) or the best any construction or search
# has reached; the seat draw must reach it, and may do better.
BEST_KNOWN = {
    **{(n, 4): 1 for n in (8, 10, 11, 12)},
    (9, 4): 4,
    (13, 4): 4,
    (14, 4): 4,
    (15, 4): 5,
    (16, 4): 5,
    **{(n, 4): 5 for n in (17, 18, 19, 20)},
    **{(n, 4): 7 for n in (21, 22, 23, 24)},
    (25, 4): 8,
    (26, 4): 8,
    (27, 4): 9,
    (28, 4): 9,
    (29, 4): 9,
    **{(n, 4): 10 for n in (30, 31, 32)},
    **{(n, 4): 11 for n in (33, 34, 35, 36)},
    (37, 4): 12,
    (38, 4): 12,
    (39, 4): 13,
    (40, 4): 13,
    (41, 4): 13,
    **{(n, 4): 14 for n in (42, 43, 44)},
    **{(n, 4): 15 for n in (45, 46, 47, 48)},
    (49, 4): 16,
    (50, 4): 16,
    (51, 4): 17,
    (52, 4): 17,
    (53, 4): 17,
    **{(n, 4): 18 for n in (54, 55, 56)},
    **{(n, 4): 19 for n in (57, 58, 59, 60)},
    (61, 4): 20,
    (62, 4): 20,
    (63, 4): 21,
    (64, 4): 21,
    **{(n, 3): 1 for n in (6, 7, 8, 10, 11)},
    (9, 3): 4,
    (12, 3): 4,
    (13, 3): 4,
    (14, 3): 4,
    (15, 3): 7,
    (16, 3): 6,
    (17, 3): 5,
    (18, 3): 8,
    (19, 3): 7,
    (20, 3): 6,
    (21, 3): 10,
    (22, 3): 8,
    (23, 3): 8,
    (24, 3): 11,
    (25, 3): 9,
    (26, 3): 9,
    (27, 3): 13,
    (28, 3): 11,
    (29, 3): 10,
    (30, 3): 14,
    (31, 3): 12,
    (32, 3): 11,
    (33, 3): 16,
    (34, 3): 13,
    (35, 3): 13,
    (36, 3): 17,
    (37, 3): 15,
    (38, 3): 14,
    (39, 3): 19,
    (40, 3): 16,
    (41, 3): 16,
    (42, 3): 20,
    (43, 3): 18,
    (44, 3): 17,
    (45, 3): 22,
}


@cache
def _best_by_plan() -> dict[Plan, int]:
    best: dict[Plan, int] = {}
    for (players, size), rounds in BEST_KNOWN.items():
        plan = tuple(t.humans for t in table_plan(players, table_size=size, fill="mixed"))
        best[plan] = max(best.get(plan, 0), rounds)
    return best


def best_known_rounds(plan: Sequence[int]) -> int | None:
    """The best known number of repeat-free rounds for this table plan (BEST_KNOWN), or None
    for a plan outside that table."""
    return _best_by_plan().get(tuple(sorted(plan, reverse=True)))


# Plans whose repeat-free maximum is proven below the counting bound: 13 and 14 players at
# tables of 4 and 3 cannot have 5 repeat-free rounds (an exhaustive CP-SAT run, SEATING-NOTES.md),
# and 5 rounds of 12 players at tables of 3 would be a nearly Kirkman triple system of order 12,
# which does not exist (Kotzig and Rosa).
PROVEN_MAXIMA: dict[Plan, int] = {
    (4, 3, 3, 3): 4,
    (4, 4, 3, 3): 4,
    (3, 3, 3, 3): 4,
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


def transversal_rounds() -> Rounds:
    """12 players at tables of 3 over 4 rounds, the most possible: players (layer, x) for three
    layers and x in GF(4), player number 4 * layer + x. Round r seats (0, x), (1, x + r) and
    (2, x + w r) together (w a root of x^2 + x + 1); the differences r, w r and (w + 1) r between
    the layers differ from round to round, so nobody meets anybody twice (a resolvable
    transversal design TD(3, 4))."""
    add, mul = _field(4)
    omega = 2
    return [
        [sorted((x, 4 + add[x][r], 8 + add[x][mul[omega][r]])) for x in range(4)] for r in range(4)
    ]


def _is_prime(value: int) -> bool:
    return value >= 2 and all(value % d for d in range(2, int(value**0.5) + 1))


def resolvable_transversal_rounds(size: int, order: int) -> Rounds:
    """`order` rounds of `size` * `order` players at tables of `size`, `order` a prime above
    `size`: players (group j, x) for j < size and x in Z_order, numbered order * j + x. Round r,
    table b seats (j, r + (j - size) b) for every group j: the blocks of the transversal design
    TD(size + 1, order) {(j, a + j b)}, taken by their value in the last group. Two players of
    different groups lie in exactly one block, and those of one group in none, so nobody meets
    anybody twice (a resolvable transversal design; the groups are strangers, which is what
    `remove_players` wants)."""
    if not _is_prime(order) or order <= size:
        raise ValueError(f"no transversal design here for order {order} and tables of {size}")
    return [
        [
            sorted(order * j + (r + (j - size) * b) % order for j in range(size))
            for b in range(order)
        ]
        for r in range(order)
    ]


def develop_cyclic(entry: dict[str, Any]) -> Rounds:
    """Rounds of a stored difference-method schedule: points part * order + x for x in Z_order,
    then `fixed` points that translation leaves alone; each base round gives `order` rounds (the
    first `rounds` of them all told, when the entry says so), then the invariant rounds."""
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
    rounds += [[list(table) for table in round_] for round_ in entry["invariant_rounds"]]
    limit = entry.get("rounds")
    return rounds if limit is None else rounds[:limit]


def plan_of(tables: Iterable[Sequence[int]]) -> Plan:
    return tuple(sorted((len(table) for table in tables), reverse=True))


def repeats(rounds: Rounds, players: int, plan: Plan) -> tuple[int, int] | None:
    """(pairs that meet more than once, most meetings of one pair) if every round seats players
    0..players-1 once each at tables of the plan, else None."""
    met: dict[tuple[int, int], int] = {}
    for tables in rounds:
        if sorted(p for table in tables for p in table) != list(range(players)):
            return None
        if plan_of(tables) != plan:
            return None
        for table in tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(1 for times in met.values() if times > 1), max(met.values(), default=0)


def is_repeat_free(rounds: Rounds, players: int, table_size: int) -> bool:
    if players % table_size:
        return False
    found = repeats(rounds, players, (table_size,) * (players // table_size))
    return found is not None and found[0] == 0


@dataclass(frozen=True)
class Stored:
    """A shipped schedule, developed and verified: repeated_pairs is 0 for a repeat-free one."""

    name: str
    players: int
    plan: Plan
    rounds: FrozenRounds
    repeated_pairs: int
    max_meetings: int
    found_with: str


def _freeze(rounds: Iterable[Iterable[Iterable[int]]]) -> FrozenRounds:
    return tuple(tuple(tuple(table) for table in tables) for tables in rounds)


def _thaw(rounds: FrozenRounds) -> Rounds:
    return [[list(table) for table in tables] for tables in rounds]


def load_stored(*, strict: bool = False) -> list[Stored]:
    """The shipped schedules found offline by `python -m draws.schedule_search`, developed and
    verified: each round seats every player once at the entry's tables, and no pair meets twice
    (or exactly `repeated_pairs` pairs do, none more than `max_meetings` times). A broken entry
    is skipped with a warning (or raises when `strict`), so a bad data file costs schedule
    quality, never a crash at the tournament."""
    text = resources.files(__package__).joinpath("schedules.json").read_text(encoding="utf-8")
    found = []
    for name, entry in json.loads(text).items():
        players: int = entry["players"]
        if "tables" in entry:
            plan = tuple(sorted(entry["tables"], reverse=True))
        else:
            size: int = entry["table_size"]
            plan = (size,) * (players // size)
        rounds = develop_cyclic(entry) if entry["method"] == "cyclic" else entry["rounds"]
        stated = (entry.get("repeated_pairs", 0), entry.get("max_meetings", 1))
        if repeats(rounds, players, plan) != stated or sum(plan) != players or not rounds:
            message = f"stored seat schedule {name} is not as stated; ignoring it"
            if strict:
                raise ValueError(message)
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            continue
        found.append(
            Stored(name, players, plan, _freeze(rounds), *stated, entry.get("found_with", ""))
        )
    return found


def stored_schedules(*, strict: bool = False) -> dict[tuple[int, int], Rounds]:
    """The shipped repeat-free schedules at full tables of one size: (players, table size) ->
    rounds."""
    return {
        (item.players, item.plan[0]): _thaw(item.rounds)
        for item in load_stored(strict=strict)
        if item.repeated_pairs == 0 and len(set(item.plan)) == 1
    }


@cache
def _stored() -> tuple[Stored, ...]:
    return tuple(load_stored())


def _power_of(base: int, value: int) -> int | None:
    exponent = 0
    while value > 1 and value % base == 0:
        value //= base
        exponent += 1
    return exponent if value == 1 else None


def _stored_full(players: int, table_size: int) -> Rounds | None:
    plan = (table_size,) * (players // table_size)
    for item in _stored():
        if item.plan == plan and item.repeated_pairs == 0:
            return _thaw(item.rounds)
    return None


@cache
def _known_schedule(players: int, table_size: int) -> tuple[str, FrozenRounds] | None:
    if table_size not in (3, 4) or players % table_size:
        return None
    dimension = _power_of(table_size, players)
    rounds: Rounds | None
    if dimension is not None and dimension >= 2:
        rounds = affine_rounds(table_size, dimension)
        method = f"affine geometry AG({dimension},{table_size})"
    elif (players, table_size) == (12, 3):
        rounds = transversal_rounds()
        method = "transversal design TD(3,4)"
    else:
        rounds = _stored_full(players, table_size)
        method = "stored schedule"
        order = players // table_size
        if rounds is None and table_size == 4 and _is_prime(order) and order > table_size:
            # Larger fields (past the stored schedules): `order` rounds where a search finds
            # fewer (188 players: 47 rounds, the tabu search 17). At tables of 3 the search
            # does better than `order`, so it is left to it.
            rounds = resolvable_transversal_rounds(table_size, order)
            method = f"resolvable transversal design TD({table_size + 1},{order})"
    if rounds is None:
        return None
    if not is_repeat_free(rounds, players, table_size):  # pragma: no cover - guards the algebra
        return None
    return method, _freeze(rounds)


def known_schedule(players: int, table_size: int) -> tuple[str, Rounds] | None:
    """A verified repeat-free schedule of points 0..players-1 at full tables, with how it was
    made, or None when none is known."""
    found = _known_schedule(players, table_size)
    if found is None:
        return None
    method, rounds = found
    return method, _thaw(rounds)


def _met_rounds(rounds: Rounds, players: int) -> list[list[int]]:
    """met[a][b]: the round in which a and b met, or -1 (a repeat-free schedule)."""
    met = [[-1] * players for _ in range(players)]
    for number, tables in enumerate(rounds):
        for table in tables:
            for a, b in combinations(table, 2):
                met[a][b] = met[b][a] = number
    return met


def _strangers(met: list[list[int]], k: int) -> list[int] | None:
    """k players no two of whom ever met, or None (a small backtracking search)."""
    players = len(met)

    def grow(chosen: list[int], start: int) -> list[int] | None:
        if len(chosen) == k:
            return chosen
        for p in range(start, players):
            if all(met[p][q] < 0 for q in chosen):
                found = grow([*chosen, p], p + 1)
                if found is not None:
                    return found
        return None

    return grow([], 0)


def remove_players(rounds: Rounds, players: int, k: int) -> tuple[Rounds, list[int]]:
    """A repeat-free schedule for `players` - k from one for `players` at full tables of s,
    k below the number of tables: the k leave, each table that loses one of them becomes a table
    of s - 1, and the rounds in which two of them sat together are left out. Chosen to lose as few
    rounds as can be: k players who never meet (a group of a group divisible design) lose none;
    k who share a table in some round lose only that round, since they meet nowhere else.
    Returns the rounds, players renumbered 0..players-k-1 in order, and the players removed."""
    met = _met_rounds(rounds, players)
    gone = _strangers(met, k)
    if gone is None:
        # k players of one table of the first round, who met only there.
        gone = sorted(min(rounds[0], key=len)[:k])
    left = set(gone)
    number = {p: i for i, p in enumerate(p for p in range(players) if p not in left)}
    result = []
    for tables in rounds:
        if any(len(left.intersection(table)) > 1 for table in tables):
            continue
        result.append([[number[p] for p in table if p not in left] for table in tables])
    return result, gone


ONE_ROUND = "a single round"


@cache
def _best_known(plan: Plan) -> tuple[str, FrozenRounds]:
    players = sum(plan)
    candidates: list[tuple[str, Rounds]] = []
    full = plan[0]
    if set(plan) == {full}:
        known = known_schedule(players, full)
        if known is not None:
            candidates.append(known)
    for item in _stored():
        if item.plan == plan and item.repeated_pairs == 0:
            candidates.append((f"stored schedule ({item.name})", _thaw(item.rounds)))
    short = len(plan) * full - players
    if full in (3, 4) and 0 < short < len(plan) and set(plan) == {full, full - 1}:
        larger = players + short
        known = known_schedule(larger, full)
        if known is not None:
            method, rounds = known
            reduced, _ = remove_players(rounds, larger, short)
            if reduced:
                candidates.append((f"{larger}/{full} minus {short} ({method})", reduced))
    # One round is always repeat-free.
    seated = iter(range(players))
    best: tuple[str, Rounds] = (ONE_ROUND, [[[next(seated) for _ in range(size)] for size in plan]])
    for method, rounds in candidates:
        if repeats(rounds, players, plan) != (0, 1):  # pragma: no cover - guards the algebra
            continue
        if len(rounds) > len(best[1]):
            best = (method, rounds)
    return best[0], _freeze(best[1])


def best_known(plan: Sequence[int]) -> tuple[str, Rounds]:
    """The longest verified repeat-free schedule known for this table plan (humans per table,
    any order), players 0..sum(plan)-1, each round's tables fullest first, with how it was made
    (ONE_ROUND when nothing longer is known)."""
    method, rounds = _best_known(tuple(sorted(plan, reverse=True)))
    return method, [sorted(tables, key=len, reverse=True) for tables in _thaw(rounds)]


def stored_beyond(plan: Sequence[int], rounds: int) -> tuple[str, Rounds, int] | None:
    """A shipped schedule of exactly `rounds` rounds for this plan with the fewest repeated pairs
    (when more rounds than can be repeat-free are asked for), with its name and repeated pairs."""
    wanted = tuple(sorted(plan, reverse=True))
    best: Stored | None = None
    for item in _stored():
        if item.plan != wanted or len(item.rounds) != rounds or not item.repeated_pairs:
            continue
        if best is None or (item.max_meetings, item.repeated_pairs) < (
            best.max_meetings,
            best.repeated_pairs,
        ):
            best = item
    if best is None:
        return None
    return (
        f"stored schedule ({best.name})",
        [sorted(tables, key=len, reverse=True) for tables in _thaw(best.rounds)],
        best.repeated_pairs,
    )


def order_rounds(rounds: Rounds) -> Rounds:
    """The same rounds in an order that puts repeated meetings as late as they can go: first as
    many rounds as can be together repeat-free (the largest set of rounds no two of which seat a
    pair twice, by an exact search: schedules are short), then each time the round that repeats
    the fewest meetings of those before it."""
    pairs = [
        {(a, b) if a < b else (b, a) for table in tables for a, b in combinations(table, 2)}
        for tables in rounds
    ]
    count = len(rounds)
    clash = [{j for j in range(count) if j != i and pairs[i] & pairs[j]} for i in range(count)]
    best: list[int] = []
    # A bound on the exact search's steps, far above what schedules of a tournament need.
    steps = [200_000]

    def grow(chosen: list[int], candidates: list[int]) -> None:
        nonlocal best
        steps[0] -= 1
        if len(chosen) + len(candidates) <= len(best) or steps[0] < 0:
            if len(chosen) > len(best):
                best = chosen
            return
        if not candidates:
            best = chosen
            return
        first, rest = candidates[0], candidates[1:]
        grow([*chosen, first], [c for c in rest if c not in clash[first]])
        grow(chosen, rest)

    grow([], list(range(count)))
    order = list(best)
    met: dict[tuple[int, int], int] = {}
    for i in order:
        for pair in pairs[i]:
            met[pair] = met.get(pair, 0) + 1
    left = [i for i in range(count) if i not in best]
    while left:
        nxt = min(left, key=lambda i: (sum(met.get(pair, 0) for pair in pairs[i]), i))
        left.remove(nxt)
        order.append(nxt)
        for pair in pairs[nxt]:
            met[pair] = met.get(pair, 0) + 1
    return [rounds[i] for i in order]
