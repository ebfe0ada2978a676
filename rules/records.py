"""Deal and game records (RULES.md section 9): validate, replay, dump and summarize them."""

from __future__ import annotations

from typing import Any

from .actions import Action
from .cards import CARD_NAMES, Card
from .deal import DealState
from .errors import EngineError, RecordError
from .game import Game
from .options import RuleSet

DEAL_FORMAT = "1001-deal/1"
GAME_FORMAT = "1001-game/1"
_DEAL_KEYS = {"format", "players", "dealer", "rules", "deck", "actions"}
_GAME_KEYS = {"format", "players", "first_dealer", "rules", "deals", "fixed_deals"}


def replay(record: Any) -> DealState | Game:
    """Replay a deal or a game record, whichever `record` is."""
    if isinstance(record, dict) and record.get("format") == GAME_FORMAT:
        return replay_game(record)
    return replay_deal(record)


def replay_deal(record: Any, *, rules: RuleSet | None = None) -> DealState:
    """Replay a deal record; an illegal action raises RecordError naming its index and the rule."""
    _expect_object(record, "a deal record", DEAL_FORMAT, _DEAL_KEYS)
    players = _players(record)
    dealer = _seat_field(record, "dealer", players)
    record_rules = _rules(record)
    if rules is not None and "rules" in record and record_rules != rules:
        raise RecordError("a deal's rules must be the rules of its game")
    rules = rules or record_rules
    deck = record.get("deck")
    if not isinstance(deck, list):
        raise RecordError("'deck' must be a list of the 24 cards")
    try:
        cards = [Card.parse(name) for name in deck]
        state = DealState.deal(cards, players=players, dealer=dealer, rules=rules)
    except ValueError as error:
        raise RecordError(f"deck: {error}") from None
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list")
    for index, entry in enumerate(actions):
        try:
            state.apply(Action.from_record(entry))
        except EngineError as error:
            raise RecordError(f"action {index}: {error}") from None
    return state


def replay_game(record: Any) -> Game:
    _expect_object(record, "a game record", GAME_FORMAT, _GAME_KEYS)
    players = _players(record)
    first_dealer = _seat_field(record, "first_dealer", players)
    rules = _rules(record)
    fixed = record.get("fixed_deals")
    try:
        game = Game(players=players, first_dealer=first_dealer, rules=rules, fixed_deals=fixed)
    except ValueError as error:
        raise RecordError(str(error)) from None
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("'deals' must be a list of deal records")
    for number, deal_record in enumerate(deals):
        where = f"deal {number}"
        if game.over:
            raise RecordError(f"{where}: the game was already over")
        if game.current is not None:
            raise RecordError(f"{where}: the deal before it is not finished")
        if isinstance(deal_record, dict):
            if deal_record.get("players") != players:
                raise RecordError(f"{where}: it must have the game's {players} players")
            if deal_record.get("dealer") != game.next_dealer:
                raise RecordError(f"{where}: the dealer must be seat {game.next_dealer}")
        try:
            deal = replay_deal(deal_record, rules=rules)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
        game.deals.append(deal)
        if deal.done:
            game.close_deal(deal)
    return game


def deal_record(state: DealState) -> dict[str, Any]:
    return {
        "format": DEAL_FORMAT,
        "players": state.players,
        "dealer": state.dealer,
        "rules": state.rules.to_dict(),
        "deck": [CARD_NAMES[c] for c in state.deck],
        "actions": [action.to_record() for action in state.history()],
    }


def game_record(game: Game) -> dict[str, Any]:
    record = {
        "format": GAME_FORMAT,
        "players": game.players,
        "first_dealer": game.first_dealer,
        "rules": game.rules.to_dict(),
        "deals": [deal_record(deal) for deal in game.deals],
    }
    if game.fixed_deals is not None:
        record["fixed_deals"] = game.fixed_deals
    return record


def summarize_deal(state: DealState) -> dict[str, Any]:
    """The outcome of a deal as the command line prints it (everything revealed)."""
    revealed = state.declarer >= 0
    summary: dict[str, Any] = {
        "complete": state.done,
        "phase": state.phase_name,
        "dealer": state.dealer,
        "declarer": state.declarer if revealed else None,
        "bid": state.bid or None,
        "forced": state.forced,
        "contract": state.contract or None,
        "outcome": state.outcome,
        "talon": [str(card) for card in state.talon_cards],
        "tricks": [
            {
                "leader": trick.leader,
                "cards": [str(card) for card in trick.cards],
                "winner": trick.winner,
                "trump": None if trick.trump is None else "SCDH"[trick.trump],
            }
            for trick in state.tricks()
        ],
        "marriages": [{"seat": m.seat, "suit": "SCDH"[m.suit]} for m in state.marriages()],
        "points": state.deal_points(),
        "scores": list(state.scores) if state.scores else None,
    }
    if not state.done:
        summary["to_act"] = state.to_act
        summary["legal"] = [action.to_record() for action in state.legal_actions()]
    return summary


def summarize_game(game: Game) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "complete": game.over,
        "totals": list(game.totals),
        "winner": game.winner,
        "deals": [
            {
                "dealer": deal.dealer,
                "declarer": deal.declarer if deal.declarer >= 0 else None,
                "contract": deal.contract or None,
                "outcome": deal.outcome,
                "scores": list(deal.scores) if deal.scores else None,
            }
            for deal in game.deals
        ],
    }
    if game.current is not None:
        summary["current"] = summarize_deal(game.current)
    return summary


def _expect_object(record: Any, what: str, fmt: str, keys: set[str]) -> None:
    if not isinstance(record, dict):
        raise RecordError(f"{what} must be a JSON object")
    if record.get("format") != fmt:
        raise RecordError(f"'format' must be {fmt!r}, not {record.get('format')!r}")
    extra = sorted(set(record) - keys)
    if extra:
        raise RecordError(f"{what} has no field {extra[0]!r}")


def _players(record: dict[str, Any]) -> int:
    players = record.get("players")
    # Not 3.0 either: a float number of players would pass `in (3, 4)` and break the deal.
    if not isinstance(players, int) or isinstance(players, bool) or players not in (3, 4):
        raise RecordError("'players' must be 3 or 4")
    return players


def _seat_field(record: dict[str, Any], name: str, players: int) -> int:
    seat = record.get(name)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise RecordError(f"'{name}' must be a seat from 0 to {players - 1}")
    return seat


def _rules(record: dict[str, Any]) -> RuleSet:
    try:
        return RuleSet.from_dict(record.get("rules", {}))
    except EngineError as error:
        raise RecordError(f"rules: {error}") from None
