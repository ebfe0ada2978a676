"""What the venue's pages show during a round: the clock as it reads now, the players in
alphabetical order (the roll call and the find-your-seat list) and the tables by result status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from tournaments import clock, selectors
from tournaments.models import Registration, Round

# The alphabet's order as Ukrainian club players expect it (ґ after г, є after е, і ї after и),
# with the Russian letters where they fall in theirs; Python's code-point order would put є, і,
# ї and ґ after я.
_CYRILLIC_ORDER = "абвгґдеєёжзиіїйклмнопрстуфхцчшщъыьэюя"
_CYRILLIC_RANK = {letter: rank for rank, letter in enumerate(_CYRILLIC_ORDER)}


def alphabetical_key(name: str) -> tuple[Any, ...]:
    """Sort key of a person's name: letters and digits only at first (apostrophes, hyphens and
    spaces do not count), case folded, Ukrainian letters in the Ukrainian alphabet's order; Latin
    names come before Cyrillic ones; the whole folded name breaks ties."""
    folded = name.casefold()
    primary = []
    for character in folded:
        if character in _CYRILLIC_RANK:
            primary.append((2, _CYRILLIC_RANK[character]))
        elif character.isdigit():
            primary.append((0, ord(character)))
        elif character.isalpha():
            primary.append((1, ord(character)))
    return (tuple(primary), folded)


# --------------------------------------------------------------------------- the clock
@dataclass(frozen=True, slots=True)
class ClockView:
    state: str
    remaining: int
    text: str

    @property
    def ticking(self) -> bool:
        return self.state in (clock.RUNNING, clock.OVER)

    @property
    def paused(self) -> bool:
        return self.state == clock.PAUSED

    @property
    def overtime(self) -> bool:
        return self.remaining < 0


def clock_reading(round_: Round | None) -> ClockView | None:
    """The round's clock as it reads now, or None when there is none to show (no round, a round
    not being played, a clock not started)."""
    if round_ is None or round_.status != Round.Status.PUBLISHED:
        return None
    reading = clock.Clock(
        seconds=round_.clock_seconds,
        started_at=round_.clock_started_at,
        paused_at=round_.clock_paused_at,
        paused_seconds=round_.clock_paused_seconds,
    ).reading(timezone.now())
    if not reading.started:
        return None
    return ClockView(
        state=reading.state, remaining=reading.remaining, text=clock.clock_text(reading.remaining)
    )


# --------------------------------------------------------------------------- players
@dataclass(frozen=True, slots=True)
class SeatLine:
    name: str
    start_number: int
    table: int
    seat: int


def seat_list(round_: Round) -> list[SeatLine]:
    """Every player of a round with his table and seat, alphabetically (bots are not looked
    for)."""
    lines = [
        SeatLine(
            name=seat.registration.player.name,
            start_number=seat.registration.start_number,
            table=table.number,
            seat=seat.number,
        )
        for table in selectors.tables_with_seats(round_)
        for seat in table.seats.all()
        if not seat.is_bot
    ]
    return sorted(lines, key=lambda line: (alphabetical_key(line.name), line.start_number))


def roll_call(tournament) -> list[Registration]:
    """The tournament's active registrations, alphabetically, for the roll call at the door."""
    registrations = selectors.registrations_of(tournament).filter(status=Registration.Status.ACTIVE)
    return sorted(registrations, key=lambda r: (alphabetical_key(r.player.name), r.start_number))


# --------------------------------------------------------------------------- results board
# The board's groups in the order a director works through them.
BOARD_ORDER = ("disputed", "submitted", "pending", "confirmed")


def results_board(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of `web.presenters.rounds.round_tables` grouped by result status, in
    BOARD_ORDER, each group with its status and tables (by number)."""
    groups: dict[str, list[dict[str, Any]]] = {status: [] for status in BOARD_ORDER}
    for row in rows:
        result = row["result"]
        groups[result.status if result is not None else "pending"].append(row)
    return [{"status": status, "rows": groups[status]} for status in BOARD_ORDER]
