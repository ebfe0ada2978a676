"""How many tables a round has and how many humans and bot seats each table gets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from rules.messages import Message, _, ngettext

TABLE_SIZES = (3, 4, "mixed")
FILLS = ("mixed", "bots")


class SeatingError(ValueError):
    """A seat draw that cannot be made as asked; the message is for the tournament director.

    Its message is a `Message` (English text that a page can show in its own language).
    """


def bad_mode(mode: object) -> Message:
    return Message(
        _("mode must be 'balanced', 'standings' or 'schedule', not %(mode)s"), mode=repr(mode)
    )


def bad_rounds(rounds: object) -> Message:
    return Message(
        _("the number of rounds must be a whole number from 1, not %(rounds)s"),
        rounds=repr(rounds),
    )


def bad_player_count(n_players: object) -> Message:
    return Message(
        _("the number of players must be a whole number, not %(players)s"),
        players=repr(n_players),
    )


@dataclass(frozen=True)
class TablePlan:
    """One table of a round: its seats and how many of them humans take (the rest are bots)."""

    seats: int
    humans: int

    @property
    def bots(self) -> int:
        return self.seats - self.humans


def check_policy(table_size: object, fill: object) -> None:
    if table_size not in TABLE_SIZES or isinstance(table_size, bool):
        raise SeatingError(
            Message(_("table size must be 3, 4 or 'mixed', not %(size)s"), size=repr(table_size))
        )
    if fill not in FILLS:
        raise SeatingError(
            Message(_("fill must be 'mixed' or 'bots', not %(fill)s"), fill=repr(fill))
        )
    if table_size == "mixed" and fill == "bots":
        raise SeatingError(
            Message(_("bots fill seats up to a fixed table size: choose table size 3 or 4"))
        )


def table_plan(n_players: int, *, table_size: int | str, fill: str) -> list[TablePlan]:
    """Tables of a round, fullest first.

    - table_size 3 or 4, fill "mixed": tables of `table_size`, and as few tables of the other size
      (4 or 3) as make the count come out; no bots.
    - table_size 3 or 4, fill "bots": tables of `table_size` seats, as few tables as hold everyone,
      humans spread evenly so the bot seats are spread over as many tables as possible.
    - table_size "mixed": tables of 3 and 4 with as many tables of 4 as possible (the same as 4 with
      fill "mixed"); `fill` must then be "mixed".
    """
    check_policy(table_size, fill)
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise SeatingError(bad_player_count(n_players))
    if n_players < 3:
        raise SeatingError(
            ngettext(
                "a table needs at least 3 players; %(count)s cannot play",
                "a table needs at least 3 players; %(count)s cannot play",
                n_players,
            )
        )
    # check_policy lets only 3, 4 and "mixed" through.
    size = 4 if table_size == "mixed" else cast(int, table_size)
    if fill == "bots":
        tables = -(-n_players // size)
        fewer, extra = divmod(n_players, tables)
        # Even spread: with at least 3 players every table gets at least 2 humans.
        return [TablePlan(size, fewer + 1)] * extra + [TablePlan(size, fewer)] * (tables - extra)
    other = 3 if size == 4 else 4
    # Each table of the other size changes the remainder modulo `size` by `other`.
    for others in range(size):
        rest = n_players - others * other
        if rest >= 0 and rest % size == 0:
            plan = [TablePlan(size, size)] * (rest // size) + [TablePlan(other, other)] * others
            return sorted(plan, key=lambda table: -table.seats)
    raise SeatingError(
        ngettext(
            "%(count)s player cannot be split into tables of 3 and 4; seat them with bots",
            "%(count)s players cannot be split into tables of 3 and 4; seat them with bots",
            n_players,
        )
    )


def plan_tables(n_players: int, *, table_size: int | str, fill: str) -> list[int]:
    """The number of human seats at each table of a round, fullest first (see `table_plan`)."""
    return [table.humans for table in table_plan(n_players, table_size=table_size, fill=fill)]


def repeat_free_bound(plan: list[TablePlan]) -> int:
    """An upper bound on the rounds with nobody meeting anybody twice, for this table plan.

    Three counting arguments: a player at a table of h humans meets h - 1 new people per round (so
    at most (n - 1) / (h_min - 1) rounds when everyone could sit at the smallest tables); all rounds
    together seat no more pairs than exist; and a second round needs each table's humans to come
    from different tables of the first round, impossible when a table has more humans than there
    are tables (12 players at tables of 4: only one round).
    """
    n = sum(table.humans for table in plan)
    pairs_per_round = sum(table.humans * (table.humans - 1) // 2 for table in plan)
    smallest = min(table.humans for table in plan)
    largest = max(table.humans for table in plan)
    if largest > len(plan):
        return 1
    bound = (n * (n - 1) // 2) // pairs_per_round
    if smallest > 1:
        bound = min(bound, (n - 1) // (smallest - 1))
    return max(bound, 1)
