"""The standings socket: pushes a public tournament's new standings to its pages once, when stored.

The standings page polls once a second without it; with it, nothing is sent while nothing
changes, and each new snapshot reaches every phone in one message. The page opens
`ws/tournaments/<id>/standings/?version=<shown>` and gets, in binary frames, the gzip of the live
standings block (public/_standings_live.html, which names its own version) in its language: at
once if it shows an older version (a page that reconnects catches up so), then at each new
snapshot. The wall screen opens it with `&notice=1` and gets a small JSON text frame
{"type": "standings", "version": ...} instead, after which it fetches its own screen.

Only public tournaments have one: a private tournament's socket is refused (the page polls,
and each poll checks who asks), and sockets open when a tournament is made private are closed at
its next snapshot without being sent it. The group message (web/standings_push.py) carries no
standings; each web process reads a block's gzip from the cache once for all of its sockets.
Pages send nothing but an occasional {"type": "sync"} (send the latest again); as on the table
sockets (gameplay.consumers), a frame past MAX_FRAME_BYTES closes the socket unread and floods
are bounded by a MessageAllowance.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy

from gameplay.consumers import MessageAllowance, frame_too_big, scope_language
from scoring import standings_cache
from tournaments.models import Tournament
from web.presenters.live_standings import (
    LiveState,
    compressed_live_block,
    live_key,
    live_state,
)
from web.standings_push import standings_group

CLOSE_FORBIDDEN = 4403
CLOSE_POLICY_VIOLATION = 1008
CLOSE_TOO_BIG = 1009

MESSAGE_BURST = 10
MESSAGE_RATE = 1.0
MAX_DROPPED = 20
# A version is a number; what the query string says is cut to this before it is compared.
MAX_VERSION_LENGTH = 20

NOT_SYNC = gettext_lazy("This socket only takes sync messages.")
TOO_BIG = gettext_lazy("The message is too large.")
TOO_FAST = gettext_lazy("Too many messages: wait a moment before sending the next one.")


class BlockMemo:
    """The gzip of the latest few blocks in this process, each read from the cache once.

    When a snapshot is pushed, every socket of the process asks for the same block at the same
    moment; the first one reads it (a future the others wait on), the rest share the bytes.
    A block never changes once rendered, so nothing here is ever stale. A block the cache did
    not have (None) is asked for again next time.
    """

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.entries: OrderedDict[str, asyncio.Future[bytes | None]] = OrderedDict()

    async def get(self, key: str) -> bytes | None:
        loop = asyncio.get_running_loop()
        future = self.entries.get(key)
        kept = future is not None and future.get_loop() is loop
        if kept and (not future.done() or future.result() is not None):
            return await asyncio.shield(future)
        future = loop.create_future()
        self.entries[key] = future
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)
        data = None
        try:
            # Off the thread of the sockets' database calls: a cache read need not queue there.
            data = await sync_to_async(standings_cache.compressed_block, thread_sensitive=False)(
                key
            )
        finally:
            # The waiters get None on an error too (they then render the block themselves).
            future.set_result(data)
        return data


blocks = BlockMemo()


def kept_public_state(tournament_id: int) -> LiveState | None:
    """`public_state` from the cache only (None: not kept, or not public)."""
    kept = standings_cache.poll_state(tournament_id)
    if kept is None:
        return None
    return LiveState(tournament_id, kept["latest"], kept["columns"], public=True)


def with_last_push(state: LiveState) -> LiveState:
    """The state, or the last push if that is newer: a poll may have kept the version it read
    just before a snapshot was stored, for a second, and the push of that snapshot may have
    been sent just before this socket joined."""
    last = standings_cache.pushed(state.tournament_id)
    if last is None or version_order(last["latest"]) <= version_order(state.version):
        return state
    return LiveState(state.tournament_id, last["latest"], last["columns"], public=True)


def public_state(tournament_id: int) -> LiveState | None:
    """The tournament's latest block if it is public (the only ones with a socket), else None.

    Kept for a second as the standings polls keep it (scoring.standings_cache.poll_state, only
    ever kept for a public tournament): when a thousand phones open the page, most sockets
    open without a database query.
    """
    kept = kept_public_state(tournament_id)
    if kept is not None:
        return kept
    tournament = Tournament.objects.filter(pk=tournament_id, is_public=True).first()
    if tournament is None:
        return None
    state = live_state(tournament)
    standings_cache.remember_poll_state(tournament_id, latest=state.version, columns=state.columns)
    return state


def version_order(version: str) -> int:
    """A version text as a number to compare ("" or anything else than a number: -1)."""
    return int(version) if version.isascii() and version.isdigit() else -1


def shown_version(scope: dict) -> tuple[str, bool]:
    """The version the page shows (its query string) and whether it wants notices only."""
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    version = (query.get("version") or [""])[0][:MAX_VERSION_LENGTH]
    return version, (query.get("notice") or [""])[0] == "1"


class StandingsConsumer(AsyncWebsocketConsumer):
    """One page (a phone, a wall screen) watching one public tournament's standings."""

    tournament_id: int
    group: str
    language: str
    notice: bool
    allowance: MessageAllowance
    # The version the page shows: a push of the same one sends nothing.
    shown: str = ""
    joined: bool = False
    ended: bool = False
    dropped: int = 0
    dropping: bool = False
    clock: Callable[[], float] = staticmethod(time.monotonic)

    async def connect(self) -> None:
        self.allowance = MessageAllowance(burst=MESSAGE_BURST, rate=MESSAGE_RATE, clock=self.clock)
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = standings_group(self.tournament_id)
        self.language = scope_language(self.scope)
        self.shown, self.notice = shown_version(self.scope)
        # Join before reading the latest version, so that no snapshot after the read is missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        # The cache first, off the thread of the database calls, which page loads keep busy.
        state = await sync_to_async(kept_public_state, thread_sensitive=False)(self.tournament_id)
        if state is None:
            state = await database_sync_to_async(public_state)(self.tournament_id)
        if state is None:
            await self.end(CLOSE_FORBIDDEN)
            return
        state = await sync_to_async(with_last_push, thread_sensitive=False)(state)
        await self.accept()
        if version_order(state.version) > version_order(self.shown):
            # A page that reconnects catches up (or one opened before a snapshot was pushed).
            await self.send_block(state.version, state.columns)

    async def end(self, code: int) -> None:
        """Close the socket (before accepting it, that refuses it) and stop serving it."""
        self.ended = True
        await self.leave_group()
        await self.close(code=code)

    async def leave_group(self) -> None:
        if self.joined:
            self.joined = False
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        self.ended = True
        await self.leave_group()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if self.ended or not await self.admit():
            return
        if frame_too_big(text_data, bytes_data):
            await self.send_error(TOO_BIG)
            await self.end(CLOSE_TOO_BIG)
            return
        try:
            content = json.loads(text_data) if text_data is not None else None
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict) or content.get("type") != "sync":
            await self.send_error(NOT_SYNC)
            return
        await self.send_latest()

    async def admit(self) -> bool:
        """Whether the message is within the connection's allowance."""
        if self.allowance.take():
            self.dropping = False
            return True
        self.dropped += 1
        if self.dropped >= MAX_DROPPED:
            await self.end(CLOSE_POLICY_VIOLATION)
        elif not self.dropping:
            await self.send_error(TOO_FAST)
        self.dropping = True
        return False

    async def standings_stored(self, event: dict[str, Any]) -> None:
        """Group message from `web.standings_push.push_standings`."""
        if self.ended:
            return
        if not event.get("public"):
            # Made private since the socket opened: it gets nothing more.
            await self.end(CLOSE_FORBIDDEN)
            return
        version, columns = str(event.get("version", "")), str(event.get("columns", ""))
        # Two workers may push two snapshots in either order: never go back to an older one.
        if version_order(version) <= version_order(self.shown):
            return
        await self.send_block(version, columns)

    async def send_block(self, version: str, columns: str) -> None:
        """The block of `version` (the notice of it, for the wall screen)."""
        if self.notice:
            await self.send_notice(version)
            return
        data = await blocks.get(live_key(self.tournament_id, version, columns, self.language))
        if data is None:
            await self.send_latest()  # not in the cache (yet, or any more): rendered here
            return
        if not self.ended:
            self.shown = version
            await self.send(bytes_data=data)

    async def send_latest(self) -> None:
        """The latest standings, whatever the page shows (a catch-up, a sync)."""
        if self.notice:
            state = await database_sync_to_async(public_state)(self.tournament_id)
            if state is None:
                await self.end(CLOSE_FORBIDDEN)
            else:
                await self.send_notice(state.version)
            return
        latest = await database_sync_to_async(self.public_block)()
        if latest is None:
            await self.end(CLOSE_FORBIDDEN)
            return
        state, data = latest
        if not self.ended:
            self.shown = state.version
            await self.send(bytes_data=data)

    def public_block(self) -> tuple[LiveState, bytes] | None:
        if public_state(self.tournament_id) is None:
            return None
        return compressed_live_block(self.tournament_id, self.language)

    async def send_notice(self, version: str) -> None:
        self.shown = version
        await self.send(text_data=json.dumps({"type": "standings", "version": version}))

    async def send_error(self, message) -> None:
        with translation.override(self.language):
            text = str(message)
        await self.send(text_data=json.dumps({"type": "error", "message": text}))
