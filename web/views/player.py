"""The player's pages: thin views over the scoring and tournaments services and selectors.

A player signs in with a password or a personal link, finds his table and seat on /me/, enters
the table's score sheet deal by deal (checked as he types by the same validation that judges the
submission), and confirms or disputes a sheet that a table-mate submitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.exceptions import Conflict
from core.i18n import error_message
from scoring import selectors, services
from scoring.models import ResultVersion
from scoring.selectors import TableRole
from tournaments import services as tournament_services
from tournaments.models import Table
from tournaments.selectors import player_of
from web.forms.sheet import (
    DEALS_PREFIX,
    OUTCOME_CHOICES,
    DisputeForm,
    SheetSubmitForm,
    TotalsForm,
    deal_rows_formset,
    initial_deal_rows,
)


# ----------------------------------------------------------------------------- signing in, /me/
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def personal_link(request: HttpRequest, token: str) -> HttpResponse:
    """A director's personal link: a page that signs the player in (on a POST from itself, so
    that no other site can sign a visitor in as somebody else) and goes on to /me/."""
    try:
        if request.method != "POST":
            registration = tournament_services.personal_link_registration(token=token)
            context = {"player": registration.player, "tournament": registration.tournament}
            return render(request, "player/link_sign_in.html", context)
        user = tournament_services.player_login_from_link(token=token)
    except ValidationError as error:
        return render(request, "player/link_invalid.html", {"errors": error.messages}, status=400)
    login(request, user, backend="core.login_limit.RateLimitedModelBackend")
    return redirect("player-home")


@login_required
@require_safe
def player_home(request: HttpRequest) -> HttpResponse:
    context = {
        "player": player_of(request.user),
        "entries": selectors.player_tables(request.user),
    }
    return render(request, "player/home.html", context)


# ----------------------------------------------------------------------------- the score sheet
@dataclass(frozen=True)
class DealCheck:
    """What the form shows under one deal: everyone's total after it and the rules it breaks."""

    index: int
    totals: list[tuple[str, int]] | None
    messages: list[str]


def _table_for(request: HttpRequest, table_id: int) -> tuple[Table, TableRole]:
    return selectors.table_for(request.user, table_id)


def _refused(request: HttpRequest, table: Table, reason: str = "") -> HttpResponse:
    context = {"table": table, "reason": reason}
    return render(request, "player/sheet_refused.html", context, status=403)


def _quick_allowed(table: Table) -> bool:
    return table.round.tournament.quick_results_allowed


def _first_rows(table: Table) -> int:
    tournament = table.round.tournament
    return tournament.fixed_deals or 1


def _deal_checks(check: services.SheetCheck | None, names: list[str], rows: int) -> list[DealCheck]:
    found = []
    for index in range(rows):
        totals = None
        messages_ = []
        if check is not None:
            if index < len(check.running_totals) and check.running_totals[index] is not None:
                totals = list(zip(names, check.running_totals[index], strict=True))
            messages_ = check.row_messages.get(index + 1, [])
        found.append(DealCheck(index=index, totals=totals, messages=messages_))
    return found


def _final_lines(check: services.SheetCheck | None, names: list[str]) -> list[dict[str, Any]]:
    """Each seat's total (and place, once the sheet is valid), for the summary under the form."""
    if check is None:
        return []
    if check.validated is not None:
        validated = check.validated
        return [
            {
                "seat": seat,
                "name": name,
                "total": validated.totals[seat],
                "place": validated.placements[seat],
                "winner": validated.winner == seat,
            }
            for seat, name in enumerate(names)
        ]
    known = [totals for totals in check.running_totals if totals is not None]
    if not known or len(known) != len(check.running_totals):
        return []
    return [
        {"seat": seat, "name": name, "total": known[-1][seat], "place": None, "winner": False}
        for seat, name in enumerate(names)
    ]


def _version_view(version: ResultVersion | None, names: list[str]) -> dict[str, Any] | None:
    """A stored version laid out for reading: its deals with running totals, totals and places."""
    if version is None:
        return None
    sheet = version.sheet
    running = selectors.sheet_running_totals(sheet, len(names))
    rows = [
        {
            "number": number,
            "row": row,
            "declarer": names[row["declarer"]] if 0 <= row["declarer"] < len(names) else "",
            "outcome_label": dict(OUTCOME_CHOICES).get(row["outcome"], row["outcome"]),
            "cells": list(zip(row["scores"], running[number - 1], strict=True)),
        }
        for number, row in enumerate(sheet.get("rows", []), start=1)
    ]
    finals = [
        {
            "seat": seat,
            "name": name,
            "total": version.totals[seat],
            "place": version.placements[seat],
            "winner": version.winner_position == seat,
        }
        for seat, name in enumerate(names)
    ]
    return {"version": version, "rows": rows, "finals": finals, "mode": sheet.get("mode")}


def _person(user: Any, source: str = "") -> str:
    """Who submitted or reviewed a version, as the table knows him."""
    if source == ResultVersion.Source.LIVE:
        return _("the live table")
    if user is None:
        return _("someone whose login was deleted")
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()


def _mode_from(value: str | None, table: Table) -> str:
    return "totals" if value == "totals" and _quick_allowed(table) else "deals"


def _render_sheet(
    request: HttpRequest,
    table: Table,
    role: TableRole,
    *,
    mode: str,
    formset=None,
    totals_form=None,
    check: services.SheetCheck | None = None,
    editing: bool = False,
    expected_version: int | None = None,
    errors: list[str] | None = None,
    conflict: str = "",
    dispute_form: DisputeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    seats = selectors.table_seats(table)
    names = [selectors.seat_name(seat) for seat in seats]
    result = selectors.table_result(table)
    latest = selectors.result_latest_version(table)
    user = request.user
    submitted_by_me = latest is not None and latest.submitted_by_id == user.pk
    state = "open"
    if latest is not None:
        state = {
            ResultVersion.Status.SUBMITTED: "waiting" if submitted_by_me else "review",
            ResultVersion.Status.CONFIRMED: "confirmed",
            ResultVersion.Status.DISPUTED: "disputed",
        }.get(latest.status, "open")
        if state == "waiting" and role.director:
            state = "review"  # a director may confirm his own entry
    posted = formset is not None or totals_form is not None
    show_form = (
        result is not None
        and role.may_submit
        and (posted or editing or state in ("open", "disputed"))
    )
    if show_form and not posted:
        # A correction starts from the sheet it corrects.
        stored = latest.sheet if latest is not None and state != "open" else None
        if mode == "totals":
            initial = {}
            if stored and stored.get("mode") == "totals":
                initial = {f"total_{seat}": total for seat, total in enumerate(stored["totals"])}
                initial["winner"] = stored.get("winner")
            totals_form = TotalsForm(initial=initial, seat_names=names)
        else:
            formset = deal_rows_formset(
                seat_names=names,
                initial=initial_deal_rows(
                    players=len(names), sheet=stored, rows=_first_rows(table)
                ),
            )
    forms_ = list(formset.forms) if formset is not None else []
    deal_checks = _deal_checks(check, names, len(forms_))
    context = {
        "table": table,
        "tournament": table.round.tournament,
        "round": table.round,
        "role": role,
        "seats": list(zip(seats, names, strict=True)),
        "result": result,
        "latest": _version_view(latest, names),
        "latest_by": _person(latest.submitted_by, latest.source) if latest is not None else "",
        "reviewed_by": _person(latest.reviewed_by) if latest is not None else "",
        "state": state,
        "show_form": show_form,
        "mode": mode,
        "quick_allowed": _quick_allowed(table),
        "formset": formset,
        "totals_form": totals_form,
        "check": check,
        "deal_rows": list(zip(forms_, deal_checks, strict=True)),
        "outcome_choices": OUTCOME_CHOICES,
        "final_lines": _final_lines(check, names),
        "expected_version": (
            expected_version
            if expected_version is not None
            else (result.version if result is not None else 0)
        ),
        "errors": errors or [],
        "conflict": conflict,
        "dispute_form": dispute_form or DisputeForm(),
        "deals_prefix": DEALS_PREFIX,
    }
    return render(request, "player/sheet.html", context, status=status)


def _posted_sheet(request: HttpRequest, table: Table) -> tuple[str, Any, Any, dict[str, Any]]:
    """(mode, formset or None, totals form or None, the sheet) from a posted score-sheet form."""
    names = [selectors.seat_name(seat) for seat in selectors.table_seats(table)]
    mode = _mode_from(request.POST.get("mode"), table)
    if mode == "totals":
        totals_form = TotalsForm(request.POST, seat_names=names)
        return mode, None, totals_form, totals_form.sheet()
    formset = deal_rows_formset(seat_names=names, data=request.POST)
    return mode, formset, None, formset.sheet()


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's score sheet: enter it, or read it and confirm or dispute a table-mate's."""
    table, role = _table_for(request, table_id)
    if not role.may_enter:
        return _refused(request, table)
    if request.method == "POST":
        return _submit(request, table, role)
    return _render_sheet(
        request,
        table,
        role,
        mode=_mode_from(request.GET.get("mode"), table),
        editing=request.GET.get("edit") == "1",
    )


def _submit(request: HttpRequest, table: Table, role: TableRole) -> HttpResponse:
    mode, formset, totals_form, sheet = _posted_sheet(request, table)
    meta = SheetSubmitForm(request.POST)
    page = {"mode": mode, "formset": formset, "totals_form": totals_form}
    if not meta.is_valid():
        errors = [_("The page was out of date. Check the sheet and submit it again.")]
        check = services.sheet_check(table=table, sheet=sheet)
        return _render_sheet(request, table, role, check=check, errors=errors, status=400, **page)
    try:
        version = services.result_submit(
            actor=request.user,
            table=table,
            sheet=sheet,
            expected_version=meta.cleaned_data["version"],
        )
    except PermissionDenied as error:
        return _refused(request, table, str(error))
    except Conflict as error:
        # The form keeps what this player typed and now carries the newer version, so that a
        # second submission (after reading the newer sheet shown above it) replaces it.
        check = services.sheet_check(table=table, sheet=sheet)
        current = selectors.table_result(table)
        return _render_sheet(
            request,
            table,
            role,
            check=check,
            conflict=str(error),
            expected_version=current.version if current is not None else 0,
            status=409,
            **page,
        )
    except ValidationError as error:
        check = services.sheet_check(table=table, sheet=sheet)
        errors = [] if check.messages and _only_sheet_errors(error) else error.messages
        return _render_sheet(request, table, role, check=check, errors=errors, **page)
    messages.success(
        request,
        _(
            "Your score sheet is saved as version %(number)d. "
            "Another player at the table must now confirm it."
        )
        % {"number": version.number},
    )
    return redirect("table-sheet", table_id=table.pk)


def _only_sheet_errors(error: ValidationError) -> bool:
    return hasattr(error, "error_dict") and set(error.error_dict) == {"sheet"}


@login_required
@require_POST
def table_sheet_check(request: HttpRequest, table_id: int) -> HttpResponse:
    """Check the sheet being typed: the running totals and the validator's messages.

    htmx gets a fragment (the summary, and each deal's line swapped in by id); without
    JavaScript the "Check" button gets the whole page back, with one more empty deal to fill in.
    """
    table, role = _table_for(request, table_id)
    if not role.may_enter:
        return _refused(request, table)
    mode, formset, totals_form, sheet = _posted_sheet(request, table)
    check = services.sheet_check(table=table, sheet=sheet)
    names = [selectors.seat_name(seat) for seat in selectors.table_seats(table)]
    if request.headers.get("HX-Request") == "true":
        rows = len(formset.forms) if formset is not None else 0
        context = {
            "check": check,
            "mode": mode,
            "deal_checks": _deal_checks(check, names, rows),
            "final_lines": _final_lines(check, names),
            "oob": True,
        }
        return render(request, "player/_sheet_check.html", context)
    if formset is not None and not check.valid:
        formset = deal_rows_formset(
            seat_names=names, data=_with_empty_deal(request.POST, len(names))
        )
    meta = SheetSubmitForm(request.POST)
    expected = meta.cleaned_data["version"] if meta.is_valid() else None
    return _render_sheet(
        request,
        table,
        role,
        mode=mode,
        formset=formset,
        totals_form=totals_form,
        check=check,
        expected_version=expected,
    )


def _with_empty_deal(data: Any, players: int) -> Any:
    """The posted form with one more deal at the end, its dealer filled in by rotation."""
    data = data.copy()
    try:
        count = int(data.get(f"{DEALS_PREFIX}-TOTAL_FORMS", "0"))
    except ValueError:
        return data
    last = count - 1
    keys = ("declarer", "bid", "contract", *(f"score_{seat}" for seat in range(players)))
    if count and not any(str(data.get(f"{DEALS_PREFIX}-{last}-{key}", "")).strip() for key in keys):
        return data  # the last deal is still empty
    data[f"{DEALS_PREFIX}-TOTAL_FORMS"] = str(count + 1)
    data[f"{DEALS_PREFIX}-{count}-dealer"] = str(count % players)
    data[f"{DEALS_PREFIX}-{count}-outcome"] = "made"
    return data


# ----------------------------------------------------------------------------- confirm, dispute
@login_required
@require_POST
def result_confirm(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table, role = _table_for(request, table_id)
    if not role.may_enter:
        return _refused(request, table)
    try:
        services.result_confirm(actor=request.user, table=table, version_number=number)
    except PermissionDenied as error:
        messages.error(request, str(error))
    except Conflict as error:
        messages.error(request, str(error))
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("You confirmed the result of table %(table)d. Thank you!") % {"table": table.number},
        )
    return redirect("table-sheet", table_id=table.pk)


@login_required
@require_POST
def result_dispute(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table, role = _table_for(request, table_id)
    if not role.may_enter:
        return _refused(request, table)
    form = DisputeForm(request.POST)
    mode = _mode_from(None, table)
    if not form.is_valid():
        return _render_sheet(request, table, role, mode=mode, dispute_form=form, status=400)
    try:
        services.result_dispute(
            actor=request.user, table=table, version_number=number, note=form.cleaned_data["note"]
        )
    except PermissionDenied as error:
        messages.error(request, str(error))
    except Conflict as error:
        messages.error(request, str(error))
    except ValidationError as error:
        if hasattr(error, "error_dict") and "note" in error.error_dict:
            form.add_error("note", error.error_dict["note"])
            return _render_sheet(request, table, role, mode=mode, dispute_form=form, status=400)
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _(
                "You disputed the result of table %(table)d. "
                "The director will look at it; a corrected sheet can be submitted meanwhile."
            )
            % {"table": table.number},
        )
    return redirect("table-sheet", table_id=table.pk)
