"""Offline search for repeat-free seat schedules, whose results ship as `seating/schedules.json`.

The seat draw never runs this module: it needs OR-Tools (`pip install -e '.[solver]'`) and minutes
of CPU for the hardest instance, so its answers are stored and verified again when loaded.

    python -m draws.schedule_search 24/4 [--seconds 300] [--seed 1] [--write]

The model is a symmetric one. Every round is an equivalence relation on the players ("sits at the
same table"), one Boolean per round and pair. A permutation group acts on players and on rounds,
and the variables of a pair and its image are made the same variable; so the solver only chooses
orbit representatives, which shrinks the search from hopeless to seconds (SEATING-NOTES.md):
- cyclic shapes (the difference method): players are Z_m x parts plus fixed points, each base round
  is developed by the m translations into m rounds, and "invariant" rounds map to themselves;
- the Z_2^3 shape for 32 players at tables of 4: four rounds fixed by the whole group and three
  pairs of rounds swapped by it, each pair fixed by a subgroup of index 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path

from draws.seating.constructions import is_repeat_free

SCHEDULES_PATH = Path(__file__).resolve().parent / "seating" / "schedules.json"


@dataclass(frozen=True)
class CyclicShape:
    """Players Z_order x parts plus `fixed` points that translation leaves alone."""

    players: int
    table_size: int
    order: int
    parts: int
    fixed: int
    base_rounds: int
    invariant_rounds: int = 0
    # x -> multiplier * x on Z_order, imposed on every base round: a smaller search (40/4).
    multiplier: int | None = None
    # Part i -> part i + 1 and fixed point j -> j + 1 (needs as many fixed points as parts),
    # imposed on every round: another way to shrink the search (48/4).
    rotate_parts: bool = False

    @property
    def rounds(self) -> int:
        return self.base_rounds * self.order + self.invariant_rounds

    def translate(self, point: int, step: int) -> int:
        if point >= self.parts * self.order:
            return point
        part, element = divmod(point, self.order)
        return part * self.order + (element + step) % self.order

    def multiply(self, point: int) -> int:
        if point >= self.parts * self.order:
            return point
        part, element = divmod(point, self.order)
        return part * self.order + (element * self.multiplier) % self.order

    def generators(self) -> list[tuple[list[int], list[int]]]:
        points = range(self.players)
        developed = self.base_rounds * self.order
        shift_points = [self.translate(point, 1) for point in points]
        shift_rounds = [
            (r // self.order) * self.order + (r % self.order + 1) % self.order
            if r < developed
            else r
            for r in range(self.rounds)
        ]
        generators = [(shift_points, shift_rounds)]
        if self.multiplier is not None:
            # The multiplier conjugates translation by k into translation by multiplier * k,
            # so it maps the k-th developed round onto the (multiplier * k)-th one.
            times_points = [self.multiply(point) for point in points]
            times_rounds = [
                (r // self.order) * self.order + (r % self.order) * self.multiplier % self.order
                if r < developed
                else r
                for r in range(self.rounds)
            ]
            generators.append((times_points, times_rounds))
        if self.rotate_parts:
            # Rotation commutes with translation, so every round is mapped onto itself.
            moving = self.parts * self.order
            rotate_points = [
                (point + self.order) % moving
                if point < moving
                else moving + (point - moving + 1) % self.fixed
                for point in points
            ]
            generators.append((rotate_points, list(range(self.rounds))))
        return generators

    def entry(self, rounds: list[list[list[int]]]) -> dict:
        """The JSON form: base rounds (translation 0) and invariant rounds; the loader develops."""
        developed = self.base_rounds * self.order
        return {
            "players": self.players,
            "table_size": self.table_size,
            "method": "cyclic",
            "order": self.order,
            "parts": self.parts,
            "fixed": self.fixed,
            "base_rounds": [rounds[b * self.order] for b in range(self.base_rounds)],
            "invariant_rounds": rounds[developed:],
        }


@dataclass(frozen=True)
class BinaryCubeShape:
    """Players Z_2^3 x parts; rounds fixed by the group, and pairs swapped by it.

    `swaps[j]` is a nonzero 3-bit functional f: the j-th pair of rounds is fixed by the subgroup
    {g : f.g = 0} and swapped by the other four elements.
    """

    players: int
    table_size: int
    fixed_rounds: int
    swaps: tuple[int, ...] = field(default=(1, 2, 4))

    @property
    def rounds(self) -> int:
        return self.fixed_rounds + 2 * len(self.swaps)

    def generators(self) -> list[tuple[list[int], list[int]]]:
        generators = []
        for bit in (1, 2, 4):
            point_map = [(p // 8) * 8 + ((p % 8) ^ bit) for p in range(self.players)]
            round_map = list(range(self.rounds))
            for j, functional in enumerate(self.swaps):
                if bin(functional & bit).count("1") % 2:
                    first = self.fixed_rounds + 2 * j
                    round_map[first], round_map[first + 1] = first + 1, first
            generators.append((point_map, round_map))
        return generators

    def entry(self, rounds: list[list[list[int]]]) -> dict:
        return {
            "players": self.players,
            "table_size": self.table_size,
            "method": "explicit",
            "found_with": f"Z_2^3 symmetry, {self.fixed_rounds} fixed rounds, swaps {self.swaps}",
            "rounds": rounds,
        }


# Shapes from SEATING-NOTES.md; 9/3, 16/4, 27/3 and 64/4 come from affine geometry instead.
SHAPES: dict[str, CyclicShape | BinaryCubeShape] = {
    "15/3": CyclicShape(15, 3, order=7, parts=2, fixed=1, base_rounds=1),
    "18/3": CyclicShape(18, 3, order=4, parts=4, fixed=2, base_rounds=2),
    "21/3": CyclicShape(21, 3, order=7, parts=3, fixed=0, base_rounds=1, invariant_rounds=3),
    "24/4": CyclicShape(24, 4, order=7, parts=3, fixed=3, base_rounds=1),
    "28/4": CyclicShape(28, 4, order=9, parts=3, fixed=1, base_rounds=1),
    "40/4": CyclicShape(40, 4, order=13, parts=3, fixed=1, base_rounds=1, multiplier=3),
    "48/4": CyclicShape(48, 4, order=15, parts=3, fixed=3, base_rounds=1, rotate_parts=True),
    "32/4": BinaryCubeShape(32, 4, fixed_rounds=4),
    # Common club sizes beyond the table (20/4 reaches 5 of a counting bound of 6, the
    # others their bound). Shapes tried for 44/4, 56/4 and 60/4 found nothing in minutes.
    "20/4": CyclicShape(20, 4, order=5, parts=4, fixed=0, base_rounds=1),
    "24/3": CyclicShape(24, 3, order=11, parts=2, fixed=2, base_rounds=1),
    "30/3": CyclicShape(30, 3, order=14, parts=2, fixed=2, base_rounds=1),
    "36/4": CyclicShape(36, 4, order=11, parts=3, fixed=3, base_rounds=1, rotate_parts=True),
    "52/4": CyclicShape(52, 4, order=17, parts=3, fixed=1, base_rounds=1, multiplier=4),
    "33/3": CyclicShape(33, 3, order=11, parts=3, fixed=0, base_rounds=1, invariant_rounds=5),
    "36/3": CyclicShape(36, 3, order=17, parts=2, fixed=2, base_rounds=1),
    "39/3": CyclicShape(39, 3, order=19, parts=2, fixed=1, base_rounds=1),
    "42/3": CyclicShape(42, 3, order=20, parts=2, fixed=2, base_rounds=1),
    "45/3": CyclicShape(45, 3, order=15, parts=3, fixed=0, base_rounds=1, invariant_rounds=7),
}


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, item: int) -> int:
        root = item
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[item] != root:
            self.parent[item], item = root, self.parent[item]
        return root

    def union(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def search(shape: CyclicShape | BinaryCubeShape, *, seconds: float, seed: int, workers: int):
    """Rounds as lists of tables of point numbers, or None when the solver found nothing in time."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:  # pragma: no cover - depends on the optional extra
        sys.exit("schedule_search needs OR-Tools: pip install -e '.[solver]'")

    n, size, rounds = shape.players, shape.table_size, shape.rounds
    pairs = list(combinations(range(n), 2))
    pair_index = {pair: i for i, pair in enumerate(pairs)}

    def key(r: int, p: int, q: int) -> int:
        return r * len(pairs) + pair_index[(p, q) if p < q else (q, p)]

    # Identify each (round, pair) variable with its images under the generators.
    classes = _UnionFind(rounds * len(pairs))
    generators = shape.generators()
    for point_map, round_map in generators:
        for r in range(rounds):
            for p, q in pairs:
                classes.union(key(r, p, q), key(round_map[r], point_map[p], point_map[q]))

    model = cp_model.CpModel()
    variables: dict[int, object] = {}

    def meet(r: int, p: int, q: int):
        root = classes.find(key(r, p, q))
        if root not in variables:
            variables[root] = model.new_bool_var(f"m{root}")
        return variables[root]

    # Rounds in one orbit give the same constraints, so one round per orbit is enough.
    round_classes = _UnionFind(rounds)
    for _, round_map in generators:
        for r in range(rounds):
            round_classes.union(r, round_map[r])
    representatives = sorted({round_classes.find(r) for r in range(rounds)})

    seen: set[tuple] = set()
    for r in representatives:
        for p in range(n):
            partners = [meet(r, p, q) for q in range(n) if q != p]
            signature = ("deg", *sorted(v.index for v in partners))
            if signature not in seen:
                seen.add(signature)
                model.add(sum(partners) == size - 1)
        for p, q, u in combinations(range(n), 3):
            a, b, c = meet(r, p, q), meet(r, q, u), meet(r, p, u)
            for x, y, z in ((a, b, c), (a, c, b), (b, c, a)):
                if z.index in (x.index, y.index):
                    continue  # a clause that always holds
                signature = ("tr", *sorted((x.index, y.index)), z.index)
                if signature not in seen:
                    seen.add(signature)
                    model.add_bool_or([x.Not(), y.Not(), z])
    for p, q in pairs:
        terms: dict[int, int] = {}
        for r in range(rounds):
            meet(r, p, q)
            root = classes.find(key(r, p, q))
            terms[root] = terms.get(root, 0) + 1
        signature = ("once", *sorted(terms.items()))
        if signature not in seen:
            seen.add(signature)
            model.add(sum(count * variables[root] for root, count in terms.items()) <= 1)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    result = []
    for r in range(rounds):
        tables: list[list[int]] = []
        placed: set[int] = set()
        for p in range(n):
            if p in placed:
                continue
            table = [p] + [q for q in range(n) if q != p and solver.value(meet(r, p, q))]
            placed.update(table)
            tables.append(sorted(table))
        result.append(tables)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m draws.schedule_search")
    parser.add_argument("instance", choices=sorted(SHAPES), help="players/table size")
    parser.add_argument("--seconds", type=float, default=300.0, help="solver time limit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--multiplier", type=int, help="cyclic shapes: impose x -> multiplier * x on base rounds"
    )
    parser.add_argument(
        "--rotate-parts", action="store_true", help="cyclic shapes: impose part rotation"
    )
    parser.add_argument(
        "--swaps", help="32/4 only: three functionals 1..7 for the swapped pairs, e.g. 1,2,4"
    )
    parser.add_argument(
        "--write", action="store_true", help=f"merge the result into {SCHEDULES_PATH}"
    )
    args = parser.parse_args(argv)

    shape = SHAPES[args.instance]
    if args.swaps and isinstance(shape, BinaryCubeShape):
        shape = BinaryCubeShape(
            shape.players,
            shape.table_size,
            shape.fixed_rounds,
            tuple(int(f) for f in args.swaps.split(",")),
        )
    if args.multiplier and isinstance(shape, CyclicShape):
        shape = replace(shape, multiplier=args.multiplier)
    if args.rotate_parts and isinstance(shape, CyclicShape):
        if shape.fixed != shape.parts:
            parser.error("--rotate-parts needs as many fixed points as parts")
        shape = replace(shape, rotate_parts=True)
    started = time.perf_counter()
    rounds = search(shape, seconds=args.seconds, seed=args.seed, workers=args.workers)
    elapsed = time.perf_counter() - started
    if rounds is None:
        print(f"{args.instance}: nothing found in {elapsed:.1f} s", file=sys.stderr)
        return 1
    if not is_repeat_free(rounds, shape.players, shape.table_size):
        print(f"{args.instance}: solver answer is not repeat-free (a model bug)", file=sys.stderr)
        return 1
    entry = shape.entry(rounds)
    print(f"{args.instance}: {len(rounds)} repeat-free rounds in {elapsed:.1f} s", file=sys.stderr)
    if args.write:
        stored = json.loads(SCHEDULES_PATH.read_text()) if SCHEDULES_PATH.exists() else {}
        stored[args.instance] = entry
        SCHEDULES_PATH.write_text(json.dumps(dict(sorted(stored.items()))) + "\n")
    else:
        print(json.dumps(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
