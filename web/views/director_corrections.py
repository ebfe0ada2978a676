"""The director's pages for a tournament's life and the corrections of its registrations:
finish (early only with a reason), reopen, delete an empty tournament; rename, merge and delete
a registration's player. Thin views over the tournaments services, as web/views/director.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.i18n import error_message
from tournaments import selectors, services
from tournaments.models import Registration, Tournament
from web.forms.director import EventNoteForm, MergeForm, RenameForm
from web.views.director import _registration, _tournament


def _add_service_error(form, error: ValidationError) -> None:
    """A service's refusal on the form: by field where it names one of the form's fields."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            target = field if field in form.fields else None
            form.add_error(target, [message for e in errors for message in e.messages])
    else:
        form.add_error(None, error.messages)


# --------------------------------------------------------------------------- finish
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """What is missing, and the reason asked for when something is; or a plain confirmation."""
    tournament = _tournament(request, pk)
    if tournament.status == Tournament.Status.FINISHED:
        messages.info(request, _("The tournament is finished already."))
        return redirect("director-tournament", tournament.pk)
    form = EventNoteForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.tournament_finish(
                    actor=request.user, tournament=tournament, note=form.cleaned_data["note"]
                )
            except ValidationError as error:
                _add_service_error(form, error)
            else:
                messages.success(request, _("The tournament is finished."))
                return redirect("director-tournament", tournament.pk)
        status = 400
    context = {
        "tournament": tournament,
        "form": form,
        "played": selectors.tournament_has_confirmed_results(tournament),
        "deletable": not selectors.tournament_play_recorded(tournament),
        "gaps": selectors.tournament_finish_gaps(tournament),
    }
    return render(request, "director/tournament_finish.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if tournament.status != Tournament.Status.FINISHED:
        messages.info(request, _("The tournament is not finished, so there is nothing to reopen."))
        return redirect("director-tournament", tournament.pk)
    form = EventNoteForm(request.POST if request.method == "POST" else None)
    form.fields["note"].required = True
    form.fields["note"].error_messages["required"] = _("Say why you reopen the tournament.")
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.tournament_reopen(
                    actor=request.user, tournament=tournament, note=form.cleaned_data["note"]
                )
            except ValidationError as error:
                _add_service_error(form, error)
            else:
                messages.success(
                    request,
                    _("The tournament is running again: players can sign in and enter results."),
                )
                return redirect("director-tournament", tournament.pk)
        status = 400
    return render(
        request,
        "director/tournament_reopen.html",
        {"tournament": tournament, "form": form},
        status=status,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """A confirmation page that names the tournament; deleting is refused once anything was
    played."""
    tournament = _tournament(request, pk)
    error = ""
    if request.method == "POST":
        try:
            name = services.tournament_delete(actor=request.user, tournament=tournament)
        except ValidationError as refusal:
            error = error_message(refusal)
        else:
            messages.success(request, _("The tournament %(name)s is deleted.") % {"name": name})
            return redirect("director-home")
    counts = selectors.registration_counts(tournament)
    context = {
        "tournament": tournament,
        "played": selectors.tournament_play_recorded(tournament),
        "registrations": counts["active"] + counts["withdrawn"],
        "rounds": tournament.rounds.count(),
        "error": error,
    }
    return render(request, "director/tournament_delete.html", context, status=400 if error else 200)


# --------------------------------------------------------------------------- registrations
def _correction_page(
    request: HttpRequest, registration: Registration, status: int = 200, **forms
) -> HttpResponse:
    player = registration.player
    context = {
        "tournament": registration.tournament,
        "registration": registration,
        "player": player,
        "other_tournaments": player.registrations.exclude(pk=registration.pk)
        .select_related("tournament")
        .order_by("-tournament__date"),
        "seated_rounds": selectors.registration_seated_rounds(registration),
        "rename_form": forms.get("rename_form") or RenameForm(initial={"name": player.name}),
        "merge_form": forms.get("merge_form") or MergeForm(player=player),
        "close": selectors.club_players_close_to(
            player.club_id, [player.name], exclude=[player.pk]
        ).get(player.name, []),
        "delete_error": forms.get("delete_error", ""),
    }
    return render(request, "director/registration_fix.html", context, status=status)


@login_required
@require_safe
def registration_fix(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a registration: the player's name, a duplicate player, a registration by mistake."""
    return _correction_page(request, _registration(request, pk))


@login_required
@require_POST
def registration_rename(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _registration(request, pk)
    form = RenameForm(request.POST)
    if form.is_valid():
        before = registration.player.name
        try:
            player = services.registration_player_rename(
                actor=request.user, registration=registration, name=form.cleaned_data["name"]
            )
        except ValidationError as error:
            _add_service_error(form, error)
        else:
            if player.name != before:
                messages.success(
                    request,
                    _("%(before)s is called %(after)s now, in every tournament of the club.")
                    % {"before": before, "after": player.name},
                )
            return redirect("director-registrations", registration.tournament_id)
    return _correction_page(request, registration, status=400, rename_form=form)


@login_required
@require_POST
def registration_merge(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _registration(request, pk)
    form = MergeForm(request.POST, player=registration.player)
    if form.is_valid():
        this, other = registration.player, form.cleaned_data["other"]
        keep_other = form.cleaned_data["keep"] == MergeForm.KEEP_OTHER
        kept, duplicate = (other, this) if keep_other else (this, other)
        try:
            services.players_merge(actor=request.user, kept=kept, duplicate=duplicate)
        except ValidationError as error:
            _add_service_error(form, error)
        else:
            messages.success(
                request,
                _(
                    "%(duplicate)s and %(kept)s are one player now, %(kept)s, with the "
                    "registrations and history of both."
                )
                % {"duplicate": duplicate.name, "kept": kept.name},
            )
            return redirect("director-registrations", registration.tournament_id)
    return _correction_page(request, registration, status=400, merge_form=form)


@login_required
@require_POST
def registration_delete(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _registration(request, pk)
    name = registration.player.name
    try:
        player_deleted = services.registration_delete(actor=request.user, registration=registration)
    except ValidationError as error:
        return _correction_page(
            request, registration, status=400, delete_error=error_message(error)
        )
    if player_deleted:
        message = _(
            "The registration of %(name)s is deleted, and so is the player, who had no other "
            "tournament."
        )
    else:
        message = _("The registration of %(name)s is deleted; the player stays in the club.")
    messages.success(request, message % {"name": name})
    return redirect("director-registrations", registration.tournament_id)
