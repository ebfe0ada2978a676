"""Reads of clubs, tournaments, rounds and seats, including who may see or manage what."""

from __future__ import annotations

import datetime
import hashlib

from django.contrib.auth.models import AnonymousUser, User
from django.core import signing
from django.db.models import Count, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import (
    ENTRY_CODE_ALPHABET,
    ENTRY_CODE_LENGTH,
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
)

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


def user_display_name(user: AnyUser | None, club_id: int | None = None) -> str:
    """The name the club knows a user by, on its pages and in its API: his player's name when he
    plays in the club (or in any club when `club_id` is None), else his full name, else
    "Director" for a director (never a director's login: the players would be handed the user
    name of the club's most powerful account), else his login; "" for nobody."""
    if user is None:
        return ""
    player = getattr(user, "player", None)
    if player is not None and (club_id is None or player.club_id == club_id):
        return player.name
    full_name = user.get_full_name().strip()
    if full_name:
        return full_name
    directs = is_director(user, club_id) if club_id is not None else bool(directed_club_ids(user))
    return str(_("Director")) if directs else user.get_username()


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


def registrations_absent(tournament: Tournament, round_number: int) -> list[Registration]:
    """Registrations that would play in a round but are marked absent at the roll call (the
    draw leaves them out)."""
    return [r for r in registrations_playing(tournament, round_number) if not r.present]


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


# ----------------------------------------------------------------------------- entry codes
# A phone's keyboard is often Ukrainian: the Cyrillic letters that look like the code's Latin
# ones are read as those (and lower case as upper case), spaces and dashes are left out.
_LOOK_ALIKES = str.maketrans(dict(zip("АВСЕНКМОРТХУ", "ABCEHKMOPTXY", strict=True)))
_CODE_LETTERS = frozenset(ENTRY_CODE_ALPHABET)


def entry_code_clean(text: object) -> str | None:
    """The entry code as typed, in its printed spelling, or None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(text.split()).replace("-", "").upper().translate(_LOOK_ALIKES)
    if len(code) != ENTRY_CODE_LENGTH or not set(code) <= _CODE_LETTERS:
        return None
    return code


def registration_by_entry_code(code: str) -> Registration | None:
    return (
        Registration.objects.select_related("tournament", "player").filter(entry_code=code).first()
    )


# ----------------------------------------------------------------------------- a player's way in
def table_for_seat_choice(user: AnyUser | None, table_id: int) -> Table | None:
    """A table whose QR code was scanned, for the "which seat is yours?" page: any published
    table (a private tournament's too: its card lies on the club's table), a draft one only for
    the club's directors; None otherwise. What the page may show of it: `seat_names_shown`."""
    table = Table.objects.select_related("round__tournament__club").filter(pk=table_id).first()
    if table is None:
        return None
    if table.round.status == Round.Status.DRAFT and not is_director(
        user, table.round.tournament.club_id
    ):
        return None
    return table


def seat_names_shown(user: AnyUser | None, table: Table) -> bool:
    """The seat page names the players (and the tournament) only to whoever may see the
    tournament's public pages, which name them anyway; a private one's shows seat numbers."""
    return can_view_tournament(user, table.round.tournament)


def player_seat_now(user: AnyUser | None, tournament: Tournament | int) -> Seat | None:
    """The user's seat in the latest published round of a tournament, if he plays in it."""
    if user is None or not user.is_authenticated:
        return None
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    round_ = (
        Round.objects.filter(tournament_id=tournament_id)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if round_ is None:
        return None
    return (
        Seat.objects.select_related("table__round")
        .filter(round=round_, registration__player__user=user)
        .first()
    )


# ----------------------------------------------------------------------------- live status
# The player's pages poll for news every few seconds: each poll answers 204 unless the key of
# what the page shows has changed, so these read a few columns and render nothing. The table's
# result is read through its reverse relation from scoring (`result`), as scoring reads the
# live game's, without importing it.


# The round clock ticks in the browser; a start, pause, resume, extension or reset is news.
ROUND_CLOCK_FIELDS = (
    "clock_seconds",
    "clock_started_at",
    "clock_paused_at",
    "clock_paused_seconds",
)


def _status_key(parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


def player_status_key(user: AnyUser | None) -> str:
    """What /me/ shows, as a short key: each tournament's state, its latest published round,
    the user's table and seat in it and that table's result (status and version)."""
    if user is None or not user.is_authenticated:
        return _status_key(None)
    registrations = list(
        Registration.objects.filter(player__user=user)
        .order_by("pk")
        .values_list("pk", "status", "tournament_id", "tournament__status")
    )
    tournament_ids = {row[2] for row in registrations}
    latest: dict[int, tuple[int, int, str]] = {}
    for tournament_id, number, pk, status, *clock in (
        Round.objects.filter(tournament_id__in=tournament_ids)
        .exclude(status=Round.Status.DRAFT)
        .values_list("tournament_id", "number", "pk", "status", *ROUND_CLOCK_FIELDS)
    ):
        if number > latest.get(tournament_id, (0,))[0]:
            latest[tournament_id] = (number, pk, status, *clock)
    seats = sorted(
        Seat.objects.filter(
            registration_id__in=[row[0] for row in registrations],
            round_id__in=[value[1] for value in latest.values()],
        ).values_list(
            "registration_id",
            "table_id",
            "position",
            "table__result__status",
            "table__result__version",
        )
    )
    return _status_key((registrations, sorted(latest.items()), seats))


def table_status_key(user: AnyUser | None, table: Table) -> str:
    """What the sheet page's live part shows, as a short key: the table's result (status,
    version, time of the last write), its round's and tournament's state, and the user's seat in
    the tournament's latest published round (the next round's draw)."""
    state = (
        Table.objects.filter(pk=table.pk)
        .values_list(
            "result__status",
            "result__version",
            "result__updated_at",
            "round__status",
            "round__tournament__status",
            *(f"round__{name}" for name in ROUND_CLOCK_FIELDS),
        )
        .first()
    )
    seat = player_seat_now(user, table.round.tournament_id)
    where = (seat.table_id, seat.position, seat.table.round.number) if seat is not None else None
    return _status_key((state, where))


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


# ----------------------------------------------------------------------------- a tournament's life
# Results and live games are read through their reverse relations from scoring and gameplay
# (`result`, `result_versions`, `live_game`), as the live status above does, without importing
# them. Finishing asks for confirmed results; deleting for nothing played at all.
FINISH_GAPS_SHOWN = 40


def tournament_has_confirmed_results(tournament: Tournament) -> bool:
    """Whether any table of the tournament has a result that counts."""
    return Table.objects.filter(
        round__tournament=tournament, result__confirmed__isnull=False
    ).exists()


def tournament_play_recorded(tournament: Tournament) -> bool:
    """Whether anything was played: a score sheet entered (any version, even one superseded or
    disputed) or a live table with a move made."""
    tables = Table.objects.filter(round__tournament=tournament)
    return (
        tables.filter(result_versions__isnull=False).exists()
        or tables.filter(live_game__sequence__gt=0).exists()
    )


def tournament_finish_gaps(tournament: Tournament) -> list[str]:
    """What is not done yet in a tournament, each as a sentence for the director ("Round 3 of 5
    is not drawn."): rounds not drawn, drawn rounds not finished, tables without a result that
    counts. At most FINISH_GAPS_SHOWN, then how many more."""
    from django.utils.translation import gettext as _
    from django.utils.translation import ngettext

    gaps: list[str] = []
    rounds = list(tournament.rounds.order_by("number"))
    drawn = rounds[-1].number if rounds else 0
    planned = tournament.rounds_planned
    missing = planned - drawn
    if missing == 1:
        gaps.append(
            _("Round %(first)d of %(planned)d is not drawn.")
            % {"first": drawn + 1, "planned": planned}
        )
    elif missing > 1:
        gaps.append(
            ngettext(
                "%(count)d round of %(planned)d is not drawn (rounds %(first)d to %(last)d).",
                "%(count)d rounds of %(planned)d are not drawn (rounds %(first)d to %(last)d).",
                missing,
            )
            % {"count": missing, "planned": planned, "first": drawn + 1, "last": planned}
        )
    for round_ in rounds:
        if round_.status == Round.Status.DRAFT:
            gaps.append(_("Round %(n)d is drawn but not published.") % {"n": round_.number})
        elif round_.status == Round.Status.PUBLISHED:
            gaps.append(_("Round %(n)d is not finished.") % {"n": round_.number})
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list(
            "round__number",
            "number",
            "result__status",
            "result__confirmed",
            # Its live game (a reverse relation: no import of gameplay) and whether it ended.
            "live_game",
            "live_game__finished_at",
        )
        .order_by("round__number", "number")
    )
    for round_number, number, status, confirmed, game, game_ended in tables:
        values = {"table": number, "round": round_number}
        if confirmed is not None:
            continue
        if game is not None and game_ended is None:
            text = _(
                "Table %(table)d of round %(round)d is still being played in the app; its game "
                "stops when the tournament is finished."
            )
        elif status == "submitted":
            text = _("Table %(table)d of round %(round)d waits for its result to be confirmed.")
        elif status == "disputed":
            text = _("The result of table %(table)d of round %(round)d is disputed.")
        else:
            text = _("Table %(table)d of round %(round)d has no confirmed result.")
        gaps.append(text % values)
    if len(gaps) > FINISH_GAPS_SHOWN:
        more = len(gaps) - FINISH_GAPS_SHOWN + 1
        gaps = gaps[: FINISH_GAPS_SHOWN - 1]
        gaps.append(
            ngettext("… and %(count)d more.", "… and %(count)d more.", more) % {"count": more}
        )
    return gaps


def tournament_events(tournament: Tournament) -> QuerySet:
    """The tournament's audit trail, newest first, with who did it."""
    return tournament.events.select_related("actor__player").order_by("-created_at", "-pk")


def registration_seated_rounds(registration: Registration) -> list[int]:
    """The numbers of the rounds (drafts too) in which the registration has a seat."""
    return sorted(
        set(Seat.objects.filter(registration=registration).values_list("round__number", flat=True))
    )


# ----------------------------------------------------------------------------- did you mean
def club_players_close_to(
    club: Club | int, names: list[str], *, exclude: list[int] = ()
) -> dict[str, list[Player]]:
    """For each name that is no club player's name (`names.name_key`), the club's players whose
    names are close to it (`names.close_names`), most alike first; names with none are left out.
    The players `exclude` names are neither known nor proposed.
    """
    from tournaments.names import close_names, name_key

    club_id = club if isinstance(club, int) else club.pk
    players = list(
        Player.objects.filter(club_id=club_id).exclude(pk__in=exclude).order_by("name", "pk")
    )
    known = {name_key(player.name) for player in players}
    player_names = [player.name for player in players]
    close: dict[str, list[Player]] = {}
    for name in names:
        if not name.strip() or name_key(name) in known or name in close:
            continue
        found = [players[index] for index in close_names(name, player_names)]
        if found:
            close[name] = found
    return close


def tournaments_played(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Those of the tournaments with at least one confirmed result: an empty tournament
    finished (as older versions allowed) is not listed as "recently finished"."""
    return tournaments.filter(
        pk__in=Table.objects.filter(result__confirmed__isnull=False).values("round__tournament")
    )
