"""People as the pages name them: a player by his name, anyone else by his full name or login."""

from __future__ import annotations

from typing import Any


def person_name(user: Any, club_id: int | None = None) -> str:
    """The name the club knows a user by: his player's name when he plays in the club (or in
    any club when `club_id` is None), else his full name, else his login; "" for nobody."""
    if user is None:
        return ""
    player = getattr(user, "player", None)
    if player is not None and (club_id is None or player.club_id == club_id):
        return player.name
    return user.get_full_name().strip() or user.get_username()
