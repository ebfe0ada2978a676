"""The player's pages: thin views over the scoring and tournaments services and selectors."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Registration


@login_required
def player_home(request: HttpRequest) -> HttpResponse:
    registrations = Registration.objects.filter(player__user=request.user).select_related(
        "tournament", "player"
    )
    return render(request, "player/home.html", {"registrations": registrations})
