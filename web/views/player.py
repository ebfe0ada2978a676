"""The player's pages: thin views over the scoring and tournaments services and selectors.

A player signs in with a password or a personal link, finds his table and seat on /me/, enters
the table's score sheet deal by deal (checked as he types by the same validation that judges the
submission), and confirms or disputes a sheet that a table-mate submitted.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
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
from web.forms.sheet import OUTCOME_CHOICES, DisputeForm, SheetEntry, SheetSubmitForm, new_entry
from web.presenters.sheet import EntryCheck
from web.views import sheet as sheet_entry
from web.views.sheet import SheetPage, entry_context


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
def _refused(request: HttpRequest, table: Table, reason: str = "") -> HttpResponse:
    context = {"table": table, "reason": reason}
    return render(request, "player/sheet_refused.html", context, status=403)


def _quick_allowed(table: Table) -> bool:
    return table.round.tournament.quick_results_allowed


def _first_rows(table: Table) -> int:
    tournament = table.round.tournament
    return tournament.fixed_deals or 1


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
            "cells": list(
                zip(row["scores"], running[number - 1] or [None] * len(names), strict=True)
            ),
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
    entry: SheetEntry | None = None,
    check: EntryCheck | None = None,
    editing: bool = False,
    errors: list[str] | tuple[str, ...] = (),
    conflict: str = "",
    refused: bool = False,
    dispute_form: DisputeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    seats = selectors.table_seats(table)
    names = [seat.display_name for seat in seats]
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
    show_form = (
        result is not None
        and role.may_submit
        and (entry is not None or editing or state in ("open", "disputed"))
    )
    if show_form and entry is None:
        # A correction starts from the sheet it corrects.
        entry = new_entry(
            seat_names=names,
            mode=mode,
            sheet=latest.sheet if latest is not None and state != "open" else None,
            rows=_first_rows(table),
            meta_form=SheetSubmitForm,
            expected_version=result.version if result is not None else 0,
        )
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
        "mode": entry.mode if entry is not None else mode,
        "quick_allowed": _quick_allowed(table),
        "errors": list(errors),
        "conflict": conflict,
        "refused": refused,
        "dispute_form": dispute_form or DisputeForm(),
    }
    if entry is not None:
        context |= entry_context(
            entry=entry,
            check=check,
            names=names,
            action=reverse("table-sheet", args=[table.pk]),
            check_url=reverse("table-sheet-check", args=[table.pk]),
        )
    return render(request, "player/sheet.html", context, status=status)


def _sheet_page(request: HttpRequest, table: Table, role: TableRole) -> SheetPage:
    """The sheet page as an answer to a posted sheet (web/views/sheet.py)."""
    mode = _mode_from(request.POST.get("mode"), table)
    return partial(_render_sheet, request, table, role, mode=mode, editing=True)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's score sheet: enter it, or read it and confirm or dispute a table-mate's."""
    table, role = selectors.table_for(request.user, table_id)
    if not role.may_enter:
        return _refused(request, table)
    if request.method == "POST":
        try:
            return sheet_entry.answer_post(
                request,
                table=table,
                meta_form=SheetSubmitForm,
                page=_sheet_page(request, table, role),
                saved=partial(_submitted, request, table),
            )
        except PermissionDenied as error:
            return _refused(request, table, str(error))
    return _render_sheet(
        request,
        table,
        role,
        mode=_mode_from(request.GET.get("mode"), table),
        editing=request.GET.get("edit") == "1",
    )


def _submitted(request: HttpRequest, table: Table, version: ResultVersion) -> HttpResponse:
    messages.success(
        request,
        _(
            "Your score sheet is saved as version %(number)d. "
            "Another player at the table must now confirm it."
        )
        % {"number": version.number},
    )
    return redirect("table-sheet", table_id=table.pk)


@login_required
@require_POST
def table_sheet_check(request: HttpRequest, table_id: int) -> HttpResponse:
    """Check the sheet being typed: the running totals and what to fix (web/views/sheet.py).

    htmx gets a fragment (the summary, and each deal's line swapped in by id); without
    JavaScript the "Check" button gets the whole page back, with one more empty deal to fill in.
    """
    table, role = selectors.table_for(request.user, table_id)
    if not role.may_enter:
        return _refused(request, table)
    return sheet_entry.answer_check(
        request, table=table, meta_form=SheetSubmitForm, page=_sheet_page(request, table, role)
    )


# ----------------------------------------------------------------------------- confirm, dispute
@login_required
@require_POST
def result_confirm(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table, role = selectors.table_for(request.user, table_id)
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
    table, role = selectors.table_for(request.user, table_id)
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
