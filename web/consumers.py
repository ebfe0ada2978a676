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
standings; each web process follows a tournament's group once (`ProcessFanOut`) and reads a
block's gzip from the cache once for all of its sockets.
Pages send nothing but an occasional {"type": "sync"} (send the latest again); frames and floods
are guarded as on every socket (core.sockets), at a slower pace than a table's.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext_lazy

from core.sockets import CLOSE_FORBIDDEN, GuardedSocket
from scoring import standings_cache
from tournaments.models import Tournament
from web.presenters.live_standings import (
    LiveState,
    compressed_live_block,
    live_key,
    live_state,
)
from web.standings_push import standings_group

MESSAGE_BURST = 10
MESSAGE_RATE = 1.0
# A version is a number; what the query string says is cut to this before it is compared.
MAX_VERSION_LENGTH = 20

NOT_SYNC = gettext_lazy("This socket only takes sync messages.")

logger = logging.getLogger(__name__)


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


@dataclass(eq=False)
class Followed:
    """One tournament followed by this process: its channel in the group, its sockets here."""

    channel: str
    sockets: set[StandingsConsumer] = field(default_factory=set)
    listener: asyncio.Task | None = None


class ProcessFanOut:
    """The standings sockets of this web process, each tournament's group joined once.

    With one group member per socket, every push put a message per socket on Redis, and a
    process with 300 sockets took its 300 off one by one (channels_redis pops them singly),
    which held its event loop for a quarter of a second at each snapshot while pages and polls
    waited. Here the process joins a tournament's group once, with a channel of its own, and
    hands each push to its sockets in memory; it leaves the group when its last socket there
    closes. Kept per event loop (tests run each in a loop of its own; a server has one).
    """

    def __init__(self) -> None:
        self.followed: dict[tuple[asyncio.AbstractEventLoop, int], Followed] = {}

    async def join(self, layer, tournament_id: int, socket: StandingsConsumer) -> None:
        key = (asyncio.get_running_loop(), tournament_id)
        followed = self.followed.get(key)
        if followed is None:
            # A process channel like the sockets' own: channels_redis reads a process's channels
            # of one prefix with one loop, and one of another prefix waits while it runs.
            channel = await layer.new_channel()
            # Another socket may have started following it while the channel was made.
            followed = self.followed.get(key)
            if followed is None:
                followed = Followed(channel)
                self.followed[key] = followed
                followed.listener = asyncio.create_task(self.listen(layer, followed))
        followed.sockets.add(socket)
        # Each join renews the membership, which channels_redis forgets after a day.
        await layer.group_add(standings_group(tournament_id), followed.channel)

    async def leave(self, layer, tournament_id: int, socket: StandingsConsumer) -> None:
        key = (asyncio.get_running_loop(), tournament_id)
        followed = self.followed.get(key)
        if followed is None:
            return
        followed.sockets.discard(socket)
        if followed.sockets:
            return
        del self.followed[key]
        if followed.listener is not None:
            followed.listener.cancel()
        await layer.group_discard(standings_group(tournament_id), followed.channel)

    async def listen(self, layer, followed: Followed) -> None:
        while True:
            try:
                message = await layer.receive(followed.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis away: the pages poll meanwhile (their sockets stay open), and a push
                # missed is caught up by the next one or a page's sync.
                logger.exception("Could not receive the standings pushes; trying again")
                await asyncio.sleep(1)
                continue
            if message.get("type") != "standings.stored":
                continue
            for socket in list(followed.sockets):
                try:
                    await socket.standings_stored(message)
                except Exception:
                    logger.exception("Could not push the standings to a socket")


fan_out = ProcessFanOut()


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


def opening_state(tournament_id: int, *, kept_only: bool = False) -> LiveState | None:
    """What a socket that opens is sent: `public_state` (`kept_public_state` if `kept_only`)
    or the last push if that is newer; None if not public (or not kept)."""
    state = kept_public_state(tournament_id) if kept_only else public_state(tournament_id)
    return None if state is None else with_last_push(state)


def version_order(version: str) -> int:
    """A version text as a number to compare ("" or anything else than a number: -1)."""
    return int(version) if version.isascii() and version.isdigit() else -1


def shown_version(scope: dict) -> tuple[str, bool]:
    """The version the page shows (its query string) and whether it wants notices only."""
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    version = (query.get("version") or [""])[0][:MAX_VERSION_LENGTH]
    return version, (query.get("notice") or [""])[0] == "1"


class StandingsConsumer(GuardedSocket, AsyncWebsocketConsumer):
    """One page (a phone, a wall screen) watching one public tournament's standings."""

    message_burst = MESSAGE_BURST
    message_rate = MESSAGE_RATE

    tournament_id: int
    notice: bool
    # The version the page shows: a push of the same one sends nothing.
    shown: str = ""

    async def connect(self) -> None:
        self.guard()
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.shown, self.notice = shown_version(self.scope)
        # Join before reading the latest version, so that no snapshot after the read is missed.
        await self.join(standings_group(self.tournament_id))
        # The cache first, off the thread of the database calls, which page loads keep busy.
        state = await sync_to_async(opening_state, thread_sensitive=False)(
            self.tournament_id, kept_only=True
        )
        if state is None:
            state = await database_sync_to_async(opening_state)(self.tournament_id)
        if state is None:
            await self.end(CLOSE_FORBIDDEN)
            return
        await self.accept()
        if version_order(state.version) > version_order(self.shown):
            # A page that reconnects catches up (or one opened before a snapshot was pushed).
            await self.send_block(state.version, state.columns)

    async def follow(self, group: str) -> None:
        """The process follows the group once for all of its sockets (`ProcessFanOut`)."""
        await fan_out.join(self.channel_layer, self.tournament_id, self)

    async def unfollow(self, group: str) -> None:
        await fan_out.leave(self.channel_layer, self.tournament_id, self)

    async def receive_message(self, content: dict[str, Any]) -> None:
        if content.get("type") != "sync":
            await self.send_error(NOT_SYNC)
            return
        await self.send_latest()

    async def standings_stored(self, event: dict[str, Any]) -> None:
        """A push from `web.standings_push.push_standings`, handed on by `fan_out`."""
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
