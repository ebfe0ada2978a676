"""Writes of clubs, players, tournaments, registrations and rounds, with their permission checks.

Every function takes the acting user as `actor`, checks that this user may do it, and runs in one
transaction. Views, API views, admin actions and management commands all call these.
"""

from __future__ import annotations

import datetime
import secrets
import unicodedata
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.i18n import error_text
from gameplay.engine import RuleOptionError, RuleSet
from scoring.standings import validate_placement_points, validate_precedence
from tournaments import seating
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
    default_placement_points,
)
from tournaments.names import DIRECTION_CONTROLS, name_key, person_name
from tournaments.selectors import (
    is_director,
    latest_round,
    registration_from_personal_link,
    registrations_playing,
    seating_history,
)

SEED_LIMIT = 2**62
# Fields that shape the draw and the results; fixed once the first round is drawn.
FORMAT_FIELDS = (
    "rounds_planned",
    "table_size",
    "bots_allowed",
    "round_format",
    "deals_per_round",
    "rules",
    "seating_mode",
)
EDITABLE_FIELDS = (
    "name",
    "date",
    "is_public",
    "quick_results_allowed",
    "standings_precedence",
    "placement_points",
    *FORMAT_FIELDS,
)


def new_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)


def _require_director(actor: User | None, club: Club | int) -> None:
    if not is_director(actor, club):
        raise PermissionDenied(_("Only a director of this club may do this."))


def _require_superuser(actor: User | None) -> None:
    if actor is None or not actor.is_authenticated or not actor.is_superuser:
        raise PermissionDenied(_("Only a site administrator may do this."))


# ----------------------------------------------------------------------------- clubs and players
@transaction.atomic
def club_create(*, actor: User, name: str, slug: str = "", directors: list[User] = ()) -> Club:
    _require_superuser(actor)
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("A club needs a name.")})
    slug = slugify(slug or name)[:60].strip("-") or f"club-{secrets.token_hex(3)}"
    if Club.objects.filter(name=name).exists() or Club.objects.filter(slug=slug).exists():
        raise ValidationError({"name": _("A club with this name already exists.")})
    club = Club.objects.create(name=name, slug=slug)
    club.directors.add(*directors)
    return club


@transaction.atomic
def club_add_director(*, actor: User, club: Club, user: User) -> None:
    _require_director(actor, club)
    club.directors.add(user)


# Characters no name holds: the controls that turn the direction of the text around them (a
# name could show as another; `names.DIRECTION_CONTROLS`), and the letters that show nothing
# (Hangul fillers, the blank braille cell). Controls and unreadable characters (a lone
# surrogate, or the replacement character a browser or decoder leaves for bytes it could not
# read) are refused by their category. What shows nothing at all (zero-width spaces, direction
# marks) is dropped by `person_name`, so look-alike names are one name.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _player_name(name: str) -> str:
    """The name in its one spelling (`names.person_name`); ValidationError({"name": ...}) if it
    cannot be a name."""
    typed, name = name, person_name(name)
    if not name:
        if typed.strip():  # only characters that show nothing
            raise ValidationError({"name": _("The name has no visible letters.")})
        raise ValidationError({"name": _("A player needs a name.")})
    if len(name) > 120:
        raise ValidationError({"name": _("A name has at most 120 characters.")})
    for char in name:
        category = unicodedata.category(char)
        if category == "Cs" or char == "\ufffd":
            raise ValidationError(
                {"name": _("The name has a character that could not be read; type it again.")}
            )
        if category == "Cc" or char in DIRECTION_CONTROLS:
            raise ValidationError(
                {
                    "name": _(
                        "The name has an invisible control character (%(code)s); "
                        "type it without it."
                    )
                    % {"code": f"U+{ord(char):04X}"}
                }
            )
    if not any(
        unicodedata.category(char)[0] in "LNPS" and char not in _BLANK_LETTERS for char in name
    ):
        raise ValidationError({"name": _("The name has no visible letters.")})
    return name


@transaction.atomic
def player_create(*, actor: User, club: Club, name: str, user: User | None = None) -> Player:
    """A new player of the club, linked to an existing login only by its owner or an administrator.

    A player's personal link signs in his login, so a director who could link any login to a
    player of his club could sign in as that login.
    """
    _require_director(actor, club)
    name = _player_name(name)
    if user is not None:
        if not actor.is_superuser and user.pk != actor.pk:
            raise PermissionDenied(
                _("Only the login's owner or a site administrator may link a login to a player.")
            )
        if Player.objects.filter(user=user).exists():
            raise ValidationError({"user": _("This login already belongs to a player.")})
    return Player.objects.create(club=club, name=name, user=user)


@transaction.atomic
def player_update(*, actor: User, player: Player, name: str | None = None) -> Player:
    _require_director(actor, player.club_id)
    if name is not None:
        player.name = _player_name(name)
        player.save(update_fields=["name"])
    return player


# ----------------------------------------------------------------------------- tournaments
def _clean_tournament_options(options: dict[str, Any]) -> dict[str, Any]:
    """Validate the format options as a whole; raises ValidationError naming the field."""
    errors: dict[str, Any] = {}
    try:
        RuleSet.from_dict(options.get("rules") or {})
    except RuleOptionError as error:
        # The option's name goes with the message (as a param, which ValidationError fills in
        # with %, hence the doubled %), so that a form can show the message by its field.
        errors["rules"] = ValidationError(
            error_text(error).replace("%", "%%"),
            code="rule_option",
            params={"option": error.option},
        )
    rounds = options.get("rounds_planned", 5)
    if not isinstance(rounds, int) or not 1 <= rounds <= 60:
        errors["rounds_planned"] = _("A tournament has from 1 to 60 rounds.")
    if options.get("table_size", "4") not in Tournament.TableSize.values:
        errors["table_size"] = _("The table size is 3, 4 or mixed.")
    round_format = options.get("round_format", Tournament.RoundFormat.GAME)
    deals = options.get("deals_per_round")
    if round_format == Tournament.RoundFormat.DEALS:
        multiple = _deals_multiple(options.get("table_size", "4"), options.get("bots_allowed"))
        if not isinstance(deals, int) or deals <= 0 or deals % multiple or deals > 240:
            errors["deals_per_round"] = _(
                "With a fixed number of deals, it must be a positive multiple of %(n)d "
                "(up to 240) so that everyone at every table deals equally often."
            ) % {"n": multiple}
    elif deals is not None:
        errors["deals_per_round"] = _("Only a round of a fixed number of deals has a deal count.")
    if "standings_precedence" in options:
        try:
            validate_precedence(options["standings_precedence"])
        except (ValueError, TypeError) as error:
            errors["standings_precedence"] = error_text(error)
    if options.get("placement_points") is not None:
        try:
            validate_placement_points(options["placement_points"])
        except (ValueError, TypeError) as error:
            errors["placement_points"] = error_text(error)
        else:
            # A size left out keeps the default points, so every table can be scored.
            options["placement_points"] = default_placement_points() | {
                str(size): points for size, points in options["placement_points"].items()
            }
    if errors:
        raise ValidationError(errors)
    return options


def _deals_multiple(table_size: str, bots_allowed: bool | None) -> int:
    if table_size == Tournament.TableSize.MIXED:
        return 12
    size = int(table_size)
    # Without bots an odd player count forces tables of the other size too.
    return size if bots_allowed else 12


@transaction.atomic
def tournament_create(
    *, actor: User, club: Club, name: str, date: datetime.date, **options: Any
) -> Tournament:
    _require_director(actor, club)
    unknown = set(options) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({field: _("Unknown field.") for field in sorted(unknown)})
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": _("A tournament needs a name.")})
    _clean_tournament_options(options)
    tournament = Tournament(club=club, name=name, date=date, seed=new_seed(), **options)
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, actor: User, tournament: Tournament, **changes: Any) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(actor, tournament.club_id)
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({field: _("Unknown field.") for field in sorted(unknown)})
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("A finished tournament can no longer be changed."))
    started = tournament.rounds.exists()
    locked = [f for f in FORMAT_FIELDS if f in changes and changes[f] != getattr(tournament, f)]
    if started and locked and locked != ["rounds_planned"]:
        raise ValidationError(
            {f: _("The format is fixed once the first round is drawn.") for f in locked}
        )
    if "rounds_planned" in changes and started:
        drawn = latest_round(tournament).number
        if changes["rounds_planned"] < drawn:
            raise ValidationError(
                {
                    "rounds_planned": ngettext(
                        "%(n)d round is already drawn.", "%(n)d rounds are already drawn.", drawn
                    )
                    % {"n": drawn}
                }
            )
    current = {f: getattr(tournament, f) for f in EDITABLE_FIELDS}
    current.update(changes)
    cleaned = _clean_tournament_options(
        {f: current[f] for f in EDITABLE_FIELDS if f not in ("name", "date")}
    )
    if "placement_points" in changes:
        changes["placement_points"] = cleaned["placement_points"]
    for field, value in changes.items():
        setattr(tournament, field, value)
    if "name" in changes and not " ".join(str(changes["name"]).split()):
        raise ValidationError({"name": _("A tournament needs a name.")})
    tournament.full_clean()
    tournament.save()
    return tournament


@transaction.atomic
def tournament_finish(*, actor: User, tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(actor, tournament.club_id)
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    unfinished = tournament.rounds.exclude(status=Round.Status.FINISHED)
    if unfinished.exists():
        numbers = ", ".join(str(n) for n in unfinished.values_list("number", flat=True))
        raise ValidationError(_("Rounds %(numbers)s are not finished yet.") % {"numbers": numbers})
    # A correction waits where the latest version of a table's sheet is not the one that counts:
    # finishing now would let it be confirmed (or forgotten) after the final standings.
    pending = (
        Table.objects.filter(round__tournament=tournament, result__isnull=False)
        .exclude(result__version=F("result__confirmed__number"))
        .select_related("round")
        .order_by("round__number", "number")
    )
    if pending:
        tables = ", ".join(
            _("round %(round)d table %(table)d") % {"round": t.round.number, "table": t.number}
            for t in pending
        )
        raise ValidationError(
            _("A correction waits at %(tables)s: confirm it or enter the right sheet first.")
            % {"tables": tables}
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament


# ----------------------------------------------------------------------------- registrations
@transaction.atomic
def registration_create(*, actor: User, tournament: Tournament, player: Player) -> Registration:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(actor, tournament.club_id)
    if player.club_id != tournament.club_id:
        raise ValidationError({"player": _("The player belongs to another club.")})
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    existing = tournament.registrations.filter(player=player).first()
    if existing is not None:
        if existing.status == Registration.Status.ACTIVE:
            raise ValidationError({"player": _("The player is already registered.")})
        return _registration_rejoin(tournament, existing)
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is drawn but not published: publish or redraw it after the entry.")
            % {"n": last.number}
        )
    highest = tournament.registrations.aggregate(top=Max("start_number"))["top"] or 0
    first_round = last.number + 1 if last is not None else 1
    try:
        with transaction.atomic():
            return Registration.objects.create(
                tournament=tournament,
                player=player,
                start_number=highest + 1,
                first_round=first_round,
            )
    except IntegrityError:
        raise ValidationError({"player": _("The player is already registered.")}) from None


def _registration_rejoin(tournament: Tournament, registration: Registration) -> Registration:
    """A withdrawn player comes back from the next round on."""
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is drawn but not published: publish or redraw it after the entry.")
            % {"n": last.number}
        )
    registration.status = Registration.Status.ACTIVE
    registration.withdrawn_after = None
    registration.save(update_fields=["status", "withdrawn_after"])
    return registration


@transaction.atomic
def registration_withdraw(*, actor: User, registration: Registration) -> Registration:
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    _require_director(actor, tournament.club_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        return registration
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.DRAFT:
        raise ValidationError(
            _("Round %(n)d is drawn but not published: redraw it after the withdrawal.")
            % {"n": last.number}
        )
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_after = last.number if last is not None else 0
    registration.save(update_fields=["status", "withdrawn_after"])
    return registration


# ----------------------------------------------------------------------------- rounds
def _seating_policy(tournament: Tournament) -> tuple[int | str, str]:
    table_size: int | str = (
        "mixed"
        if tournament.table_size == Tournament.TableSize.MIXED
        else int(tournament.table_size)
    )
    fill = "bots" if tournament.bots_allowed else "mixed"
    return table_size, fill


def _compute_draw(tournament: Tournament, number: int, seed: int) -> list[tuple[int | None, ...]]:
    """The tables (registration ids in seat order, None for a bot) of round `number`."""
    players = [r.pk for r in registrations_playing(tournament, number)]
    table_size, fill = _seating_policy(tournament)
    if len(players) < 2:
        raise ValidationError(_("At least two players are needed for a round."))
    if tournament.seating_mode == Tournament.SeatingMode.SCHEDULE:
        schedule_rounds = _scheduled_round(tournament, players, number, table_size, fill, seed)
        if schedule_rounds is not None:
            return schedule_rounds
    history = seating_history(tournament, number)
    standings = None
    if tournament.seating_mode == Tournament.SeatingMode.STANDINGS:
        from scoring.selectors import standings_order

        standings = standings_order(tournament, players)
    mode = "standings" if standings is not None else "balanced"
    try:
        draw = seating.draw_round(
            players,
            table_size=table_size,
            fill=fill,
            mode=mode,
            seed=seed,
            meetings=history.meetings,
            standings=standings,
            seat_counts=history.seat_counts,
            bot_counts=history.bot_counts,
        )
    except seating.SeatingError as error:
        raise ValidationError(error_text(error)) from None
    return [tuple(table) for table in draw.tables]


def _schedule_field(tournament: Tournament, players: list[int]) -> list[int] | None:
    """The players of the whole-tournament schedule, or None once the field has changed."""
    first = tournament.rounds.filter(number=1).first()
    if first is None:
        return sorted(players)
    scheduled = sorted(
        Seat.objects.filter(round=first, registration__isnull=False).values_list(
            "registration_id", flat=True
        )
    )
    # Late entries or withdrawals: from then on rounds are drawn round by round.
    return scheduled if scheduled == sorted(players) else None


def _scheduled_round(tournament, players, number, table_size, fill, seed):
    """Round `number` of the schedule drawn with round 1's seed, while the field is unchanged."""
    field = _schedule_field(tournament, players)
    if field is None:
        return None
    schedule_seed = seed if number == 1 else tournament.rounds.get(number=1).seed
    try:
        schedule = seating.draw_schedule(
            field,
            rounds=tournament.rounds_planned,
            table_size=table_size,
            fill=fill,
            seed=schedule_seed,
        )
    except seating.SeatingError as error:
        raise ValidationError(error_text(error)) from None
    return [tuple(table) for table in schedule.rounds[number - 1].tables]


def _store_tables(round_: Round, tables: list[tuple[int | None, ...]], bot_level: str) -> None:
    for number, seated in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number)
        Seat.objects.bulk_create(
            Seat(
                table=table,
                round=round_,
                position=position,
                registration_id=registration,
                bot_level=bot_level if registration is None else "",
            )
            for position, registration in enumerate(seated)
        )


@transaction.atomic
def round_draw(*, actor: User, tournament: Tournament, seed: int | None = None) -> Round:
    """Draw the next round as a draft that the director can check, redraw or edit, then publish."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(actor, tournament.club_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."))
    last = latest_round(tournament)
    if last is not None and last.status != Round.Status.FINISHED:
        raise ValidationError(
            _("Round %(n)d is not finished: every table needs a confirmed result first.")
            % {"n": last.number}
            if last.status == Round.Status.PUBLISHED
            else _("Round %(n)d is drawn already: publish or redraw it.") % {"n": last.number}
        )
    number = last.number + 1 if last is not None else 1
    if number > tournament.rounds_planned:
        raise ValidationError(
            ngettext(
                "All %(n)d round is drawn; finish the tournament or add rounds.",
                "All %(n)d rounds are drawn; finish the tournament or add rounds.",
                tournament.rounds_planned,
            )
            % {"n": tournament.rounds_planned}
        )
    seed = new_seed() if seed is None else seed
    tables = _compute_draw(tournament, number, seed)
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    _store_tables(round_, tables, Seat.BotLevel.NORMAL)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


@transaction.atomic
def round_redraw(*, actor: User, round_: Round, seed: int | None = None) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be redrawn."))
    tournament = round_.tournament
    if (
        tournament.seating_mode == Tournament.SeatingMode.SCHEDULE
        and round_.number > 1
        and _schedule_field(
            tournament, [r.pk for r in registrations_playing(tournament, round_.number)]
        )
    ):
        raise ValidationError(
            _(
                "In schedule mode every round comes from the schedule drawn with round 1; "
                "swap seats by hand instead."
            )
        )
    seed = new_seed() if seed is None else seed
    if seed == round_.seed:
        raise ValidationError({"seed": _("A redraw needs another seed.")})
    tables = _compute_draw(round_.tournament, round_.number, seed)
    round_.tables.all().delete()
    round_.seed = seed
    round_.save(update_fields=["seed"])
    _store_tables(round_, tables, Seat.BotLevel.NORMAL)
    return round_


@transaction.atomic
def round_swap_seats(*, actor: User, round_: Round, first: Seat, second: Seat) -> None:
    """Swap who sits in two seats of a draft round (a player or a bot)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Seats can be swapped only before the round is published."))
    seats = list(
        Seat.objects.select_for_update().filter(round=round_, pk__in=[first.pk, second.pk])
    )
    if len(seats) != 2:
        raise ValidationError(_("Pick two different seats of this round."))
    one, two = seats
    occupants = [(one.registration_id, one.bot_level), (two.registration_id, two.bot_level)]
    # The one-seat-per-round constraint forbids a moment with the same player twice, so the first
    # seat holds a bot while the second takes its occupant.
    one.registration_id, one.bot_level = None, Seat.BotLevel.NORMAL
    one.save(update_fields=["registration", "bot_level"])
    two.registration_id, two.bot_level = occupants[0]
    two.save(update_fields=["registration", "bot_level"])
    one.registration_id, one.bot_level = occupants[1]
    one.save(update_fields=["registration", "bot_level"])
    for table_id in {one.table_id, two.table_id}:
        humans = Seat.objects.filter(table_id=table_id, registration__isnull=False).count()
        if humans < 2:
            raise ValidationError(_("A table needs at least two players."))


@transaction.atomic
def round_publish(*, actor: User, round_: Round) -> Round:
    from scoring.services import results_open_for_round

    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("The round is already published."))
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    results_open_for_round(round_=round_)
    return round_


@transaction.atomic
def round_delete_draft(*, actor: User, round_: Round) -> None:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    _require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be deleted."))
    tournament = round_.tournament
    round_.delete()
    if not tournament.rounds.exists():
        tournament.status = Tournament.Status.DRAFT
        tournament.save(update_fields=["status"])


# ----------------------------------------------------------------------------- bulk registration
BULK_NAMES_LIMIT = 500


@transaction.atomic
def registration_create_from_names(
    *, actor: User, tournament: Tournament, names: list[str]
) -> list[Registration]:
    """Register a list of players by name: all of them, or none if any line is wrong.

    A name that matches one player of the club (ignoring case and extra spaces) registers that
    player (a withdrawn one rejoins); any other name creates a new player. Blank entries are
    skipped but counted, so the messages name the line of the caller's list ("line 4: ..."),
    unless the list holds one name.
    Every line goes through `player_create` and `registration_create`, so their rules apply.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(actor, tournament.club_id)
    if len(names) > BULK_NAMES_LIMIT:
        raise ValidationError(
            _("A list has at most %(n)d lines; split it and register it in parts.")
            % {"n": BULK_NAMES_LIMIT}
        )
    # Each line in its one spelling; one that is blank as typed is skipped, one that shows
    # nothing but is not blank goes on, for `player_create` to say so.
    entries = [
        (line, person_name(str(name)) or str(name).strip())
        for line, name in enumerate(names, start=1)
        if str(name).split()
    ]
    if not entries:
        raise ValidationError(_("The list has no names."))
    errors: list[str] = []
    first_line: dict[str, int] = {}
    for line, name in entries:
        key = name_key(name)
        if key in first_line:
            errors.append(
                _("Line %(line)d: %(name)s is already on line %(first)d.")
                % {"line": line, "name": name, "first": first_line[key]}
            )
        else:
            first_line[key] = line
    entries = [(line, name) for line, name in entries if first_line[name_key(name)] == line]
    club_players: dict[str, list[Player]] = {}
    for player in Player.objects.filter(club_id=tournament.club_id).order_by("pk"):
        club_players.setdefault(name_key(player.name), []).append(player)
    registrations: list[Registration] = []
    for line, name in entries:
        matches = club_players.get(name_key(name), [])
        if len(matches) > 1:
            errors.append(
                ngettext(
                    "Line %(line)d: the club has %(count)d player named %(name)s; "
                    "register the right one on their own.",
                    "Line %(line)d: the club has %(count)d players named %(name)s; "
                    "register the right one on their own.",
                    len(matches),
                )
                % {"line": line, "count": len(matches), "name": name}
            )
            continue
        try:
            player = (
                matches[0]
                if matches
                else player_create(actor=actor, club=tournament.club, name=name)
            )
            registrations.append(
                registration_create(actor=actor, tournament=tournament, player=player)
            )
        except ValidationError as error:
            if not hasattr(error, "error_dict") or len(names) == 1:
                # About the tournament (every line would repeat it), or a list of one name.
                raise
            errors.extend(
                _("Line %(line)d (%(name)s): %(message)s")
                % {"line": line, "name": name, "message": message}
                for message in error.messages
            )
    if errors:
        # Raising rolls back the players and registrations of the good lines too.
        raise ValidationError(errors)
    return registrations


# ----------------------------------------------------------------------------- personal links
def personal_link_registration(*, token: str) -> Registration:
    """The registration whose player a personal link signs in, or ValidationError saying why it
    no longer does: tampered with, expired or replaced, the player withdrawn, the tournament over.
    """
    registration = registration_from_personal_link(token)
    if registration is None:
        raise ValidationError(
            _("This personal link is not valid or has expired. Ask the director for a new one.")
        )
    if registration.tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is over, so its personal links no longer sign in."))
    if registration.status != Registration.Status.ACTIVE:
        raise ValidationError(
            _("You are withdrawn from this tournament, so this link no longer signs in.")
        )
    return registration


@transaction.atomic
def player_login_from_link(*, token: str) -> User:
    """The login a personal link signs in (see `selectors.player_personal_link`).

    The signed link is the authority here, so there is no actor. It signs in only while its
    registration is active and the tournament is not finished: a card left on a table after the
    evening, or kept by a player who withdrew, opens nothing. A player without a login gets one
    without a password, linked to him. Links never sign in a director or an administrator: a
    lost piece of paper must not open the management pages.
    """
    registration = personal_link_registration(token=token)
    player = (
        Player.objects.select_for_update(of=("self",))
        .select_related("user")
        .get(pk=registration.player_id)
    )
    user = player.user
    if user is None:
        return _player_login_create(player)
    if not user.is_active:
        raise ValidationError(_("This player's login is switched off. Ask the director."))
    if user.is_staff or user.is_superuser or user.directed_clubs.exists():
        raise ValidationError(
            _("A personal link cannot sign in a director. Sign in with your password instead.")
        )
    return user


@transaction.atomic
def personal_link_renew(*, actor: User, registration: Registration) -> Registration:
    """A new personal link for the registration's player; the links handed out before it stop
    signing in (a card was lost, or picked up by someone else)."""
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=registration.pk)
    )
    _require_director(actor, registration.tournament.club_id)
    registration.personal_link_version = F("personal_link_version") + 1
    registration.save(update_fields=["personal_link_version"])
    registration.refresh_from_db(fields=["personal_link_version"])
    return registration


@transaction.atomic
def player_login_ensure(*, actor: User, player: Player) -> User:
    """The player's login, made without a password when he has none (a live table seats logins).

    He signs in with his personal link, as any player without a password does.
    """
    _require_director(actor, player.club_id)
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    return player.user or _player_login_create(player)


def _player_login_create(player: Player) -> User:
    username = f"player-{player.pk}"
    while User.objects.filter(username=username).exists():
        username = f"player-{player.pk}-{secrets.token_hex(3)}"
    user = User.objects.create_user(username=username, password=None)  # an unusable password
    player.user = user
    player.save(update_fields=["user"])
    return user
