"""Tells the watchers of a live game (its websocket group) that the game has changed."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    """The channel layer group of the consumers that watch a game."""
    return f"game-{game_id}"


def notify_game_changed(game_id: int, sequence: int) -> None:
    """Send `game.changed` to the game's group; the consumers fetch their own view of it.

    Called after the commit of the change. The move is stored by then, so a missing or broken
    channel layer is logged and never turns the move into an error; a client that missed the
    message catches up on its next reload or action.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "game.changed", "game": game_id, "sequence": sequence}
    try:
        async_to_sync(layer.group_send)(game_group(game_id), message)
    except Exception:
        logger.exception(
            "Could not tell the watchers of game %s about action %s", game_id, sequence
        )
