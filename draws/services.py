"""Writes of rounds: the seat draw of the next round, redraw, seat swaps, publish, delete.

A round is drawn as a draft the director checks, redraws or edits, then publishes; publishing
opens its tables' results. Every function takes the acting user as `actor` and checks that this
user directs the tournament's club, in one transaction.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.i18n import error_text
from draws import progress, seating
from draws.selectors import (
    draw_refusal,
    players_to_draw,
    seating_history,
    seating_policy,
    tables_played,
)
from scoring.selectors import standings_latest, standings_order
from scoring.services import results_open_for_round
from seasons.selectors import registrations_by_rating
from tournaments import clock
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.selectors import latest_round
from tournaments.services import new_seed, require_director


def _compute_draw(tournament: Tournament, number: int, seed: int) -> list[tuple[int | None, ...]]:
    """The tables (registration ids in seat order, None for a bot) of round `number`."""
    players = players_to_draw(tournament, number)
    table_size, fill = seating_policy(tournament)
    if len(players) < 2:
        raise ValidationError(_("At least two players are needed for a round."))
    if tournament.seating_mode == Tournament.SeatingMode.SCHEDULE:
        schedule_rounds = _scheduled_round(tournament, players, number, table_size, fill, seed)
        if schedule_rounds is not None:
            return schedule_rounds
    history = seating_history(tournament, number)
    standings = None
    if tournament.seating_mode == Tournament.SeatingMode.STANDINGS:
        if standings_latest(tournament) is None:
            # No standings yet (round 1): the players are seeded by their club rating.
            standings = registrations_by_rating(players)
        else:
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
    """Round `number` of the schedule drawn with round 1's seed. Once the field has changed
    (late entries, withdrawals, absences), the rest of that schedule is repaired for the field
    as it is now, with the fewest new repeats given the rounds played, and this round is the
    repair's first; past the planned rounds (None) the round is drawn on its own. A search's
    progress is kept for the director's page (draws.progress)."""
    field = _schedule_field(tournament, players)
    schedule_seed = seed if number == 1 else tournament.rounds.get(number=1).seed
    if field is None and number > tournament.rounds_planned:
        return None

    def schedule_of(field: list[int]) -> seating.Schedule:
        bound = seating.repeat_free_bound(
            seating.table_plan(len(field), table_size=table_size, fill=fill)
        )
        return seating.draw_schedule(
            field,
            rounds=tournament.rounds_planned,
            table_size=table_size,
            fill=fill,
            seed=schedule_seed,
            progress=progress.reporter(
                tournament.pk,
                round_number=number,
                rounds=tournament.rounds_planned,
                bound=bound,
            ),
        )

    try:
        if field is not None:
            schedule = schedule_of(field)
            return [tuple(table) for table in schedule.rounds[number - 1].tables]
        played = tables_played(tournament, number)
        first_field = sorted({p for table in played[0] for p in table if p is not None})
        planned = schedule_of(first_field).rounds[number - 1 :]
        repaired = seating.repair_schedule(
            played,
            players,
            rounds=tournament.rounds_planned - number + 1,
            table_size=table_size,
            fill=fill,
            seed=seed,
            planned=planned,
        )
    except seating.SeatingError as error:
        raise ValidationError(error_text(error)) from None
    return [tuple(table) for table in repaired.rounds[0].tables]


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
    require_director(actor, tournament.club_id)
    refusal = draw_refusal(tournament)
    if refusal:
        raise ValidationError(refusal)
    last = latest_round(tournament)
    number = last.number + 1 if last is not None else 1
    seed = new_seed() if seed is None else seed
    try:
        tables = _compute_draw(tournament, number, seed)
    finally:
        progress.forget(tournament.pk)
    round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    _store_tables(round_, tables, Seat.BotLevel.NORMAL)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


@transaction.atomic
def round_redraw(*, actor: User, round_: Round, seed: int | None = None) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be redrawn."))
    tournament = round_.tournament
    if (
        tournament.seating_mode == Tournament.SeatingMode.SCHEDULE
        and round_.number > 1
        and _schedule_field(tournament, players_to_draw(tournament, round_.number))
    ):
        raise ValidationError(
            _(
                "In schedule mode every round comes from the schedule drawn with round 1; "
                "swap seats by hand instead."
            )
        )
    seed = new_seed(unlike=round_.seed) if seed is None else seed
    if seed == round_.seed:
        raise ValidationError({"seed": _("A redraw needs another seed.")})
    try:
        tables = _compute_draw(tournament, round_.number, seed)
    finally:
        progress.forget(tournament.pk)
    round_.tables.all().delete()
    round_.seed = seed
    round_.save(update_fields=["seed"])
    _store_tables(round_, tables, Seat.BotLevel.NORMAL)
    return round_


@transaction.atomic
def round_swap_seats(*, actor: User, round_: Round, first: Seat, second: Seat) -> None:
    """Swap who sits in two seats of a draft round (a player or a bot)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament.club_id)
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
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament.club_id)
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
    require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a draft round can be deleted."))
    tournament = round_.tournament
    round_.delete()
    if not tournament.rounds.exists():
        tournament.status = Tournament.Status.DRAFT
        tournament.save(update_fields=["status"])


# ----------------------------------------------------------------------------- the round clock
# The arithmetic is tournaments.clock's; these store it on the round. The clock runs while the
# round is published (the players play it); a finished round's clock is left as it stood.
def _clock_of(round_: Round) -> clock.Clock:
    return clock.Clock(
        seconds=round_.clock_seconds,
        started_at=round_.clock_started_at,
        paused_at=round_.clock_paused_at,
        paused_seconds=round_.clock_paused_seconds,
    )


def _clock_store(round_: Round, value: clock.Clock) -> Round:
    round_.clock_seconds = value.seconds
    round_.clock_started_at = value.started_at
    round_.clock_paused_at = value.paused_at
    round_.clock_paused_seconds = value.paused_seconds
    round_.save(
        update_fields=[
            "clock_seconds",
            "clock_started_at",
            "clock_paused_at",
            "clock_paused_seconds",
        ]
    )
    return round_


def _clock_round(actor: User, round_: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament.club_id)
    if round_.status != Round.Status.PUBLISHED:
        raise ValidationError(_("The clock runs only while the round is being played."))
    return round_


def _minutes_checked(minutes: object, bounds: tuple[int, int], field: str) -> int:
    low, high = bounds
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise ValidationError(
            {field: _("Enter %(low)d to %(high)d minutes.") % {"low": low, "high": high}}
        )
    return minutes


@transaction.atomic
def round_clock_start(*, actor: User, round_: Round, minutes: int) -> Round:
    """Start the round's clock with `minutes` to play."""
    round_ = _clock_round(actor, round_)
    minutes = _minutes_checked(minutes, clock.START_MINUTES, "minutes")
    if _clock_of(round_).started:
        raise ValidationError(_("The clock is started already; reset it to start again."))
    return _clock_store(round_, clock.Clock().start(timezone.now(), minutes=minutes))


@transaction.atomic
def round_clock_pause(*, actor: User, round_: Round) -> Round:
    round_ = _clock_round(actor, round_)
    current = _clock_of(round_)
    if not current.started:
        raise ValidationError(_("The clock is not started."))
    if current.paused:
        raise ValidationError(_("The clock is paused already."))
    return _clock_store(round_, current.pause(timezone.now()))


@transaction.atomic
def round_clock_resume(*, actor: User, round_: Round) -> Round:
    round_ = _clock_round(actor, round_)
    current = _clock_of(round_)
    if not current.paused:
        raise ValidationError(_("The clock is not paused."))
    return _clock_store(round_, current.resume(timezone.now()))


@transaction.atomic
def round_clock_extend(*, actor: User, round_: Round, minutes: int) -> Round:
    """Give the round `minutes` more, whether the clock runs, stands or is in overtime."""
    round_ = _clock_round(actor, round_)
    minutes = _minutes_checked(minutes, clock.EXTEND_MINUTES, "minutes")
    current = _clock_of(round_)
    if not current.started or current.seconds is None:
        raise ValidationError(_("The clock is not started."))
    if current.seconds + minutes * 60 > clock.LONGEST_MINUTES * 60:
        raise ValidationError(
            {
                "minutes": _("A round clock runs at most %(n)d minutes in all.")
                % {"n": clock.LONGEST_MINUTES}
            }
        )
    return _clock_store(round_, current.extend(minutes=minutes))


@transaction.atomic
def round_clock_reset(*, actor: User, round_: Round) -> Round:
    """Back to not started (the wall and the players' pages show no clock)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require_director(actor, round_.tournament.club_id)
    return _clock_store(round_, _clock_of(round_).reset())
