"""Actions of a deal: the readable `Action` value, its record notation and its integer code.

The core works on integer codes so that bots can generate and apply thousands of actions cheaply:

- ``0..23``      play card c
- ``24..47``     play card c - 24 (a K or Q) and declare its marriage
- ``48..143``    give card c to seat t: ``48 + 24 * t + c``
- ``144..224``   bid v: ``144 + v // 5``
- ``225..305``   name the contract v: ``225 + v // 5``
- ``306``        pass, ``307`` concede
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from .cards import CARD_NAMES, CARDS, Card
from .errors import RecordError

PLAY = 0
PLAY_MARRIAGE = 24
GIVE = 48
BID = 144
CONTRACT = 225
PASS = 306
CONCEDE = 307
CODE_COUNT = 308

ACTION_TYPES = ("bid", "pass", "give", "contract", "play", "concede")


@dataclass(frozen=True, slots=True)
class Action:
    """One move of one seat: ``Action("play", seat=1, card=Card.parse("AH"))``."""

    type: str
    seat: int | None = None
    value: int | None = None
    card: Card | None = None
    to: int | None = None
    marriage: bool = False

    @property
    def code(self) -> int:
        return encode(self)

    def to_record(self) -> dict[str, Any]:
        """The action in the deal-record notation of RULES.md section 9."""
        record: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.type in ("bid", "contract"):
            record["value"] = self.value
        elif self.type == "give":
            record["card"] = _card_name(self.card)
            record["to"] = self.to
        elif self.type == "play":
            record["card"] = _card_name(self.card)
            if self.marriage:
                record["marriage"] = True
        return record

    @classmethod
    def from_record(cls, record: Any) -> Action:
        """Parse one action of a record; raises RecordError naming what is wrong with it."""
        if not isinstance(record, dict):
            raise RecordError("an action must be an object with 'seat' and 'type'")
        kind = record.get("type")
        if kind not in ACTION_TYPES:
            raise RecordError(f"unknown action type {kind!r}; expected one of {ACTION_TYPES}")
        allowed = {
            "bid": {"value"},
            "contract": {"value"},
            "give": {"card", "to"},
            "play": {"card", "marriage"},
            "pass": set(),
            "concede": set(),
        }[kind] | {"seat", "type"}
        extra = sorted(set(record) - allowed)
        if extra:
            raise RecordError(f"a {kind} action has no field {extra[0]!r}")
        seat = _whole(record, "seat", required=True)
        value = to = card = None
        marriage = False
        if kind in ("bid", "contract"):
            value = _whole(record, "value", required=True)
        if kind in ("give", "play"):
            try:
                card = Card.parse(record.get("card"))
            except ValueError as error:
                raise RecordError(str(error)) from None
        if kind == "give":
            to = _whole(record, "to", required=True)
        if kind == "play":
            marriage = record.get("marriage", False)
            if not isinstance(marriage, bool):
                raise RecordError("'marriage' must be true or false")
        return cls(kind, seat=seat, value=value, card=card, to=to, marriage=marriage)

    def __str__(self) -> str:
        who = f"seat {self.seat} " if self.seat is not None else ""
        if self.type in ("bid", "contract"):
            return f"{who}{self.type} {self.value}"
        if self.type == "give":
            return f"{who}give {_card_name(self.card)} to seat {self.to}"
        if self.type == "play":
            return f"{who}play {_card_name(self.card)}" + (
                " with marriage" if self.marriage else ""
            )
        return f"{who}{self.type}"


def _card_name(card: Card | None) -> str:
    # A give or a play names its card (decode and from_record make sure of it).
    return CARD_NAMES[cast(Card, card)]


def _whole(record: dict[str, Any], name: str, *, required: bool) -> int | None:
    value = record.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"'{name}' must be a whole number")
    return value


def encode(action: Action) -> int:
    """The integer code of an action; -1 when the action cannot be a legal move at all."""
    kind = action.type
    if kind == "play":
        card = action.card
        if card is None or not 0 <= card < 24:
            return -1
        return PLAY_MARRIAGE + card if action.marriage else card
    if kind == "pass":
        return PASS
    if kind == "concede":
        return CONCEDE
    if kind == "give":
        if action.card is None or action.to is None or not 0 <= action.to < 4:
            return -1
        return GIVE + 24 * action.to + action.card
    if kind in ("bid", "contract"):
        value = action.value
        if value is None or value % 5 or not 0 < value <= 400:
            return -1
        return (BID if kind == "bid" else CONTRACT) + value // 5
    return -1


def decode(code: int, seat: int | None = None) -> Action:
    """The readable action of an integer code, played by `seat`."""
    if code < PLAY_MARRIAGE:
        return Action("play", seat=seat, card=CARDS[code])
    if code < GIVE:
        return Action("play", seat=seat, card=CARDS[code - PLAY_MARRIAGE], marriage=True)
    if code < BID:
        to, card = divmod(code - GIVE, 24)
        return Action("give", seat=seat, card=CARDS[card], to=to)
    if code < CONTRACT:
        return Action("bid", seat=seat, value=(code - BID) * 5)
    if code < PASS:
        return Action("contract", seat=seat, value=(code - CONTRACT) * 5)
    if code == PASS:
        return Action("pass", seat=seat)
    if code == CONCEDE:
        return Action("concede", seat=seat)
    raise ValueError(f"{code} is not an action code")
