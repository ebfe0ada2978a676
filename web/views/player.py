"""The player's pages: thin views over the scoring and tournaments services and selectors.

A player gets in without a password: the QR code on his table's card opens "which seat is
yours?", where the code on his player card (or his card's personal link, or the director) signs
his phone in; the home page's "For players" takes the code alone. He finds his table and seat on
/me/, enters the table's score sheet deal by deal (checked as he types by the same validation
that judges the submission), and confirms or disputes a sheet that a table-mate submitted. /me/
and the sheet page poll a status key every few seconds and redraw their live part when it
changes (204 while it does not).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.exceptions import Conflict
from core.i18n import error_message
from core.login_limit import SignInRefused, limit
from scoring import selectors, services
from scoring.models import ResultVersion
from scoring.selectors import TableRole
from seasons import selectors as season_selectors
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Registration, Seat, Table
from tournaments.selectors import player_of
from web.forms.player import EntryCodeForm, SeatCodeForm
from web.forms.sheet import OUTCOME_CHOICES, DisputeForm, SheetEntry, SheetSubmitForm, new_entry
from web.presenters.sheet import EntryCheck
from web.views import sheet as sheet_entry
from web.views.sheet import SheetPage, entry_context

# The login backend a player's phone is signed in with (a link, a code, a director's hand-over).
BACKEND = "core.login_limit.RateLimitedModelBackend"
# How often /me/ and the sheet page ask for news, in seconds.
POLL_SECONDS = 3


def _player_sign_in(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Like login_required, but a visitor goes to the players' way in (the code from his
    player card), never to the password form."""
    return login_required(view, login_url="player-enter")


def _table_sign_in(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A visitor who opens a table's page (its QR code) is asked which seat is his."""

    @wraps(view)
    def wrapped(request: HttpRequest, table_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect("table-seat", table_id=table_id)
        return view(request, table_id, *args, **kwargs)

    return wrapped


def _address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "")


def _signed_in_as(request: HttpRequest, registration: Registration) -> None:
    messages.success(
        request,
        _("This phone is signed in as %(name)s for %(tournament)s.")
        % {"name": registration.player.name, "tournament": registration.tournament.name},
    )


def _too_many(response: HttpResponse) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(limit()["window"])
    return response


# ----------------------------------------------------------------------------- getting in
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def player_enter(request: HttpRequest) -> HttpResponse:
    """The players' way in from the home page: the code printed on the player card."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        wanted = ""
    form = EntryCodeForm(request.POST if request.method == "POST" else None)
    context = {"form": form, "next": wanted, "player": player_of(request.user)}
    if request.method != "POST":
        return render(request, "player/enter.html", context)
    if form.is_valid():
        try:
            user, registration = tournament_services.player_login_from_code(
                code=form.cleaned_data["code"], address=_address(request)
            )
        except SignInRefused as refusal:
            form.add_error(None, str(refusal))
            return _too_many(render(request, "player/enter.html", context))
        except ValidationError as error:
            _form_errors(form, error)
        else:
            login(request, user, backend=BACKEND)
            _signed_in_as(request, registration)
            return redirect(wanted or "player-home")
    return render(request, "player/enter.html", context, status=400)


def _form_errors(form: EntryCodeForm, error: ValidationError) -> None:
    if hasattr(error, "error_dict") and "code" in error.error_dict:
        form.add_error("code", error.error_dict["code"])
    else:
        form.add_error(None, error_message(error))


def _seat_choices(seats: list[Seat], names_shown: bool) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "name": seat.display_name if names_shown or seat.is_bot else "",
            "choosable": not seat.is_bot,
        }
        for seat in seats
    ]


def _seat_table(request: HttpRequest, table_id: int) -> Table:
    table = tournament_selectors.table_for_seat_choice(request.user, table_id)
    if table is None:
        raise Http404
    return table


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def table_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    """The "which seat is yours?" page the table card's QR code opens for a phone that is not
    signed in as a player of the table. The player picks his seat and types the code of his
    player card; a phone already signed in as one goes on to the sheet (?switch=1 stays here, to
    hand the phone to a table-mate)."""
    table = _seat_table(request, table_id)
    tournament = table.round.tournament
    user = request.user
    seats = selectors.table_seats(table)
    mine = next(
        (s for s in seats if user.is_authenticated and s.registration_id and _sits(user, s)),
        None,
    )
    director = tournament_selectors.is_director(user, tournament.club_id)
    staying = request.method == "POST" or request.GET.get("switch") == "1"
    if not staying and (mine is not None or director):
        return redirect("table-sheet", table_id=table.pk)
    names_shown = tournament_selectors.seat_names_shown(user, table)
    choosable = [seat.position for seat in seats if not seat.is_bot]
    form = SeatCodeForm(request.POST if request.method == "POST" else None, positions=choosable)
    if request.method == "GET" and request.GET.get("seat", "").isdigit():
        form.initial["seat"] = int(request.GET["seat"])
    context = {
        "table": table,
        "tournament": tournament,
        "round": table.round,
        "names_shown": names_shown,
        "choices": _seat_choices(seats, names_shown),
        "form": form,
        "director": director,
        "mine": mine,
        # Signed in as a player of another table of the round: the QR code of the wrong table?
        "elsewhere": _seat_elsewhere(user, table) if mine is None else None,
        "finished": tournament.status == tournament.Status.FINISHED,
    }
    if request.method != "POST":
        return render(request, "player/seat.html", context)
    if form.is_valid():
        seat = next(s for s in seats if s.position == form.cleaned_data["seat"])
        try:
            user, registration = tournament_services.player_login_from_code(
                code=form.cleaned_data["code"],
                address=_address(request),
                registration=seat.registration,
            )
        except SignInRefused as refusal:
            form.add_error(None, str(refusal))
            return _too_many(render(request, "player/seat.html", context))
        except ValidationError as error:
            _form_errors(form, error)
        else:
            login(request, user, backend=BACKEND)
            _signed_in_as(request, registration)
            return redirect("table-sheet", table_id=table.pk)
    return render(request, "player/seat.html", context, status=400)


def _seat_elsewhere(user: Any, table: Table) -> Seat | None:
    seat = tournament_selectors.player_seat_now(user, table.round.tournament_id)
    if seat is None or seat.table.round_id != table.round_id or seat.table_id == table.pk:
        return None
    return seat


def _sits(user: Any, seat: Seat) -> bool:
    player = seat.registration.player
    return player.user_id is not None and player.user_id == user.pk


@require_POST
def table_seat_hand_over(request: HttpRequest, table_id: int, position: int) -> HttpResponse:
    """A director signed in on a player's phone signs it in as the player of a seat (the player
    lost his card); the director is signed out of that phone."""
    if not request.user.is_authenticated:
        return redirect("table-seat", table_id=table_id)
    table = _seat_table(request, table_id)
    seat = next((s for s in selectors.table_seats(table) if s.position == position), None)
    if seat is None or seat.is_bot:
        raise Http404
    try:
        user = tournament_services.player_login_by_director(
            actor=request.user, registration=seat.registration
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
        return redirect(f"{reverse('table-seat', args=[table.pk])}?switch=1")
    login(request, user, backend=BACKEND)
    _signed_in_as(request, seat.registration)
    return redirect("table-sheet", table_id=table.pk)


# ----------------------------------------------------------------------------- links, /me/
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
    login(request, user, backend=BACKEND)
    return redirect("player-home")


def _home_live_context(request: HttpRequest) -> dict[str, Any]:
    return {
        "player": player_of(request.user),
        "entries": selectors.player_tables(request.user),
        "live_key": tournament_selectors.player_status_key(request.user),
        "poll_seconds": POLL_SECONDS,
    }


@_player_sign_in
@require_safe
def player_home(request: HttpRequest) -> HttpResponse:
    context = _home_live_context(request)
    player = context["player"]
    # His history across tournaments, rating and seasons: the public profile, once he has one.
    context["profile_public"] = player is not None and season_selectors.player_is_public(player)
    return render(request, "player/home.html", context)


@never_cache
@require_safe
def player_status(request: HttpRequest) -> HttpResponse:
    """/me/'s live part again, or 204 while the key the page shows (?v=) is still current."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    if request.GET.get("v") == tournament_selectors.player_status_key(request.user):
        return HttpResponse(status=204)
    return render(request, "player/_home_live.html", _home_live_context(request))


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
    return tournament_selectors.user_display_name(user)


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
    live = _sheet_live_context(request, table, role, dispute_form=dispute_form)
    names, result, latest, state = (
        live["names"],
        live["result"],
        live["latest_version"],
        live["state"],
    )
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
    context = live | {
        "show_form": show_form,
        "mode": entry.mode if entry is not None else mode,
        "quick_allowed": _quick_allowed(table),
        "errors": list(errors),
        "conflict": conflict,
        "refused": refused,
    }
    if entry is not None:
        context |= entry_context(
            table=table,
            entry=entry,
            check=check,
            names=names,
            action=reverse("table-sheet", args=[table.pk]),
            check_url=reverse("table-sheet-check", args=[table.pk]),
        )
    return render(request, "player/sheet.html", context, status=status)


def _sheet_live_context(
    request: HttpRequest,
    table: Table,
    role: TableRole,
    *,
    dispute_form: DisputeForm | None = None,
) -> dict[str, Any]:
    """What the sheet page's live part (player/_sheet_live.html) shows: the latest version and
    what it waits for, and the user's seat in a newer round once one is drawn."""
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
    now = tournament_selectors.player_seat_now(user, table.round.tournament_id)
    newer = now if now is not None and now.table.round.number > table.round.number else None
    return {
        "table": table,
        "tournament": table.round.tournament,
        "round": table.round,
        "role": role,
        "names": names,
        "seats": list(zip(seats, names, strict=True)),
        "result": result,
        "latest_version": latest,
        "latest": _version_view(latest, names),
        "latest_by": _person(latest.submitted_by, latest.source) if latest is not None else "",
        "reviewed_by": _person(latest.reviewed_by) if latest is not None else "",
        "state": state,
        "dispute_form": dispute_form or DisputeForm(),
        "newer_seat": newer,
        "live_key": _sheet_live_key(user, table),
        "poll_seconds": POLL_SECONDS,
    }


def _sheet_live_key(user: Any, table: Table) -> str:
    """The key of the sheet page's live part: the table's state and the table's draft version,
    so that a deal saved on a table-mate's phone reaches a page that is open."""
    draft = selectors.sheet_draft(table)
    version = draft.version if draft is not None else 0
    return f"{tournament_selectors.table_status_key(user, table)}.{version}"


def _draft_newer(table: Table, seen: str | None) -> dict[str, Any] | None:
    """The draft saved since the page's own (`seen`: the draft version its form holds, which
    player.js sends), as the notice tells it; None when the page holds the latest or did not
    say which it holds."""
    if seen is None or not seen.isdigit() or len(seen) > 10:
        return None
    draft = selectors.sheet_draft(table)
    if draft is None or draft.version <= int(seen):
        return None
    rows = draft.rows if isinstance(draft.rows, list) else []
    return {"deals": len(rows), "by": sheet_entry.draft_saved_by(draft)}


@never_cache
@require_safe
def table_sheet_status(request: HttpRequest, table_id: int) -> HttpResponse:
    """The sheet page's live part again, or 204 while the key the page shows (?v=) is current.

    ?form=1 says that the page holds the sheet form, so the part offers no link to one."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    table, role = selectors.table_for(request.user, table_id)
    if not role.may_enter:
        return HttpResponse(status=403)
    if request.GET.get("v") == _sheet_live_key(request.user, table):
        return HttpResponse(status=204)
    context = _sheet_live_context(request, table, role)
    show_form = request.GET.get("form") == "1"
    context |= {"show_form": show_form, "mode": _mode_from(None, table)}
    if show_form:
        context["draft_newer"] = _draft_newer(table, request.GET.get("draft"))
    return render(request, "player/_sheet_live.html", context)


def _sheet_page(request: HttpRequest, table: Table, role: TableRole) -> SheetPage:
    """The sheet page as an answer to a posted sheet (web/views/sheet.py)."""
    mode = _mode_from(request.POST.get("mode"), table)
    return partial(_render_sheet, request, table, role, mode=mode, editing=True)


@_table_sign_in
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


@_table_sign_in
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
@_table_sign_in
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


@_table_sign_in
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
