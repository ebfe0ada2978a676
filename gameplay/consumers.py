"""The websocket of a live table: pushes each watcher its own view of the game and takes moves.

Every message this consumer sends is built by `live_game_view` for the user of this very
connection, so a seat only ever receives its own hand and a spectator only public information.
The group message `game.changed` carries no game data at all, only the new sequence number.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.exceptions import Conflict
from gameplay import selectors, services
from gameplay.broadcast import game_group

# Close codes in the range websockets leave to applications (4000-4999).
CLOSE_FORBIDDEN = 4403

NOT_AN_OBJECT = gettext_lazy("A message must be a JSON object.")
UNKNOWN_TYPE = gettext_lazy("Unknown message type.")
BAD_ACT = gettext_lazy("An act message needs an action object and a sequence number.")


def permitted_game(user, game_id: int):
    """The live game if `user` may watch or play it, else None (whatever the selector raises)."""
    try:
        return selectors.live_game_for_user(user, game_id)
    except (PermissionDenied, Http404, ObjectDoesNotExist):
        return None


def scope_language(scope: dict) -> str:
    """The language the page was shown in: the language cookie, else the browser's choice."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            header = value.decode("latin-1")
            candidates += [
                code for code, _q in translation.trans_real.parse_accept_lang_header(header)
            ]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def view_for(user, game_id: int, language: str) -> dict[str, Any] | None:
    """The game as `user` may see it now, or None when they may no longer see it."""
    with translation.override(language):
        game = permitted_game(user, game_id)
        if game is None:
            return None
        return selectors.live_game_view(game, user=user)


def refusal_message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error) or _("The move was refused.")


def act(user, game_id: int, action: dict, sequence: int, language: str) -> str | None:
    """Make a move as `user`; the refusal's message, or None when the move was made."""
    with translation.override(language):
        game = permitted_game(user, game_id)
        if game is None:
            return _("You may not play at this table.")
        try:
            services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)
        except (ValidationError, Conflict, PermissionDenied) as error:
            return refusal_message(error)
    return None


class LiveGameConsumer(AsyncJsonWebsocketConsumer):
    """One watcher (a seat, a spectator or the director) of one live game."""

    game_id: int
    group: str
    language: str
    # The sequence of the last view sent; change notices at or below it need no new view.
    sent_sequence: int = -1
    joined: bool = False

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = game_group(self.game_id)
        self.language = scope_language(self.scope)
        game = await database_sync_to_async(permitted_game)(self.scope.get("user"), self.game_id)
        if game is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        # Join before reading the view, so that no change after the read goes unnoticed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        await self.accept()
        await self.send_view()

    async def disconnect(self, code: int) -> None:
        if self.joined:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        # A frame that is not JSON text (or nests too deeply to decode) is a bad message like
        # any other: it gets an error, rather than ending the connection with a server error.
        try:
            content = await self.decode_json(text_data) if text_data is not None else None
        except (ValueError, RecursionError):
            content = None
        if content is None:
            await self.send_error(self.translate(NOT_AN_OBJECT))
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs) -> None:
        if not isinstance(content, dict):
            await self.send_error(self.translate(NOT_AN_OBJECT))
            return
        kind = content.get("type")
        if kind == "act":
            await self.receive_act(content)
        elif kind == "sync":
            # A page that was away (reconnected, woke up) asks for the state it missed.
            await self.send_view(force=True)
        else:
            await self.send_error(self.translate(UNKNOWN_TYPE))

    async def receive_act(self, content: dict) -> None:
        action = content.get("action")
        sequence = content.get("sequence")
        if not isinstance(action, dict) or type(sequence) is not int:
            await self.send_error(self.translate(BAD_ACT))
            return
        refusal = await database_sync_to_async(act)(
            self.scope.get("user"), self.game_id, action, sequence, self.language
        )
        if refusal is not None:
            await self.send_error(refusal)
        # After a move or a refusal the page must show the table as it is now.
        await self.send_view(force=True)

    async def game_changed(self, event: dict) -> None:
        """Group message from `gameplay.broadcast.notify_game_changed`."""
        sequence = event.get("sequence")
        if isinstance(sequence, int) and sequence <= self.sent_sequence:
            return
        await self.send_view()

    async def send_view(self, *, force: bool = False) -> None:
        view = await database_sync_to_async(view_for)(
            self.scope.get("user"), self.game_id, self.language
        )
        if view is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        sequence = view.get("sequence", 0)
        if not force and sequence <= self.sent_sequence:
            return
        self.sent_sequence = max(self.sent_sequence, sequence)
        await self.send_json({"type": "view", "view": view})

    def translate(self, message) -> str:
        with translation.override(self.language):
            return str(message)

    async def send_error(self, message: str) -> None:
        await self.send_json({"type": "error", "message": message})
