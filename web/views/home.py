"""The home page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from gameplay.selectors import viewer_of
from tournaments.models import Tournament
from tournaments.selectors import tournaments_listed
from web.presenters.practice import practice_offer

HOME_RUNNING = 20
HOME_UPCOMING = 5
HOME_FINISHED = 10


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Tournaments being played first, then coming up, then recently finished."""
    running = tournaments_listed(request.user, status=Tournament.Status.RUNNING)
    upcoming = tournaments_listed(request.user, status=Tournament.Status.DRAFT)
    finished = tournaments_listed(request.user, status=Tournament.Status.FINISHED)
    context = {
        "running": running[:HOME_RUNNING],
        "upcoming": upcoming.order_by("date", "id")[:HOME_UPCOMING],
        "finished": finished[:HOME_FINISHED],
        "practice": practice_offer(viewer_of(request.user, request.session)),
    }
    return render(request, "home.html", context)
