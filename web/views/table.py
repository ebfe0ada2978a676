"""Pages of live tables: the table itself, its polling fallback and the replay of finished deals.

The table page ships the viewer's own view of the game (`live_game_view`) and static/js/table.js
draws it and keeps it current over the websocket (or by polling `live-game-state`). These views
hold no rules: permission and visibility are the selectors', moves are the services'.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from core.exceptions import Conflict
from gameplay import selectors, services
from rules import Card, DealState

# A POSTed move is a few dozen bytes; anything much bigger is not one.
MAX_ACT_BODY = 4096


class _NotPermitted(Exception):
    """The user may not see this game (the selector said no)."""


def _game_for(request: HttpRequest, game_id: int):
    """The live game if the user may see it; raises Http404 or _NotPermitted otherwise."""
    try:
        game = selectors.live_game_for_user(request.user, game_id)
    except PermissionDenied:
        raise _NotPermitted from None
    except ObjectDoesNotExist:
        raise Http404 from None
    if game is None:
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
    view = selectors.live_game_view(game, user=request.user)
    config = {
        "gameId": game.pk,
        "csrfToken": get_token(request),
        "socketPath": f"/ws/games/{game.pk}/",
        "stateUrl": reverse("live-game-state", args=[game.pk]),
        "actUrl": reverse("live-game-act", args=[game.pk]),
        "replayUrl": reverse("live-deal-replay", args=[game.pk, 0]).replace(
            "/0/replay/", "/__number__/replay/"
        ),
    }
    context = {
        "game": game,
        "view": view,
        "table_config": config,
        "labels": table_labels(),
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
    return JsonResponse(selectors.live_game_view(game, user=request.user))


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
            actor=request.user, game=game, action=action, expected_sequence=sequence
        )
    except ValidationError as refusal:
        status, error = 400, " ".join(refusal.messages)
    except Conflict as refusal:
        status, error = 409, str(refusal) or _("The table has moved on; look again.")
    except PermissionDenied as refusal:
        status, error = 403, str(refusal) or _("You may not play at this table.")
    game.refresh_from_db()
    body: dict[str, Any] = {"view": selectors.live_game_view(game, user=request.user)}
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
    view = selectors.live_game_view(game, user=request.user)
    finished = next((deal for deal in view["deals"] if deal.get("number") == number), None)
    if finished is None:
        # Deals in progress are not replayed: that would show the hidden cards.
        raise Http404
    try:
        step = int(request.GET.get("trick", ""))
    except ValueError:
        step = None
    # Deal numbers count from 1 in the order the engine game holds them.
    finished_state = selectors.live_game_state(game).deals[number - 1]
    seats = {player["position"]: player["name"] for player in view["players"]}
    names = [seats.get(seat, str(seat)) for seat in range(game.players)]
    context = {
        "game": game,
        "deal": finished,
        "replay": deal_replay(finished_state, names=names, step=step),
    }
    return render(request, "gameplay/replay.html", context)


# ---------------------------------------------------------------- replay

SUIT_SYMBOLS = {"S": "\u2660", "C": "\u2663", "D": "\u2666", "H": "\u2665"}


def _card_entry(card: Card, labels: dict[str, Any]) -> dict[str, str]:
    name = str(card)
    rank, suit = name[0], name[1]
    return {
        "name": name,
        "suit": suit,
        "symbol": SUIT_SYMBOLS[suit],
        "rank": "10" if rank == "T" else rank,
        "label": labels["card"] % {"rank": labels["ranks"][rank], "suit": labels["suits"][suit]},
    }


def deal_replay(finished: DealState, *, names: list[str], step: int | None) -> dict[str, Any]:
    """A finished deal replayed from its deck and actions, everything shown: the hands as dealt,
    the auction, the gifts, and each trick with the hands left after it. `step` picks the trick
    shown on the table (0: the hands as the play began)."""
    labels = table_labels()

    def card(value: Card) -> dict[str, str]:
        return _card_entry(value, labels)

    state = DealState.deal(
        finished.deck, players=finished.players, dealer=finished.dealer, rules=finished.rules
    )
    active = list(state.active)

    def hands() -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": names[seat], "cards": [card(c) for c in state.hand(seat)]}
            for seat in active
        ]

    dealt = hands()
    auction: list[dict[str, Any]] = []
    gifts: list[dict[str, Any]] = []
    hands_before_play = None
    hands_after_trick: list[list[dict[str, Any]]] = []
    conceded_by = None
    for action in finished.history():
        if action.type == "play" and hands_before_play is None:
            hands_before_play = hands()
        state.apply(action)
        if action.type in ("bid", "pass"):
            auction.append({"name": names[action.seat], "value": action.value})
        elif action.type == "give":
            gifts.append(
                {"from": names[action.seat], "to": names[action.to], "card": card(action.card)}
            )
        elif action.type == "concede":
            conceded_by = names[action.seat]
        elif action.type == "play" and state.tricks()[-1].winner is not None:
            hands_after_trick.append(hands())

    marriages = {marriage.trick: marriage for marriage in state.marriages()}
    tricks = []
    for index, trick in enumerate(state.tricks()):
        lead = active.index(trick.leader)
        by_seat = {
            active[(lead + offset) % len(active)]: played
            for offset, played in enumerate(trick.cards)
        }
        marriage = marriages.get(index)
        tricks.append(
            {
                "number": index + 1,
                "leader": names[trick.leader],
                "cells": [
                    {
                        "seat": seat,
                        "name": names[seat],
                        "card": card(by_seat[seat]),
                        "won": seat == trick.winner,
                    }
                    for seat in active
                    if seat in by_seat
                ],
                "winner": names[trick.winner],
                "points": sum(played.points for played in trick.cards),
                "trump": None if trick.trump is None else SUIT_SYMBOLS["SCDH"[trick.trump]],
                "marriage": None
                if marriage is None
                else {
                    "name": names[marriage.seat],
                    "symbol": SUIT_SYMBOLS["SCDH"[marriage.suit]],
                    "value": (40, 60, 80, 100)[marriage.suit],
                },
            }
        )
    last = len(tricks)
    if step is None or not 0 <= step <= last:
        step = 0
    points = state.deal_points()
    scores = list(state.scores) if state.scores else [None] * state.players
    return {
        "active": [{"seat": seat, "name": names[seat]} for seat in active],
        "dealer": names[state.dealer],
        "dealt": dealt,
        "talon": [card(c) for c in state.talon_cards],
        "declarer": names[state.declarer] if state.declarer >= 0 else None,
        "bid": state.bid or None,
        "forced": state.forced,
        "contract": state.contract or None,
        "outcome": state.outcome,
        "auction": auction,
        "gifts": gifts,
        "conceded_by": conceded_by,
        "tricks": tricks,
        "step": step,
        "steps": list(range(last + 1)),
        "previous_step": step - 1 if step > 0 else None,
        "next_step": step + 1 if step < last else None,
        "shown_trick": tricks[step - 1] if step else None,
        "hands_now": hands_after_trick[step - 1] if step else (hands_before_play or hands()),
        "results": [
            {"name": names[seat], "points": points[seat], "score": scores[seat]}
            for seat in range(state.players)
        ],
        "deck": [card(c) for c in state.deck],
    }


# ---------------------------------------------------------------- labels of the table page


def table_labels() -> dict[str, Any]:
    """Every text table.js shows, translated; placeholders in %(name)s form."""
    return {
        "suits": {
            "S": _("spades"),
            "C": _("clubs"),
            "D": _("diamonds"),
            "H": _("hearts"),
        },
        "ranks": {
            "9": pgettext("card", "nine"),
            "J": pgettext("card", "jack"),
            "Q": pgettext("card", "queen"),
            "K": pgettext("card", "king"),
            "T": pgettext("card", "ten"),
            "A": pgettext("card", "ace"),
        },
        "card": _("%(rank)s of %(suit)s"),
        "phases": {
            "bidding": _("Bidding"),
            "giving": _("Giving cards"),
            "contract": _("Naming the contract"),
            "play": _("Playing"),
            "done": _("Deal over"),
        },
        "you": _("you"),
        "yourTurn": _("Your turn"),
        "toActBadge": _("to act"),
        "toAct": _("%(name)s to act"),
        "waitingFor": _("Waiting for %(name)s…"),
        "prompt": {
            "bidding": _("Bid or pass."),
            "giving": _("Give one card to each opponent: choose a card, then the player."),
            "contract": _("Name the contract, or concede."),
            "play": _("Play a card."),
            "lead": _("Lead a card."),
        },
        "bid": _("Bid"),
        "bidValue": _("Bid %(value)s"),
        "pass": _("Pass"),
        "passed": _("pass"),
        "yourBid": _("Your bid"),
        "giveTo": _("Give to %(name)s"),
        "giveCardTo": _("Give %(card)s to %(name)s"),
        "chooseCard": _("First choose a card in your hand."),
        "gotCard": _("You received %(card)s."),
        "gaveCard": _("You gave %(card)s to %(name)s."),
        "contract": _("Contract"),
        "nameContract": _("Name contract %(value)s"),
        "concede": _("Concede the deal"),
        "declareMarriage": _("Declare a marriage when I lead its king or queen"),
        "marriage": _("Marriage"),
        "marriageDeclared": _("%(name)s declared the %(suit)s marriage (%(value)s)."),
        "trump": _("Trump"),
        "noTrump": _("no trump yet"),
        "declarer": _("Declarer"),
        "forced": _("forced"),
        "talon": _("Talon"),
        "talonHidden": _("face down"),
        "currentTrick": _("Current trick"),
        "lastTrick": _("Last trick"),
        "noTrick": _("No cards played yet."),
        "wonBy": _("won by %(name)s"),
        "cardsLeft": _("%(count)s cards"),
        "dealer": _("dealer"),
        "sitsOut": _("sits out"),
        "bot": _("bot, %(level)s"),
        "botLevels": {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")},
        "cardPoints": _("card points"),
        "deal": _("Deal %(number)s"),
        "total": _("Total"),
        "replay": _("Replay"),
        "outcomes": {
            "made": _("made"),
            "failed": _("failed"),
            "conceded": _("conceded"),
        },
        "previousDeal": _("Deal %(number)s is over: %(summary)s"),
        "dealSummary": _("%(name)s, contract %(contract)s, %(outcome)s"),
        "gameOver": _("The game is over. %(name)s wins."),
        "gameOverNoWinner": _("The game is over."),
        "connection": {
            "live": _("Live"),
            "connecting": _("Connecting…"),
            "reconnecting": _("Reconnecting…"),
            "polling": _("Updating every few seconds"),
        },
        "sendFailed": _("The move could not be sent; check the connection and try again."),
        "notLegal": _("That card cannot be played now."),
        "handLabel": _("Your hand"),
        "spectating": _("You are watching: only public information is shown."),
        "noScores": _("No deal finished yet."),
    }
