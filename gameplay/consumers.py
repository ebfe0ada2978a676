"""The websocket of a live table: pushes each watcher its own view of the game and takes moves.

Every message this consumer sends is built by `live_game_view` for the user of this very
connection, so a seat only ever receives its own hand and a spectator only public information.
The group message `game.changed` carries no game data at all, only the new sequence number.

The user is the one the session named when the socket opened, and only while that session
still names him: each view sent and each move taken first reads the session again, so signing
out (in any tab of that browser), a session that expired or was deleted, a changed password or a
deactivated account closes the socket instead of showing the hand to whoever has the screen
next. A guest (not signed in) is known the same way by the practice key his session holds, and
sees his own practice games only. Frames are small and few (core.sockets guards them): each
connection may send MESSAGE_BURST messages at once and MESSAGE_RATE a second after that (a page
waits for the answer to each move before it sends the next).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.exceptions import Conflict
from core.i18n import error_message
from core.sockets import CLOSE_FORBIDDEN, GuardedSocket
from gameplay import selectors, services
from gameplay.broadcast import game_group

# A human makes a move or two a second at most, and the page sends one message per answer, so
# these bound only scripts: 5 a second for good, 30 at once (scripted checks of bad input send
# some 26 in a row).
MESSAGE_BURST = 30
MESSAGE_RATE = 5.0

UNKNOWN_TYPE = gettext_lazy("Unknown message type.")
BAD_ACT = gettext_lazy("An act message needs an action object and a sequence number.")


class SignedOut(Exception):
    """The session the socket was opened with no longer signs its user in."""


def signed_in_user_id(session_key: str | None) -> Any | None:
    """The id of the user the stored session signs in now, or None.

    Django's check of a session (`django.contrib.auth.get_user`), read from the store afresh:
    the session must still exist (not flushed by signing out, not expired), name a configured
    backend whose user still exists and may sign in, and carry that user's current session
    hash (a changed password signs him out) or one under a fallback secret key. Unlike Django it
    never writes the session: cycling or flushing it is the pages' business.
    """
    if not session_key:
        return None
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(user_id)
    if user is None:
        return None
    if hasattr(user, "get_session_auth_hash"):
        session_hash = session.get(HASH_SESSION_KEY)
        hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
        if not session_hash or not any(constant_time_compare(session_hash, h) for h in hashes):
            return None
    return user.pk


def stored_guest(session_key: str | None) -> str:
    """The guest key the stored session holds now ("" once it is gone: signed in, flushed,
    expired), read from the store afresh like `signed_in_user_id`."""
    if not session_key:
        return ""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    return selectors.session_guest(session)


def connection_user(scope: dict):
    """The user the connection sees and acts as; SignedOut once its session no longer names him.

    Anonymous watchers have nothing private to lose; a guest (`selectors.Guest`) is anonymous
    but for his own practice games, and only while his session still holds his key. A scope
    without a session is one whose user was handed to the consumer directly (tests);
    config.asgi always adds the session.
    """
    user = scope.get("user")
    if "session" in scope and (user is None or not user.is_authenticated):
        # Only a session that held a key when the socket opened can be a guest's: anonymous
        # spectators of a tournament table cost no read of the store.
        if not selectors.session_guest(scope["session"]):
            return user
        key = stored_guest(scope["session"].session_key)
        return selectors.Guest(key) if key else user
    if user is None or not user.is_authenticated or "session" not in scope:
        return user
    if signed_in_user_id(scope["session"].session_key) != user.pk:
        raise SignedOut
    return user


def permitted_game(user, game_id: int):
    """The live game if `user` may watch or play it, else None (whatever the selector raises)."""
    try:
        return selectors.live_game_for_user(user, game_id)
    except (PermissionDenied, Http404, ObjectDoesNotExist):
        return None


def connection_game(scope: dict, game_id: int):
    """The live game if the connection's user (or guest) may watch it, else None."""
    try:
        return permitted_game(connection_user(scope), game_id)
    except SignedOut:
        return None


def view_for(scope: dict, game_id: int, language: str) -> dict[str, Any] | None:
    """The game as the connection's user may see it now, or None when he may no longer see it
    (SignedOut when the session no longer signs him in)."""
    user = connection_user(scope)
    with translation.override(language):
        game = permitted_game(user, game_id)
        if game is None:
            return None
        return selectors.live_game_view(game, user=user)


def refusal_message(error: Exception) -> str:
    return error_message(error) or _("The move was refused.")


def act(scope: dict, game_id: int, action: dict, sequence: int, language: str) -> str | None:
    """Make a move as the connection's user; the refusal's message, or None when the move was
    made (SignedOut, and no move, when the session no longer signs him in)."""
    user = connection_user(scope)
    with translation.override(language):
        game = permitted_game(user, game_id)
        if game is None:
            return _("You may not play at this table.")
        try:
            services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)
        except (ValidationError, Conflict, PermissionDenied) as error:
            return refusal_message(error)
    return None


class LiveGameConsumer(GuardedSocket, AsyncJsonWebsocketConsumer):
    """One watcher (a seat, a spectator or the director) of one live game."""

    message_burst = MESSAGE_BURST
    message_rate = MESSAGE_RATE

    game_id: int
    # The sequence of the last view sent; change notices at or below it need no new view.
    sent_sequence: int = -1

    async def connect(self) -> None:
        self.guard()
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        game = await database_sync_to_async(connection_game)(self.scope, self.game_id)
        if game is None:
            await self.end(CLOSE_FORBIDDEN)
            return
        # Join before reading the view, so that no change after the read goes unnoticed.
        await self.join(game_group(self.game_id))
        await self.accept()
        await self.send_view()

    async def receive_message(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "act":
            await self.receive_act(content)
        elif kind == "sync":
            # A page that was away (reconnected, woke up) asks for the state it missed.
            await self.send_view(force=True)
        else:
            await self.send_error(UNKNOWN_TYPE)

    async def receive_act(self, content: dict) -> None:
        action = content.get("action")
        sequence = content.get("sequence")
        if not isinstance(action, dict) or type(sequence) is not int:
            await self.send_error(BAD_ACT)
            return
        try:
            refusal = await database_sync_to_async(act)(
                self.scope, self.game_id, action, sequence, self.language
            )
        except SignedOut:
            await self.end(CLOSE_FORBIDDEN)
            return
        if refusal is not None:
            await self.send_error(refusal)
        # After a move or a refusal the page must show the table as it is now.
        await self.send_view(force=True)

    async def game_changed(self, event: dict) -> None:
        """Group message from `gameplay.broadcast.notify_game_changed`."""
        if self.ended:
            return
        sequence = event.get("sequence")
        if isinstance(sequence, int) and sequence <= self.sent_sequence:
            return
        await self.send_view()

    async def send_view(self, *, force: bool = False) -> None:
        try:
            view = await database_sync_to_async(view_for)(self.scope, self.game_id, self.language)
        except SignedOut:
            view = None
        if view is None:
            await self.end(CLOSE_FORBIDDEN)
            return
        sequence = view.get("sequence", 0)
        if not force and sequence <= self.sent_sequence:
            return
        self.sent_sequence = max(self.sent_sequence, sequence)
        await self.send_json({"type": "view", "view": view})
