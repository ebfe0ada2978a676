"""The director's pages of his clubs' seasons: the list, a new season, a season's settings with
its tournaments, and deleting a season; a season's archive to download, and one to import
(archive.seasons). Thin views over the seasons services and the season archive, which check
every write."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from archive import seasons as season_archive
from archive.exporter import archive_dumps
from seasons import services
from seasons.models import Season
from tournaments import selectors
from web.forms.seasons import SeasonForm
from web.views.director import ArchiveUploadForm, _deny, _directed_clubs


class SeasonArchiveUploadForm(ArchiveUploadForm):
    """A season archive to import and the club to import it into."""

    command = "manage.py import_season"

    def __init__(self, *args, **kwargs):
        # Beside the new season's form on one page: its fields are named apart.
        super().__init__(*args, prefix="import", **kwargs)
        self.fields["file"].help_text = gettext_lazy(
            "A file downloaded with “Download archive (JSON)” on a season's page. The season is "
            "recreated with its tournaments; the ratings and the season's table are computed "
            "again from their results."
        )


def _seasons_page(
    request: HttpRequest, clubs, *, form=None, import_form=None, status: int = 200
) -> HttpResponse:
    """The seasons of the clubs he directs, with the form of a new one and the import."""
    listed = Season.objects.filter(club__in=clubs).select_related("club")
    return render(
        request,
        "director/seasons.html",
        {
            "form": SeasonForm(clubs=clubs) if form is None else form,
            "import_form": (
                SeasonArchiveUploadForm(clubs=clubs) if import_form is None else import_form
            ),
            "seasons": listed,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def seasons(request: HttpRequest) -> HttpResponse:
    """The seasons of the clubs he directs, and the form of a new one."""
    clubs = _directed_clubs(request)
    form = SeasonForm(request.POST or None, clubs=clubs)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                season = services.season_create(
                    actor=request.user, club=form.cleaned_data["club"], **form.values()
                )
            except ValidationError as error:
                form.add_service_error(error)
            else:
                messages.success(
                    request,
                    _("The season %(name)s is created: now choose its tournaments.")
                    % {"name": season.name},
                )
                return redirect("director-season", season.pk)
        status = 400
    return _seasons_page(request, clubs, form=form, status=status)


@login_required
@require_POST
def season_import(request: HttpRequest) -> HttpResponse:
    """Upload a season archive: the season and its tournaments are created in the chosen club,
    or nothing is; a refusal is shown on the seasons page."""
    clubs = _directed_clubs(request)
    form = SeasonArchiveUploadForm(request.POST, request.FILES, clubs=clubs)
    season = form.imported(season_archive.season_import, request.user)
    if season is not None:
        count = season.tournaments.count()
        messages.success(
            request,
            ngettext(
                "The season %(name)s is imported into %(club)s with %(n)d tournament.",
                "The season %(name)s is imported into %(club)s with %(n)d tournaments.",
                count,
            )
            % {"name": season.name, "club": season.club, "n": count},
        )
        return redirect("director-season", season.pk)
    return _seasons_page(request, clubs, import_form=form, status=400)


@login_required
@require_safe
def season_archive_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The season with the archive of each of its tournaments, as one JSON file."""
    season = _season(request, pk)
    document = season_archive.season_export(season=season)
    response = HttpResponse(archive_dumps(document), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, season_archive.season_archive_filename(season)
    )
    return response


def _season(request: HttpRequest, pk: int) -> Season:
    season = get_object_or_404(Season.objects.select_related("club"), pk=pk)
    if not selectors.is_director(request.user, season.club_id):
        raise _deny()
    return season


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    season = _season(request, pk)
    form = SeasonForm(request.POST or None, season=season)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                with transaction.atomic():
                    wanted = {t.pk: t for t in form.cleaned_data["tournaments"]}
                    current = {t.pk: t for t in season.tournaments.all()}
                    # Ticked here from another season: the director is told it left that one.
                    moved = [
                        (tournament.name, tournament.season.name)
                        for pk_, tournament in wanted.items()
                        if pk_ not in current and tournament.season_id is not None
                    ]
                    # Unticked first, so that new dates that leave out a tournament unticked
                    # in the same save are not refused for it.
                    for pk_, tournament in current.items():
                        if pk_ not in wanted:
                            services.tournament_season_set(
                                actor=request.user, tournament=tournament, season=None
                            )
                    # The tournaments ticked join the season as saved (its new dates).
                    saved = services.season_update(
                        actor=request.user, season=season, **form.values()
                    )
                    # Every ticked tournament that cannot join is named, not only the first.
                    refused = []
                    for pk_, tournament in wanted.items():
                        if pk_ not in current:
                            try:
                                services.tournament_season_set(
                                    actor=request.user, tournament=tournament, season=saved
                                )
                            except ValidationError as error:
                                refused += error.messages
                    if refused:
                        raise ValidationError({"tournaments": refused})
            except ValidationError as error:
                form.add_service_error(error)
            else:
                messages.success(request, _("The season is saved."))
                for tournament, other in moved:
                    messages.warning(
                        request,
                        _("%(tournament)s is no longer in %(season)s: it counts in this season.")
                        % {"tournament": tournament, "season": other},
                    )
                return redirect("director-season", season.pk)
        status = 400
    return render(
        request, "director/season_form.html", {"form": form, "season": season}, status=status
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """A confirmation page that names the season and what becomes of its tournaments (they stay,
    in no season)."""
    season = _season(request, pk)
    if request.method == "POST":
        services.season_delete(actor=request.user, season=season)
        messages.success(request, _("The season %(name)s is deleted.") % {"name": season.name})
        return redirect("director-seasons")
    context = {"season": season, "tournaments": season.tournaments.count()}
    return render(request, "director/season_delete.html", context)
