"""Reads of live games: the engine state replayed from the action log, and each person's view.

A view never holds another seat's hidden cards: a seat sees its own observation of the current
deal (the engine decides what that is), and a deal's deck and salt appear only once it is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.utils.translation import gettext as _

from gameplay.models import LiveGame, LiveSeat
from rules import Action, Game, RuleSet
from tournaments.models import Round
from tournaments.selectors import can_view_tournament, is_director

AnyUser = User | AnonymousUser
# Long enough for a whole game; a state older than that is replayed again on demand.
STATE_CACHE_SECONDS = 60 * 60


def state_cache_key(game: LiveGame) -> str:
    # The creation time keeps a reused id (a database reset, a test database) from meeting a
    # state cached for an earlier game.
    return f"live-game:{game.pk}:{game.created_at.timestamp():.6f}:{game.sequence}"


def live_game_state(game: LiveGame) -> Game:
    """The engine game after the first `game.sequence` actions: from the cache, or replayed.

    The caller may change the returned object; it is a copy, never the cached one.
    """
    key = state_cache_key(game)
    state = cache.get(key)
    if state is None:
        state = replay_live_game(game)
        cache.set(key, state, STATE_CACHE_SECONDS)
    return state


def remember_state(key: str, state: Game) -> None:
    """Cache a state just computed, under its `state_cache_key` (only after the commit)."""
    cache.set(key, state, STATE_CACHE_SECONDS)


def new_engine_game(game: LiveGame) -> Game:
    """An engine game with the live game's table, rules and format, before any deal."""
    return Game(
        players=game.players,
        first_dealer=game.first_dealer,
        rules=RuleSet.from_dict(game.rules),
        fixed_deals=game.fixed_deals,
    )


def replay_live_game(game: LiveGame) -> Game:
    """Replay the deals dealt and the actions applied up to `game.sequence` through the engine."""
    engine_game = new_engine_game(game)
    deals = list(
        game.deals.filter(start_sequence__lte=game.sequence)
        .order_by("number")
        .values_list("pk", "deck")
    )
    actions: dict[int, list[dict]] = {}
    for deal_id, action in (
        game.actions.filter(sequence__lte=game.sequence)
        .order_by("sequence")
        .values_list("deal_id", "action")
    ):
        actions.setdefault(deal_id, []).append(action)
    for deal_id, deck in deals:
        engine_game.start_deal(deck)
        for record in actions.get(deal_id, ()):
            engine_game.apply(Action.from_record(record))
    return engine_game


def live_games_of_round(round_: Round) -> dict[int, LiveGame]:
    """The live games of the round's tables, by table id, with their seats."""
    return {
        game.table_id: game
        for game in LiveGame.objects.filter(table__round=round_).prefetch_related("seats")
    }


def live_seats(game: LiveGame) -> list[LiveSeat]:
    return list(game.seats.order_by("position"))


def seat_of(game: LiveGame, user: AnyUser | None) -> LiveSeat | None:
    """The human seat `user` holds at the game, if any."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


def live_game_for_user(user: AnyUser | None, game_id: int) -> LiveGame | None:
    """The game if `user` may watch it, else None (whether it exists or not).

    Seated players may; a practice game only its owner; a tournament table also the club's
    directors and whoever may see the tournament, once the round is published.
    """
    game = LiveGame.objects.select_related("table__round__tournament").filter(pk=game_id).first()
    if game is None:
        return None
    if seat_of(game, user) is not None:
        return game
    if game.table is None:
        owner = game.practice_owner_id
        return game if user is not None and user.is_authenticated and user.pk == owner else None
    tournament = game.table.round.tournament
    if is_director(user, tournament.club_id):
        return game
    if game.table.round.status != Round.Status.DRAFT and can_view_tournament(user, tournament):
        return game
    return None


def live_games_of_user(user: AnyUser | None) -> list[LiveGame]:
    """Unfinished games where `user` holds a seat, newest first."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        LiveGame.objects.filter(seats__user=user)
        .exclude(status=LiveGame.Status.FINISHED)
        .distinct()
        .order_by("-created_at", "-id")
    )


def live_game_view(game: LiveGame, *, user: AnyUser | None) -> dict[str, Any]:
    """The JSON a client gets: public facts, and the private ones of the user's own seat only."""
    state = live_game_state(game)
    seats = live_seats(game)
    mine = next(
        (
            seat.position
            for seat in seats
            if user is not None and user.is_authenticated and seat.user_id == user.pk
        ),
        None,
    )
    deal_rows = list(game.deals.filter(start_sequence__lte=game.sequence).order_by("number"))
    deals = []
    current = None
    for row, deal in zip(deal_rows, state.deals, strict=True):
        if not deal.done:
            current = {"number": row.number, "dealer": row.dealer, "commitment": row.commitment}
            continue
        deals.append(
            {
                "number": row.number,
                "dealer": row.dealer,
                "declarer": deal.declarer if deal.declarer >= 0 else None,
                "bid": deal.bid or None,
                "contract": deal.contract or None,
                "outcome": deal.outcome,
                "scores": list(deal.scores),
                "deck": row.deck,
                "salt": row.salt,
                "commitment": row.commitment,
            }
        )
    latest = state.deals[-1] if state.deals else None
    observation = latest.observation(mine).to_dict() if latest is not None else None
    if observation is not None:
        # Who played each card, so that the page need not know the order of play.
        for trick in observation["tricks"]:
            trick["seats"] = trick_seats(latest.active, trick["leader"], len(trick["cards"]))
    to_act = state.current.to_act if state.current is not None else None
    legal = []
    concede_confirm = None
    if mine is not None and to_act == mine and game.status == LiveGame.Status.PLAYING:
        actions = state.current.legal_actions()
        legal = [action.to_record() for action in actions]
        concede = next((action for action in actions if action.type == "concede"), None)
        if concede is not None:
            concede_confirm = _concede_question(state.current, concede, mine)
    return {
        "game": game.pk,
        "sequence": game.sequence,
        "status": game.status,
        "practice": game.table_id is None,
        "table": game.table_id,
        "seat": mine,
        "to_act": to_act,
        "players": [
            {"position": seat.position, "name": seat.name, "bot_level": seat.bot_level}
            for seat in seats
        ],
        "observation": observation,
        "deals": deals,
        "current_deal": current,
        "totals": list(state.totals),
        "winner": state.winner,
        "legal": legal,
        # The question before a concession, with what it scores under this game's rules.
        "concede_confirm": concede_confirm,
    }


def trick_seats(active: Sequence[int], leader: int, count: int) -> list[int]:
    """The seats that played the first `count` cards of a trick `leader` led: the active players
    in turn from him (RULES.md section 6)."""
    start = active.index(leader)
    return [active[(start + offset) % len(active)] for offset in range(count)]


def _concede_question(deal, concede: Action, seat: int) -> str:
    """What the declarer is asked before he concedes: the engine's own scoring of it (his bid or
    contract, a forced declarer's 0, the others' bonus), so no rule is restated here."""
    trial = deal.clone()
    trial.apply(concede)
    others = {trial.scores[other] for other in deal.active if other != seat}
    return _("Concede this deal? You score %(own)s; the other players score %(others)s.") % {
        "own": _signed(trial.scores[seat]),
        "others": ", ".join(_signed(score) for score in sorted(others)),
    }


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"
