"""Draw of one round: who sits at which table and in which seat, given who has met whom."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from rules.messages import Message, _

from .tables import SeatingError, TablePlan, bad_mode, table_plan

# Times each pair met: frozenset({a, b}) -> times.
Meetings = Mapping[frozenset[Hashable], int]

MODES = ("balanced", "standings", "schedule")

# Weights of the single-round objective, lexicographic in practice: one more meeting of a pair
# outweighs any standings spread or bot unfairness a round can have.
REPEAT_WEIGHT = 1 << 40
# In standings mode one more time at a bot table weighs about as much as moving a player one table
# up or down, so bots go to the bottom tables but rotate among the players there.
BOT_WEIGHT_STANDINGS = 32
BOT_WEIGHT_BALANCED = 1

# Swap evaluations per round. A fixed count rather than a clock keeps a draw reproducible from its
# seed on any machine; it is sized so that 200 players take well under 2 seconds (bench/seating.py).
EVALUATIONS = 2_000_000
# Tabu moves without a better seating before the search gives up.
STALL_LIMIT = 300
# Standings mode first swaps only players whose tables are at most this many tables apart, and
# looks further only while repeats remain: Swiss-like, a rematch is worse than a far opponent.
STANDINGS_WINDOWS: tuple[int | None, ...] = (3, 8, None)


@dataclass(frozen=True)
class Draw:
    """One round: tables in seat order (seat 0 deals first; None is a bot seat) and its quality.

    new_repeat_pairs: pairs at one table this round who had met before; repeated_pairs and
    max_meetings count the whole history given, this round included.
    """

    tables: tuple[tuple[Hashable | None, ...], ...]
    seed: int | str
    new_repeat_pairs: int
    repeated_pairs: int
    max_meetings: int

    @property
    def bot_seats(self) -> int:
        return sum(1 for table in self.tables for player in table if player is None)


def make_rng(seed: object, purpose: str) -> random.Random:
    """A generator that depends only on the seed (an int or a str) and what it is used for; string
    seeding is hashed with SHA-512, so it is the same in every process and on every machine."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise SeatingError(
            Message(_("the seed must be a whole number or a string, not %(seed)s"), seed=repr(seed))
        )
    return random.Random(f"{purpose}|{type(seed).__name__}|{seed}")


def check_players(players: Sequence[Hashable]) -> list[Hashable]:
    players = list(players)
    if any(player is None for player in players):
        raise SeatingError(Message(_("None is not a player id: it marks a bot seat")))
    if len(set(players)) != len(players):
        raise SeatingError(Message(_("a player is listed twice")))
    return players


def meetings_matrix(players: list[Hashable], meetings: Meetings | None) -> list[list[int]]:
    index = {player: i for i, player in enumerate(players)}
    matrix = [[0] * len(players) for _ in players]
    for pair, times in (meetings or {}).items():
        if len(pair) != 2:
            continue  # frozenset({a, a}) is no meeting
        a, b = tuple(pair)
        if a in index and b in index:
            matrix[index[a]][index[b]] = matrix[index[b]][index[a]] = times
    return matrix


class TableSwapSearch:
    """Local search over one round: players in fixed-capacity tables, moves swap two players.

    The cost is the sum over pairs at one table of `weight` plus, for players at a table with bots,
    `bot_weight * bot_count`. sums[p][t] caches the weight p would have with table t, so a swap is
    priced in constant time and applied in O(players).
    """

    def __init__(
        self,
        weight: list[list[int]],
        meets: list[list[int]],
        plan: list[TablePlan],
        order: list[int],
        bot_counts: list[int],
        bot_weight: int,
        rng: random.Random,
    ) -> None:
        self.weight, self.meets, self.rng = weight, meets, rng
        self.n = len(weight)
        self.has_bot = [1 if table.bots else 0 for table in plan]
        self.bot_costs = [bot_weight * count for count in bot_counts]
        self.tables: list[list[int]] = []
        self.where = [0] * self.n
        start = 0
        for t, table in enumerate(plan):
            members = order[start : start + table.humans]
            start += table.humans
            self.tables.append(members)
            for p in members:
                self.where[p] = t
        self.sums = [[0] * len(plan) for _ in range(self.n)]
        for t, members in enumerate(self.tables):
            for x in members:
                row = weight[x]
                for p in range(self.n):
                    self.sums[p][t] += row[p]
        self.cost = sum(self.sums[p][self.where[p]] for p in range(self.n)) // 2 + sum(
            self.bot_costs[p] for p in range(self.n) if self.has_bot[self.where[p]]
        )
        # The least bot cost any seating can have: the lowest counts at the bot tables.
        bot_seated = sum(len(m) for t, m in enumerate(self.tables) if self.has_bot[t])
        self.bound = sum(sorted(self.bot_costs)[:bot_seated]) if bot_seated else 0

    def delta(self, a: int, b: int) -> int:
        ta, tb = self.where[a], self.where[b]
        sa, sb = self.sums[a], self.sums[b]
        change = sa[tb] - sa[ta] + sb[ta] - sb[tb] - 2 * self.weight[a][b]
        bots = self.has_bot[tb] - self.has_bot[ta]
        if bots:
            change += bots * (self.bot_costs[a] - self.bot_costs[b])
        return change

    def swap(self, a: int, b: int, change: int) -> None:
        ta, tb = self.where[a], self.where[b]
        row_a, row_b = self.weight[a], self.weight[b]
        for p, sums in enumerate(self.sums):
            shift = row_b[p] - row_a[p]
            if shift:
                sums[ta] += shift
                sums[tb] -= shift
        table_a, table_b = self.tables[ta], self.tables[tb]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        self.where[a], self.where[b] = tb, ta
        self.cost += change

    def troubled(self) -> list[int]:
        """Players who repeat a meeting this round or sit at a bot table though others have sat
        with bots less: the only players whose moves can lower the cost's main terms."""
        meets, where, tables = self.meets, self.where, self.tables
        troubled = []
        for p in range(self.n):
            t = where[p]
            row = meets[p]
            if (self.has_bot[t] and self.bot_costs[p]) or any(row[x] for x in tables[t]):
                troubled.append(p)
        return troubled

    def candidates(self, a: int, window: int | None) -> list[int]:
        ta = self.where[a]
        if window is None:
            return [b for b in range(self.n) if self.where[b] != ta]
        low, high = max(0, ta - window), min(len(self.tables), ta + window + 1)
        return [b for t in range(low, high) if t != ta for b in self.tables[t]]

    def run(self, evaluations: int, window: int | None) -> int:
        """Tabu search over the troubled players until the budget is spent or nothing is left to
        gain; returns the evaluations used."""
        used = 0
        best_cost = self.cost
        best_tables = [list(members) for members in self.tables]
        tabu_until = [0] * self.n
        iteration = stall = 0
        while used < evaluations and best_cost > self.bound and stall < STALL_LIMIT:
            iteration += 1
            troubled = self.troubled()
            if not troubled:
                break
            if len(troubled) > 24:
                troubled = self.rng.sample(troubled, 24)
            move, move_change, ties = None, 0, 0
            for a in troubled:
                for b in self.candidates(a, window):
                    change = self.delta(a, b)
                    used += 1
                    allowed = (tabu_until[a] < iteration and tabu_until[b] < iteration) or (
                        self.cost + change < best_cost
                    )
                    if not allowed:
                        continue
                    if move is None or change < move_change:
                        move, move_change, ties = (a, b), change, 1
                    elif change == move_change:
                        ties += 1
                        if self.rng.randrange(ties) == 0:
                            move = (a, b)
            if move is None:
                break
            a, b = move
            self.swap(a, b, move_change)
            tenure = 3 + self.rng.randrange(8)
            tabu_until[a] = tabu_until[b] = iteration + tenure
            if self.cost < best_cost:
                best_cost, stall = self.cost, 0
                best_tables = [list(members) for members in self.tables]
            else:
                stall += 1
        self.restore(best_tables)
        return used

    def descend(self, evaluations: int, window: int | None) -> int:
        """Plain descent over every player (standings spread); returns the evaluations used."""
        used = 0
        improved = True
        while improved and used < evaluations:
            improved = False
            for a in range(self.n):
                best, best_change = None, 0
                for b in self.candidates(a, window):
                    change = self.delta(a, b)
                    used += 1
                    if change < best_change:
                        best, best_change = b, change
                if best is not None:
                    self.swap(a, best, best_change)
                    improved = True
        return used

    def restore(self, tables: list[list[int]]) -> None:
        """Go back to a remembered seating by the same swaps the search makes."""
        for t, members in enumerate(tables):
            for slot, p in enumerate(members):
                current = self.tables[t][slot]
                if current == p:
                    continue
                if self.where[p] == t:  # same table, another slot: no cost changes
                    here = self.tables[t]
                    other = here.index(p)
                    here[slot], here[other] = p, current
                else:
                    self.swap(current, p, self.delta(current, p))


def seat_order(
    humans: list[int], seats: int, counts: Sequence[Sequence[int]], rng: random.Random
) -> tuple[int | None, ...]:
    """Places at one table: the arrangement with the fewest earlier sittings of each player in the
    seat they get (seat 0 deals first and, at a table of 4, sits out the first deal), random among
    equals. Bots take the seats left over, never seat 0: the first dealer is a person, who
    starts the table's score sheet or its live game."""
    options = [
        option for option in permutations(range(seats), len(humans)) if not humans or 0 in option
    ]
    rng.shuffle(options)

    def cost(option: tuple[int, ...]) -> int:
        # Seat 0 weighs double: dealing first (and sitting the first deal out) is what players
        # notice and count.
        return sum(
            (counts[p][seat] if seat < len(counts[p]) else 0) * (2 if seat == 0 else 1)
            for p, seat in zip(humans, option, strict=True)
        )

    best = min(options, key=cost)
    order: list[int | None] = [None] * seats
    for p, seat in zip(humans, best, strict=True):
        order[seat] = p
    return tuple(order)


def round_quality(
    tables: list[list[int]], meets: list[list[int]], history: Meetings | None
) -> tuple[int, int, int]:
    """(new_repeat_pairs, repeated_pairs, max_meetings) after this round, history included."""
    new_repeats = became_repeated = 0
    most = max((history or {}).values(), default=0)
    for members in tables:
        for a, b in combinations(members, 2):
            times = meets[a][b]
            if times:
                new_repeats += 1
                became_repeated += times == 1
            most = max(most, times + 1)
    already = sum(1 for times in (history or {}).values() if times > 1)
    return new_repeats, already + became_repeated, most


def draw_round(
    players: Sequence[Hashable],
    *,
    table_size: int | str,
    fill: str,
    mode: str,
    seed: int | str,
    meetings: Meetings | None = None,
    standings: Sequence[Hashable] | None = None,
    seat_counts: Mapping[Hashable, Sequence[int]] | None = None,
    bot_counts: Mapping[Hashable, int] | None = None,
) -> Draw:
    """Tables of one round for these players.

    mode "balanced": fewest repeated meetings (the sum over pairs of times met, squared, grows by
    the least), then bot seats to those who had them least. mode "standings": as few repeats, then
    tables of players close in `standings` (ids best first; players missing from it rank last),
    the bot tables at the bottom. `meetings` maps frozenset({a, b}) to times met; `seat_counts`
    maps a player to times sat in each seat; `bot_counts` to times sat at a table with a bot.
    The same seed gives the same draw.
    """
    if mode not in MODES:
        raise SeatingError(bad_mode(mode))
    if mode == "schedule":
        raise SeatingError(
            Message(_("mode 'schedule' draws every round at once: use draw_schedule"))
        )
    players = check_players(players)
    plan = table_plan(len(players), table_size=table_size, fill=fill)
    rng = make_rng(seed, "round")
    n = len(players)
    meets = meetings_matrix(players, meetings)
    bot_list = [(bot_counts or {}).get(player, 0) for player in players]

    if mode == "standings":
        position = {player: i for i, player in enumerate(standings or ())}
        ranked = sorted(range(n), key=lambda p: position.get(players[p], n + p))
        rank = [0] * n
        for place, p in enumerate(ranked):
            rank[p] = place
        weight = [
            [REPEAT_WEIGHT * meets[p][q] + abs(rank[p] - rank[q]) for q in range(n)]
            for p in range(n)
        ]
        for p in range(n):
            weight[p][p] = 0
        order, bot_weight, windows = ranked, BOT_WEIGHT_STANDINGS, STANDINGS_WINDOWS
    else:
        weight = [[REPEAT_WEIGHT * times for times in row] for row in meets]
        order = list(range(n))
        rng.shuffle(order)
        bot_weight, windows = BOT_WEIGHT_BALANCED, (None,)

    search = TableSwapSearch(weight, meets, plan, order, bot_list, bot_weight, rng)
    # Most of the budget goes to removing repeats, each wider window getting what the narrower
    # ones left; the rest polishes the standings spread once no more repeats can go.
    left = EVALUATIONS * 3 // 4
    for number, window in enumerate(windows):
        last = number == len(windows) - 1
        left -= search.run(left if last else left // 2, window)
        if search.cost < REPEAT_WEIGHT:
            break
    if mode == "standings":
        search.descend(EVALUATIONS // 4 + max(left, 0), windows[0])

    counts = [list((seat_counts or {}).get(player, ())) for player in players]
    tables = tuple(
        tuple(
            None if p is None else players[p] for p in seat_order(members, table.seats, counts, rng)
        )
        for members, table in zip(search.tables, plan, strict=True)
    )
    new_repeats, repeated, most = round_quality(search.tables, meets, meetings)
    return Draw(
        tables=tables,
        seed=seed,
        new_repeat_pairs=new_repeats,
        repeated_pairs=repeated,
        max_meetings=most,
    )
