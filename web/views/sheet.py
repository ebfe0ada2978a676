"""The score-sheet entry that the director's result page and the player's sheet page share.

Both pages post the same forms (web/forms/sheet.py) and answer them the same way: a check (htmx
gets the check's fragment, a browser without scripts the page again), a deal saved to the
table's draft (or one removed, or its removal undone), or a submission, refused with the page
and what to fix (400 when the sheet arrived damaged or the page was out of date, 409 on a
conflict) or stored through `scoring.services.result_submit`. Each page says how it renders
itself (`SheetPage`) and where a stored sheet leads; everything else is here once.

A sheet is entered as the table plays, one deal at a time: every deal saved goes to the table's
draft (`scoring.services.sheet_draft_save`), so that the page opens again on it, on any phone at
the table and on the director's page, and two phones never overwrite each other silently. The
scores a deal gives (the declarer's, the defenders' of a conceded deal) are filled in by the
server, never typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.exceptions import Conflict
from core.i18n import error_message
from scoring import selectors, services
from scoring.models import ResultVersion, SheetDraft
from tournaments.models import Table
from tournaments.selectors import user_display_name
from web.forms.sheet import (
    ADDED_DEALS,
    MAX_DEALS,
    SheetEntry,
    SheetSubmitForm,
    entry_of_deals,
    posted_entry,
)
from web.presenters.sheet import EntryCheck, entry_check, refused_entry

# The buttons of a sheet that save the table's draft: a deal entered (and the next one opened),
# a deal removed, a removal undone.
SAVE_DEAL, REMOVE_DEAL, RESTORE_DEAL = "save_deal", "remove_deal", "restore_deal"


class SheetPage(Protocol):
    """Renders a page with its sheet: `entry` None for the sheet as the page opens."""

    def __call__(
        self,
        *,
        entry: SheetEntry | None = None,
        check: EntryCheck | None = None,
        errors: list[str] | tuple[str, ...] = (),
        conflict: str = "",
        refused: bool = False,
        status: int = 200,
    ) -> HttpResponse: ...


def damaged_message() -> str:
    return _(
        "The sheet arrived damaged (its row count is missing or not a number), "
        "so nothing was saved. Enter it again."
    )


def seat_names(table: Table) -> list[str]:
    return [seat.display_name for seat in selectors.table_seats(table)]


def judged(*, table: Table, entry: SheetEntry, names: list[str]) -> tuple[SheetEntry, EntryCheck]:
    """The entry with the scores its deals give filled in, and the sheet judged as its
    submission would be, without storing anything."""
    if entry.damaged:
        return entry, refused_entry(damaged_message())
    following: list[dict[int, int]] = []
    if entry.formset is not None:
        following = services.sheet_following_scores(table=table, sheet=entry.formset.sheet())
        entry = entry.with_following(following)
    check = services.sheet_check(table=table, sheet=entry.sheet())
    return entry, entry_check(entry=entry, check=check, seat_names=names, following=following)


def shown_deals(
    *,
    table: Table,
    rows: list[dict[str, Any]],
    names: list[str],
    meta: SheetSubmitForm,
    go_on: bool = False,
) -> tuple[SheetEntry, EntryCheck]:
    """The deals `rows` on the page, judged, with a new deal to fill in after them while the
    game goes on (or, with `go_on`, even after its last deal) and none of them breaks a rule."""
    entry, check = judged(
        table=table, entry=entry_of_deals(rows, seat_names=names, meta=meta), names=names
    )
    if (not rows or (check.all_done and (go_on or not check.valid))) and len(rows) < MAX_DEALS:
        entry, check = judged(
            table=table,
            entry=entry_of_deals(rows, seat_names=names, meta=meta, fresh=1),
            names=names,
        )
    return entry, check


def _opening(
    *, table: Table, entry: SheetEntry, names: list[str], draft: SheetDraft | None
) -> tuple[SheetEntry, EntryCheck | None]:
    """The sheet as the page opens: the table's draft when it has one, else the stored sheet
    being corrected, else a first deal to fill in."""
    meta = entry.meta.with_draft(
        draft_version=draft.version if draft is not None else 0,
        result_version=entry.meta.initial.get("expected_version", 0),
    )
    rows = draft.rows if draft is not None and draft.rows else entry.deals
    if not rows:
        return entry_of_deals([], seat_names=names, meta=meta, fresh=1), None
    return shown_deals(table=table, rows=rows, names=names, meta=meta)


def entry_context(
    *,
    table: Table,
    entry: SheetEntry,
    check: EntryCheck | None,
    names: list[str],
    action: str,
    check_url: str,
) -> dict[str, object]:
    """What the sheet's template (sheet/_form.html) needs. A sheet not typed in on this request
    (the page as it opens) is the table's draft, or the sheet it corrects, judged."""
    draft = selectors.sheet_draft(table) if entry.mode == "deals" else None
    if entry.formset is not None and not entry.formset.is_bound:
        entry, check = _opening(table=table, entry=entry, names=names, draft=draft)
    forms_ = list(entry.formset.forms) if entry.formset is not None else []
    removed = draft.removed if draft is not None and isinstance(draft.removed, dict) else None
    current = next((i for i, deal in enumerate(check.deals) if not deal.done), None) if check else 0
    return {
        "players": len(names),
        "seat_names": names,
        "mode": entry.mode,
        "meta": entry.meta,
        "formset": entry.formset,
        "totals_form": entry.totals_form,
        "deal_rows": [
            (form, check.deal(index) if check else None) for index, form in enumerate(forms_)
        ],
        "current_deal": current,
        "check": check,
        "sheet_action": action,
        "check_url": check_url,
        "rows_added": ADDED_DEALS,
        "draft": draft if draft is not None and draft.rows else None,
        "draft_by": draft_saved_by(draft),
        "removed_number": removed["index"] + 1 if removed else None,
    }


def draft_saved_by(draft: SheetDraft | None) -> str:
    """Who saved the table's draft last, by his player's name if he has one."""
    return user_display_name(draft.updated_by if draft is not None else None)


def answer_check(
    request: HttpRequest,
    *,
    table: Table,
    meta_form: type[SheetSubmitForm],
    page: SheetPage,
) -> HttpResponse:
    """Check the posted sheet, storing nothing: a check says what to fix."""
    names = seat_names(table)
    posted = posted_entry(request.POST, seat_names=names, meta_form=meta_form)
    entry, check = judged(table=table, entry=posted, names=names)
    if request.headers.get("HX-Request") == "true":
        # The summary, and each deal's line swapped in by its id.
        context = {"check": check, "players": len(names), "seat_names": names}
        return render(request, "sheet/_check.html", context)
    if entry.damaged:
        # Rows that cannot be counted cannot be added to; a check only says what is wrong.
        return page(errors=check.messages, status=400 if "add_rows" in request.POST else 200)
    more = 0
    if "add_rows" in request.POST:
        more = ADDED_DEALS
    elif not check.valid and entry.formset is not None and not entry.formset.ends_with_fresh_deal():
        more = 1  # without scripts, a fresh deal to fill in next
    if more:
        entry, check = judged(
            table=table, entry=posted.with_more_deals(seat_names=names, count=more), names=names
        )
    return page(entry=entry, check=check)


def answer_post(
    request: HttpRequest,
    *,
    table: Table,
    meta_form: type[SheetSubmitForm],
    page: SheetPage,
    saved: Callable[[ResultVersion], HttpResponse],
) -> HttpResponse:
    """A posted sheet: a deal saved to the draft (or removed, or restored), checked (from htmx,
    or by the page's check and add-rows buttons) or submitted; `saved(version)` answers a stored
    one. PermissionDenied is the caller's."""
    if any(action in request.POST for action in (SAVE_DEAL, REMOVE_DEAL, RESTORE_DEAL)):
        return answer_draft(request, table=table, meta_form=meta_form, page=page)
    if (
        request.headers.get("HX-Request") == "true"
        or "check" in request.POST
        or "add_rows" in request.POST
    ):
        return answer_check(request, table=table, meta_form=meta_form, page=page)
    names = seat_names(table)
    entry = posted_entry(request.POST, seat_names=names, meta_form=meta_form)
    if entry.damaged:
        return page(errors=[damaged_message()], status=400)
    entry, check = judged(table=table, entry=entry, names=names)
    meta = entry.meta
    if not meta.is_valid():
        if "expected_version" in meta.errors:
            errors = [_("The page was out of date. Check the sheet and submit it again.")]
            entry = entry.with_meta(meta.renewed(_current_version(table)))
        else:
            errors = [
                f"{meta[name].label}: {error}"
                for name, found in meta.errors.items()
                for error in found
            ]
        return page(entry=entry, check=check, errors=errors, status=400)
    if not entry.form_valid:
        return page(entry=entry, check=check, refused=True)
    try:
        version = services.result_submit(
            actor=request.user, table=table, sheet=entry.sheet(), **meta.options()
        )
    except Conflict as error:
        # What was typed stays on the page and now carries the newer version, so that saving it
        # again (after reading the newer sheet) is a deliberate replacement of it.
        renewed = entry.with_meta(meta.renewed(_current_version(table)))
        return page(entry=renewed, check=check, conflict=str(error), status=409)
    except ValidationError as error:
        if _only_sheet_errors(error) and check.messages:
            return page(entry=entry, check=check, refused=True)
        return page(entry=entry, check=check, errors=error.messages)
    return saved(version)


def answer_draft(
    request: HttpRequest,
    *,
    table: Table,
    meta_form: type[SheetSubmitForm],
    page: SheetPage,
) -> HttpResponse:
    """Save the table's draft with the posted deals: after a deal (and open the next one), with
    a deal removed, or with the removed deal back. A phone that saw an older draft gets the
    newer one (409) instead of overwriting it. PermissionDenied is the caller's."""
    names = seat_names(table)
    entry = posted_entry(request.POST, seat_names=names, meta_form=meta_form)
    if entry.mode != "deals":
        return page(
            errors=[_("Only a sheet entered deal by deal is saved as it goes.")], status=400
        )
    if entry.damaged:
        return page(errors=[damaged_message()], status=400)
    entry, _check = judged(table=table, entry=entry, names=names)
    rows, removed = list(entry.deals), None
    if REMOVE_DEAL in request.POST:
        index = _deal_index(request.POST.get(REMOVE_DEAL))
        if index is None:
            return page(entry=entry, check=_check, errors=[_("No such deal.")], status=400)
        if index < len(rows):
            removed = {"index": index, "row": rows.pop(index)}
            _rotate_dealers(rows, start=index, players=len(names))
    elif RESTORE_DEAL in request.POST:
        draft = selectors.sheet_draft(table)
        kept = draft.removed if draft is not None and isinstance(draft.removed, dict) else None
        if kept is not None and entry.meta.seen_draft() == draft.version:
            index = min(kept["index"], len(rows))
            rows.insert(index, kept["row"])
            _rotate_dealers(rows, start=index, players=len(names))
    seen = entry.meta.seen_draft()
    try:
        draft = services.sheet_draft_save(
            actor=request.user,
            table=table,
            rows=rows,
            expected_version=-1 if seen is None else seen,
            removed=removed,
        )
    except Conflict:
        # The newer draft replaces what this phone showed: it is what the table entered.
        newer = selectors.sheet_draft(table)
        meta = entry.meta.with_draft(
            draft_version=newer.version if newer is not None else 0,
            result_version=_current_version(table),
        )
        shown, check = shown_deals(
            table=table, rows=newer.rows if newer is not None else [], names=names, meta=meta
        )
        notice = _(
            "%(name)s saved this sheet elsewhere meanwhile, so yours was not saved. "
            "This is the sheet as it is now: check it, then enter your deal again."
        ) % {"name": draft_saved_by(newer) or _("Someone")}
        return page(entry=shown, check=replace(check, notice=notice), status=409)
    except ValidationError as error:
        return page(entry=entry, check=_check, errors=[error_message(error)], status=400)
    meta = entry.meta.with_draft(
        draft_version=draft.version, result_version=_current_version(table)
    )
    shown, check = shown_deals(
        table=table, rows=draft.rows, names=names, meta=meta, go_on=SAVE_DEAL in request.POST
    )
    return page(entry=shown, check=check)


def _deal_index(value: Any) -> int | None:
    """The index of the deal numbered `value` (from 1), if it is a deal the form can hold."""
    text = str(value or "").strip()
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_DEALS:
        return None
    return int(text) - 1


def _rotate_dealers(rows: list[dict[str, Any]], *, start: int, players: int) -> None:
    """The deal passes to the left after every deal: a deal that moved has the dealer of its
    new place."""
    for index in range(start, len(rows)):
        rows[index] = {**rows[index], "dealer": index % players}


def _current_version(table: Table) -> int:
    result = selectors.table_result(table)
    return result.version if result is not None else 0


def _only_sheet_errors(error: ValidationError) -> bool:
    return hasattr(error, "error_dict") and set(error.error_dict) == {"sheet"}
