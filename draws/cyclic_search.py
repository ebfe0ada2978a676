"""Pure-Python local search for cyclic seat schedules, the offline solver's no-dependency half.

The difference method (SEATING-NOTES.md): players are Z_order x parts plus `fixed` points that
translation leaves alone, and a base round developed by the `order` translations gives `order`
rounds. Two players of parts i, j at distance d meet in round t exactly when the base round
seats a pair of the same "class" (parts i, j and difference d, or a fixed point and a part)
shifted by t; so the developed rounds are repeat-free exactly when the base round uses every
class at most once. The search looks for such base rounds: a state is a seating of the base
round(s) at the plan's tables, its cost the number of times a class is used again, and a move
swaps two players between tables (tabu search, or simulated annealing for the exact shapes).

Optional extras that shrink or complete the search:
- several base rounds (`base_rounds`), each developed, all sharing the classes;
- `transversals`: rounds that translation maps onto themselves, each table holding one player of
  every part, (part i, x + row[i]) for x in Z_order; their classes are taken before the search;
- `rotate_parts` = s: the base rounds must be invariant under part i -> i + s (and fixed point
  j -> j + 1, one fixed point per orbit of parts), as for 48/4 and 60/4 (s = 1 of 3 parts) or
  56/4 (s = 2 of 4); a move then swaps whole orbits; with a `multiplier` u the map is
  (i, x) -> (i + s, u x), and fixed points that do not fill an orbit stay put, each at a table
  made of it and one orbit (44/4: Z_14 x 3 + 2, u = 9; 56/4: Z_18 x 3 + 2, u = 7);
- `mirror_parts` = s (two base rounds): the second base round is the first with part i -> i + s,
  fixed points kept; only the first is searched, its image following every move.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from itertools import combinations

# A class that no base round may use at all: two fixed points (they would meet every round) or
# two players of one part at half the order apart (they would meet in two rounds).
FORBIDDEN_WEIGHT = 1000


@dataclass(frozen=True)
class BaseRoundShape:
    """Players Z_order x parts plus `fixed` points; `tables`: the table sizes of one round."""

    order: int
    parts: int
    fixed: int
    tables: tuple[int, ...]
    base_rounds: int = 1
    transversals: tuple[tuple[int, ...], ...] = field(default=())
    rotate_parts: int = 0
    multiplier: int = 1
    mirror_parts: int = 0

    @property
    def players(self) -> int:
        return self.order * self.parts + self.fixed

    @property
    def rounds(self) -> int:
        return self.order * self.base_rounds + len(self.transversals)

    def transversal_rounds(self) -> list[list[list[int]]]:
        m = self.order
        return [
            [sorted(i * m + (row[i] + x) % m for i in range(self.parts)) for x in range(m)]
            for row in self.transversals
        ]

    def developed(self, bases: list[list[list[int]]]) -> list[list[list[int]]]:
        moving = self.order * self.parts

        def shift(point: int, step: int) -> int:
            if point >= moving:
                return point
            return point - point % self.order + (point % self.order + step) % self.order

        rounds = [
            [sorted(shift(p, step) for p in table) for table in base]
            for base in bases
            for step in range(self.order)
        ]
        return rounds + self.transversal_rounds()

    def entry(self, bases: list[list[list[int]]], found_with: str) -> dict:
        """The JSON form for schedules.json: the loader develops the base rounds."""
        entry: dict = {"players": self.players}
        if len(set(self.tables)) > 1:
            entry["tables"] = sorted(self.tables, reverse=True)
        else:
            entry["table_size"] = self.tables[0]
        entry |= {
            "method": "cyclic",
            "order": self.order,
            "parts": self.parts,
            "fixed": self.fixed,
            "base_rounds": [sorted(sorted(table) for table in base) for base in bases],
            "invariant_rounds": self.transversal_rounds(),
            "found_with": found_with,
        }
        return entry


def pair_classes(shape: BaseRoundShape) -> tuple[list[int], int]:
    """classes[u * n + v]: the class of the pair (u, v) of one base round; 0 is the forbidden
    class. Returns the flat table and the number of classes."""
    m, n = shape.order, shape.players
    moving = m * shape.parts
    ids: dict[tuple, int] = {("forbidden",): 0}

    def number(key: tuple) -> int:
        return ids.setdefault(key, len(ids))

    classes = [0] * (n * n)
    for u in range(n):
        for v in range(n):
            if u == v:
                continue
            if u < moving and v < moving:
                (i, x), (j, y) = divmod(u, m), divmod(v, m)
                if i == j:
                    d = (y - x) % m
                    c = 0 if 2 * d == m else number(("pure", i, min(d, m - d)))
                else:
                    if i > j:
                        i, x, j, y = j, y, i, x
                    c = number(("mixed", i, j, (y - x) % m))
            elif u >= moving and v >= moving:
                c = 0
            else:
                point, infinity = (v, u) if u >= moving else (u, v)
                c = number(("fixed", infinity, point // m))
            classes[u * n + v] = c
    return classes, len(ids)


class BaseRoundSearch:
    """Local search over the base rounds of a shape. Points of base round b are b * n + p."""

    def __init__(self, shape: BaseRoundShape, rng: random.Random) -> None:
        self.shape, self.rng = shape, rng
        one, self.count_classes = pair_classes(shape)
        n1 = self.n1 = shape.players
        n = self.n = n1 * shape.base_rounds
        self.classes = [0] * (n * n)
        for b in range(shape.base_rounds):
            for u in range(n1):
                for v in range(n1):
                    self.classes[(b * n1 + u) * n + b * n1 + v] = one[u * n1 + v]
        self.weight = [1] * self.count_classes
        self.weight[0] = FORBIDDEN_WEIGHT
        self.used = [0] * self.count_classes
        # The forbidden class costs on its first use.
        self.used[0] = 1
        m, moving = shape.order, shape.order * shape.parts
        for tables in shape.transversal_rounds():
            for a, b in combinations(tables[0], 2):
                self.used[one[a * n1 + b]] += 1
        self.symmetry = 1
        powers = [list(range(n))]
        if shape.rotate_parts:
            self.symmetry = shape.parts // math.gcd(shape.parts, shape.rotate_parts)
            cycle_fixed = shape.fixed == self.symmetry

            def image(q: int) -> int:
                if q >= moving:
                    return moving + (q - moving + 1) % shape.fixed if cycle_fixed else q
                part, x = divmod(q, m)
                return (part + shape.rotate_parts) % shape.parts * m + x * shape.multiplier % m

            step = [(p // n1) * n1 + image(p % n1) for p in range(n)]
            for _ in range(1, self.symmetry):
                powers.append([step[p] for p in powers[-1]])
        if shape.mirror_parts:
            if shape.rotate_parts or shape.base_rounds != 2:
                raise ValueError("mirroring needs two base rounds and no rotation")
            self.symmetry = 2
            mirror = []
            for p in range(n):
                b, q = divmod(p, n1)
                if q < moving:
                    q = (q + m * shape.mirror_parts) % moving
                mirror.append((1 - b) * n1 + q)
            powers.append(mirror)
        self.powers = powers
        # Points the symmetry leaves alone: each anchors a table of itself and one orbit.
        self.anchors = {p for p in range(n) if len(powers) > 1 and all(q[p] == p for q in powers)}
        self._seat_at_random()

    def _seat_at_random(self) -> None:
        shape, h = self.shape, self.symmetry
        sizes = sorted(shape.tables)
        self.tables: list[list[int]] = []
        self.where = [0] * self.n
        representatives = []
        seen: set[int] = set(self.anchors)
        for b in range(shape.base_rounds):
            orbit_starts = []
            for p in range(b * self.n1, (b + 1) * self.n1):
                if p not in seen:
                    seen.update(power[p] for power in self.powers)
                    orbit_starts.append(p)
            self.rng.shuffle(orbit_starts)
            left = list(sizes)
            for anchor in sorted(a for a in self.anchors if a // self.n1 == b):
                members = [anchor] + [power[orbit_starts[-1]] for power in self.powers]
                orbit_starts.pop()
                left.remove(len(members))
                for p in members:
                    self.where[p] = len(self.tables)
                self.tables.append(members)
            if len(left) % h and not shape.mirror_parts:
                raise ValueError("the tables must come in orbits of the symmetry")
            start = 0
            for size in left if shape.mirror_parts else left[::h]:
                if start < len(orbit_starts):
                    representatives.append(orbit_starts[start : start + size])
                    start += size
        for power in self.powers:
            for table in representatives:
                members = [power[p] for p in table]
                for p in members:
                    self.where[p] = len(self.tables)
                self.tables.append(members)
        self.cost = 0
        n, classes, used, weight = self.n, self.classes, self.used, self.weight
        for members in self.tables:
            for a, b in combinations(members, 2):
                c = classes[a * n + b]
                self.cost += used[c] * weight[c]
                used[c] += 1

    def _swap(self, a: int, b: int) -> int:
        """Swap a and b, players at two tables; returns the change of cost."""
        n, classes, used, weight = self.n, self.classes, self.used, self.weight
        where, tables = self.where, self.tables
        ta, tb = where[a], where[b]
        table_a, table_b = tables[ta], tables[tb]
        change = 0
        an, bn = a * n, b * n
        for x in table_a:
            if x != a:
                c = classes[an + x]
                used[c] -= 1
                change -= used[c] * weight[c]
        for y in table_b:
            if y != b:
                c = classes[bn + y]
                used[c] -= 1
                change -= used[c] * weight[c]
        for x in table_a:
            if x != a:
                c = classes[bn + x]
                change += used[c] * weight[c]
                used[c] += 1
        for y in table_b:
            if y != b:
                c = classes[an + y]
                change += used[c] * weight[c]
                used[c] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        self.cost += change
        return change

    def move(self, a: int, b: int) -> int:
        """Swap a and b and their images under the symmetry; returns the change of cost."""
        return sum(self._swap(power[a], power[b]) for power in self.powers)

    def undo(self, a: int, b: int) -> None:
        for power in reversed(self.powers):
            self._swap(power[b], power[a])

    def allowed(self, a: int, b: int) -> bool:
        """a and b sit in one base round, at tables of different orbits, neither an anchor."""
        if a // self.n1 != b // self.n1 or a in self.anchors or b in self.anchors:
            return False
        tb = self.where[b]
        return all(self.where[power[a]] != tb for power in self.powers)

    def conflicted(self) -> list[int]:
        n, classes, used = self.n, self.classes, self.used
        found = []
        for members in self.tables:
            for a in members:
                an = a * n
                if any(x != a and used[classes[an + x]] > 1 for x in members):
                    found.append(a)
        return found

    def tabu(self, seconds: float) -> bool:
        """Tabu search: the best swap of a few conflicted players, the last moves tabu unless
        they beat the best cost. True when a base round without conflicts is found."""
        rng, count = self.rng, len(self.tables)
        end = time.process_time() + seconds
        tabu_until = [0] * (self.n * count)
        best, iteration = self.cost, 0
        while self.cost > 0:
            iteration += 1
            if iteration % 200 == 0 and time.process_time() > end:
                return False
            conflicted = self.conflicted()
            if len(conflicted) > 6:
                conflicted = rng.sample(conflicted, 6)
            moves: list[tuple[int, int]] = []
            best_change = 0
            for a in conflicted:
                base = a // self.n1 * self.n1
                ta = self.where[a]
                for b in range(base, base + self.n1):
                    if not self.allowed(a, b):
                        continue
                    tb = self.where[b]
                    change = self.move(a, b)
                    self.undo(a, b)
                    banned = tabu_until[a * count + tb] > iteration or (
                        tabu_until[b * count + ta] > iteration
                    )
                    if banned and self.cost + change >= best:
                        continue
                    if not moves or change < best_change:
                        best_change, moves = change, [(a, b)]
                    elif change == best_change:
                        moves.append((a, b))
            if not moves:
                continue
            a, b = rng.choice(moves)
            ta, tb = self.where[a], self.where[b]
            self.move(a, b)
            tabu_until[a * count + ta] = iteration + 4 + rng.randrange(8)
            tabu_until[b * count + tb] = iteration + 4 + rng.randrange(8)
            best = min(best, self.cost)
        return True

    def anneal(self, seconds: float, cycle: float = 60.0, hot: float = 1.5) -> bool:
        """Simulated annealing by random swaps, cooling from `hot` to 1/30 of it in each cycle of
        `cycle` seconds and heating again; True when a base round without conflicts is found."""
        rng, n1 = self.rng, self.n1
        end = time.process_time() + seconds
        started = time.process_time()
        temperature, iteration = hot, 0
        while self.cost > 0:
            iteration += 1
            if iteration % 5000 == 0:
                now = time.process_time()
                if now > end:
                    return False
                temperature = hot * (1 / 30) ** (((now - started) % cycle) / cycle)
            a = rng.randrange(self.n)
            b = a // n1 * n1 + rng.randrange(n1)
            if self.where[a] == self.where[b] or not self.allowed(a, b):
                continue
            change = self.move(a, b)
            if change > 0 and rng.random() >= math.exp(-change / temperature):
                self.undo(a, b)
        return True

    def bases(self) -> list[list[list[int]]]:
        """The base rounds found, as tables of points 0..players-1."""
        n1 = self.n1
        return [
            [[p - b * n1 for p in table] for table in self.tables if table[0] // n1 == b]
            for b in range(self.shape.base_rounds)
        ]


def find_base_rounds(
    shape: BaseRoundShape, *, seconds: float, seed: int, method: str = "tabu"
) -> list[list[list[int]]] | None:
    """Base rounds of the shape whose development is repeat-free, or None if none was found in
    time."""
    search = BaseRoundSearch(shape, random.Random(seed))
    done = search.tabu(seconds) if method == "tabu" else search.anneal(seconds)
    return search.bases() if done else None


def plan_shapes(tables: tuple[int, ...], rounds: int) -> list[BaseRoundShape]:
    """The cyclic shapes worth trying for `rounds` rounds at these tables: order `rounds` (one
    base round) or half of it (two), every split into parts and fixed points with no more fixed
    points than tables (two fixed points at a table would meet every round)."""
    players = sum(tables)
    shapes = []
    for base_rounds in (1, 2):
        if rounds % base_rounds:
            continue
        order = rounds // base_rounds
        for parts in range(1, players // order + 1):
            fixed = players - order * parts
            if 0 <= fixed <= len(tables):
                shapes.append(BaseRoundShape(order, parts, fixed, tables, base_rounds))
    return shapes
