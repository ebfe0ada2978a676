"""Writes of clubs, players, tournaments, registrations and rounds, with their permission checks.

Every function takes the acting user as `actor`, checks that this user may do it, and runs in one
transaction. Views, API views, admin actions and management commands all call these.
"""

from __future__ import annotations

import datetime
import hmac
import secrets
import unicodedata
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import formats
from django.utils.text import Truncator, slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.i18n import error_text
from core.login_limit import SignInAttempt, SignInRefused, refusal_message
from rules import RuleOptionError, RuleSet
from standings.ranking import validate_placement_points, validate_precedence
from tournaments.models import (
    Club,
    Player,
    Registration,
    Round,
    Table,
    Tournament,
    TournamentEvent,
    default_placement_points,
    new_entry_code,
)
from tournaments.names import DIRECTION_CONTROLS, name_key, person_name
from tournaments.selectors import (
    entry_code_clean,
    is_director,
    latest_round,
    registration_by_entry_code,
    registration_from_personal_link,
    registration_seated_rounds,
    tournament_finish_gaps,
    tournament_has_confirmed_results,
    tournament_play_recorded,
)

# A typed seed may be any whole number below SEED_LIMIT (older draws and archives have long
# ones); a new seed has NEW_SEED_DIGITS digits, short enough to read out and type again.
SEED_LIMIT = 2**62
NEW_SEED_DIGITS = 6
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
# Every setting of a tournament, judged together by tournament_options_clean.
OPTION_FIELDS = (
    *FORMAT_FIELDS,
    "standings_precedence",
    "placement_points",
    "quick_results_allowed",
    "is_public",
    # Whether its results change the players' ratings (the seasons app computes them).
    "rated",
)
EDITABLE_FIELDS = ("name", "date", *OPTION_FIELDS)


def new_seed(*, unlike: int | None = None) -> int:
    """A random seed of NEW_SEED_DIGITS digits (no leading zero), other than `unlike`."""
    low = 10 ** (NEW_SEED_DIGITS - 1)
    while True:
        seed = low + secrets.randbelow(9 * low)
        if seed != unlike:
            return seed


def require_director(actor: User | None, club: Club | int) -> None:
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
    require_director(actor, club)
    club.directors.add(user)


# Characters no name holds: the controls that turn the direction of the text around them (a
# name could show as another; `names.DIRECTION_CONTROLS`), and the letters that show nothing
# (Hangul fillers, the blank braille cell). Controls and unreadable characters (a lone
# surrogate, or the replacement character a browser or decoder leaves for bytes it could not
# read) are refused by their category. What shows nothing at all (zero-width spaces, direction
# marks) is dropped by `person_name`, so look-alike names are one name.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def player_name_clean(name: str) -> str:
    """The name in its one spelling (`names.person_name`); ValidationError({"name": ...}) if it
    cannot be a name. Every name of a person the app stores passes here: typed on a form or in
    the API, or read from an archive."""
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
    require_director(actor, club)
    name = player_name_clean(name)
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
    require_director(actor, player.club_id)
    if name is not None:
        player.name = player_name_clean(name)
        player.save(update_fields=["name"])
    return player


# ----------------------------------------------------------------------------- tournaments
def tournament_options_clean(options: dict[str, Any]) -> dict[str, Any]:
    """Validate the format options as a whole; raises ValidationError naming the field.

    Creating or changing a tournament and importing an archive judge its options by this; they
    come back normalized (a table size left out of the placement points gets the default ones).
    """
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
    require_director(actor, club)
    unknown = set(options) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({field: _("Unknown field.") for field in sorted(unknown)})
    name = " ".join((name or "").split())
    if not name:
        raise ValidationError({"name": _("A tournament needs a name.")})
    tournament_options_clean(options)
    tournament = Tournament(club=club, name=name, date=date, seed=new_seed(), **options)
    tournament.full_clean()
    tournament_date_check(tournament.date)
    tournament.save()
    return tournament


# The dates a tournament may have: a club may enter its past tournaments from their paper
# sheets, not a year 1 or 9999 typed by mistake (which would lead every player's rating history).
FIRST_TOURNAMENT_YEAR = 1950
YEARS_AHEAD = 10


def tournament_date_check(date: datetime.date) -> None:
    """ValidationError({"date": ...}) for a date no tournament has: before 1950 or more than ten
    years ahead."""
    today = datetime.date.today()
    last = today.replace(year=today.year + YEARS_AHEAD, day=min(today.day, 28))
    if not datetime.date(FIRST_TOURNAMENT_YEAR, 1, 1) <= date <= last:
        raise ValidationError(
            {
                "date": _("A tournament's date is between %(first)s and %(last)s.")
                % {
                    "first": formats.date_format(
                        datetime.date(FIRST_TOURNAMENT_YEAR, 1, 1), "SHORT_DATE_FORMAT"
                    ),
                    "last": formats.date_format(last, "SHORT_DATE_FORMAT"),
                }
            }
        )


@transaction.atomic
def tournament_update(*, actor: User, tournament: Tournament, **changes: Any) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
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
    date_before = tournament.date
    current = {f: getattr(tournament, f) for f in EDITABLE_FIELDS}
    current.update(changes)
    cleaned = tournament_options_clean({f: current[f] for f in OPTION_FIELDS})
    if "placement_points" in changes:
        changes["placement_points"] = cleaned["placement_points"]
    for field, value in changes.items():
        setattr(tournament, field, value)
    if "name" in changes and not " ".join(str(changes["name"]).split()):
        raise ValidationError({"name": _("A tournament needs a name.")})
    tournament.full_clean()
    if tournament.date != date_before:
        tournament_date_check(tournament.date)
    tournament.save()
    return tournament


# The reason a director gives for finishing early or reopening (TournamentEvent.note).
EVENT_NOTE_LIMIT = 1000


def _event_note(note: str, *, required: str) -> str:
    """The director's reason, its white space tidied; ValidationError({"note": ...}) if it is
    missing where `required` says why it is asked for, or too long."""
    note = " ".join(str(note or "").split())
    if len(note) > EVENT_NOTE_LIMIT:
        raise ValidationError(
            {"note": _("A note has at most %(n)d characters.") % {"n": EVENT_NOTE_LIMIT}}
        )
    if required and not note:
        raise ValidationError({"note": required}, code="note_required")
    return note


def _event(tournament: Tournament, actor: User, kind: str, note: str = "", **details: Any):
    return TournamentEvent.objects.create(
        tournament=tournament, actor=actor, kind=kind, note=note, details=details
    )


@transaction.atomic
def tournament_finish(*, actor: User, tournament: Tournament, note: str = "") -> Tournament:
    """Mark the tournament as over, recorded in its audit trail.

    Refused when nothing counts yet (an empty tournament is deleted, not finished) and while a
    correction of a counted result waits. A tournament that is not complete (rounds not drawn or
    not finished, tables without a confirmed result: `selectors.tournament_finish_gaps`)
    finishes only with the director's reason, `note`.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    if not tournament_has_confirmed_results(tournament):
        raise ValidationError(
            _(
                "Nothing was played in this tournament yet: no table has a confirmed result. "
                "If it was created by mistake, delete it instead."
            ),
            code="nothing_played",
        )
    # A correction waits where the latest version of a table's sheet is not the one that counts:
    # finishing now would let it be confirmed (or forgotten) after the final standings.
    pending = (
        Table.objects.filter(round__tournament=tournament, result__isnull=False)
        .exclude(result__version=F("result__confirmed__number"))
        .filter(result__confirmed__isnull=False)
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
            % {"tables": tables},
            code="correction_waits",
        )
    gaps = tournament_finish_gaps(tournament)
    note = _event_note(
        note,
        required=_("The tournament is not complete: say why you finish it now.") if gaps else "",
    )
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    _event(tournament, actor, TournamentEvent.Kind.FINISHED, note, missing=gaps)
    return tournament


@transaction.atomic
def tournament_reopen(*, actor: User, tournament: Tournament, note: str) -> Tournament:
    """A finished tournament runs again (its players sign in and enter results again), with the
    director's reason recorded in its audit trail."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    if tournament.status != Tournament.Status.FINISHED:
        raise ValidationError(_("Only a finished tournament can be reopened."), code="not_finished")
    note = _event_note(note, required=_("Say why you reopen the tournament."))
    # A tournament finished before its first round (as older versions allowed) is a draft again.
    started = tournament.rounds.exists()
    tournament.status = Tournament.Status.RUNNING if started else Tournament.Status.DRAFT
    tournament.save(update_fields=["status"])
    _event(tournament, actor, TournamentEvent.Kind.REOPENED, note)
    return tournament


@transaction.atomic
def tournament_delete(*, actor: User, tournament: Tournament) -> str:
    """Delete a tournament in which nothing was played (created by mistake, or a test), with
    its registrations, rounds and audit trail; the club's players stay. Returns its name."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    if tournament_play_recorded(tournament):
        raise ValidationError(
            _(
                "Games were played in this tournament (score sheets were entered or a table "
                "was played live), so it cannot be deleted. Finish it instead."
            ),
            code="played",
        )
    name = str(tournament)
    # The rounds first: their seats protect the registrations they seat.
    tournament.rounds.all().delete()
    tournament.delete()
    return name


# ----------------------------------------------------------------------------- registrations
@transaction.atomic
def registration_create(*, actor: User, tournament: Tournament, player: Player) -> Registration:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
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
        raise ValidationError(_entry_during_draft(last.number))
    highest = tournament.registrations.aggregate(top=Max("start_number"))["top"] or 0
    first_round = last.number + 1 if last is not None else 1
    try:
        with transaction.atomic():
            return Registration.objects.create(
                tournament=tournament,
                player=player,
                start_number=highest + 1,
                first_round=first_round,
                entry_code=unused_entry_code(),
            )
    except IntegrityError:
        raise ValidationError({"player": _("The player is already registered.")}) from None


def _entry_during_draft(number: int) -> str:
    """Why nobody joins while round `number` is a draft, and the two ways on."""
    return _(
        "Round %(n)d is drawn but not published, so no player can be added now. Publish it "
        "first and the new player plays from round %(next)d on, or delete the draft, add the "
        "player and draw round %(n)d again to have him play it."
    ) % {"n": number, "next": number + 1}


def _registration_rejoin(tournament: Tournament, registration: Registration) -> Registration:
    """A withdrawn player comes back from the next round on."""
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.DRAFT:
        raise ValidationError(_entry_during_draft(last.number))
    registration.status = Registration.Status.ACTIVE
    registration.withdrawn_after = None
    registration.save(update_fields=["status", "withdrawn_after"])
    return registration


@transaction.atomic
def registration_withdraw(*, actor: User, registration: Registration) -> Registration:
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    require_director(actor, tournament.club_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.status == Registration.Status.WITHDRAWN:
        return registration
    last = latest_round(tournament)
    if last is not None and last.status == Round.Status.DRAFT:
        raise ValidationError(
            _(
                "Round %(n)d is drawn but not published, so no player can withdraw now. Publish "
                "it first and he leaves after round %(n)d, or delete the draft, withdraw him and "
                "draw round %(n)d again without him."
            )
            % {"n": last.number}
        )
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_after = last.number if last is not None else 0
    registration.save(update_fields=["status", "withdrawn_after"])
    return registration


# ----------------------------------------------------------------------------- roll call
# Who is at the venue tonight: the draw seats present players only (draws.services). Being absent
# is no withdrawal: the player sits out the rounds drawn meanwhile and sits in again once marked
# present.
def _roll_call_open(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished."))


@transaction.atomic
def registration_presence_set(
    *, actor: User, registration: Registration, present: bool
) -> Registration:
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    require_director(actor, tournament.club_id)
    _roll_call_open(tournament)
    registration = (
        Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
    )
    if registration.status != Registration.Status.ACTIVE:
        raise ValidationError(
            _("%(name)s is withdrawn; let the player rejoin first.")
            % {"name": registration.player.name}
        )
    if registration.present != present:
        registration.present = present
        registration.save(update_fields=["present"])
    return registration


@transaction.atomic
def registrations_all_present(*, actor: User, tournament: Tournament) -> int:
    """Mark every active registration present; how many were marked absent before."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    _roll_call_open(tournament)
    absent = tournament.registrations.filter(status=Registration.Status.ACTIVE, present=False)
    return absent.update(present=True)


# ----------------------------------------------------------------------------- corrections
@transaction.atomic
def registration_player_rename(*, actor: User, registration: Registration, name: str) -> Player:
    """Correct the name of a registration's player (a typo), recorded in the tournament's audit
    trail. The player is the club's, so the new name shows in all his tournaments."""
    registration = Registration.objects.select_related("tournament", "player").get(
        pk=registration.pk
    )
    tournament = registration.tournament
    require_director(actor, tournament.club_id)
    player = Player.objects.select_for_update().get(pk=registration.player_id)
    name = player_name_clean(name)
    if name == player.name:
        return player
    others = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk)
    if any(name_key(other) == name_key(name) for other in others.values_list("name", flat=True)):
        raise ValidationError(
            {
                "name": _(
                    "Another player of the club is called %(name)s. If they are one person, "
                    "merge the two players instead."
                )
                % {"name": name}
            },
            code="namesake",
        )
    before = player.name
    player.name = name
    player.save(update_fields=["name"])
    _event(
        tournament,
        actor,
        TournamentEvent.Kind.PLAYER_RENAMED,
        player=player.pk,
        before=before,
        after=name,
    )
    return player


@transaction.atomic
def players_merge(*, actor: User, kept: Player, duplicate: Player) -> Player:
    """Make two players of a club one: the duplicate's registrations, login and so his whole
    history go to the kept player, and the duplicate is deleted. Recorded in every tournament
    either of them is registered in.

    Refused when both are registered in one tournament with seats drawn for both (one person
    cannot have sat at two seats), or when both have a login (which one signs in is not ours to
    guess). Where both are registered and only one has seats, the other registration goes.
    """
    players = {
        player.pk: player
        for player in Player.objects.select_for_update().filter(pk__in=[kept.pk, duplicate.pk])
    }
    if kept.pk == duplicate.pk or len(players) != 2:
        raise ValidationError(_("Choose two different players to merge."), code="same")
    kept, duplicate = players[kept.pk], players[duplicate.pk]
    require_director(actor, kept.club_id)
    if duplicate.club_id != kept.club_id:
        raise ValidationError(_("The two players belong to different clubs."), code="clubs")
    if kept.user_id and duplicate.user_id:
        raise ValidationError(
            _(
                "%(kept)s and %(duplicate)s both have a login, so they cannot be merged here. "
                "Ask a site administrator."
            )
            % {"kept": kept.name, "duplicate": duplicate.name},
            code="two_logins",
        )
    kept_registrations = {r.tournament_id: r for r in kept.registrations.select_for_update()}
    moves: list[tuple[Registration, Registration | None]] = []
    for registration in duplicate.registrations.select_for_update().select_related("tournament"):
        other = kept_registrations.get(registration.tournament_id)
        if (
            other is not None
            and registration_seated_rounds(registration)
            and registration_seated_rounds(other)
        ):
            raise ValidationError(
                _(
                    "%(kept)s and %(duplicate)s both have seats drawn in %(tournament)s, so "
                    "they are two people there and cannot be merged."
                )
                % {
                    "kept": kept.name,
                    "duplicate": duplicate.name,
                    "tournament": registration.tournament.name,
                },
                code="both_seated",
            )
        moves.append((registration, other))
    tournament_ids = set(kept_registrations) | {r.tournament_id for r, _other in moves}
    for registration, other in moves:
        if other is None:
            registration.player = kept
            registration.save(update_fields=["player"])
        elif registration_seated_rounds(registration):
            # The duplicate played here: his registration stays, the kept one's unused goes.
            other.delete()
            registration.player = kept
            registration.save(update_fields=["player"])
        else:
            registration.delete()
    if duplicate.user_id and not kept.user_id:
        user, duplicate.user = duplicate.user, None
        duplicate.save(update_fields=["user"])
        kept.user = user
        kept.save(update_fields=["user"])
    details = {
        "kept": {"player": kept.pk, "name": kept.name},
        "merged": {"player": duplicate.pk, "name": duplicate.name},
    }
    for tournament in Tournament.objects.filter(pk__in=tournament_ids, club_id=kept.club_id):
        _event(tournament, actor, TournamentEvent.Kind.PLAYERS_MERGED, **details)
    duplicate.delete()
    return kept


@transaction.atomic
def registration_delete(*, actor: User, registration: Registration) -> bool:
    """Delete a registration made by mistake, while its player has no seat in any drawn round
    (after that he withdraws instead), recorded in the tournament's audit trail. A player left
    with no registration and no login (typed in by mistake) is deleted too: returns whether he
    was."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    require_director(actor, tournament.club_id)
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=registration.pk)
    )
    player = registration.player
    rounds = registration_seated_rounds(registration)
    if rounds:
        raise ValidationError(
            ngettext(
                "%(name)s has a seat in round %(rounds)s, so the registration cannot be "
                "deleted: withdraw the player instead.",
                "%(name)s has seats in rounds %(rounds)s, so the registration cannot be "
                "deleted: withdraw the player instead.",
                len(rounds),
            )
            % {"name": player.name, "rounds": ", ".join(map(str, rounds))},
            code="seated",
        )
    registration.delete()
    orphan = player.user_id is None and not player.registrations.exists()
    if orphan:
        player.delete()
    _event(
        tournament,
        actor,
        TournamentEvent.Kind.REGISTRATION_DELETED,
        player=player.pk if not orphan else None,
        name=player.name,
        start_number=registration.start_number,
        player_deleted=orphan,
    )
    return orphan


# ----------------------------------------------------------------------------- bulk registration
BULK_NAMES_LIMIT = 500
# How much of a refused name a message about a pasted list quotes.
QUOTED_NAME_CHARACTERS = 40


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
    require_director(actor, tournament.club_id)
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
            # A name refused for its length is quoted by its beginning only.
            quoted = Truncator(name).chars(QUOTED_NAME_CHARACTERS)
            errors.extend(
                _("Line %(line)d (%(name)s): %(message)s")
                % {"line": line, "name": quoted, "message": message}
                for message in error.messages
            )
    if errors:
        # Raising rolls back the players and registrations of the good lines too.
        raise ValidationError(errors)
    return registrations


# ----------------------------------------------------------------------------- personal links
def unused_entry_code() -> str:
    """A new entry code that no registration has (a registration made elsewhere, by an
    archive's import or a test's factory, takes the model's random default; the unique column
    refuses the rare repeat there)."""
    while True:
        code = new_entry_code()
        if not Registration.objects.filter(entry_code=code).exists():
            return code


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
    return _registration_login(
        registration,
        director_refusal=_(
            "A personal link cannot sign in a director. Sign in with your password instead."
        ),
    )


def _registration_usable(registration: Registration) -> None:
    """ValidationError unless the registration's player may still be signed in to play: the
    same rule for a personal link, an entry code and a director's hand-over."""
    if registration.tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(
            _("The tournament is over: its players no longer sign in to enter results."),
            code="finished",
        )
    if registration.status != Registration.Status.ACTIVE:
        raise ValidationError(
            _("The player is withdrawn from the tournament and no longer signs in to play."),
            code="withdrawn",
        )


def _registration_login(registration: Registration, *, director_refusal: str) -> User:
    """The login of the registration's player, made without a password if he has none; never a
    director's or an administrator's (a lost card must not open the management pages)."""
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
        raise ValidationError(director_refusal, code="director")
    return user


def player_login_from_code(
    *, code: str, address: str, registration: Registration | None = None
) -> tuple[User, Registration]:
    """The login an entry code signs in, and its registration (see `models.ENTRY_CODE_ALPHABET`).

    The code is the authority, so there is no actor. On the table's page the player first says
    which seat is his (`registration`): the code must be that registration's, and failures are
    counted for it as a password's are for its user name (core/login_limit.py: a guesser at one
    seat, from one address or many), and for the address. On the home page's entry the code
    alone names the registration; failures count for the address. Over the limit it raises
    SignInRefused before the code is looked at. The code signs in while the registration is
    active and the tournament not finished, never a director; it authenticates the player, not a
    device: the phones already signed in as him stay so.

    Not one transaction: a failure is counted even though the attempt then raises.
    """
    username = f"entry-code:{registration.pk}" if registration is not None else ""
    attempt = SignInAttempt(address=address, username=username, credential="code")
    if attempt.refused():
        raise SignInRefused(refusal_message())
    typed = entry_code_clean(code)
    if typed is None:
        raise ValidationError(
            {"code": _("A code has six letters and digits, as printed on your player card.")}
        )
    if registration is not None:
        found = registration if hmac.compare_digest(registration.entry_code, typed) else None
    else:
        found = registration_by_entry_code(typed)
    if found is None:
        attempt.failed()
        if registration is not None:
            message = _(
                "This is not the code of this seat. Check the seat and the code on your "
                "player card."
            )
        else:
            message = _("No player has this code. Check it on your player card.")
        raise ValidationError({"code": message})
    attempt.succeeded()
    found = Registration.objects.select_related("tournament", "player").get(pk=found.pk)
    _registration_usable(found)
    with transaction.atomic():
        user = _registration_login(
            found,
            director_refusal=_(
                "A code cannot sign in a director. Sign in with your password instead."
            ),
        )
    return user, found


@transaction.atomic
def player_login_by_director(*, actor: User, registration: Registration) -> User:
    """The login of a registration's player, for a director who hands a phone to him (the
    player lost his card, or never had one): the director's own sign-in is the authority."""
    registration = Registration.objects.select_related("tournament", "player").get(
        pk=registration.pk
    )
    require_director(actor, registration.tournament.club_id)
    _registration_usable(registration)
    return _registration_login(
        registration,
        director_refusal=_("This player is also a director: he signs in with his password."),
    )


@transaction.atomic
def personal_link_renew(*, actor: User, registration: Registration) -> Registration:
    """A new personal link and entry code for the registration's player; the link and code
    handed out before stop signing in (a card was lost, or picked up by someone else).

    The phones already signed in as the player are signed out too, as whoever picked the card
    up may hold one: Django ties a session to its user's password hash, and a login without a
    password gets a new unusable one. A player with a password of his own is not signed out
    (his password is his); the director is told to have it changed.
    """
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("tournament", "player__user")
        .get(pk=registration.pk)
    )
    require_director(actor, registration.tournament.club_id)
    registration.personal_link_version = F("personal_link_version") + 1
    registration.entry_code = unused_entry_code()
    registration.save(update_fields=["personal_link_version", "entry_code"])
    registration.refresh_from_db(fields=["personal_link_version"])
    user = registration.player.user
    if user is not None and not user.has_usable_password():
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return registration


@transaction.atomic
def player_login_ensure(*, actor: User, player: Player) -> User:
    """The player's login, made without a password when he has none (a live table seats logins).

    He signs in with his personal link, as any player without a password does.
    """
    require_director(actor, player.club_id)
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
