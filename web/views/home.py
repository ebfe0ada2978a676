"""The home page, and the site's icon at the address browsers ask for on their own."""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from gameplay.selectors import viewer_of
from tournaments.models import Tournament
from tournaments.selectors import (
    directed_club_ids,
    player_of,
    tournaments_listed,
    tournaments_played,
)
from web.presenters.practice import practice_offer

HOME_RUNNING = 20
HOME_UPCOMING = 5
HOME_FINISHED = 10


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Tournaments being played first, then coming up, then recently finished."""
    running = tournaments_listed(request.user, status=Tournament.Status.RUNNING)
    upcoming = tournaments_listed(request.user, status=Tournament.Status.DRAFT)
    finished = tournaments_played(
        tournaments_listed(request.user, status=Tournament.Status.FINISHED)
    )
    context = {
        "running": running[:HOME_RUNNING],
        "upcoming": upcoming.order_by("date", "id")[:HOME_UPCOMING],
        "finished": finished[:HOME_FINISHED],
        "practice": practice_offer(viewer_of(request.user, request.session)),
        "directs_a_club": bool(directed_club_ids(request.user)),
        "plays": player_of(request.user) is not None,
    }
    return render(request, "home.html", context)


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links to: send them to the icon (its
    address changes with its content in production, so the redirect is cached for a day only)."""
    response = HttpResponseRedirect(static("favicon.svg"))
    patch_cache_control(response, public=True, max_age=24 * 60 * 60)
    return response
