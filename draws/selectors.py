"""Reads for the seat draw: who met whom, who sat where and with bots in the earlier rounds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tournaments.models import Round, Seat, Tournament


@dataclass
class SeatingHistory:
    """Who met whom, who sat where and who sat with bots in the rounds before a draw."""

    meetings: Counter = field(default_factory=Counter)
    seat_counts: dict[int, list[int]] = field(default_factory=dict)
    bot_counts: Counter = field(default_factory=Counter)


def seating_history(tournament: Tournament, before_round: int) -> SeatingHistory:
    history = SeatingHistory()
    tables: dict[int, list[tuple[int, int | None]]] = {}
    seats = Seat.objects.filter(round__tournament=tournament, round__number__lt=before_round)
    for table_id, position, registration_id in seats.values_list(
        "table_id", "position", "registration_id"
    ):
        tables.setdefault(table_id, []).append((position, registration_id))
    for seated in tables.values():
        people = [registration for _, registration in seated if registration is not None]
        has_bot = len(people) < len(seated)
        for index, first in enumerate(people):
            for second in people[index + 1 :]:
                history.meetings[frozenset((first, second))] += 1
        for position, registration in seated:
            if registration is None:
                continue
            counts = history.seat_counts.setdefault(registration, [0, 0, 0, 0])
            counts[position] += 1
            if has_bot:
                history.bot_counts[registration] += 1
    return history


def repeat_meetings_by_table(round_: Round) -> dict[int, int]:
    """Per table id of a round: how many pairs of its players met in an earlier round."""
    meetings = seating_history(round_.tournament, round_.number).meetings
    people: dict[int, list[int]] = {}
    for table_id, registration_id in Seat.objects.filter(
        round=round_, registration__isnull=False
    ).values_list("table_id", "registration_id"):
        people.setdefault(table_id, []).append(registration_id)
    return {
        table_id: sum(
            1
            for index, first in enumerate(seated)
            for second in seated[index + 1 :]
            if meetings[frozenset((first, second))]
        )
        for table_id, seated in people.items()
    }
