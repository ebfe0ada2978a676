"""Pages of live tables: the table itself, its polling fallback and the replay of finished deals.

The table page ships the viewer's own view of the game (`live_game_view`), the engine's facts of
the cards and the words to show (web.presenters.table); static/js/table.js and its modules in
static/js/table/ draw them and keep the view current over the websocket (or by polling
`live-game-state`). These views hold no rules: permission and visibility are the selectors',
moves are the services', what the pages show is the presenter's.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from core.exceptions import Conflict
from gameplay import pacing, selectors, services
from tournaments import selectors as tournament_selectors
from tournaments.models import Round, Table
from web.presenters import table as table_presenter

# A POSTed move is a few dozen bytes; anything much bigger is not one.
MAX_ACT_BODY = 4096


class _NotPermitted(Exception):
    """The user may not see this game (the selector said no)."""


def _viewer(request: HttpRequest) -> selectors.AnyUser:
    """The signed-in user, or the guest whose practice key the session holds, or a visitor."""
    return selectors.viewer_of(request.user, request.session)


def _game_for(request: HttpRequest, game_id: int):
    """The live game if the user may see it; raises Http404 or _NotPermitted otherwise.

    A guest gets Http404 for any practice game but his own: for him no other one exists.
    """
    viewer = _viewer(request)
    try:
        game = selectors.live_game_for_user(viewer, game_id)
    except PermissionDenied:
        raise _NotPermitted from None
    except ObjectDoesNotExist:
        raise Http404 from None
    if game is None:
        if isinstance(viewer, selectors.Guest) and selectors.is_practice_or_missing(game_id):
            raise Http404
        raise _NotPermitted
    return game


def _refuse(request: HttpRequest) -> HttpResponse:
    """A visitor who may not see the game: sign in first, or be told no."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


@never_cache
@require_safe
def live_game(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = _game_for(request, game_id)
    except _NotPermitted:
        return _refuse(request)
    view = selectors.live_game_view(game, user=_viewer(request))
    config = {
        "gameId": game.pk,
        "csrfToken": get_token(request),
        "socketPath": f"/ws/games/{game.pk}/",
        "stateUrl": reverse("live-game-state", args=[game.pk]),
        "actUrl": reverse("live-game-act", args=[game.pk]),
        "replayUrl": reverse("live-deal-replay", args=[game.pk, 0]).replace(
            "/0/replay/", "/__number__/replay/"
        ),
        # The pauses with which the page shows moves that came at once (gameplay.pacing).
        "pace": pacing.client_pace(),
    }
    context = {
        "game": game,
        "view": view,
        "table_config": config,
        "labels": table_presenter.table_labels(),
        "cards": table_presenter.card_facts(),
    }
    return render(request, "gameplay/table.html", context)


@never_cache
@require_safe
def live_game_state(request: HttpRequest, game_id: int) -> JsonResponse:
    """The polling fallback: the viewer's own view of the game as JSON."""
    try:
        game = _game_for(request, game_id)
    except _NotPermitted:
        return JsonResponse({"error": _("You may not watch this game.")}, status=403)
    return JsonResponse(selectors.live_game_view(game, user=_viewer(request)))


@never_cache
@require_POST
def live_game_act(request: HttpRequest, game_id: int) -> JsonResponse:
    """The polling fallback's move: `{"action": {...}, "sequence": n}`; answers with the view."""
    try:
        game = _game_for(request, game_id)
    except _NotPermitted:
        return JsonResponse({"error": _("You may not play at this table.")}, status=403)
    if len(request.body) > MAX_ACT_BODY:
        return JsonResponse({"error": _("The move is not valid.")}, status=400)
    try:
        payload = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # not JSON, or nested too deeply
        payload = None
    action = payload.get("action") if isinstance(payload, dict) else None
    sequence = payload.get("sequence") if isinstance(payload, dict) else None
    if not isinstance(action, dict) or type(sequence) is not int:
        return JsonResponse({"error": _("The move is not valid.")}, status=400)
    status = 200
    error = None
    try:
        services.live_game_act(
            actor=_viewer(request), game=game, action=action, expected_sequence=sequence
        )
    except ValidationError as refusal:
        status, error = 400, " ".join(refusal.messages)
    except Conflict as refusal:
        status, error = 409, str(refusal) or _("The table has moved on; look again.")
    except PermissionDenied as refusal:
        status, error = 403, str(refusal) or _("You may not play at this table.")
    game.refresh_from_db()
    body: dict[str, Any] = {"view": selectors.live_game_view(game, user=_viewer(request))}
    if error:
        body["error"] = error
    return JsonResponse(body, status=status)


@require_safe
def live_deal_replay(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """A finished deal trick by trick, every hand shown; `?trick=k` steps through it."""
    try:
        game = _game_for(request, game_id)
    except _NotPermitted:
        return _refuse(request)
    try:
        step = int(request.GET.get("trick", ""))
    except ValueError:
        step = None
    replay = table_presenter.live_deal_replay(game, user=_viewer(request), number=number, step=step)
    if replay is None:
        raise Http404
    return render(request, "gameplay/replay.html", {"game": game, **replay})


@never_cache
@require_safe
def table_play(request: HttpRequest, table_id: int) -> HttpResponse:
    """The lasting address of a tournament table played live (a table with a bot seat prints it
    with its QR code): its live game once the director has started it, until then a page that
    says so and looks again every few seconds. A draft round's table exists for directors only."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id)
    round_ = table.round
    tournament = round_.tournament
    director = tournament_selectors.is_director(request.user, tournament.club_id)
    if not director and (
        round_.status == Round.Status.DRAFT
        or not tournament_selectors.can_view_tournament(request.user, tournament)
    ):
        raise Http404
    game = selectors.live_games_of_round(round_).get(table.pk)
    if game is not None:
        return redirect("live-game", game_id=game.pk)
    context = {"table": table, "round": round_, "tournament": tournament, "director": director}
    return render(request, "gameplay/table_waiting.html", context)
