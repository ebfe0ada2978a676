"""Writes of table results (submit, confirm, dispute) and of standings snapshots.

A result is a versioned score sheet: every submission is a new `ResultVersion`, and only a
confirmed version counts. Writers lock the table's `TableResult` row and compare the version the
client saw, so a second writer gets a conflict instead of overwriting the first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.exceptions import Conflict
from core.i18n import translate
from rules import RuleSet
from scoring import standings_cache
from scoring.models import ResultVersion, SheetDraft, StandingsSnapshot, TableResult
from scoring.score_sheet import (
    MAX_TOTAL,
    ScoreSheetError,
    ValidatedSheet,
    following_scores,
    validate_score_sheet,
)
from scoring.selectors import sheet_running_totals, standings_inputs, table_role
from scoring.signals import standings_stored
from standings import ranking as standings_logic
from tournaments.models import Round, Table, Tournament

logger = logging.getLogger(__name__)

# Seat 1 (position 0) deals a table's first deal; the deal passes to the left after every deal.
FIRST_DEALER = 0
# A draft holds at most as many deals as the entry form takes (web/forms/sheet.py's MAX_DEALS).
DRAFT_MAX_DEALS = 300

# The due mark outlives the countdown a little, so a late task still finds (and clears) it.


def results_open_for_round(*, round_: Round) -> None:
    """Create the empty result of every table of a round that is being published."""
    existing = set(
        TableResult.objects.filter(table__round=round_).values_list("table_id", flat=True)
    )
    TableResult.objects.bulk_create(
        TableResult(table=table) for table in round_.tables.all() if table.pk not in existing
    )


def _table_rules(table: Table) -> RuleSet:
    return RuleSet.from_dict(table.round.tournament.rules)


def _validate_sheet(table: Table, sheet: Any) -> ValidatedSheet:
    """The score sheet judged against the table's seats and the tournament's rules.

    Raises ScoreSheetError, whose messages are in English with what it takes to translate them.
    """
    tournament = table.round.tournament
    fixed = tournament.fixed_deals
    return validate_score_sheet(
        sheet,
        players=table.seats.count(),
        first_dealer=FIRST_DEALER,
        rules=_table_rules(table),
        fixed_deals=fixed,
        quick_allowed=tournament.quick_results_allowed,
    )


def validate_sheet_for_table(table: Table, sheet: Any) -> ValidatedSheet:
    """Check a score sheet against the table's seats and the tournament's rules.

    A sheet that breaks the rules raises ValidationError({"sheet": [...]}) with the validator's
    messages in the active language.
    """
    try:
        return _validate_sheet(table, sheet)
    except ScoreSheetError as error:
        raise ValidationError({"sheet": [translate(m) for m in error.messages]}) from None


def _lock_result(table: Table) -> TableResult:
    try:
        return TableResult.objects.select_for_update().get(table=table)
    except TableResult.DoesNotExist:
        raise ValidationError(_("The round of this table is not published yet.")) from None


@transaction.atomic
def result_submit(
    *,
    actor: User,
    table: Table,
    sheet: Any,
    expected_version: int,
    confirm: bool = False,
    note: str = "",
) -> ResultVersion:
    """Store a new version of a table's score sheet (a first result or a correction)."""
    table = Table.objects.select_related("round__tournament__club").get(pk=table.pk)
    role = table_role(actor, table)
    if not role.at_table:
        raise PermissionDenied(_("Only a player at this table or a director may enter its result."))
    if confirm and not role.director:
        raise PermissionDenied(_("Only a director may enter a result that is confirmed at once."))
    if role.closed_reason:
        raise ValidationError(role.closed_reason, code="bot_table" if role.bot_table else "closed")
    result = _lock_result(table)
    if result.version != expected_version:
        raise Conflict(
            _("Version %(v)d of this result was saved meanwhile, so this sheet was not saved.")
            % {"v": result.version}
        )
    validated = validate_sheet_for_table(table, sheet)
    return _store_version(
        result=result,
        validated=validated,
        actor=actor,
        source=ResultVersion.Source.DIRECTOR if role.director else ResultVersion.Source.PLAYER,
        confirm=confirm,
        note=note,
    )


def _store_version(*, result, validated, actor, source, confirm, note) -> ResultVersion:
    table = result.table
    ResultVersion.objects.filter(table=table, status=ResultVersion.Status.SUBMITTED).update(
        status=ResultVersion.Status.SUPERSEDED
    )
    version = ResultVersion.objects.create(
        table=table,
        number=result.version + 1,
        source=source,
        sheet=validated.as_sheet(),
        totals=list(validated.totals),
        placements=list(validated.placements),
        winner_position=validated.winner,
        submitted_by=actor if actor is not None and actor.is_authenticated else None,
        note=(note or "")[:1000],
    )
    # What the table typed in is now a submitted sheet: the draft starts again, empty (its version
    # goes on, so a phone that saw the old draft gets a conflict instead of bringing it back).
    SheetDraft.objects.filter(table=table).update(
        rows=[], removed=None, version=F("version") + 1, updated_at=timezone.now()
    )
    result.version = version.number
    result.status = TableResult.Status.SUBMITTED
    result.updated_at = timezone.now()
    result.save(update_fields=["version", "status", "updated_at"])
    if confirm:
        _confirm(result, version, actor)
    return version


@transaction.atomic
def result_record_live(*, table: Table, sheet: Any) -> ResultVersion:
    """Store the result of a table played live in the app: already confirmed, by the engine."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    result = _lock_result(table)
    validated = validate_sheet_for_table(table, sheet)
    return _store_version(
        result=result,
        validated=validated,
        actor=None,
        source=ResultVersion.Source.LIVE,
        confirm=True,
        note="",
    )


@transaction.atomic
def result_confirm(*, actor: User, table: Table, version_number: int) -> ResultVersion:
    table = Table.objects.select_related("round__tournament__club").get(pk=table.pk)
    role = table_role(actor, table)
    if not role.at_table:
        raise PermissionDenied(_("Only a player at this table or a director may confirm."))
    result = _lock_result(table)
    version = _current_version(result, version_number)
    if version.status == ResultVersion.Status.CONFIRMED:
        return version
    if role.closed_reason:
        raise ValidationError(role.closed_reason, code="closed")
    if version.status == ResultVersion.Status.DISPUTED and not role.director:
        raise ValidationError(_("This result is disputed; the director decides."))
    if not role.director and version.submitted_by_id == actor.pk:
        raise PermissionDenied(_("Another player at the table must confirm your sheet."))
    if not role.may_confirm:
        raise PermissionDenied(
            _(
                "A director entered or confirmed this result, "
                "so only a director may accept a correction of it."
            )
        )
    _confirm(result, version, actor)
    return version


@transaction.atomic
def result_dispute(*, actor: User, table: Table, version_number: int, note: str) -> ResultVersion:
    table = Table.objects.select_related("round__tournament__club").get(pk=table.pk)
    role = table_role(actor, table)
    director = role.director
    if not role.at_table:
        raise PermissionDenied(_("Only a player at this table or a director may dispute."))
    if role.closed_reason:
        raise ValidationError(role.closed_reason, code="closed")
    note = (note or "").strip()
    if not note:
        raise ValidationError({"note": _("Say what is wrong with the sheet.")})
    result = _lock_result(table)
    version = _current_version(result, version_number)
    if version.status != ResultVersion.Status.SUBMITTED:
        raise ValidationError(_("Only a result waiting for confirmation can be disputed."))
    if not director and version.submitted_by_id == actor.pk:
        raise ValidationError(_("Submit a corrected sheet instead of disputing your own."))
    version.status = ResultVersion.Status.DISPUTED
    version.reviewed_by = actor
    version.reviewed_at = timezone.now()
    version.note = (f"{version.note}\n{note}" if version.note else note)[:1000]
    version.save(update_fields=["status", "reviewed_by", "reviewed_at", "note"])
    result.status = TableResult.Status.DISPUTED
    result.updated_at = timezone.now()
    result.save(update_fields=["status", "updated_at"])
    return version


def _current_version(result: TableResult, version_number: int) -> ResultVersion:
    if version_number != result.version:
        raise Conflict(
            _(
                "Version %(v)d is the latest version of this result, "
                "so nothing was changed: look at it first."
            )
            % {"v": result.version}
        )
    return ResultVersion.objects.select_for_update().get(table=result.table, number=version_number)


def _confirm(result: TableResult, version: ResultVersion, actor: User | None) -> None:
    if result.confirmed_id and result.confirmed_id != version.pk:
        ResultVersion.objects.filter(pk=result.confirmed_id).update(
            status=ResultVersion.Status.SUPERSEDED
        )
    version.status = ResultVersion.Status.CONFIRMED
    version.reviewed_by = actor if actor is not None and actor.is_authenticated else None
    version.reviewed_at = timezone.now()
    version.save(update_fields=["status", "reviewed_by", "reviewed_at"])
    result.confirmed = version
    result.status = TableResult.Status.CONFIRMED
    result.updated_at = timezone.now()
    result.save(update_fields=["confirmed", "status", "updated_at"])
    round_ = result.table.round
    tournament_id = round_.tournament_id
    Tournament.objects.filter(pk=tournament_id).update(results_version=F("results_version") + 1)
    if round_.status == Round.Status.PUBLISHED:
        open_tables = TableResult.objects.filter(table__round=round_).exclude(
            status=TableResult.Status.CONFIRMED
        )
        if not open_tables.exists():
            Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)
    _schedule_standings(tournament_id)


def _schedule_standings(tournament_id: int) -> None:
    transaction.on_commit(lambda: _enqueue_standings(tournament_id))


def _enqueue_standings(tournament_id: int) -> None:
    from scoring.tasks import recompute_standings

    # The result is committed by now; a broker that is down (or a failing computation in the
    # embedded mode) must not turn the confirmation into an error. The next confirmation, the
    # periodic `standings_catch_up` or the admin's "recompute" action bring the standings up to
    # date.
    try:
        if recompute_standings.app.conf.task_always_eager:
            recompute_standings.delay(tournament_id)
            return
        # With workers, a burst of confirmations makes one computation a little later instead
        # of one each: every new snapshot sends every phone on the standings page a new table.
        # The computation reads the results when it runs, so it includes all of the burst.
        delay = settings.STANDINGS_DEBOUNCE_SECONDS
        if standings_cache.mark_due(tournament_id, delay):
            recompute_standings.apply_async((tournament_id,), countdown=delay)
    except Exception:
        logger.exception("Could not recompute the standings of tournament %s", tournament_id)


def standings_recompute_due(*, tournament_id: int) -> StandingsSnapshot | None:
    """The debounced computation: a confirmation from now on schedules another one."""
    # Cleared before the results are read: a confirmation committed after this line schedules a
    # computation of its own, one committed before it is seen by this one.
    standings_cache.clear_due(tournament_id)
    return standings_recompute(tournament_id=tournament_id)


def standings_catch_up() -> int:
    """Periodic (beat): compute the standings a lost task left behind; returns how many."""
    behind = Tournament.objects.annotate(latest=Max("standings_snapshots__version")).filter(
        Q(latest__isnull=True, results_version__gt=0) | Q(latest__lt=F("results_version"))
    )
    computed = 0
    for tournament_id in behind.values_list("pk", flat=True):
        if standings_recompute(tournament_id=tournament_id) is not None:
            computed += 1
    return computed


def standings_recompute(*, tournament_id: int) -> StandingsSnapshot | None:
    """Store the standings of the tournament's current results version, unless already stored."""
    tournament = Tournament.objects.get(pk=tournament_id)
    version = tournament.results_version
    if StandingsSnapshot.objects.filter(tournament=tournament, version__gte=version).exists():
        return None
    players, results, names = standings_inputs(tournament)
    table = standings_logic.compute_standings(
        players,
        results,
        precedence=tournament.standings_precedence,
        placement_points=tournament.placement_points,
        seed=tournament.seed,
        # Drawn by start number, not database id: a restored archive ranks ties the same way.
        draw_keys={player: names[player]["start_number"] for player in players},
    )
    rows = [standings_logic.row_to_dict(row) | names[row.player] for row in table]
    try:
        with transaction.atomic():
            snapshot = StandingsSnapshot.objects.create(
                tournament=tournament, version=version, rows=rows
            )
    except IntegrityError:
        # Another worker stored this version first; both computed the same thing.
        return None
    transaction.on_commit(lambda: _announce_standings(tournament.pk))
    return snapshot


def _announce_standings(tournament_id: int) -> None:
    # The pages' receiver (web/tasks.py) renders the new table, then forgets the poll state
    # (scoring.standings_cache) so that the polls learn of it at once, not when their cached
    # answer expires: they then find the table rendered.
    standings_stored.send(sender=StandingsSnapshot, tournament_id=tournament_id)


# ----------------------------------------------------------------------------- sheet entry
@dataclass(frozen=True)
class SheetCheck:
    """A score sheet judged as `result_submit` judges it, with what the entry form shows.

    `running_totals` has one entry per row of the sheet: every seat's total after that deal, or
    None once a row's scores cannot be read. `row_messages` are the messages that name a row
    (keyed by its number, from 1); `sheet_messages` the others, such as a game not over yet.
    Every message is in the active language.
    """

    validated: ValidatedSheet | None
    messages: list[str]
    row_messages: dict[int, list[str]]
    sheet_messages: list[str]
    running_totals: list[tuple[int, ...] | None]
    # Those of the sheet's messages that only say the game is not over yet (no rule is broken).
    unfinished_messages: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.validated is not None


def sheet_check(*, table: Table, sheet: Any) -> SheetCheck:
    """Judge a sheet being typed in without storing it: the same validation as `result_submit`."""
    try:
        validated = _validate_sheet(table, sheet)
    except ScoreSheetError as error:
        messages = []
        row_messages: dict[int, list[str]] = {}
        sheet_messages = []
        for message in error.messages:
            text = translate(message)
            messages.append(text)
            # A message about one deal carries the row's number (see scoring.score_sheet).
            row = message.params.get("row")
            if row is not None:
                row_messages.setdefault(row, []).append(text)
            else:
                sheet_messages.append(text)
        return SheetCheck(
            validated=None,
            messages=messages,
            row_messages=row_messages,
            sheet_messages=sheet_messages,
            running_totals=sheet_running_totals(sheet, table.seats.count()),
            unfinished_messages=[translate(message) for message in error.unfinished],
        )
    return SheetCheck(
        validated=validated,
        messages=[],
        row_messages={},
        sheet_messages=[],
        running_totals=sheet_running_totals(sheet, validated.players),
    )


def sheet_following_scores(*, table: Table, sheet: Any) -> list[dict[int, int]]:
    """For each deal of a sheet being typed in, the seats' scores that follow from the deal (the
    declarer's, and the defenders' of a conceded deal), by the table's rules: the entry fills
    them in instead of asking for them (scoring.score_sheet.following_scores)."""
    return following_scores(
        sheet,
        players=table.seats.count(),
        first_dealer=FIRST_DEALER,
        rules=_table_rules(table),
    )


# ----------------------------------------------------------------------------- sheet drafts
_DRAFT_ROW_FIELDS = frozenset({"dealer", "declarer", "bid", "contract", "outcome", "forced"})
# What the entry form keeps of a field it could not read (web/forms/sheet.py), so that the
# draft shows it again as it was typed.
_DRAFT_TEXT = 20


def _draft_value(value: Any) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= MAX_TOTAL
    return isinstance(value, str) and len(value) <= _DRAFT_TEXT


def _draft_rows(rows: Any, players: int) -> list[dict[str, Any]]:
    """The deals of a draft as given, if they are deals as the entry form reads them: at most
    DRAFT_MAX_DEALS, each with its known fields and one score per seat, every value a number
    within MAX_TOTAL, a short text or empty. They need not follow the rules (yet)."""
    refused = ValidationError(_("The draft is not a score sheet's deals."), code="draft")
    if not isinstance(rows, list) or len(rows) > DRAFT_MAX_DEALS:
        raise refused
    kept = []
    for row in rows:
        if not isinstance(row, dict) or not set(row) <= _DRAFT_ROW_FIELDS | {"scores"}:
            raise refused
        scores = row.get("scores", [None] * players)
        if not isinstance(scores, list) or len(scores) != players:
            raise refused
        values = [row[name] for name in _DRAFT_ROW_FIELDS if name in row]
        if not all(_draft_value(value) for value in [*values, *scores]):
            raise refused
        kept.append({**row, "scores": list(scores)})
    return kept


@transaction.atomic
def sheet_draft_save(
    *,
    actor: User,
    table: Table,
    rows: Any,
    expected_version: int,
    removed: dict[str, Any] | None = None,
) -> SheetDraft:
    """Save the deals a table has entered so far (after each deal, or a removal and its undo).

    Open to the people who may submit the table's sheet (its players, the club's directors).
    `expected_version` is the draft's version the writer saw: another save since raises
    Conflict, and the writer reads the newer draft instead of overwriting it. `removed` is the
    deal just removed ({"index": ..., "row": ...}), kept to undo the removal; any other save
    forgets it.
    """
    table = Table.objects.select_related("round__tournament__club").get(pk=table.pk)
    role = table_role(actor, table)
    if not role.at_table:
        raise PermissionDenied(_("Only a player at this table or a director may enter its result."))
    if role.closed_reason:
        raise ValidationError(role.closed_reason, code="bot_table" if role.bot_table else "closed")
    players = table.seats.count()
    kept = _draft_rows(rows, players)
    if removed is not None:
        index = removed.get("index") if isinstance(removed, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= len(kept):
            raise ValidationError(_("The draft is not a score sheet's deals."), code="draft")
        removed = {"index": index, "row": _draft_rows([removed.get("row")], players)[0]}
    # The table's result row is the lock every writer of its sheet takes, so that two first
    # saves cannot both create the draft.
    _lock_result(table)
    draft, _created = SheetDraft.objects.select_for_update().get_or_create(table=table)
    if draft.version != expected_version:
        raise Conflict(
            _(
                "The sheet was saved elsewhere meanwhile (version %(v)d), "
                "so these deals were not saved."
            )
            % {"v": draft.version}
        )
    draft.rows = kept
    draft.removed = removed
    draft.version += 1
    draft.updated_by = actor if actor.is_authenticated else None
    draft.updated_at = timezone.now()
    draft.save()
    return draft
