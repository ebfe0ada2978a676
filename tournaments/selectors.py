"""Reads of clubs, tournaments, rounds and seats, including who may see or manage what."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, Q, QuerySet

from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament

AnyUser = User | AnonymousUser


def is_director(user: AnyUser | None, club: Club | int) -> bool:
    """Directors of a club manage its players and tournaments; superusers manage every club."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    club_id = club if isinstance(club, int) else club.pk
    return user.directed_clubs.filter(pk=club_id).exists()


def directed_club_ids(user: AnyUser | None) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    if user.is_superuser:
        return set(Club.objects.values_list("pk", flat=True))
    return set(user.directed_clubs.values_list("pk", flat=True))


def player_of(user: AnyUser | None) -> Player | None:
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def clubs_visible_to(user: AnyUser | None) -> QuerySet[Club]:
    return Club.objects.all()


def players_visible_to(user: AnyUser | None) -> QuerySet[Player]:
    """Directors see their clubs' players; everyone sees players of public tournaments."""
    public = Q(registrations__tournament__is_public=True)
    own = Q(club_id__in=directed_club_ids(user))
    if user is not None and user.is_authenticated:
        own |= Q(user=user)
    return Player.objects.filter(public | own).distinct().select_related("club")


def tournaments_visible_to(user: AnyUser | None) -> QuerySet[Tournament]:
    """Public tournaments, plus private ones of the clubs the user directs or plays in."""
    visible = Q(is_public=True) | Q(club_id__in=directed_club_ids(user))
    if user is not None and user.is_authenticated:
        visible |= Q(registrations__player__user=user)
    return Tournament.objects.filter(visible).distinct().select_related("club")


def can_view_tournament(user: AnyUser | None, tournament: Tournament) -> bool:
    if tournament.is_public or is_director(user, tournament.club_id):
        return True
    return bool(
        user is not None
        and user.is_authenticated
        and tournament.registrations.filter(player__user=user).exists()
    )


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.order_by("number")


def latest_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def tables_with_seats(round_: Round) -> QuerySet[Table]:
    seats = Seat.objects.select_related("registration__player").order_by("position")
    return (
        round_.tables.order_by("number")
        .select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )


def seat_of_user(user: AnyUser | None, table: Table) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return table.seats.filter(registration__player__user=user).first()


def registrations_playing(tournament: Tournament, round_number: int) -> list[Registration]:
    """Registrations that play in a round: entered by then and not withdrawn before it."""
    return list(
        tournament.registrations.filter(first_round__lte=round_number)
        .filter(Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=round_number))
        .select_related("player")
        .order_by("start_number")
    )


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


def _seats_prefetch() -> Prefetch:
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("registration__player").order_by("position")
    )


def rounds_visible_to(user: AnyUser | None) -> QuerySet[Round]:
    """Rounds of visible tournaments with their tables and seats; drafts only for directors."""
    rounds = Round.objects.filter(tournament__in=tournaments_visible_to(user))
    rounds = rounds.exclude(status=Round.Status.DRAFT) | rounds.filter(
        tournament__club_id__in=directed_club_ids(user)
    )
    tables = Table.objects.select_related("round").prefetch_related(_seats_prefetch())
    return rounds.prefetch_related(Prefetch("tables", queryset=tables.order_by("number"))).order_by(
        "tournament_id", "number"
    )


def tables_visible_to(user: AnyUser | None) -> QuerySet[Table]:
    """Tables of visible rounds (see `rounds_visible_to`) with their seats."""
    tables = Table.objects.filter(round__tournament__in=tournaments_visible_to(user))
    tables = tables.exclude(round__status=Round.Status.DRAFT) | tables.filter(
        round__tournament__club_id__in=directed_club_ids(user)
    )
    return (
        tables.select_related("round")
        .prefetch_related(_seats_prefetch())
        .order_by("round__tournament_id", "round__number", "number")
    )
