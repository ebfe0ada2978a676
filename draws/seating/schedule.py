"""Whole-tournament seat schedules: as many rounds as possible with nobody meeting anybody twice.

The repeat-free rounds come from the best schedule known for the table plan (constructions.py:
geometry, stored schedules, a larger schedule with players taken away), with no search when that
reaches the best known figure. Rounds beyond the repeat-free maximum come from a stored schedule
with the fewest repeats found offline, or else from a tabu search over the whole schedule (Dotu
and Van Hentenryck's social golfer search: swap two players of one round, minimize the sum over
pairs of times met squared), as do counts with nothing known (65 players and more).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from .constructions import (
    KNOWN_MAXIMA,
    ONE_ROUND,
    PROVEN_MAXIMA,
    best_known,
    best_known_rounds,
    order_rounds,
    stored_beyond,
)
from .quality import evaluate, repeated_meetings
from .rounds import (
    REPEAT_WEIGHT,
    Draw,
    TableSwapSearch,
    check_players,
    make_rng,
    round_quality,
    seat_order,
)
from .tables import SeatingError, TablePlan, bad_rounds, repeat_free_bound, table_plan

# Swap evaluations for a whole schedule; a count, not a clock, so that a seed gives the same
# schedule on every machine. About 1 to 2 seconds of pure Python (bench/seating.py); more budget
# did not buy more repeat-free rounds in trials, the search stalls at a level before that.
EVALUATIONS = 1_500_000
# Share of the budget for making the first rounds repeat-free; the rest spreads later repeats.
PREFIX_SHARE = 0.7
# (pair weight, bot weight). While making rounds repeat-free, one more meeting outweighs any
# imbalance of bot seats. Beyond the repeat-free rounds evening out the bot tables weighs more
# than a repeat or two: nobody should sit with bots every round while someone else never does.
PREFIX_WEIGHTS = (1 << 32, 1)
EXTENSION_WEIGHTS = (1, 4)
# Evaluations for drawing one round alone, the start of each step of the whole-schedule search.
GREEDY_EVALUATIONS = 20_000
# Evaluations for searching a schedule beyond the repeat-free maximum again as a whole.
POLISH_EVALUATIONS = 1_000_000
# Rounds beyond the repeat-free prefix: stop after this many moves without a better schedule,
# since the bound there is rarely reachable and the last gains are small.
EXTENSION_PATIENCE = 400
# Fields this large (nothing known for them but geometry) first draw their rounds one at a time,
# each by the single-round search against the rounds before it, for as long as each comes out
# repeat-free: with many players a round that repeats nobody stays easy to find for many rounds
# (200 players at tables of 4: 41 of at most 66), while the whole-schedule search, which spends
# its budget on every round at once, stalls early (16). The whole-schedule search goes on from
# there.
LARGE_FIELD = 65
# Swap evaluations for each of those rounds (a single-round search tries 24 players against all
# others per move: 300,000 is about 60 moves at 200 players), and for all of them together:
# with the whole-schedule search after it, about 5 seconds for 200 players (bench/seating.py).
ROUND_EVALUATIONS = 300_000
SEQUENTIAL_EVALUATIONS = 6_000_000
# Rounds after the repeat-free ones in a large field: each drawn alone first on this budget (the
# single-round search puts new meetings on pairs who met least), so that few pairs meet a third
# time, then all searched together.
EXTENSION_ROUND_EVALUATIONS = 100_000

# Told how far a schedule's search has come: the share of its budget spent (0 to 1) and the
# leading repeat-free rounds found so far. The director's page shows it while a large field's
# schedule is searched.
Progress = Callable[[float, int], None]


class _Meter:
    """How far a schedule's search has come, told to a Progress: the larger of the share of its
    budget spent and the share of the repeat-free rounds it aims at found (the search stops
    once it has them, long before its budget is spent), never going back."""

    def __init__(self, total: int, aim: int, progress: Progress | None) -> None:
        self.total, self.aim, self.progress = total, max(1, aim), progress
        self.spent, self.shown = 0, 0.0

    def spend(self, used: int, repeat_free: int) -> None:
        self.spent += used
        share = min(1.0, max(self.spent / self.total, repeat_free / self.aim))
        self.shown = max(self.shown, share)
        if self.progress is not None:
            self.progress(self.shown, repeat_free)

    def finish(self, repeat_free: int) -> None:
        """The search is over (often before its budget is spent)."""
        self.spend(max(0, self.total - self.spent), repeat_free)


@dataclass(frozen=True)
class Schedule:
    """All rounds of a tournament, drawn at once.

    repeat_free_rounds: leading rounds in which no pair meets twice. known_max: the most such
    rounds any schedule can have, when known; proven_max: whether that is proven (so asking for
    more is pointless). upper_bound: a counting bound that always holds. method: how the rounds
    were made; summary: one line for the tournament director.
    """

    rounds: tuple[Draw, ...]
    seed: int | str
    repeat_free_rounds: int
    known_max: int | None
    proven_max: bool
    upper_bound: int
    method: str
    summary: str

    def repeated_meetings(self) -> dict[frozenset[Hashable], list[int]]:
        """Pairs who meet more than once, with the rounds (from 1) in which they meet."""
        return repeated_meetings(self.rounds)


@dataclass(frozen=True)
class Outlook:
    """What a schedule can be for a field, before any is drawn: the tables of a round (seats
    and humans, fullest first), the counting bound on repeat-free rounds, the most such rounds
    known reachable (None when nothing but a search would tell) and whether that is proven the
    most possible."""

    players: int
    tables: tuple[TablePlan, ...]
    upper_bound: int
    known_max: int | None
    proven_max: bool


def _known_max(
    n: int, plan: list[TablePlan], humans: tuple[int, ...], construction: int, constructed: bool
) -> int | None:
    """The most repeat-free rounds known for the plan: the construction's, the table of the best
    known figures', a proven maximum's; None when only a single round is known."""
    best = best_known_rounds(humans)
    if best is None and not constructed:
        return None
    full_size = plan[0].seats
    uniform = all(table.seats == table.humans == full_size for table in plan)
    return max(construction, best or 0, (KNOWN_MAXIMA.get((n, full_size)) or 0) if uniform else 0)


def _proven(known_max: int | None, bound: int, humans: tuple[int, ...]) -> bool:
    return known_max is not None and (known_max >= bound or PROVEN_MAXIMA.get(humans) == known_max)


def outlook(players: int, *, table_size: int | str, fill: str) -> Outlook:
    """The Outlook of `players` at these tables (what the director's draw page tells)."""
    plan = table_plan(players, table_size=table_size, fill=fill)
    humans = tuple(table.humans for table in plan)
    bound = repeat_free_bound(plan)
    method, construction = best_known(humans)
    known = _known_max(players, plan, humans, len(construction), method != ONE_ROUND)
    if known is None and bound == 1:
        known = 1
    return Outlook(
        players=players,
        tables=tuple(plan),
        upper_bound=bound,
        known_max=known,
        proven_max=_proven(known, bound, humans),
    )


def describe(
    n: int,
    plan: list[TablePlan],
    rounds: int,
    repeat_free: int,
    known_max: int | None,
    proven: bool,
) -> str:
    """One line for the tournament director, such as "12 players at tables of 4, 4 rounds: only
    1 repeat-free round is possible; later rounds repeat as little as they can."."""
    sizes = sorted({table.seats for table in plan})
    where = "tables of " + " and ".join(str(size) for size in sizes)
    if any(table.bots for table in plan):
        where += " with bots"
    head = f"{n} players at {where}, {rounds} {_rounds(rounds)}: "
    if repeat_free == rounds:
        return head + "nobody meets anybody twice."
    if known_max is not None and repeat_free >= known_max:
        limit = "possible" if proven else "known"
        return (
            head + f"only {known_max} repeat-free {_rounds(known_max)} {_be(known_max)} {limit}; "
            "later rounds repeat as little as they can."
        )
    return head + f"the first {repeat_free} {_rounds(repeat_free)} {_be(repeat_free)} repeat-free."


def _rounds(count: int) -> str:
    return "round" if count == 1 else "rounds"


def _be(count: int) -> str:
    return "is" if count == 1 else "are"


class ScheduleSearch:
    """Tabu search over the free rounds of a schedule, the fixed rounds counting as history.

    meets[p][q] counts meetings over all rounds, fixed and free, and bots[p] the rounds p sits at
    a table with bots; the cost is pair_weight times the sum over pairs of meets squared plus
    bot_weight times the sum over players of bots squared. A move swaps two players of one round.
    """

    def __init__(
        self,
        n: int,
        plan: list[TablePlan],
        fixed: list[list[list[int]]],
        free: list[list[list[int]]],
        rng: random.Random,
        weights: tuple[int, int] = PREFIX_WEIGHTS,
        bots_before: list[int] | None = None,
    ) -> None:
        self.n, self.rng = n, rng
        self.pair_weight, self.bot_weight = weights
        self.has_bot = [1 if table.bots else 0 for table in plan]
        self.meets = [[0] * n for _ in range(n)]
        self.bots = [0] * n
        for tables in fixed:
            self._count(tables, bots=bots_before is None)
        if bots_before is not None:
            # The fixed rounds were played at other tables (the field changed): their bot seats
            # are given, not counted from this plan.
            self.bots = list(bots_before)
        self.tables = [[list(members) for members in tables] for tables in free]
        self.where = []
        for tables in self.tables:
            where = [0] * n
            for t, members in enumerate(tables):
                for p in members:
                    where[p] = t
            self.where.append(where)
            self._count(tables)
        self.pair_cost = sum(m * m for row in self.meets for m in row) // 2
        self.seated_pairs = sum(m for row in self.meets for m in row) // 2
        self.bot_cost = sum(b * b for b in self.bots)
        # Meetings, and bot tables, spread as evenly as possible: nothing can do better.
        self.pair_bound = _even_squares(self.seated_pairs, n * (n - 1) // 2)
        self.bot_bound = _even_squares(sum(self.bots), n)

    def _count(self, tables: list[list[int]], bots: bool = True) -> None:
        for t, members in enumerate(tables):
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    self.meets[a][b] += 1
                    self.meets[b][a] += 1
                if bots:
                    self.bots[a] += self.has_bot[t]

    @property
    def cost(self) -> int:
        return self.pair_weight * self.pair_cost + self.bot_weight * self.bot_cost

    @property
    def repeat_free(self) -> bool:
        # The sum of squares equals the number of meetings exactly when no pair met twice.
        return self.pair_cost == self.seated_pairs

    def delta(self, r: int, a: int, b: int) -> tuple[int, int]:
        """(change of pair cost, change of bot cost) if a and b swap tables in free round r."""
        where = self.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = self.tables[r][ta], self.tables[r][tb]
        row_a, row_b = self.meets[a], self.meets[b]
        gain = 0
        for x in table_a:
            gain += row_b[x] - row_a[x]
        for y in table_b:
            gain += row_a[y] - row_b[y]
        # The loops also took in a's own entry (0), b's, and the pair (a, b) twice:
        # row_b[a] - row_a[a] + row_a[b] - row_b[b] = 2 * meets[a][b].
        gain -= 2 * row_a[b]
        pair_change = 2 * gain + 2 * (len(table_a) + len(table_b) - 2)
        moved = self.has_bot[tb] - self.has_bot[ta]
        if not moved:
            return pair_change, 0
        # a's count moves by `moved` and b's by -moved: the change of their squares.
        return pair_change, 2 * moved * (self.bots[a] - self.bots[b]) + 2

    def swap(self, r: int, a: int, b: int) -> None:
        pair_change, bot_change = self.delta(r, a, b)
        self.pair_cost += pair_change
        self.bot_cost += bot_change
        where = self.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = self.tables[r][ta], self.tables[r][tb]
        meets = self.meets
        row_a, row_b = meets[a], meets[b]
        for x in table_a:
            if x != a:
                row_a[x] -= 1
                meets[x][a] -= 1
                row_b[x] += 1
                meets[x][b] += 1
        for y in table_b:
            if y != b:
                row_b[y] -= 1
                meets[y][b] -= 1
                row_a[y] += 1
                meets[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        moved = self.has_bot[tb] - self.has_bot[ta]
        self.bots[a] += moved
        self.bots[b] -= moved

    def troubled(self) -> list[tuple[int, int]]:
        """(round, player) for players who meet someone at their table more than once over the
        schedule, or sit at a bot table though they had bots twice more than someone else: the
        only players whose moves can lower the cost."""
        troubled = []
        crowded = min(self.bots) + 1
        for r, tables in enumerate(self.tables):
            for t, members in enumerate(tables):
                bot_table = self.has_bot[t]
                for p in members:
                    row = self.meets[p]
                    if (bot_table and self.bots[p] > crowded) or any(row[x] > 1 for x in members):
                        troubled.append((r, p))
        return troubled

    def run(
        self, evaluations: int, stop_when_repeat_free: bool, patience: int | None = None
    ) -> int:
        """Search until the budget is spent, or the free rounds are repeat-free (when asked), or
        the cost reaches its bound, or `patience` moves bring nothing better. Keeps the best
        schedule seen; returns the evaluations used."""
        used = 0
        best_cost, best = self.cost, self._snapshot()
        tabu: dict[tuple[int, int], int] = {}
        iteration = stall = 0
        pair_weight, bot_weight = self.pair_weight, self.bot_weight
        while used < evaluations and (patience is None or stall < patience):
            if stop_when_repeat_free and self.repeat_free:
                break
            if self.pair_cost == self.pair_bound and self.bot_cost == self.bot_bound:
                break
            iteration += 1
            troubled = self.troubled()
            if not troubled:
                break
            if len(troubled) > 40:
                troubled = self.rng.sample(troubled, 40)
            move, move_change, ties = None, 0, 0
            for r, a in troubled:
                where = self.where[r]
                ta = where[a]
                for b in range(self.n):
                    if where[b] == ta:
                        continue
                    pair_change, bot_change = self.delta(r, a, b)
                    change = pair_weight * pair_change + bot_weight * bot_change
                    used += 1
                    if (
                        tabu.get((r, a), 0) >= iteration or tabu.get((r, b), 0) >= iteration
                    ) and self.cost + change >= best_cost:
                        continue
                    if move is None or change < move_change:
                        move, move_change, ties = (r, a, b), change, 1
                    elif change == move_change:
                        ties += 1
                        if self.rng.randrange(ties) == 0:
                            move = (r, a, b)
            if move is None:
                tabu.clear()
                stall += 1
                continue
            r, a, b = move
            self.swap(r, a, b)
            tenure = 4 + self.rng.randrange(10)
            tabu[(r, a)] = tabu[(r, b)] = iteration + tenure
            if self.cost < best_cost:
                best_cost, best, stall = self.cost, self._snapshot(), 0
            else:
                stall += 1
                if stall % 300 == 0:
                    self._perturb()
        if self.cost > best_cost:
            self._restore(best)
        return used

    def _perturb(self) -> None:
        """A few random swaps among troubled players: a way out of a basin the tabu list cannot
        leave."""
        troubled = self.troubled()
        for _ in range(3):
            if not troubled:
                return
            r, a = self.rng.choice(troubled)
            where = self.where[r]
            self.swap(r, a, self.rng.choice([b for b in range(self.n) if where[b] != where[a]]))

    def _snapshot(self) -> list[list[list[int]]]:
        return [[list(members) for members in tables] for tables in self.tables]

    def _restore(self, tables: list[list[list[int]]]) -> None:
        for r, round_tables in enumerate(tables):
            for t, members in enumerate(round_tables):
                for slot, p in enumerate(members):
                    here = self.tables[r][t]
                    current = here[slot]
                    if current == p:
                        continue
                    if self.where[r][p] == t:  # same table, another slot: no cost changes
                        other = here.index(p)
                        here[slot], here[other] = p, current
                    else:
                        self.swap(r, current, p)


def _even_squares(total: int, bins: int) -> int:
    """The least sum of squares of `bins` whole numbers adding up to `total`."""
    even, extra = divmod(total, bins)
    return extra * (even + 1) ** 2 + (bins - extra) * even**2


def starting_round(
    n: int, plan: list[TablePlan], earlier: list[list[list[int]]], rng: random.Random
) -> list[list[int]]:
    """A random round to start the search from, with those who sat at bot tables least in the
    earlier rounds at this round's bot tables, so bot seats start out fair."""
    at_bots = [0] * n
    for tables in earlier:
        for members, table in zip(tables, plan, strict=True):
            if table.bots:
                for p in members:
                    at_bots[p] += 1
    order = list(range(n))
    rng.shuffle(order)
    order.sort(key=lambda p: at_bots[p])
    wanted = sum(table.humans for table in plan if table.bots)
    groups = [order[:wanted], order[wanted:]]
    for group in groups:
        rng.shuffle(group)
    return [
        [(groups[0] if table.bots else groups[1]).pop() for _ in range(table.humans)]
        for table in plan
    ]


def greedy_round(
    n: int,
    plan: list[TablePlan],
    earlier: list[list[list[int]]],
    rng: random.Random,
    evaluations: int = GREEDY_EVALUATIONS,
) -> tuple[list[list[int]], int, bool]:
    """The next round drawn alone given the earlier ones (the single-round search): a better
    start for the whole-schedule search than a random round. Returns the round, the evaluations
    spent and whether it repeats nobody."""
    meets = [[0] * n for _ in range(n)]
    for tables in earlier:
        for members in tables:
            for a in members:
                for b in members:
                    if a != b:
                        meets[a][b] += 1
    weight = [[REPEAT_WEIGHT * m for m in row] for row in meets]
    start = starting_round(n, plan, earlier, rng)
    order = [p for members in start for p in members]
    at_bots = [0] * n
    for tables in earlier:
        for members, table in zip(tables, plan, strict=True):
            for p in members:
                at_bots[p] += bool(table.bots)
    search = TableSwapSearch(weight, meets, plan, order, at_bots, 1, rng)
    used = search.run(evaluations, None)
    # Bot seats cost at most players x rounds, far below one repeated meeting.
    return search.tables, used, search.cost < REPEAT_WEIGHT


def sequential_rounds(
    n: int,
    plan: list[TablePlan],
    start: list[list[list[int]]],
    rounds: int,
    rng: random.Random,
    meter: _Meter,
) -> list[list[list[int]]]:
    """The repeat-free rounds of `start` and more drawn one at a time, each against the rounds
    before it, until one cannot be made repeat-free or the budget is spent (LARGE_FIELD)."""
    found = [[list(members) for members in tables] for tables in start]
    left = SEQUENTIAL_EVALUATIONS
    while len(found) < rounds and left > 0:
        tables, used, repeat_free = greedy_round(n, plan, found, rng, min(ROUND_EVALUATIONS, left))
        left -= used
        if not repeat_free:
            meter.spend(used + max(left, 0), len(found))
            break
        found.append(tables)
        meter.spend(used, len(found))
    else:
        meter.spend(max(left, 0), len(found))
    return found


def search_schedule(
    n: int,
    plan: list[TablePlan],
    rounds: int,
    bound: int,
    rng: random.Random,
    start: list[list[list[int]]] | None = None,
    meter: _Meter | None = None,
    round_evaluations: int = GREEDY_EVALUATIONS,
) -> list[list[list[int]]]:
    """Rounds found by growing a repeat-free prefix one round at a time (each step a whole-schedule
    search, warm-started from the last success, the first from `start` when given), then filling
    the remaining rounds with repeats spread as evenly as the search manages, the prefix kept
    fixed."""
    meter = meter or _Meter(EVALUATIONS, min(rounds, bound), None)
    left = int(EVALUATIONS * PREFIX_SHARE)
    prefix = (start or [starting_round(n, plan, [], rng)])[:rounds]
    while len(prefix) < min(rounds, bound) and left > 0:
        start = prefix + [greedy_round(n, plan, prefix, rng)[0]]
        search = ScheduleSearch(n, plan, [], start, rng)
        used = search.run(left, stop_when_repeat_free=True)
        left -= used
        if not search.repeat_free:
            meter.spend(used, len(prefix))
            break
        prefix = search.tables
        meter.spend(used, len(prefix))
    if any(table.bots for table in plan) and len(prefix) > 1:
        # Repeat-free is reached; now even out the bot tables without giving it up.
        search = ScheduleSearch(n, plan, [], prefix, rng)
        used = search.run(max(left, EVALUATIONS // 10), False, EXTENSION_PATIENCE)
        left -= used
        meter.spend(used, len(prefix))
        prefix = search.tables
    if len(prefix) == rounds:
        return prefix
    return prefix + extend(
        n,
        plan,
        prefix,
        rounds,
        rng,
        EVALUATIONS - int(EVALUATIONS * PREFIX_SHARE) + max(left, 0),
        meter,
        round_evaluations,
    )


def extend(
    n: int,
    plan: list[TablePlan],
    prefix: list[list[list[int]]],
    rounds: int,
    rng: random.Random,
    evaluations: int,
    meter: _Meter | None = None,
    round_evaluations: int = GREEDY_EVALUATIONS,
) -> list[list[list[int]]]:
    """Rounds after a fixed prefix, repeats and bot tables spread as evenly as the search can:
    each first drawn alone against the rounds before it (on `round_evaluations`), then all
    searched together."""
    extension: list[list[list[int]]] = []
    used = 0
    while len(prefix) + len(extension) < rounds:
        drawn, spent, _ = greedy_round(n, plan, prefix + extension, rng, round_evaluations)
        extension.append(drawn)
        used += spent
    search = ScheduleSearch(n, plan, prefix, extension, rng, EXTENSION_WEIGHTS)
    used += search.run(evaluations, False, EXTENSION_PATIENCE)
    if meter is not None:
        meter.spend(used, len(prefix))
    return search.tables


def even_out_bots(
    n: int, plan: list[TablePlan], rounds: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]]:
    """The same repeat-free rounds with the bot tables spread more evenly, when some player sits
    with bots twice more often than another: the search's pair weight keeps every move that would
    make a pair meet twice out. (Often the design allows no better: from 24 players at tables of
    4, the partner of the 2 taken away never sits with bots, everyone else twice in 7 rounds.)"""
    search = ScheduleSearch(n, plan, [], rounds, rng)
    if max(search.bots) - min(search.bots) > 1:
        search.run(EVALUATIONS // 20, False, EXTENSION_PATIENCE)
    return search.tables


def polish(
    n: int, plan: list[TablePlan], rounds: list[list[list[int]]], keep: int, rng: random.Random
) -> list[list[list[int]]]:
    """The whole schedule searched again with no round fixed (the fewest repeats over all rounds,
    rather than after a fixed start), then ordered so the repeats come last; kept only when it
    has fewer repeats (the most meetings of a pair first, then the pairs that meet more than
    once) and still starts with `keep` repeat-free rounds."""

    def quality(candidate: list[list[list[int]]]) -> tuple[int, int]:
        measured = evaluate(candidate)
        return measured["max_meetings"], measured["repeated_pairs"]

    search = ScheduleSearch(n, plan, [], rounds, rng, EXTENSION_WEIGHTS)
    search.run(POLISH_EVALUATIONS, False, EXTENSION_PATIENCE)
    candidate = order_rounds(search.tables)
    if evaluate(candidate)["repeat_free_rounds"] >= keep and quality(candidate) < quality(rounds):
        return candidate
    return rounds


def draw_schedule(
    players: Sequence[Hashable],
    *,
    rounds: int,
    table_size: int | str,
    fill: str,
    seed: int | str,
    progress: Progress | None = None,
) -> Schedule:
    """Every round of a tournament at once, with as many leading repeat-free rounds as known
    possible; later rounds keep repeats few and spread. Seats are balanced over the rounds.
    Different seeds relabel and reshuffle, giving different but equally good schedules.
    `progress` is told how a search goes, when one is needed (nothing known suffices)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(bad_rounds(rounds))
    players = check_players(players)
    plan = table_plan(len(players), table_size=table_size, fill=fill)
    rng = make_rng(seed, "schedule")
    n = len(players)
    bound = repeat_free_bound(plan)
    humans = tuple(table.humans for table in plan)
    method, construction = best_known(humans)
    constructed = method != ONE_ROUND
    best = best_known_rounds(humans)
    rng.shuffle(construction)
    if len(construction) >= min(rounds, bound, best or bound):
        # Nothing known does better: no search for more repeat-free rounds.
        if rounds <= len(construction):
            found = construction[:rounds]
            if any(table.bots for table in plan) and rounds > 1:
                found = even_out_bots(n, plan, found, rng)
        else:
            stored = stored_beyond(humans, rounds)
            if stored is not None:
                # Found offline with the fewest repeated pairs over the whole schedule, which
                # counts before the repeat-free rounds at its head (20 players at tables of 3
                # over 8 rounds: 10 pairs meet twice, 5 rounds repeat-free; extending the 6
                # repeat-free rounds known repeats 14). Kept in their stored order: the repeats
                # fall in the last rounds.
                method, found, _ = stored
            else:
                found = construction + extend(n, plan, construction, rounds, rng, EVALUATIONS)
                found = polish(n, plan, found, len(construction), rng)
                method += " and tabu search"
    else:
        large = n >= LARGE_FIELD
        meter = _Meter(EVALUATIONS + SEQUENTIAL_EVALUATIONS * large, min(rounds, bound), progress)
        searched = "tabu search" if len(construction) < 2 else method + " and tabu search"
        if large:
            start = construction if constructed else []
            drawn = sequential_rounds(n, plan, start, min(rounds, bound), rng, meter)
            if len(drawn) > len(construction):
                construction = drawn
                searched = ("" if len(start) < 2 else method + ", ") + (
                    "rounds drawn one at a time and tabu search"
                )
        found = search_schedule(
            n,
            plan,
            rounds,
            bound,
            rng,
            construction,
            meter,
            EXTENSION_ROUND_EVALUATIONS if large else GREEDY_EVALUATIONS,
        )
        meter.finish(evaluate(found)["repeat_free_rounds"])
        method = searched

    # Relabel at random so that equal seeds give equal schedules and others differ.
    label = list(range(n))
    rng.shuffle(label)
    found = [[[label[p] for p in members] for members in tables] for tables in found]
    for tables in found:
        # Tables with the same plan are interchangeable; shuffle those, keep the plan's order.
        for size in sorted({table.humans for table in plan}):
            slots = [t for t, table in enumerate(plan) if table.humans == size]
            groups = [tables[t] for t in slots]
            rng.shuffle(groups)
            for t, members in zip(slots, groups, strict=True):
                tables[t] = members

    draws = _seat_rounds(players, plan, found, seed, rng)
    repeat_free = evaluate(draw.tables for draw in draws)["repeat_free_rounds"]
    # None: nothing known for this count but a single round.
    known_max = _known_max(n, plan, humans, len(construction), constructed)
    if known_max is not None:
        known_max = max(known_max, repeat_free)
    if known_max is None and (bound == 1 or repeat_free >= bound):
        known_max = bound
    proven = _proven(known_max, bound, humans)
    return Schedule(
        rounds=tuple(draws),
        seed=seed,
        repeat_free_rounds=repeat_free,
        known_max=known_max,
        proven_max=proven,
        upper_bound=bound,
        method=method,
        summary=describe(n, plan, rounds, repeat_free, known_max, proven),
    )


def _seat_rounds(
    players: list[Hashable],
    plan: list[TablePlan],
    found: list[list[list[int]]],
    seed: int | str,
    rng: random.Random,
    earlier: list[list[list[int | None]]] | None = None,
) -> list[Draw]:
    """Seat order round by round, each player's earlier seats counted, and each round's quality;
    `earlier` rounds (tables in seat order, players by index, None for a bot or someone gone)
    count as history."""
    n = len(players)
    counts = [[0] * max(table.seats for table in plan) for _ in range(n)]
    meets = [[0] * n for _ in range(n)]
    history: dict[frozenset[Hashable], int] = {}
    for earlier_round in earlier or []:
        for earlier_table in earlier_round:
            for seat, p in enumerate(earlier_table):
                if p is not None and seat < len(counts[p]):
                    counts[p][seat] += 1
            present = [p for p in earlier_table if p is not None]
            for i, a in enumerate(present):
                for b in present[i + 1 :]:
                    meets[a][b] += 1
                    meets[b][a] += 1
                    pair = frozenset((a, b))
                    history[pair] = history.get(pair, 0) + 1
    draws = []
    for tables in found:
        seated = []
        for members, table in zip(tables, plan, strict=True):
            order = seat_order(members, table.seats, counts, rng)
            for seat, p in enumerate(order):
                if p is not None:
                    counts[p][seat] += 1
            seated.append(tuple(None if p is None else players[p] for p in order))
        new_repeats, repeated, most = round_quality(tables, meets, history)
        for members in tables:
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    meets[a][b] += 1
                    meets[b][a] += 1
                    pair = frozenset((a, b))
                    history[pair] = history.get(pair, 0) + 1
        draws.append(
            Draw(
                tables=tuple(seated),
                seed=seed,
                new_repeat_pairs=new_repeats,
                repeated_pairs=repeated,
                max_meetings=most,
            )
        )
    return draws
