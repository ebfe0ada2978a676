"""Reads of clubs, tournaments, rounds and seats, including who may see or manage what."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.core import signing
from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse

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


def tournaments_directed_by(user: AnyUser | None) -> QuerySet[Tournament]:
    """The tournaments of the clubs a user directs (every club's for a superuser)."""
    return Tournament.objects.filter(club_id__in=directed_club_ids(user)).select_related("club")


# ----------------------------------------------------------------------------- personal links
# A personal link carries a registration's id and link version, signed with SECRET_KEY and this
# salt. It signs its player in without a password while the registration is active and its
# tournament is not finished (`tournaments.services.player_login_from_link` says why not), and
# for at most PERSONAL_LINK_MAX_AGE. The director's "new link" revokes the ones printed before;
# changing the salt revokes every link handed out.
PERSONAL_LINK_SALT = "tournaments.registration-personal-link"
PERSONAL_LINK_MAX_AGE = datetime.timedelta(days=30)


def player_personal_link(registration: Registration) -> str:
    """The path (no host) of the link that signs this registration's player in.

    For the director's pages: anyone who holds the link acts as the player until the tournament
    is over, so show it only to directors of the player's club (`is_director`). Use
    `request.build_absolute_uri(path)` for a printed or QR-coded link. Opening it shows a page
    that signs in the player's own login (created without a password if he has none) and leads
    to the player's page, /me/.
    """
    value = f"{registration.pk}.{registration.personal_link_version}"
    token = signing.TimestampSigner(salt=PERSONAL_LINK_SALT).sign(value)
    return reverse("player-link", kwargs={"token": token})


def registration_from_personal_link(token: str) -> Registration | None:
    """The registration a personal link was made for, if it is its current link; None if it
    is tampered with, expired or replaced by a newer one."""
    signer = signing.TimestampSigner(salt=PERSONAL_LINK_SALT)
    try:
        value = signer.unsign(token, max_age=PERSONAL_LINK_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is a BadSignature too
        return None
    registration_id, _dot, version = value.partition(".")
    if not (registration_id.isascii() and registration_id.isdigit()):
        return None
    if not (version.isascii() and version.isdigit()):
        return None
    return (
        Registration.objects.select_related("player__user", "tournament")
        .filter(pk=int(registration_id), personal_link_version=int(version))
        .first()
    )


# ----------------------------------------------------------------------------- public pages
# The public pages never show a draft round, not even to the club's directors: a draft is the
# director's working copy, and a wall screen may well be signed in as the director.


def tournaments_listed(
    user: AnyUser | None, *, status: str | None = None, query: str = ""
) -> QuerySet[Tournament]:
    """Visible tournaments for lists, newest first, with `player_count` and `rounds_public`.

    `query` matches the tournament's or its club's name regardless of case (Cyrillic too, which
    SQLite's LIKE would not fold).
    """
    import re

    from django.db.models import Count, Max

    tournaments = Tournament.objects.filter(pk__in=tournaments_visible_to(user).values("pk"))
    if status is not None:
        tournaments = tournaments.filter(status=status)
    query = query.strip()
    if query:
        pattern = re.escape(query)
        tournaments = tournaments.filter(Q(name__iregex=pattern) | Q(club__name__iregex=pattern))
    return (
        tournaments.select_related("club")
        .annotate(
            player_count=Count(
                "registrations",
                filter=Q(registrations__status=Registration.Status.ACTIVE),
                distinct=True,
            ),
            rounds_public=Max("rounds__number", filter=~Q(rounds__status=Round.Status.DRAFT)),
        )
        .order_by("-date", "-id")
    )


def rounds_public(tournament: Tournament) -> QuerySet[Round]:
    """The rounds anyone who sees the tournament may see: published and finished ones."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")


def round_public(tournament: Tournament, number: int) -> Round | None:
    return rounds_public(tournament).filter(number=number).first()


def latest_round_public(tournament: Tournament) -> Round | None:
    return rounds_public(tournament).order_by("-number").first()


def registration_by_start_number(tournament: Tournament, start_number: int) -> Registration | None:
    return (
        tournament.registrations.select_related("player__club")
        .filter(start_number=start_number)
        .first()
    )


def registrations_of(tournament: Tournament) -> QuerySet[Registration]:
    """Every registration of a tournament (withdrawn ones too) by start number."""
    return tournament.registrations.select_related("player").order_by("start_number")


def registration_counts(tournament: Tournament) -> dict[str, int]:
    """How many registrations of the tournament are active and withdrawn."""
    return tournament.registrations.aggregate(
        active=Count("pk", filter=Q(status=Registration.Status.ACTIVE)),
        withdrawn=Count("pk", filter=Q(status=Registration.Status.WITHDRAWN)),
    )
