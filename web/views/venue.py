"""The venue's pages during a round: the round clock's controls, the roll call, the results
board (the director's) and the find-your-seat list (public, to print and for the wall screen).

Thin views over the draws and tournaments services and selectors, as web/views/director.py and
web/views/public.py are: the director's pages need a director of the tournament's club, the
seat list whoever may see the tournament's public pages.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from core.i18n import error_message
from draws import services as draw_services
from tournaments import selectors, services
from tournaments.models import Round
from web.forms.venue import ClockForm, PresenceForm
from web.presenters import venue as presenters
from web.presenters.rounds import round_tables
from web.presenters.tournament_header import tournament_context
from web.views import director
from web.views.public import _visible_tournament

# --------------------------------------------------------------------------- the round clock
_CLOCK_DONE = {
    "start": lambda n: _("The clock of round %(n)d is started.") % {"n": n},
    "pause": lambda n: _("The clock of round %(n)d is paused.") % {"n": n},
    "resume": lambda n: _("The clock of round %(n)d runs again.") % {"n": n},
    "extend": lambda n: _("The clock of round %(n)d is extended.") % {"n": n},
    "reset": lambda n: _("The clock of round %(n)d is reset.") % {"n": n},
}


@login_required
@require_POST
def round_clock(request: HttpRequest, pk: int) -> HttpResponse:
    """One of the clock's buttons on the round page: start, pause, resume, extend or reset."""
    round_ = director._round(request, pk)
    form = ClockForm(request.POST)
    if not form.is_valid():
        for problems in form.errors.values():
            for problem in problems:
                messages.error(request, problem)
        return director._round_page(request, round_, status=400)
    action, minutes = form.cleaned_data["action"], form.cleaned_data.get("minutes")
    try:
        if action == "start":
            draw_services.round_clock_start(actor=request.user, round_=round_, minutes=minutes)
        elif action == "pause":
            draw_services.round_clock_pause(actor=request.user, round_=round_)
        elif action == "resume":
            draw_services.round_clock_resume(actor=request.user, round_=round_)
        elif action == "extend":
            draw_services.round_clock_extend(actor=request.user, round_=round_, minutes=minutes)
        else:
            draw_services.round_clock_reset(actor=request.user, round_=round_)
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _CLOCK_DONE[action](round_.number))
    return redirect(reverse("director-round", args=[round_.pk]) + "#clock")


# --------------------------------------------------------------------------- roll call
def _roll_call_page(request: HttpRequest, tournament, status: int = 200) -> HttpResponse:
    registrations = presenters.roll_call(tournament)
    latest = selectors.latest_round(tournament)
    context = {
        "tournament": tournament,
        "registrations": registrations,
        "present_count": sum(1 for r in registrations if r.present),
        "absent_count": sum(1 for r in registrations if not r.present),
        "latest": latest,
        "finished": tournament.status == tournament.Status.FINISHED,
    }
    return render(request, "director/roll_call.html", context, status=status)


@login_required
@require_safe
def roll_call(request: HttpRequest, pk: int) -> HttpResponse:
    return _roll_call_page(request, director._tournament(request, pk))


def _draft_warning(request: HttpRequest, tournament) -> None:
    latest = selectors.latest_round(tournament)
    if latest is not None and latest.status == Round.Status.DRAFT:
        messages.warning(
            request,
            _("Round %(n)d is drawn already: draw it again so that it seats who is present.")
            % {"n": latest.number},
        )


@login_required
@require_POST
def registration_presence(request: HttpRequest, pk: int) -> HttpResponse:
    registration = director._registration(request, pk)
    tournament = registration.tournament
    form = PresenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["present"]))
        return _roll_call_page(request, director._tournament(request, tournament.pk), status=400)
    try:
        registration = services.registration_presence_set(
            actor=request.user, registration=registration, present=form.cleaned_data["present"]
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        name = registration.player.name
        if registration.present:
            messages.success(request, _("%(name)s is present.") % {"name": name})
        else:
            messages.success(
                request,
                _("%(name)s is absent and sits out the rounds drawn until marked present.")
                % {"name": name},
            )
        _draft_warning(request, tournament)
    return redirect(reverse("director-roll-call", args=[tournament.pk]) + f"#r{registration.pk}")


@login_required
@require_POST
def roll_call_all_present(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director._tournament(request, pk)
    try:
        marked = services.registrations_all_present(actor=request.user, tournament=tournament)
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        if marked:
            messages.success(
                request,
                ngettext(
                    "Everyone is present: %(n)d player was marked present.",
                    "Everyone is present: %(n)d players were marked present.",
                    marked,
                )
                % {"n": marked},
            )
            _draft_warning(request, tournament)
        else:
            messages.info(request, _("Everyone was present already."))
    return redirect("director-roll-call", tournament.pk)


# --------------------------------------------------------------------------- results board
@login_required
@require_safe
def results_board(request: HttpRequest, pk: int) -> HttpResponse:
    """The round's tables by what their result waits for, each a click from its result page.
    The page reloads its board every few seconds (htmx asks with HX-Request: the board alone)."""
    round_ = director._round(request, pk)
    rows = round_tables(round_)
    context = {
        "round": round_,
        "tournament": round_.tournament,
        "groups": presenters.results_board(rows),
        "table_count": len(rows),
    }
    if request.headers.get("HX-Request"):
        return render(request, "director/_results_board.html", context)
    return render(request, "director/results_board.html", context)


# --------------------------------------------------------------------------- seat list
@require_safe
def seat_list(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Find your seat: every player of the current round alphabetically with table and seat,
    to post up at the door (its print layout is one long list)."""
    tournament = _visible_tournament(request, tournament_id)
    round_ = selectors.latest_round_public(tournament)
    if round_ is not None and round_.status != Round.Status.PUBLISHED:
        round_ = None  # a finished round's seats are history; the list waits for the next draw
    context = tournament_context(
        tournament,
        round=round_,
        lines=presenters.seat_list(round_) if round_ is not None else [],
    )
    return render(request, "public/seat_list.html", context)
