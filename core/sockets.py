"""What every websocket of the site does the same way: small frames, a bounded pace, one language.

The sockets (a live table's in gameplay.consumers, a tournament's standings in web.consumers)
take few and small messages from pages, so each is guarded alike: a frame larger than
MAX_FRAME_BYTES closes the socket unread; each connection may send `message_burst` messages at
once and `message_rate` a second after that (each consumer says its own pace), beyond which
messages are dropped (a run of dropped messages gets one error, not one each, so a flood is not
echoed back) and, once that has happened MAX_DROPPED times, the socket is closed. A frame that
is not a JSON object gets an error, never a server error. Errors are sent as
{"type": "error", "message": ...} in the language the page was shown in.

Who may open a socket is its consumer's business; which page may is core.websocket_origin's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

# Close codes in the range websockets leave to applications (4000-4999), 4000 and the HTTP
# status that says the same: refused, too many messages at once, a message too large to take.
# (Not RFC 6455's 1008 and 1009: the development server, daphne, lets an application send only
# 1000 and 3000-4999, and turned them into a crash and 1011.)
CLOSE_FORBIDDEN = 4403
CLOSE_POLICY_VIOLATION = 4429
CLOSE_TOO_BIG = 4413

# The largest honest message (a move with its sequence number) is under 200 bytes.
MAX_FRAME_BYTES = 16 * 1024
# Only a script floods: a connection that has had this many messages dropped is closed.
MAX_DROPPED = 20

NOT_AN_OBJECT = gettext_lazy("A message must be a JSON object.")
TOO_BIG = gettext_lazy("The message is too large.")
TOO_FAST = gettext_lazy("Too many messages: wait a moment before sending the next one.")


class MessageAllowance:
    """A token bucket: `burst` messages at once, refilled at `rate` a second, on `clock`."""

    def __init__(self, *, burst: int, rate: float, clock: Callable[[], float]) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = float(burst)
        self.checked_at = clock()

    def take(self) -> bool:
        """Whether one more message is allowed now (and count it if so)."""
        now = self.clock()
        elapsed = max(0.0, now - self.checked_at)
        self.checked_at = now
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.rate)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def frame_too_big(text_data: str | None, bytes_data: bytes | None) -> bool:
    """Whether the frame is larger than MAX_FRAME_BYTES, text counted in UTF-8 bytes."""
    if text_data is not None:
        # Counting characters first spares encoding a huge frame only to measure it.
        if len(text_data) > MAX_FRAME_BYTES:
            return True
        return len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES
    return len(bytes_data or b"") > MAX_FRAME_BYTES


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


class GuardedSocket:
    """The guards of the module docstring, for a Channels websocket consumer (mixed in first).

    A consumer sets its pace (`message_burst`, `message_rate`), calls `guard()` first in
    `connect`, `join(group)` to follow its group, `end(code)` to close (before accepting, that
    refuses the socket), and gets each admitted message, decoded, in `receive_message`. After
    `end` or a disconnect nothing more is read or pushed (`ended`). Membership of the group is
    the channel layer's, one member per socket, unless the consumer follows it otherwise
    (`follow` and `unfollow`).
    """

    message_burst: int
    message_rate: float
    # The clock of the message allowance (tests set their own).
    clock: Callable[[], float] = staticmethod(time.monotonic)

    scope: dict
    channel_layer: Any
    channel_name: str
    group: str = ""
    language: str = ""
    allowance: MessageAllowance
    joined: bool = False
    ended: bool = False
    dropped: int = 0
    dropping: bool = False

    def guard(self) -> None:
        """Start the connection's allowance and read its language."""
        self.allowance = MessageAllowance(
            burst=self.message_burst, rate=self.message_rate, clock=self.clock
        )
        self.language = scope_language(self.scope)

    async def join(self, group: str) -> None:
        self.group = group
        await self.follow(group)
        self.joined = True

    async def end(self, code: int) -> None:
        """Close the socket (before accepting it, that refuses it) and stop serving it."""
        self.ended = True
        await self.leave_group()
        await self.close(code=code)  # type: ignore[attr-defined]

    async def leave_group(self) -> None:
        if self.joined:
            self.joined = False
            await self.unfollow(self.group)

    async def follow(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)

    async def unfollow(self, group: str) -> None:
        await self.channel_layer.group_discard(group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        self.ended = True
        await self.leave_group()

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if self.ended or not await self.admit():
            return
        if frame_too_big(text_data, bytes_data):
            await self.send_error(TOO_BIG)
            await self.end(CLOSE_TOO_BIG)
            return
        # A frame that is not JSON text (or nests too deeply to decode) is a bad message like
        # any other: it gets an error, rather than ending the connection with a server error.
        try:
            content = await self.decode_json(text_data) if text_data is not None else None
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict):
            await self.send_error(NOT_AN_OBJECT)
            return
        await self.receive_message(content)

    async def receive_message(self, content: dict[str, Any]) -> None:
        raise NotImplementedError

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        return json.loads(text_data)

    async def admit(self) -> bool:
        """Whether the message is within the connection's allowance (the module docstring)."""
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

    def translate(self, message) -> str:
        """A message (lazy or not) in the page's language."""
        with translation.override(self.language):
            return str(message)

    async def send_error(self, message) -> None:
        text = json.dumps({"type": "error", "message": self.translate(message)})
        await self.send(text_data=text)  # type: ignore[attr-defined]
