"""What one seat may know about a deal: its own cards and everything public, nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import actions as A
from .actions import Action, decode
from .cards import CARD_NAMES, Card, cards_of
from .deal import DONE, PHASE_NAMES, DealState, Marriage, Trick
from .options import RuleSet


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of a deal. Another seat's hidden cards are never in it.

    `seat` may be None for a spectator, who sees only public information.
    """

    seat: int | None
    players: int
    dealer: int
    active: tuple[int, ...]
    rules: RuleSet
    phase: str
    to_act: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, int | None], ...]  # (seat, value) in order; value None is a pass
    declarer: int | None
    bid: int | None
    forced: bool
    talon: tuple[Card, ...] | None  # public once the bidding is over
    given: tuple[tuple[int, Card], ...]  # the declarer's own gifts: (to seat, card)
    received: Card | None  # the card this seat was given by the declarer
    gives_done: tuple[int, ...]  # seats that have received their card (public)
    contract: int | None
    trump: int | None
    tricks: tuple[Trick, ...]  # finished tricks, then the unfinished one (winner None)
    marriages: tuple[Marriage, ...]
    card_points: tuple[int, ...]  # card points of the tricks each seat has won
    scores: tuple[int, ...] | None
    outcome: str | None
    legal: tuple[Action, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, cards in record notation."""

        def names(cards: tuple[Card, ...] | None) -> list[str] | None:
            return None if cards is None else [CARD_NAMES[c] for c in cards]

        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "active": list(self.active),
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "bids": [{"seat": s, "value": v} for s, v in self.bids],
            "declarer": self.declarer,
            "bid": self.bid,
            "forced": self.forced,
            "talon": names(self.talon),
            "given": [{"to": to, "card": CARD_NAMES[c]} for to, c in self.given],
            "received": None if self.received is None else CARD_NAMES[self.received],
            "gives_done": list(self.gives_done),
            "contract": self.contract,
            "trump": None if self.trump is None else "SCDH"[self.trump],
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": names(t.cards),
                    "winner": t.winner,
                    "trump": None if t.trump is None else "SCDH"[t.trump],
                }
                for t in self.tricks
            ],
            "marriages": [
                {"seat": m.seat, "suit": "SCDH"[m.suit], "trick": m.trick} for m in self.marriages
            ],
            "card_points": list(self.card_points),
            "scores": None if self.scores is None else list(self.scores),
            "outcome": self.outcome,
            "legal": [action.to_record() for action in self.legal],
        }


def observe(state: DealState, seat: int | None) -> Observation:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"there is no seat {seat} at a table of {state.players}")
    bids: list[tuple[int, int | None]] = []
    given: list[tuple[int, Card]] = []
    gives_done: list[int] = []
    received = None
    for who, code in state.codes():
        if code == A.PASS:
            bids.append((who, None))
        elif A.BID <= code < A.CONTRACT:
            bids.append((who, (code - A.BID) * 5))
        elif A.GIVE <= code < A.BID:
            to, card = divmod(code - A.GIVE, 24)
            gives_done.append(to)
            if seat == who:
                given.append((to, Card(card)))
            elif seat == to:
                received = Card(card)
    revealed = state.declarer >= 0
    tricks = []
    marriages = []
    for trick, marriage in state.walk_play():
        tricks.append(trick)
        if marriage:
            marriages.append(marriage)
    to_act = state.to_act if state.phase != DONE else None
    hand_sizes = tuple(state.hands[s].bit_count() for s in range(state.players))
    return Observation(
        seat=seat,
        players=state.players,
        dealer=state.dealer,
        active=state.active,
        rules=state.rules,
        phase=PHASE_NAMES[state.phase],
        to_act=to_act,
        hand=cards_of(state.hands[seat]) if seat is not None else (),
        hand_sizes=hand_sizes,
        bids=tuple(bids),
        declarer=state.declarer if revealed else None,
        bid=state.bid or None,
        forced=state.forced,
        talon=state.talon_cards if revealed else None,
        given=tuple(given),
        received=received,
        gives_done=tuple(gives_done),
        contract=state.contract or None,
        trump=state.trump if state.trump >= 0 else None,
        tricks=tuple(tricks),
        marriages=tuple(marriages),
        card_points=tuple(state.won),
        scores=state.scores,
        outcome=state.outcome,
        legal=tuple(decode(c, seat) for c in state.legal_codes())
        if seat is not None and seat == to_act
        else (),
    )
