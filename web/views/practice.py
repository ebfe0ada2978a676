"""The one-click practice game: a visitor, signed in or a guest, against bots from the home page.

A visitor who is not signed in becomes a guest: his session gets a random key of its own
(`gameplay.selectors.GUEST_SESSION_KEY`), which his games are bound to; he keeps them when he
signs in (gameplay.signals). The form's fields all have defaults, so its button alone starts.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from gameplay import selectors, services
from web.forms.practice import PracticeForm
from web.presenters.practice import practice_offer


def _guest_of(request: HttpRequest) -> selectors.Guest:
    """The session's guest, made now if the session has none yet."""
    key = selectors.session_guest(request.session)
    if not key:
        key = secrets.token_urlsafe(32)
        request.session[selectors.GUEST_SESSION_KEY] = key
    return selectors.Guest(key)


@require_http_methods(["GET", "HEAD", "POST"])
def practice_start(request: HttpRequest) -> HttpResponse:
    """The offer (an address typed or bookmarked), and the game its button starts."""
    viewer = selectors.viewer_of(request.user, request.session)
    if request.method != "POST":
        return render(request, "gameplay/practice.html", {"practice": practice_offer(viewer)})
    form = PracticeForm(request.POST, guest=not viewer.is_authenticated)
    if not form.is_valid():
        context = {"practice": practice_offer(viewer, form=form)}
        return render(request, "gameplay/practice.html", context, status=400)
    if not viewer.is_authenticated:
        viewer = _guest_of(request)
    try:
        game = services.practice_game_start(
            user=viewer,
            players=form.cleaned_data["players"],
            bot_level=form.cleaned_data["bot_level"],
            address=request.META.get("REMOTE_ADDR") or "",
        )
    except services.PracticeLimitReached as refusal:
        context = {"practice": practice_offer(viewer, form=form, refusal=str(refusal))}
        response = render(request, "gameplay/practice.html", context, status=429)
        response["Retry-After"] = str(refusal.retry_after)
        return response
    return redirect("live-game", game_id=game.pk)
