"""The score-sheet entry that the director's result page and the player's sheet page share.

Both pages post the same forms (web/forms/sheet.py) and answer them the same way: a check (htmx
gets the check's fragment, a browser without scripts the page again), or a submission, refused
with the page and what to fix (400 when the sheet arrived damaged or the page was out of date,
409 on a conflict) or stored through `scoring.services.result_submit`. Each page says how it
renders itself (`SheetPage`) and where a stored sheet leads; everything else is here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.exceptions import Conflict
from scoring import selectors, services
from scoring.models import ResultVersion
from tournaments.models import Table
from web.forms.sheet import ADDED_DEALS, SheetEntry, SheetSubmitForm, posted_entry
from web.presenters.sheet import EntryCheck, entry_check, refused_entry


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


def check_sheet(*, table: Table, entry: SheetEntry, names: list[str]) -> EntryCheck:
    """The sheet judged as its submission would be, without storing anything."""
    if entry.damaged:
        return refused_entry(damaged_message())
    check = services.sheet_check(table=table, sheet=entry.sheet())
    return entry_check(entry=entry, check=check, seat_names=names)


def entry_context(
    *,
    entry: SheetEntry,
    check: EntryCheck | None,
    names: list[str],
    action: str,
    check_url: str,
) -> dict[str, object]:
    """What the sheet's template (sheet/_form.html) needs."""
    forms_ = list(entry.formset.forms) if entry.formset is not None else []
    return {
        "players": len(names),
        "mode": entry.mode,
        "meta": entry.meta,
        "formset": entry.formset,
        "totals_form": entry.totals_form,
        "deal_rows": [
            (form, check.deal(index) if check else None) for index, form in enumerate(forms_)
        ],
        "check": check,
        "sheet_action": action,
        "check_url": check_url,
        "rows_added": ADDED_DEALS,
    }


def answer_check(
    request: HttpRequest,
    *,
    table: Table,
    meta_form: type[SheetSubmitForm],
    page: SheetPage,
) -> HttpResponse:
    """Check the posted sheet, storing nothing: a check says what to fix."""
    names = seat_names(table)
    entry = posted_entry(request.POST, seat_names=names, meta_form=meta_form)
    check = check_sheet(table=table, entry=entry, names=names)
    if request.headers.get("HX-Request") == "true":
        # The summary, and each deal's line swapped in by its id.
        return render(request, "sheet/_check.html", {"check": check})
    if entry.damaged:
        # Rows that cannot be counted cannot be added to; a check only says what is wrong.
        return page(errors=check.messages, status=400 if "add_rows" in request.POST else 200)
    if "add_rows" in request.POST:
        entry = entry.with_more_deals(seat_names=names, count=ADDED_DEALS)
    elif not check.valid and entry.formset is not None and not entry.formset.ends_with_fresh_deal():
        # Without scripts, a fresh deal to fill in next.
        entry = entry.with_more_deals(seat_names=names, count=1)
    return page(entry=entry, check=check)


def answer_post(
    request: HttpRequest,
    *,
    table: Table,
    meta_form: type[SheetSubmitForm],
    page: SheetPage,
    saved: Callable[[ResultVersion], HttpResponse],
) -> HttpResponse:
    """A posted sheet: checked (from htmx, or by the page's check and add-rows buttons) or
    submitted; `saved(version)` answers a stored one. PermissionDenied is the caller's."""
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
    meta = entry.meta
    if not meta.is_valid():
        check = check_sheet(table=table, entry=entry, names=names)
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
        check = check_sheet(table=table, entry=entry, names=names)
        return page(entry=entry, check=check, refused=True)
    try:
        version = services.result_submit(
            actor=request.user, table=table, sheet=entry.sheet(), **meta.options()
        )
    except Conflict as error:
        # What was typed stays on the page and now carries the newer version, so that saving it
        # again (after reading the newer sheet) is a deliberate replacement of it.
        check = check_sheet(table=table, entry=entry, names=names)
        renewed = entry.with_meta(meta.renewed(_current_version(table)))
        return page(entry=renewed, check=check, conflict=str(error), status=409)
    except ValidationError as error:
        check = check_sheet(table=table, entry=entry, names=names)
        if _only_sheet_errors(error) and check.messages:
            return page(entry=entry, check=check, refused=True)
        return page(entry=entry, check=check, errors=error.messages)
    return saved(version)


def _current_version(table: Table) -> int:
    result = selectors.table_result(table)
    return result.version if result is not None else 0


def _only_sheet_errors(error: ValidationError) -> bool:
    return hasattr(error, "error_dict") and set(error.error_dict) == {"sheet"}
