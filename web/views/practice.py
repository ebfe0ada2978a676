"""The one-click practice game: a signed-in visitor against two bots, started from the home page."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from gameplay import services


@require_POST
def practice_start(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # Back to the home page after signing in: its button posts, a redirect could only GET.
        return redirect_to_login(reverse("home"))
    game = services.practice_game_start(user=request.user)
    return redirect("live-game", game_id=game.pk)
