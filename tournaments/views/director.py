"""The director's pages: thin views over the tournaments services and selectors."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Tournament
from tournaments.selectors import directed_club_ids


@login_required
def home(request: HttpRequest) -> HttpResponse:
    clubs = directed_club_ids(request.user)
    if not clubs:
        raise PermissionDenied
    tournaments = Tournament.objects.filter(club_id__in=clubs).select_related("club")
    return render(request, "director/home.html", {"tournaments": tournaments})
