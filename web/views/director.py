"""The director's pages: thin views over the tournaments and scoring services and selectors.

Every view needs a signed-in director of the tournament's club (the selectors decide who that is;
anyone else gets 403), and every change goes through a service, which checks the permission again
and judges the input; its messages are shown to the director as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from archive import exporter as archive_exporter
from archive import importer as archive_importer
from archive.importer import ARCHIVE_MAX_BYTES
from core.exceptions import Conflict
from core.i18n import error_message
from draws import progress as draw_progress
from draws import selectors as draw_selectors
from draws import services as draw_services
from gameplay import services as gameplay_services
from gameplay.models import LiveGame
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from seasons import selectors as season_selectors
from seasons import services as season_services
from tournaments import selectors, services
from tournaments.models import BotLevel, Club, Player, Registration, Round, Table, Tournament
from tournaments.names import person_name as person_name_typed
from web.forms.director import (
    CsvForm,
    DirectorForm,
    NamesForm,
    PlayerNameForm,
    PlayerPickForm,
    SeedForm,
    SwapForm,
    TournamentForm,
    VersionForm,
)
from web.forms.sheet import DirectorSheetSubmitForm, SheetEntry, new_entry
from web.presenters import printing
from web.presenters.draw_outlook import draw_progress_text
from web.presenters.rounds import round_tables
from web.presenters.seasons import rating_text
from web.presenters.sheet import EntryCheck
from web.public_address import absolute_url
from web.views import sheet as sheet_entry
from web.views.sheet import entry_context


# --------------------------------------------------------------------------- access
def _deny() -> PermissionDenied:
    return PermissionDenied(_("Only a director of this club may do this."))


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not selectors.is_director(request.user, tournament.club_id):
        raise _deny()
    return tournament


def _round(request: HttpRequest, pk: int) -> Round:
    round_ = get_object_or_404(Round.objects.select_related("tournament__club"), pk=pk)
    if not selectors.is_director(request.user, round_.tournament.club_id):
        raise _deny()
    return round_


def _table(request: HttpRequest, pk: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("round__tournament__club"), pk=pk)
    if not selectors.is_director(request.user, table.round.tournament.club_id):
        raise _deny()
    return table


def _registration(request: HttpRequest, pk: int) -> Registration:
    registration = get_object_or_404(
        Registration.objects.select_related("tournament", "player"), pk=pk
    )
    if not selectors.is_director(request.user, registration.tournament.club_id):
        raise _deny()
    return registration


def _directed_clubs(request: HttpRequest):
    """The clubs the user directs, by name; refused if there are none."""
    clubs = Club.objects.filter(pk__in=selectors.directed_club_ids(request.user)).order_by("name")
    if not clubs:
        raise _deny()
    return clubs


# --------------------------------------------------------------------------- tournaments
@login_required
@require_safe
def home(request: HttpRequest) -> HttpResponse:
    clubs = _directed_clubs(request)
    tournaments = selectors.tournaments_directed_by(request.user).annotate(
        players=Count("registrations", filter=Q(registrations__status="active"), distinct=True),
        rounds_drawn=Count("rounds", distinct=True),
    )
    import_form = ArchiveUploadForm(clubs=clubs)
    return render(
        request, "director/home.html", {"tournaments": tournaments, "import_form": import_form}
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    clubs = _directed_clubs(request)
    form = TournamentForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                tournament = services.tournament_create(
                    actor=request.user, club=form.cleaned_data["club"], **form.options()
                )
                if form.cleaned_data.get("season") is not None:
                    season_services.tournament_season_set(
                        actor=request.user,
                        tournament=tournament,
                        season=form.cleaned_data["season"],
                    )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(
                request,
                _("The tournament %(name)s is created. Now register the players.")
                % {"name": tournament.name},
            )
            return redirect("director-registrations", tournament.pk)
    return render(
        request,
        "director/tournament_form.html",
        {"form": form, "tournament": None},
        status=_refused_status(request),
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = TournamentForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                services.tournament_update(
                    actor=request.user, tournament=tournament, **form.changes()
                )
                season = form.cleaned_data.get("season")
                if (season.pk if season else None) != tournament.season_id:
                    season_services.tournament_season_set(
                        actor=request.user, tournament=tournament, season=season
                    )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("director-tournament", tournament.pk)
    return render(
        request,
        "director/tournament_form.html",
        {"form": form, "tournament": tournament},
        status=_refused_status(request),
    )


def _refused_status(request: HttpRequest) -> int:
    """A form page shown again after a POST was refused is a 400, as bad input is everywhere."""
    return 400 if request.method == "POST" else 200


@login_required
@require_safe
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rounds = draw_selectors.rounds_with_result_counts(tournament)
    latest = selectors.latest_round(tournament)
    counts = selectors.registration_counts(tournament)
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "latest": latest,
        "counts": counts,
        "seed_form": SeedForm(),
        "can_draw": not draw_selectors.draw_refusal(tournament),
        "next_number": latest.number + 1 if latest else 1,
        # Finish, reopen and delete are web/views/director_corrections.py's pages.
        "deletable": not selectors.tournament_play_recorded(tournament),
        "events": list(selectors.tournament_events(tournament)[:100]),
    }
    for event in context["events"]:
        event.actor_name = selectors.user_display_name(event.actor, tournament.club_id)
    return render(request, "director/tournament.html", context)


# --------------------------------------------------------------------------- registrations
def _registrations_page(request, tournament, status=200, **forms) -> HttpResponse:
    registrations = list(tournament.registrations.select_related("player").order_by("start_number"))
    registered = [registration.player_id for registration in registrations]
    # Each player's club rating beside his name (the standings seat draw seeds round 1 by it).
    ratings = season_selectors.ratings_of(registered)
    for registration in registrations:
        rating = ratings.get(registration.player_id)
        registration.rating_text = rating_text(rating.mu, rating.sigma) if rating else ""
    context = {
        "tournament": tournament,
        "registrations": registrations,
        "club_players": Player.objects.filter(club_id=tournament.club_id)
        .exclude(pk__in=registered)
        .order_by("name"),
        "latest": selectors.latest_round(tournament),
        # A refused form says why itself; the notice would say it a second time.
        "refused": any(form.errors for form in forms.values()),
        "one_form": forms.get("one_form") or PlayerNameForm(),
        "names_form": forms.get("names_form") or NamesForm(),
        "csv_form": forms.get("csv_form") or CsvForm(),
    }
    return render(request, "director/registrations.html", context, status=status)


@login_required
@require_safe
def registrations(request: HttpRequest, pk: int) -> HttpResponse:
    return _registrations_page(request, _tournament(request, pk))


def _register_names(request, tournament, form, form_name: str) -> HttpResponse:
    """Register the lines of a valid names form, or show the form again with the problems."""
    if form.is_valid():
        # Looked up before the new players exist: once registered, a typo is a club player too.
        close = selectors.club_players_close_to(
            tournament.club_id, [person_name_typed(line) for line in form.lines()]
        )
        try:
            created = services.registration_create_from_names(
                actor=request.user, tournament=tournament, names=form.lines()
            )
        except ValidationError as error:
            # A list of one name gets the message about its one field ("name") unnumbered.
            form.add_error(None, error.messages)
        else:
            _close_names_warning(request, created, close)
            if len(created) == 1:
                messages.success(request, _registered_message(created[0]))
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player is registered.",
                        "%(count)d players are registered.",
                        len(created),
                    )
                    % {"count": len(created)},
                )
            return redirect("director-registrations", tournament.pk)
    return _registrations_refused(request, tournament, **{form_name: form})


def _registrations_refused(request, tournament, **forms) -> HttpResponse:
    """The page again with the form that was refused and its problems, as a 400."""
    response = _registrations_page(request, tournament, **forms)
    response.status_code = 400
    return response


def _close_names_warning(request, created: list[Registration], close) -> None:
    """A list is registered whole (a director pasting the evening's list wants it in, not held
    up by one typo); the new players whose names are close to club players' are named after
    it, to merge on their registration's page if they are one person."""
    lines = [
        _("%(name)s (like %(known)s)")
        % {"name": registration.player.name, "known": ", ".join(p.name for p in close[name])}
        for registration in created
        if (name := registration.player.name) in close
    ]
    if lines:
        messages.warning(
            request,
            ngettext(
                "Check this new player: the name is close to a club player's: %(names)s. "
                "If it is the same person, open Correct on its row and merge the two.",
                "Check these new players: their names are close to club players': %(names)s. "
                "If one is the same person, open Correct on its row and merge the two.",
                len(lines),
            )
            % {"names": "; ".join(lines)},
        )


@login_required
@require_POST
def registration_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Register one player by name; a new name close to club players' names first asks
    whether it is one of them ("did you mean"), and the director picks him or confirms."""
    tournament = _tournament(request, pk)
    if "player" in request.POST:
        return _registration_add_picked(request, tournament)
    form = PlayerNameForm(request.POST)
    if form.is_valid() and not form.cleaned_data["new_name_confirmed"]:
        typed = person_name_typed(form.cleaned_data["name"])
        close = selectors.club_players_close_to(tournament.club_id, [typed]).get(typed)
        if close:
            registered = dict(
                tournament.registrations.filter(player__in=close).values_list(
                    "player_id", "start_number"
                )
            )
            context = {
                "tournament": tournament,
                "typed": typed,
                "close": [(player, registered.get(player.pk)) for player in close],
            }
            return render(request, "director/registration_close_names.html", context)
    if form.is_valid():
        # One name is a list of one line: the same rules find or create the player.
        try:
            (registration,) = services.registration_create_from_names(
                actor=request.user, tournament=tournament, names=[form.cleaned_data["name"]]
            )
        except ValidationError as error:
            form.add_error("name", error.messages)
        else:
            messages.success(request, _registered_message(registration))
            return redirect("director-registrations", tournament.pk)
    return _registrations_refused(request, tournament, one_form=form)


def _registration_add_picked(request, tournament: Tournament) -> HttpResponse:
    """Register the club player picked among the close names."""
    pick = PlayerPickForm(request.POST, club_id=tournament.club_id)
    if pick.is_valid():
        try:
            registration = services.registration_create(
                actor=request.user, tournament=tournament, player=pick.cleaned_data["player"]
            )
        except ValidationError as error:
            messages.error(request, error_message(error))
        else:
            messages.success(request, _registered_message(registration))
            return redirect("director-registrations", tournament.pk)
    else:
        messages.error(request, _("Choose the player again: this one is not a player of the club."))
    return _registrations_refused(request, tournament)


def _registered_message(registration: Registration) -> str:
    values = {
        "name": registration.player.name,
        "number": registration.start_number,
        "round": registration.first_round,
    }
    if registration.first_round > 1:
        return (
            _("%(name)s is registered with start number %(number)d and plays from round %(round)d.")
            % values
        )
    return _("%(name)s is registered with start number %(number)d.") % values


@login_required
@require_POST
def registration_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    return _register_names(request, tournament, NamesForm(request.POST), "names_form")


@login_required
@require_POST
def registration_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    return _register_names(request, tournament, CsvForm(request.POST, request.FILES), "csv_form")


@login_required
@require_safe
def player_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Printable cards with each player's personal link, which signs him in without a password."""
    tournament = _tournament(request, pk)
    cards = []
    registrations = tournament.registrations.filter(status=Registration.Status.ACTIVE)
    only = request.GET.get("registration", "")
    if only:  # the one card of a new link
        registrations = registrations.filter(
            pk=int(only) if only.isascii() and only.isdigit() else 0
        )
    for registration in registrations.select_related("player"):
        url = absolute_url(request, selectors.player_personal_link(registration))
        title = _("Personal link of %(name)s") % {"name": registration.player.name}
        cards.append({"registration": registration, "url": url, "qr": _qr_svg(url, title)})
    return render(request, "director/player_cards.html", {"tournament": tournament, "cards": cards})


@login_required
@require_POST
def registration_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _registration(request, pk)
    try:
        registration = services.registration_withdraw(actor=request.user, registration=registration)
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("%(name)s is withdrawn and plays no further rounds.")
            % {"name": registration.player.name},
        )
    return redirect("director-registrations", registration.tournament_id)


@login_required
@require_POST
def registration_new_link(request: HttpRequest, pk: int) -> HttpResponse:
    """A new personal link for a player whose card was lost: the old one stops signing in."""
    registration = _registration(request, pk)
    registration = services.personal_link_renew(actor=request.user, registration=registration)
    messages.success(
        request,
        _("%(name)s has a new personal link; the old card no longer signs in. Print this one.")
        % {"name": registration.player.name},
    )
    user = registration.player.user
    if user is not None and user.has_usable_password():
        messages.warning(
            request,
            _(
                "%(name)s has a password of his own: the phones signed in as this player stay "
                "signed in until the password is changed."
            )
            % {"name": registration.player.name},
        )
    cards = reverse("director-player-cards", args=[registration.tournament_id])
    return redirect(f"{cards}?registration={registration.pk}")


@login_required
@require_POST
def registration_rejoin(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _registration(request, pk)
    try:
        services.registration_create(
            actor=request.user, tournament=registration.tournament, player=registration.player
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("%(name)s is back and plays from the next round.")
            % {"name": registration.player.name},
        )
    return redirect("director-registrations", registration.tournament_id)


# --------------------------------------------------------------------------- rounds
@login_required
@require_POST
def round_draw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    form = SeedForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors.get("seed", [])))
        return redirect("director-tournament", tournament.pk)
    try:
        round_ = draw_services.round_draw(
            actor=request.user, tournament=tournament, seed=form.cleaned_data["seed"]
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
        return redirect("director-tournament", tournament.pk)
    messages.success(
        request,
        _("Round %(n)d is drawn.") % {"n": round_.number},
    )
    return redirect("director-round", round_.pk)


@login_required
@require_safe
def round_draw_progress(request: HttpRequest, pk: int) -> JsonResponse:
    """How far the draw running for the tournament has come, asked by the draw panel while its
    draw request waits (director.js): a share in percent and a line to show, or nulls when no
    search runs (a small field's draw needs none)."""
    tournament = _tournament(request, pk)
    found = draw_progress.current(tournament.pk)
    if found is None:
        return JsonResponse({"percent": None, "text": None})
    return JsonResponse({"percent": int(found.share * 100), "text": draw_progress_text(found)})


def _result_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(TableResult.Status.values, 0)
    for row in rows:
        if row["result"] is not None:
            counts[row["result"].status] += 1
    return counts


def _with_play_urls(request: HttpRequest, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows, each table with a bot given the lasting address of its live table."""
    for row in rows:
        if row["has_bot"]:
            row["play_url"] = absolute_url(request, reverse("table-play", args=[row["table"].pk]))
    return rows


def _round_page(request, round_, status=200, **forms) -> HttpResponse:
    rows = _with_play_urls(request, round_tables(round_))
    context = {
        "round": round_,
        "tournament": round_.tournament,
        "rows": rows,
        "counts": _result_counts(rows),
        "seed_form": forms.get("seed_form") or SeedForm(),
        "swap_form": forms.get("swap_form") or SwapForm(round_=round_),
        "max_seats": max((len(row["seats"]) for row in rows), default=4),
        "bot_levels": BotLevel.choices,
    }
    return render(request, "director/round.html", context, status=status)


@login_required
@require_safe
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _round_page(request, _round(request, pk))


@login_required
@require_safe
def round_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results part of the round page, which the page reloads every few seconds."""
    round_ = _round(request, pk)
    rows = _with_play_urls(request, round_tables(round_))
    return render(
        request,
        "director/_round_results.html",
        {
            "round": round_,
            "rows": rows,
            "counts": _result_counts(rows),
            "bot_levels": BotLevel.choices,
        },
    )


@login_required
@require_POST
def round_redraw(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    form = SeedForm(request.POST)
    if form.is_valid():
        try:
            draw_services.round_redraw(
                actor=request.user, round_=round_, seed=form.cleaned_data["seed"]
            )
        except ValidationError as error:
            form.add_error("seed" if hasattr(error, "error_dict") else None, error.messages)
        else:
            messages.success(request, _("The round is drawn again with another seed."))
            return redirect("director-round", round_.pk)
    return _round_page(request, round_, status=400, seed_form=form)


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    form = SwapForm(request.POST, round_=round_)
    if form.is_valid():
        try:
            draw_services.round_swap_seats(
                actor=request.user,
                round_=round_,
                first=form.cleaned_data["first"],
                second=form.cleaned_data["second"],
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, _("The two seats are swapped."))
            return redirect("director-round", round_.pk)
    return _round_page(request, round_, status=400, swap_form=form)


@login_required
@require_POST
def round_publish(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    try:
        draw_services.round_publish(actor=request.user, round_=round_)
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("Round %(n)d is published: the players see their tables.") % {"n": round_.number},
        )
    return redirect("director-round", round_.pk)


@login_required
@require_POST
def round_delete(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    tournament_id = round_.tournament_id
    try:
        draw_services.round_delete_draft(actor=request.user, round_=round_)
    except ValidationError as error:
        messages.error(request, error_message(error))
        return redirect("director-round", round_.pk)
    messages.success(request, _("The draft round is deleted."))
    return redirect("director-tournament", tournament_id)


def sheet_url(request: HttpRequest, table: Table) -> str:
    """The absolute address of the players' result entry page of a table."""
    return absolute_url(request, reverse("table-sheet", args=[table.pk]))


def _qr_svg(url: str, title: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, border=2, title=title)


@login_required
@require_safe
def round_print(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(request, pk)
    tournament = round_.tournament
    rows = _with_play_urls(request, round_tables(round_))
    for row in rows:
        number = row["table"].number
        if row["has_bot"]:
            # A table with a bot is played live in the browser: no paper sheet, its address.
            url = row["play_url"]
            row["qr"] = _qr_svg(url, _("Live table %(n)d") % {"n": number})
        else:
            url = sheet_url(request, row["table"])
            row["qr"] = _qr_svg(url, _("Result entry of table %(n)d") % {"n": number})
            players = len(row["seats"])
            row["pages"] = printing.sheet_pages(printing.sheet_deals(tournament, players), players)
        row["url"] = url
    return render(
        request,
        "director/round_print.html",
        {
            "round": round_,
            "tournament": tournament,
            "rows": rows,
            "bot_tables": any(row["has_bot"] for row in rows),
        },
    )


# --------------------------------------------------------------------------- results
def _result_page(
    request: HttpRequest,
    table: Table,
    *,
    entry: SheetEntry | None = None,
    check: EntryCheck | None = None,
    errors: list[str] | tuple[str, ...] = (),
    conflict: str = "",
    refused: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The result entry page: the latest version's sheet to correct (or a new one), or `entry`."""
    tournament = table.round.tournament
    names = sheet_entry.seat_names(table)
    result = scoring_selectors.table_result(table)
    history = list(scoring_selectors.result_history(table))
    for version in history:
        version.entered_by = selectors.user_display_name(version.submitted_by, tournament.club_id)
    latest = history[-1] if history else None
    if entry is None:
        sheet = latest.sheet if latest else None
        mode = request.GET.get("mode")
        if mode not in ("deals", "totals"):
            mode = sheet.get("mode", "deals") if isinstance(sheet, dict) else "deals"
        if mode == "totals" and not tournament.quick_results_allowed:
            mode = "deals"
        entry = new_entry(
            seat_names=names,
            mode=mode,
            sheet=sheet,
            rows=tournament.fixed_deals or 1,
            meta_form=DirectorSheetSubmitForm,
            expected_version=result.version if result else 0,
        )
    url = reverse("director-table-result", args=[table.pk])
    context = {
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "result": result,
        "history": history,
        "latest": latest,
        "seats": list(table.seats.select_related("registration__player").order_by("position")),
        "seat_names": names,
        "errors": list(errors),
        "conflict": conflict,
        "refused": refused,
        **entry_context(
            table=table, entry=entry, check=check, names=names, action=url, check_url=url
        ),
    }
    return render(request, "director/table_result.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_result(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter or correct a table's result: a new version, confirmed at once (web/views/sheet.py
    answers the posted sheet as the player's page does)."""
    table = _table(request, pk)
    if request.method == "POST":
        return sheet_entry.answer_post(
            request,
            table=table,
            meta_form=DirectorSheetSubmitForm,
            page=partial(_result_page, request, table),
            saved=partial(_result_saved, request, table),
        )
    return _result_page(request, table)


def _result_saved(request: HttpRequest, table: Table, version: ResultVersion) -> HttpResponse:
    messages.success(
        request,
        _("The result of table %(table)d is saved as version %(version)d and confirmed.")
        % {"table": table.number, "version": version.number},
    )
    return redirect("director-round", table.round_id)


@login_required
@require_POST
def table_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(request, pk)
    form = VersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["version"]))
        return redirect("director-table-result", table.pk)
    number = form.cleaned_data["version"]
    try:
        scoring_services.result_confirm(actor=request.user, table=table, version_number=number)
    except (ValidationError, Conflict) as error:
        messages.error(request, error_message(error))
        return redirect("director-table-result", table.pk)
    messages.success(
        request,
        _("Version %(version)s of table %(table)d's result is confirmed.")
        % {"version": number, "table": table.number},
    )
    return redirect("director-round", table.round_id)


# --------------------------------------------------------------------------- live tables
@login_required
@require_POST
def table_live(request: HttpRequest, pk: int) -> HttpResponse:
    """Play a table live (or open its live game if it has one) and go to the game's page."""
    table = _table(request, pk)
    game = LiveGame.objects.filter(table=table).first()
    if game is None:
        try:
            game = gameplay_services.live_game_create_for_table(actor=request.user, table=table)
        except ValidationError as error:
            messages.error(request, error_message(error))
            return redirect("director-round", table.round_id)
        messages.success(request, _("Table %(n)d is played live now.") % {"n": table.number})
    return redirect("live-game", game.pk)


@login_required
@require_POST
def seat_bot(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    """Put a bot of the chosen level in the seat of a player who left a live table."""
    game = get_object_or_404(LiveGame.objects.select_related("table__round__tournament"), pk=pk)
    if game.table is None or not selectors.is_director(
        request.user, game.table.round.tournament.club_id
    ):
        raise _deny()
    level = request.POST.get("level", "")
    try:
        seat = gameplay_services.live_seat_replace_with_bot(
            actor=request.user, game=game, position=position, level=level
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("Seat %(seat)d of table %(table)d is played by a bot now.")
            % {"seat": seat.position + 1, "table": game.table.number},
        )
    return redirect("director-round", game.table.round_id)


# --------------------------------------------------------------------------- archives
@login_required
@require_safe
def tournament_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as one JSON file, to keep and to import again (archive.exporter)."""
    tournament = _tournament(request, pk)
    document = archive_exporter.tournament_export(tournament=tournament)
    response = HttpResponse(
        archive_exporter.archive_dumps(document), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, archive_exporter.archive_filename(tournament)
    )
    return response


class ArchiveUploadForm(DirectorForm):
    """A tournament archive to import and the club to import it into; it reads the file's JSON."""

    # The command that imports a file too large to upload.
    command = "manage.py import_tournament"

    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=gettext_lazy("Club"))
    file = forms.FileField(
        label=gettext_lazy("Archive file (JSON)"),
        help_text=gettext_lazy(
            "A file downloaded with “Download archive (JSON)” on a tournament's page. The "
            "tournament is recreated with its players, rounds, results and live games."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
        error_messages={
            "required": gettext_lazy("Choose an archive file to upload."),
            "empty": gettext_lazy("The file is empty."),
        },
    )

    def __init__(self, *args, clubs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs
        if len(clubs) == 1:
            # Directors of one club are not asked which club.
            self.fields["club"].initial = clubs[0]
            self.fields["club"].disabled = True
            self.fields["club"].widget = forms.HiddenInput()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > ARCHIVE_MAX_BYTES:
            raise ValidationError(
                _(
                    "The file is larger than %(mb)d MB; import it with the command "
                    "“%(command)s” instead."
                )
                % {"mb": ARCHIVE_MAX_BYTES // (1024 * 1024), "command": self.command}
            )
        self.cleaned_data["document"] = archive_importer.archive_loads(upload.read())
        return upload

    def imported(self, importer: Callable[..., Any], actor: User) -> Any:
        """What `importer` (a tournament's or a season's) made of the uploaded archive in the
        chosen club, or None with its refusal at the file (also for a form not valid)."""
        if not self.is_valid():
            return None
        try:
            return importer(
                actor=actor, club=self.cleaned_data["club"], data=self.cleaned_data["document"]
            )
        except ValidationError as error:
            self.add_error("file", error.messages)
            return None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_import(request: HttpRequest) -> HttpResponse:
    """Upload an archive: the tournament is created in the chosen club, or nothing is."""
    clubs = _directed_clubs(request)
    if request.method != "POST":
        form = ArchiveUploadForm(clubs=clubs)
        return render(request, "director/tournament_import.html", {"import_form": form})
    form = ArchiveUploadForm(request.POST, request.FILES, clubs=clubs)
    tournament = form.imported(archive_importer.tournament_import, request.user)
    if tournament is not None:
        messages.success(
            request,
            _("The tournament %(name)s is imported into %(club)s.")
            % {"name": tournament.name, "club": tournament.club},
        )
        return redirect("director-tournament", tournament.pk)
    return render(request, "director/tournament_import.html", {"import_form": form}, status=400)
