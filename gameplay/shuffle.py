"""Secure shuffles of live deals, and the commitment that lets anyone check a shuffle afterwards.

Before a deal everyone sees `deck_commitment(deck, salt)`; after it the deck and the salt are
shown, and anyone can recompute the hash. The salt keeps the deck from being guessed from the
hash (there are only 24! deck orders, few enough to matter for a weak hash of the order alone).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

from rules import CARDS

SALT_BYTES = 32


def secure_deck() -> list[str]:
    """A deck order (card names, the first dealt first) from the operating system's generator."""
    deck = [str(card) for card in CARDS]
    secrets.SystemRandom().shuffle(deck)
    return deck


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment_message(deck: Sequence[str], salt: str) -> bytes:
    """The exact bytes hashed: card names in deal order joined by commas, a colon, the salt."""
    return (",".join(deck) + ":" + salt).encode("ascii")


def deck_commitment(deck: Sequence[str], salt: str) -> str:
    """SHA-256 of `commitment_message`, as 64 lowercase hex digits."""
    return hashlib.sha256(commitment_message(deck, salt)).hexdigest()


def commitment_matches(deck: Sequence[str], salt: str, commitment: str) -> bool:
    return hmac.compare_digest(deck_commitment(deck, salt), commitment)
