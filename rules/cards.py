"""Cards of the 24-card 1001 deck as small integers and bit masks, with their names and points.

A card is ``suit * 6 + rank`` (suits S C D H = 0..3, ranks 9 J Q K T A = 0..5), so within a suit a
higher integer is a higher card. A set of cards is a 24-bit mask. The engine's core only ever sees
integers and masks; `Card`, `Suit` and `Rank` give them names at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum


class Suit(IntEnum):
    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self]

    @property
    def marriage_value(self) -> int:
        return MARRIAGE_VALUE[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = "SCDH".find(text.upper()) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"{text!r} is not a suit (S, C, D or H)")
        return cls(index)


class Rank(IntEnum):
    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        return "9JQKTA"[self]


RANK_POINTS = (0, 2, 3, 4, 10, 11)
MARRIAGE_VALUE = (40, 60, 80, 100)
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")

DECK_SIZE = 24
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASK = tuple(0b111111 << (6 * s) for s in range(4))
NINES_MASK = sum(1 << (6 * s) for s in range(4))
# The K and Q of each suit: a hand holds a marriage when it holds both bits.
MARRIAGE_MASK = tuple((1 << (6 * s + Rank.QUEEN)) | (1 << (6 * s + Rank.KING)) for s in range(4))

CARD_POINTS = tuple(RANK_POINTS[c % 6] for c in range(DECK_SIZE))
CARD_SUIT = tuple(c // 6 for c in range(DECK_SIZE))
# Cards of the same suit that beat card c (used by the must-beat option).
ABOVE = tuple(SUIT_MASK[c // 6] & ~((2 << c) - 1) for c in range(DECK_SIZE))


def _cards_in(mask: int, offset: int) -> tuple[int, ...]:
    return tuple(offset + i for i in range(12) if mask >> i & 1)


# A 24-bit mask splits into two 12-bit halves; these tables list the cards of each half.
_LOW_CARDS = tuple(_cards_in(m, 0) for m in range(4096))
_HIGH_CARDS = tuple(_cards_in(m, 12) for m in range(4096))


def mask_cards(mask: int) -> tuple[int, ...]:
    """The cards of a mask, lowest first."""
    return _LOW_CARDS[mask & 4095] + _HIGH_CARDS[mask >> 12]


def mask_points(mask: int) -> int:
    return sum(CARD_POINTS[c] for c in mask_cards(mask))


def marriages_value(hand: int) -> int:
    """Total value of the marriages (K and Q of one suit) held in a hand mask."""
    total = 0
    for suit in range(4):
        both = MARRIAGE_MASK[suit]
        if hand & both == both:
            total += MARRIAGE_VALUE[suit]
    return total


class Card(int):
    """A card as an int with a name: ``Card.parse("TH")``, ``str(card) == "TH"``."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self % 6)

    @property
    def points(self) -> int:
        return CARD_POINTS[self]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return CARD_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({CARD_NAMES[self]})"

    @classmethod
    def parse(cls, text: object) -> Card:
        card = _CARD_BY_NAME.get(text.upper()) if isinstance(text, str) else None
        if card is None:
            raise ValueError(
                f"{text!r} is not a card (rank 9 J Q K T A then suit S C D H, e.g. 'TH')"
            )
        return card


CARD_NAMES = tuple("9JQKTA"[c % 6] + "SCDH"[c // 6] for c in range(DECK_SIZE))
CARDS = tuple(Card(c) for c in range(DECK_SIZE))
_CARD_BY_NAME = {name: CARDS[c] for c, name in enumerate(CARD_NAMES)}
# "10H" is how many people write the ten; accept it on input.
_CARD_BY_NAME.update({"10" + "SCDH"[s]: CARDS[6 * s + Rank.TEN] for s in range(4)})


def cards_of(mask: int) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in mask_cards(mask))


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def card_names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in mask_cards(mask)]
