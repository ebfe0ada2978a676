"""Reads of the rounds: whether the next one may be drawn, the rounds with their result counts,
and for the seat draw who met whom, who sat where and with bots in the earlier rounds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from draws import seating
from scoring.models import TableResult
from tournaments.models import Round, Seat, Tournament
from tournaments.selectors import latest_round, registrations_playing, rounds_of


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


def seating_policy(tournament: Tournament) -> tuple[int | str, str]:
    """The seat draw's table size (3, 4 or "mixed") and fill ("bots" or "mixed") for this
    tournament's settings."""
    table_size: int | str = (
        "mixed"
        if tournament.table_size == Tournament.TableSize.MIXED
        else int(tournament.table_size)
    )
    fill = "bots" if tournament.bots_allowed else "mixed"
    return table_size, fill


def players_to_draw(tournament: Tournament, number: int) -> list[int]:
    """The registrations the draw of round `number` seats: those playing in it and present at
    the roll call (an absent player sits the round out and is drawn again once present)."""
    return [r.pk for r in registrations_playing(tournament, number) if r.present]


def draw_outlook(tournament: Tournament, number: int) -> seating.Outlook | None:
    """What the seat draw of round `number` can reach for the players it would seat now (the
    repeat-free rounds known and the bound); None when too few would be seated to draw."""
    players = players_to_draw(tournament, number)
    if len(players) < 2:
        return None
    table_size, fill = seating_policy(tournament)
    try:
        return seating.outlook(len(players), table_size=table_size, fill=fill)
    except seating.SeatingError:
        return None


def tables_played(tournament: Tournament, before_round: int) -> list[list[list[int | None]]]:
    """The drawn rounds before `before_round`, in order: each a list of tables, each table the
    registration ids in seat order (None for a bot's seat), as the seat draw takes history."""
    rounds: dict[int, dict[int, list[int | None]]] = {}
    seats = (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before_round)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "registration_id")
    )
    for number, table, registration in seats:
        rounds.setdefault(number, {}).setdefault(table, []).append(registration)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


@dataclass(frozen=True)
class RepeatedPair:
    """Two players at a table of a round who sat together in earlier rounds (their numbers)."""

    first: int
    second: int
    rounds: tuple[int, ...]


def repeated_pairs_by_table(round_: Round) -> dict[int, list[RepeatedPair]]:
    """Per table id of a round: the pairs of its players (registration ids, in seat order) who
    met in an earlier round, with the rounds they met in."""
    met_in: dict[frozenset[int], set[int]] = {}
    tables: dict[tuple[int, int], list[int]] = {}
    earlier = Seat.objects.filter(
        round__tournament=round_.tournament,
        round__number__lt=round_.number,
        registration__isnull=False,
    )
    for number, table_id, registration_id in earlier.values_list(
        "round__number", "table_id", "registration_id"
    ):
        tables.setdefault((number, table_id), []).append(registration_id)
    for (number, _table_id), seated in tables.items():
        for index, first in enumerate(seated):
            for second in seated[index + 1 :]:
                met_in.setdefault(frozenset((first, second)), set()).add(number)
    people: dict[int, list[int]] = {}
    for table_id, registration_id in (
        Seat.objects.filter(round=round_, registration__isnull=False)
        .order_by("position")
        .values_list("table_id", "registration_id")
    ):
        people.setdefault(table_id, []).append(registration_id)
    return {
        table_id: [
            RepeatedPair(first, second, tuple(sorted(met_in[frozenset((first, second))])))
            for index, first in enumerate(seated)
            for second in seated[index + 1 :]
            if frozenset((first, second)) in met_in
        ]
        for table_id, seated in people.items()
    }


def repeat_meetings_by_table(round_: Round) -> dict[int, int]:
    """Per table id of a round: how many pairs of its players met in an earlier round."""
    return {table_id: len(pairs) for table_id, pairs in repeated_pairs_by_table(round_).items()}


def draw_refusal(tournament: Tournament) -> str:
    """Why the next round cannot be drawn now, or "" when it can (round_draw checks it again
    under its lock; the director's page shows the button only when it can)."""
    if tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is finished.")
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.PUBLISHED:
        return _("Round %(n)d is not finished: every table needs a confirmed result first.") % {
            "n": last.number
        }
    if last is not None and last.status == Round.Status.DRAFT:
        return _("Round %(n)d is drawn already: publish or redraw it.") % {"n": last.number}
    number = last.number + 1 if last is not None else 1
    if number > tournament.rounds_planned:
        return ngettext(
            "All %(n)d round is drawn; finish the tournament or add rounds.",
            "All %(n)d rounds are drawn; finish the tournament or add rounds.",
            tournament.rounds_planned,
        ) % {"n": tournament.rounds_planned}
    return ""


def rounds_with_result_counts(tournament: Tournament) -> QuerySet[Round]:
    """The tournament's rounds, each with `tables_count` and how many results are `confirmed`
    and `disputed`."""
    return rounds_of(tournament).annotate(
        tables_count=Count("tables", distinct=True),
        confirmed=Count(
            "tables",
            filter=Q(tables__result__status=TableResult.Status.CONFIRMED),
            distinct=True,
        ),
        disputed=Count(
            "tables",
            filter=Q(tables__result__status=TableResult.Status.DISPUTED),
            distinct=True,
        ),
    )
