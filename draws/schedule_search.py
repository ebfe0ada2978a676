"""Offline search for repeat-free seat schedules, whose results ship as `seating/schedules.json`.

The seat draw never runs this module: it takes minutes of CPU for the hardest instances, so its
answers are stored and verified again when loaded. Two solvers:

    python -m draws.schedule_search 24/4 [--seconds 300] [--seed 1] [--write]
    python -m draws.schedule_search 56/4 --local [--seconds 600] [--seed 1] [--write]
    python -m draws.schedule_search --plan 43/3 --rounds 19 --local [--seconds 20] [--write]

The first is a CP-SAT model (OR-Tools, `pip install -e '.[solver]'`); `--local` is a pure-Python
tabu search or simulated annealing over the base rounds of a cyclic shape (no dependency), and
`--plan` tries the cyclic shapes of a table plan in turn (tables of 3 with one or two of 4:
`43/3` means the plan of `table_plan(43, table_size=3, fill="mixed")`).

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
import random
import sys
import time
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path

from draws.cyclic_search import BaseRoundShape, find_base_rounds, plan_shapes
from draws.seating.constructions import best_known, is_repeat_free, order_rounds, repeats
from draws.seating.quality import evaluate
from draws.seating.schedule import ScheduleSearch, greedy_round, starting_round
from draws.seating.tables import TablePlan, table_plan

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
    # (i, x) -> (i + 1, u x) with the fixed points kept, imposed on the base round (44/4, 56/4:
    # u of order `parts` in the units of Z_order); it maps the t-th round onto the (u t)-th.
    rotate_times: int | None = None

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
        if self.rotate_times is not None:
            moving = self.parts * self.order
            u = self.rotate_times
            sigma = [
                ((point // self.order + 1) % self.parts) * self.order
                + (point % self.order) * u % self.order
                if point < moving
                else point
                for point in points
            ]
            sigma_rounds = [
                (r // self.order) * self.order + (r % self.order) * u % self.order
                if r < developed
                else r
                for r in range(self.rounds)
            ]
            generators.append((sigma, sigma_rounds))
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
            "found_with": f"CP-SAT on Z_{self.order} x {self.parts} + {self.fixed}"
            + (
                f", invariant under (i, x) -> (i + 1, {self.rotate_times}x)"
                if self.rotate_times
                else ""
            ),
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
    "44/4": CyclicShape(44, 4, order=14, parts=3, fixed=2, base_rounds=1, rotate_times=9),
    "56/4": CyclicShape(56, 4, order=18, parts=3, fixed=2, base_rounds=1, rotate_times=7),
    "60/4": CyclicShape(60, 4, order=19, parts=3, fixed=3, base_rounds=1, rotate_parts=True),
    "48/4": CyclicShape(48, 4, order=15, parts=3, fixed=3, base_rounds=1, rotate_parts=True),
    "32/4": BinaryCubeShape(32, 4, fixed_rounds=4),
    # Common club sizes beyond the table (20/4 reaches 5 of a counting bound of 6, the
    # others their bound). 44/4, 56/4 and 60/4 (above) need a symmetry mixing the parts: plain
    # cyclic shapes found nothing in minutes; with it CP-SAT takes seconds (44/4: 6 s).
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


# Shapes for the pure-Python search (draws/cyclic_search.py) and the method that found them.
LOCAL_SHAPES: dict[str, tuple[BaseRoundShape, str]] = {
    "60/4": (BaseRoundShape(19, 3, 3, (4,) * 15, rotate_parts=1), "tabu"),
    # (i, x) -> (i + 1, 7x) has order 3 on Z_18 x 3 and leaves the two fixed points alone.
    "56/4": (BaseRoundShape(18, 3, 2, (4,) * 14, rotate_parts=1, multiplier=7), "tabu"),
    # CP-SAT finds this one in seconds; the tabu search had not in 10 CPU minutes.
    "44/4": (BaseRoundShape(14, 3, 2, (4,) * 11, rotate_parts=1, multiplier=9), "tabu"),
}


def write_entry(name: str, entry: dict) -> None:
    stored = json.loads(SCHEDULES_PATH.read_text()) if SCHEDULES_PATH.exists() else {}
    stored[name] = entry
    SCHEDULES_PATH.write_text(json.dumps(dict(sorted(stored.items()))) + "\n")


def local_main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The pure-Python search: a named shape, or every cyclic shape of a table plan in turn."""
    if args.plan:
        players, size = (int(part) for part in args.plan.split("/"))
        tables = tuple(t.humans for t in table_plan(players, table_size=size, fill="mixed"))
        if args.rounds is None:
            parser.error("--plan needs --rounds")
        shapes = [(shape, args.method) for shape in plan_shapes(tables, args.rounds)]
        name = args.plan
    elif args.instance in LOCAL_SHAPES:
        shapes = [LOCAL_SHAPES[args.instance]]
        name = args.instance
    else:
        parser.error(f"--local knows the shapes of {', '.join(sorted(LOCAL_SHAPES))} or --plan")
    if args.plan and args.method == "whole":
        return whole_main(args, tables, name)
    for shape, method in shapes:
        started = time.process_time()
        bases = find_base_rounds(shape, seconds=args.seconds, seed=args.seed, method=method)
        elapsed = time.process_time() - started
        label = f"Z_{shape.order} x {shape.parts} + {shape.fixed}"
        if shape.base_rounds > 1:
            label += f", {shape.base_rounds} base rounds"
        if shape.rotate_parts:
            label += f", invariant under (i, x) -> (i + {shape.rotate_parts}, {shape.multiplier}x)"
        if bases is None:
            print(f"{name} on {label}: nothing found in {elapsed:.1f} s", file=sys.stderr)
            continue
        rounds = shape.developed(bases)
        plan = tuple(sorted(shape.tables, reverse=True))
        if repeats(rounds, shape.players, plan) != (0, 1):
            print(f"{name}: search answer is not repeat-free (a model bug)", file=sys.stderr)
            return 1
        found_with = (
            f"pure-Python {method} search on {label}, seed {args.seed}, {elapsed:.0f} s of CPU"
        )
        entry = shape.entry(bases, found_with)
        print(f"{name}: {len(rounds)} repeat-free rounds, {elapsed:.1f} s of CPU", file=sys.stderr)
        if args.write:
            write_entry(name, entry)
        else:
            print(json.dumps(entry))
        return 0
    return 1


def whole_main(args: argparse.Namespace, tables: tuple[int, ...], name: str) -> int:
    """The seat draw's own whole-schedule tabu search (no cyclic shape), restarted from random
    rounds until repeat-free or out of time: for small plans no cyclic shape fits (19/3). With
    --allow-repeats (more rounds than can be repeat-free), the fewest repeated pairs found in the
    time whose rounds, ordered with the repeats last, keep --prefix repeat-free rounds."""
    players = sum(tables)
    plan = [TablePlan(size, size) for size in tables]
    rng = random.Random(args.seed)
    started = time.process_time()
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    tries = 0
    while time.process_time() - started < args.seconds:
        tries += 1
        if args.allow_repeats and tries % 2 == 0:
            # Every other try starts from the best repeat-free schedule known, the rounds it
            # lacks drawn one by one: the search then only has to spread the repeats.
            _, known = best_known(tables)
            rng.shuffle(known)
            free = known[: args.rounds]
            while len(free) < args.rounds:
                free.append(greedy_round(players, plan, free, rng)[0])
        else:
            free = [starting_round(players, plan, [], rng) for _ in range(args.rounds)]
        search = ScheduleSearch(players, plan, [], free, rng)
        search.run(3_000_000, stop_when_repeat_free=True)
        rounds = order_rounds(
            [sorted((sorted(t) for t in round_), key=len, reverse=True) for round_ in search.tables]
        )
        found = repeats(rounds, players, tables)
        if found is None:
            print(f"{name}: search answer is not a schedule (a bug)", file=sys.stderr)
            return 1
        if found[0] and not args.allow_repeats:
            continue
        quality = evaluate(rounds)
        if quality["repeat_free_rounds"] < (args.prefix or 0):
            continue
        if best is None or (found[1], found[0]) < best[0]:
            best = ((found[1], found[0]), rounds)
            print(f"{name}: {found[0]} repeated pairs, most meetings {found[1]}", file=sys.stderr)
        if not found[0]:
            break
    if best is None:
        print(f"{name}: nothing found in {args.seconds:.0f} s", file=sys.stderr)
        return 1
    (most, repeated), rounds = best
    elapsed = time.process_time() - started
    entry = {
        "players": players,
        "tables": list(tables),
        "method": "explicit",
        "rounds": rounds,
        "found_with": f"whole-schedule tabu search, seed {args.seed}, {elapsed:.0f} s of CPU",
    }
    if repeated:
        entry |= {"repeated_pairs": repeated, "max_meetings": most}
        name = f"{name} in {len(rounds)} rounds"
    print(
        f"{name}: {len(rounds)} rounds, {repeated} repeated pairs in {elapsed:.1f} s",
        file=sys.stderr,
    )
    if args.write:
        write_entry(name, entry)
    else:
        print(json.dumps(entry))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m draws.schedule_search")
    parser.add_argument(
        "instance",
        nargs="?",
        choices=sorted(set(SHAPES) | set(LOCAL_SHAPES)),
        help="players/table size",
    )
    parser.add_argument(
        "--seconds", type=float, default=300.0, help="time limit (--local: CPU seconds per shape)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--local", action="store_true", help="the pure-Python search instead of CP-SAT"
    )
    parser.add_argument(
        "--plan", help="with --local: players/table size of a mixed plan, e.g. 43/3"
    )
    parser.add_argument("--rounds", type=int, help="with --plan: repeat-free rounds wanted")
    parser.add_argument(
        "--allow-repeats",
        action="store_true",
        help="with --method whole: keep the fewest repeated pairs found (beyond the maximum)",
    )
    parser.add_argument(
        "--prefix", type=int, help="with --allow-repeats: leading repeat-free rounds to keep"
    )
    parser.add_argument(
        "--method",
        choices=["tabu", "anneal", "whole"],
        default="tabu",
        help="with --plan: tabu or annealing on cyclic shapes, or the whole-schedule search",
    )
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
    if args.local or args.plan:
        return local_main(args, parser)
    if args.instance not in SHAPES:
        parser.error(f"CP-SAT knows the shapes of {', '.join(sorted(SHAPES))}")

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
        write_entry(args.instance, entry)
    else:
        print(json.dumps(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main())
