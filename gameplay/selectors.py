"""Reads of live games: the engine state replayed from the action log, and each person's view.

A view never holds another seat's hidden cards: a seat sees its own observation of the current
deal (the engine decides what that is), and a deal's deck and salt appear only once it is over.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Q
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from gameplay.models import LiveGame, LiveSeat
from rules import Action, DealState, Game, RuleSet, Suit
from rules.cards import CARD_POINTS
from tournaments.models import Round, Tournament
from tournaments.selectors import can_view_tournament, is_director

# Where a guest's session keeps his key (web.views.practice makes it, 43 URL-safe characters).
GUEST_SESSION_KEY = "practice_guest"
GUEST_KEY_FORMAT = re.compile(r"[A-Za-z0-9_-]{40,64}")


@dataclass(frozen=True)
class Guest:
    """A visitor who is not signed in but plays practice games: known by the key his session
    holds. He sees and acts at his own practice games only, and at no tournament table more
    than any anonymous visitor may."""

    key: str
    is_authenticated: ClassVar[bool] = False

    def __repr__(self) -> str:
        return "Guest(...)"  # the key is a secret, even in a log


AnyUser = User | AnonymousUser | Guest
# Long enough for a whole game; a state older than that is replayed again on demand.
STATE_CACHE_SECONDS = 60 * 60
# How many of the latest finished deals a view carries whole (`live_game_view`).
FINAL_DEALS_SHOWN = 2


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


def session_guest(session: Mapping[str, Any] | None) -> str:
    """The guest key the session holds, or "" (none, or not one the app could have made)."""
    key = session.get(GUEST_SESSION_KEY, "") if session is not None else ""
    return key if isinstance(key, str) and GUEST_KEY_FORMAT.fullmatch(key) else ""


def viewer_of(user: User | AnonymousUser | None, session: Mapping[str, Any] | None) -> AnyUser:
    """Who a request (or a websocket) is: the signed-in user, else the session's guest, else
    the anonymous visitor."""
    if user is not None and user.is_authenticated:
        return user
    key = session_guest(session)
    if key:
        return Guest(key)
    return user if user is not None else AnonymousUser()


def is_guests_game(game: LiveGame, guest: Guest) -> bool:
    """Whether the game is a practice game of this very guest."""
    return bool(game.practice_guest) and constant_time_compare(game.practice_guest, guest.key)


def seat_of(game: LiveGame, user: AnyUser | None) -> LiveSeat | None:
    """The human seat `user` (or the guest) holds at the game, if any."""
    if isinstance(user, Guest):
        if not is_guests_game(game, user):
            return None
        return game.seats.filter(user__isnull=True, bot_level="").first()
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


def live_game_for_user(user: AnyUser | None, game_id: int) -> LiveGame | None:
    """The game if `user` may watch it, else None (whether it exists or not).

    Seated players may; a practice game only its owner (a signed-in user or a guest); a
    tournament table also the club's directors and whoever may see the tournament, once the
    round is published (a guest as any anonymous visitor).
    """
    game = LiveGame.objects.select_related("table__round__tournament").filter(pk=game_id).first()
    if game is None:
        return None
    if seat_of(game, user) is not None:
        return game
    if game.table is None:
        owner = game.practice_owner_id
        signed_in = user is not None and user.is_authenticated
        return game if signed_in and owner is not None and user.pk == owner else None
    if isinstance(user, Guest):
        user = AnonymousUser()
    tournament = game.table.round.tournament
    if is_director(user, tournament.club_id):
        return game
    if game.table.round.status != Round.Status.DRAFT and can_view_tournament(user, tournament):
        return game
    return None


def is_practice_or_missing(game_id: int) -> bool:
    """Whether no tournament table is played live as this game (the game is practice or none)."""
    return not LiveGame.objects.filter(pk=game_id, table__isnull=False).exists()


def practice_games_of(user: AnyUser | None):
    """The practice games of a signed-in user or of a guest (none for anyone else)."""
    if isinstance(user, Guest):
        return LiveGame.objects.filter(table__isnull=True, practice_guest=user.key)
    if user is None or not user.is_authenticated:
        return LiveGame.objects.none()
    return LiveGame.objects.filter(table__isnull=True, practice_owner=user)


def practice_game_to_continue(user: AnyUser | None) -> LiveGame | None:
    """The latest unfinished practice game of the user or guest, if any: "continue my game"."""
    return (
        practice_games_of(user)
        .filter(status=LiveGame.Status.PLAYING)
        .order_by("-created_at", "-id")
        .first()
    )


def live_games_of_user(user: AnyUser | None) -> list[LiveGame]:
    """Unfinished games where `user` holds a seat, newest first (a guest: his practice games)."""
    if isinstance(user, Guest):
        return list(
            practice_games_of(user)
            .exclude(status=LiveGame.Status.FINISHED)
            .order_by("-created_at", "-id")
        )
    if user is None or not user.is_authenticated:
        return []
    return list(
        LiveGame.objects.filter(seats__user=user)
        .exclude(status=LiveGame.Status.FINISHED)
        .distinct()
        .order_by("-created_at", "-id")
    )


# The games of a finished tournament's tables: nobody moves there, bots neither, until the
# director reopens it (its games then go on where they stood).
PAUSED_GAMES = Q(table__round__tournament__status=Tournament.Status.FINISHED)


def live_game_paused(game: LiveGame) -> bool:
    return game.table_id is not None and LiveGame.objects.filter(PAUSED_GAMES, pk=game.pk).exists()


def live_game_view(game: LiveGame, *, user: AnyUser | None) -> dict[str, Any]:
    """The JSON a client gets: public facts, and the private ones of the user's own seat only."""
    state = live_game_state(game)
    seats = live_seats(game)
    mine = _own_position(game, seats, user)
    deal_rows = list(game.deals.filter(start_sequence__lte=game.sequence).order_by("number"))
    deals = []
    current = None
    running = [0] * game.players
    done = []
    for row, deal in zip(deal_rows, state.deals, strict=True):
        if not deal.done:
            current = {"number": row.number, "dealer": row.dealer, "commitment": row.commitment}
            continue
        running = [total + score for total, score in zip(running, deal.scores, strict=True)]
        done.append(deal)
        deals.append(
            {
                "number": row.number,
                "dealer": row.dealer,
                "declarer": deal.declarer if deal.declarer >= 0 else None,
                "bid": deal.bid or None,
                "contract": deal.contract or None,
                "outcome": deal.outcome,
                "scores": list(deal.scores),
                # For the end-of-deal summary: each seat's deal points (cards won and
                # marriages), the marriages declared and the totals after the deal.
                "points": deal.deal_points(),
                "marriages": [
                    {"seat": marriage.seat, "suit": Suit(marriage.suit).letter}
                    for marriage in deal.marriages()
                ],
                "totals": running,
                "deck": row.deck,
                "salt": row.salt,
                "commitment": row.commitment,
            }
        )
    # The latest finished deals as everyone saw them at their end (public now, their decks too),
    # so that the page can show how they ended before it shows the next deal: two of them, as
    # a four-player table's dealer sits out a whole deal the bots may play at once.
    for entry, deal in zip(deals[-FINAL_DEALS_SHOWN:], done[-FINAL_DEALS_SHOWN:], strict=True):
        entry["final"] = public_observation(deal, None)
    latest = state.deals[-1] if state.deals else None
    observation = public_observation(latest, mine) if latest is not None else None
    to_act = state.current.to_act if state.current is not None else None
    legal = []
    concede_confirm = None
    stopped = game.status == LiveGame.Status.PLAYING and live_game_paused(game)
    if (
        mine is not None
        and to_act == mine
        and game.status == LiveGame.Status.PLAYING
        and not stopped
    ):
        actions = state.current.legal_actions()
        legal = [action.to_record() for action in actions]
        concede = next((action for action in actions if action.type == "concede"), None)
        if concede is not None:
            concede_confirm = _concede_question(state.current, concede, mine)
    return {
        "game": game.pk,
        "sequence": game.sequence,
        "status": game.status,
        # Its tournament is finished: no move is taken until it is reopened.
        "stopped": stopped,
        "practice": game.table_id is None,
        "table": game.table_id,
        "seat": mine,
        "to_act": to_act,
        "players": [
            {"position": seat.position, "name": seat.display_name, "bot_level": seat.bot_level}
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


def _own_position(game: LiveGame, seats: list[LiveSeat], user: AnyUser | None) -> int | None:
    if isinstance(user, Guest):
        guest_seats = [seat for seat in seats if seat.user_id is None and not seat.is_bot]
        return guest_seats[0].position if guest_seats and is_guests_game(game, user) else None
    if user is None or not user.is_authenticated:
        return None
    return next((seat.position for seat in seats if seat.user_id == user.pk), None)


def public_observation(deal: DealState, seat: int | None) -> dict[str, Any]:
    """The engine's observation of the deal for `seat` (None: a spectator) as JSON, each trick
    with who played each card and its card points, so that the page need not know the order
    of play nor the points of the cards."""
    observation = deal.observation(seat)
    data = observation.to_dict()
    for trick, shown in zip(observation.tricks, data["tricks"], strict=True):
        shown["seats"] = trick_seats(deal.active, trick.leader, len(trick.cards))
        shown["points"] = sum(CARD_POINTS[card] for card in trick.cards)
    return data


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


def marriages_declared(seats: Mapping[int, int]) -> tuple[int, int]:
    """Marriages a player declared, and deals he played, at the live tables given as {table id:
    his seat position}; finished deals only (a deal in progress keeps its cards secret)."""
    from gameplay.models import LiveAction, LiveDeal

    marriages = 0
    for table_id, seat, action in LiveAction.objects.filter(
        game__table_id__in=list(seats), deal__finished_at__isnull=False, action__type="play"
    ).values_list("game__table_id", "seat", "action"):
        if seat == seats[table_id] and isinstance(action, dict) and action.get("marriage"):
            marriages += 1
    deals = LiveDeal.objects.filter(
        game__table_id__in=list(seats), finished_at__isnull=False
    ).count()
    return marriages, deals
