"""Repair of a whole-tournament schedule after late entries or withdrawals: the rounds still to
play for the field as it is now, with the fewest new repeats given the rounds already played.

The planned rounds are the start: the players who left are taken out of them and those who came
are put in, then the tables are fitted to the new field's plan and a whole-schedule search (the
played rounds fixed as history) removes what repeats it can. One withdrawal from a repeat-free
schedule at tables of 4 costs nothing: each planned table loses at most one player.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from .quality import evaluate
from .rounds import check_players, make_rng
from .schedule import (
    EVALUATIONS,
    EXTENSION_PATIENCE,
    Schedule,
    ScheduleSearch,
    _seat_rounds,
    starting_round,
)
from .tables import SeatingError, TablePlan, bad_rounds, repeat_free_bound, table_plan


def _tables(round_: object) -> Sequence[Sequence[Hashable | None]]:
    # A round is either a Draw (with .tables) or a plain sequence of tables.
    return cast(Sequence[Sequence[Hashable | None]], getattr(round_, "tables", round_))


def fit_round(
    tables: Sequence[Sequence[int]], plan: list[TablePlan], newcomers: list[int]
) -> list[list[int]]:
    """Planned tables (current players by index) fitted to the plan's tables, fullest first:
    each slot of the plan takes a planned table as it is where the sizes agree; players of tables
    too large or left over, and the newcomers, fill the places still open."""
    remaining = sorted((list(table) for table in tables if table), key=len, reverse=True)
    pool = list(newcomers)
    fitted: list[list[int]] = []
    for slot, table in enumerate(plan):
        members = remaining[slot] if slot < len(remaining) else []
        pool.extend(members[table.humans :])
        fitted.append(members[: table.humans])
    for members in remaining[len(plan) :]:
        pool.extend(members)
    for members, table in zip(fitted, plan, strict=True):
        while len(members) < table.humans:
            members.append(pool.pop())
    return fitted


def repair_schedule(
    played: Sequence[object],
    players: Sequence[Hashable],
    *,
    rounds: int,
    table_size: int | str,
    fill: str,
    seed: int | str,
    planned: Sequence[object] = (),
) -> Schedule:
    """The `rounds` rounds still to play for `players` (the field now), after the `played` rounds
    (Draws or sequences of tables of player ids, None for a bot seat; players no longer in the
    field are ignored). `planned` holds the rounds the schedule had for them, the search's
    start. Minimizes the meetings repeated over the whole tournament (the sum over pairs of times
    met, squared, so a third meeting weighs more than a second), then evens out bot tables;
    seats are balanced with the seats already taken. Reproducible from the seed.

    The Schedule's rounds are the repaired rounds only; its repeat counts (each Draw's, and
    repeat_free_rounds) are over the whole tournament, played rounds first."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(bad_rounds(rounds))
    players = check_players(players)
    plan = table_plan(len(players), table_size=table_size, fill=fill)
    rng = make_rng(seed, "repair")
    n = len(players)
    index = {player: i for i, player in enumerate(players)}

    history: list[list[list[int | None]]] = []
    bots_before = [0] * n
    for round_ in played:
        seated_round = []
        for table in _tables(round_):
            seated = [index.get(p) if p is not None else None for p in table]
            if None in table:
                for p in seated:
                    if p is not None:
                        bots_before[p] += 1
            seated_round.append(seated)
        history.append(seated_round)
    fixed = [[[p for p in table if p is not None] for table in tables] for tables in history]

    start: list[list[list[int]]] = []
    for number in range(rounds):
        if number < len(planned):
            tables = [
                [index[p] for p in table if p is not None and p in index]
                for table in _tables(planned[number])
            ]
            seen = {p for table in tables for p in table}
            newcomers = [p for p in range(n) if p not in seen]
            rng.shuffle(newcomers)
            start.append(fit_round(tables, plan, newcomers))
        else:
            start.append(starting_round(n, plan, start, rng))

    search = ScheduleSearch(n, plan, fixed, start, rng, bots_before=bots_before)
    if search.pair_cost > search.seated_pairs or any(table.bots for table in plan):
        search.run(EVALUATIONS, False, EXTENSION_PATIENCE)
    found = search.tables

    draws = _seat_rounds(players, plan, found, seed, rng, earlier=history)
    whole = [*fixed, *found]
    repeat_free = evaluate(whole)["repeat_free_rounds"]
    new_repeats = sum(draw.new_repeat_pairs for draw in draws)
    head = f"{n} players, {rounds} {'round' if rounds == 1 else 'rounds'} left: "
    if new_repeats:
        pairs = "pair meets" if new_repeats == 1 else "pairs meet"
        summary = head + f"{new_repeats} {pairs} again, as few as the search found."
    else:
        summary = head + "nobody meets anybody a second time."
    return Schedule(
        rounds=tuple(draws),
        seed=seed,
        repeat_free_rounds=repeat_free,
        known_max=None,
        proven_max=False,
        upper_bound=repeat_free_bound(plan),
        method="repair of the planned rounds by tabu search" if planned else "tabu search",
        summary=summary,
    )
