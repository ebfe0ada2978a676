"""Tells the standings sockets of a tournament (web/consumers.py) that a new snapshot is stored.

The group message names the block (version and columns) and says whether the tournament is
public; it carries no standings, so the channel layer moves a few bytes per web process however
many phones watch. Each process then reads the block's gzip from the cache once for all of its
sockets.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from scoring import standings_cache
from web.presenters.live_standings import LiveState

logger = logging.getLogger(__name__)


def standings_group(tournament_id: int) -> str:
    """The channel layer group of the sockets that watch a tournament's standings."""
    return f"standings-{tournament_id}"


def push_standings(state: LiveState) -> None:
    """Send `standings.stored` to the tournament's sockets; after the snapshot's commit.

    The snapshot is stored by then, so a missing or broken channel layer is logged and never
    turns into an error: the pages fall back to polling, which finds the new standings anyway.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "standings.stored",
        "version": state.version,
        "columns": state.columns,
        "public": state.public,
    }
    try:
        # Kept first: a socket joins the group, then reads this; it misses nothing either way.
        standings_cache.remember_pushed(
            state.tournament_id, latest=state.version, columns=state.columns
        )
        async_to_sync(layer.group_send)(standings_group(state.tournament_id), message)
    except Exception:
        logger.exception("Could not push the standings of tournament %s", state.tournament_id)
