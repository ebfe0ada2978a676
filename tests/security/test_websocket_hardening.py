"""The live table's websocket against another site's page, a signed-out player's open tab, huge
frames and floods.

Opening and sign-out go through the whole ASGI application (`config.asgi`) with a real session
cookie, as a browser does; frames and floods talk to the consumer directly. Consumers run in
asgiref's event loop via `async_to_sync` and come back to the test's thread for the database, so
the tests use transactional databases, as in tests/gameplay/test_consumers.py.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.sockets import MAX_DROPPED, MAX_FRAME_BYTES, MessageAllowance
from gameplay import selectors, services
from gameplay.consumers import MESSAGE_BURST, MESSAGE_RATE, LiveGameConsumer
from gameplay.models import LiveGame
from gameplay.routing import websocket_urlpatterns
from tests.factories import UserFactory
from tests.gameplay.conftest import live_table_round

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10
CLOSE_FORBIDDEN = 4403


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


class Clock:
    """The consumers' clock, moved by the test only."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    frozen = Clock()
    monkeypatch.setattr(LiveGameConsumer, "clock", staticmethod(frozen))
    return frozen


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def browser_socket(
    client: Client | None,
    game_id: int,
    *,
    host: str = "testserver",
    origin: str | None = "http://testserver",
    scheme: str = "ws",
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> WebsocketCommunicator:
    """A websocket to the whole application as a browser opens it from a page at `origin`."""
    from config.asgi import application

    headers = [(b"host", host.encode())]
    if client is not None:
        cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    headers += extra
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    communicator.scope["scheme"] = scheme
    return communicator


def direct_socket(user, game_id: int) -> WebsocketCommunicator:
    """A websocket to the consumer, its user already known (the session middleware's work)."""
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game_id}/")
    communicator.scope["user"] = user
    return communicator


async def receive(communicator: WebsocketCommunicator) -> dict:
    return await communicator.receive_json_from(timeout=TIMEOUT)


async def closed_with(communicator: WebsocketCommunicator) -> int:
    """The close code of the next thing the socket does (it must be closing)."""
    output = await communicator.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return output.get("code", 1000)


def sequence_of(game_id: int) -> int:
    return LiveGame.objects.get(pk=game_id).sequence


@pytest.fixture
def decoded(monkeypatch) -> list[str]:
    """Every frame the consumer decodes as JSON."""
    seen: list[str] = []
    original = LiveGameConsumer.decode_json.__func__

    async def spy(cls, text_data):
        seen.append(text_data)
        return await original(cls, text_data)

    monkeypatch.setattr(LiveGameConsumer, "decode_json", classmethod(spy))
    return seen


# ----------------------------------------------------------------------------- the origin


ORIGINS = [
    # (Host header, scheme of the socket, Origin header, opens?)
    ("club.example", "ws", "http://club.example", True),
    ("club.example:8000", "ws", "http://club.example:8000", True),
    ("club.example", "wss", "https://club.example", True),
    # Another service on the same host: another port, or the default one.
    ("club.example", "ws", "http://club.example:8080", False),
    ("club.example:8000", "ws", "http://club.example", False),
    ("club.example:8000", "ws", "http://club.example:9999", False),
    # Another scheme: a plain-http page may not use the https site's cookies, nor the reverse.
    ("club.example", "ws", "https://club.example", False),
    ("club.example", "wss", "http://club.example", False),
    # Other sites, a subdomain, sandboxed and local pages, and no Origin at all.
    ("club.example", "ws", "http://evil.example", False),
    ("club.example", "ws", "http://table.club.example", False),
    ("club.example", "ws", "null", False),
    ("club.example", "ws", None, False),
    # DNS rebinding: the attacker's name pointed at the club's server is its own origin.
    ("evil.example", "ws", "http://evil.example", False),
]


@pytest.mark.parametrize(("host", "scheme", "origin", "opens"), ORIGINS)
def test_a_websocket_opens_only_from_the_sites_own_origin(settings, host, scheme, origin, opens):
    settings.ALLOWED_HOSTS = ["club.example"]
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk, host=host, origin=origin, scheme=scheme)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        view = (await receive(socket))["view"] if connected else None
        await socket.disconnect()
        return connected, view

    connected, view = async_to_sync(scenario)()
    assert connected is opens
    if opens:
        assert view["seat"] == 0 and view["observation"]["hand"]


@pytest.mark.parametrize(
    ("origin", "opens"),
    [
        ("https://play.club.example", True),
        ("https://table.club.example", True),
        ("https://deep.table.club.example", True),
        ("http://play.club.example", False),
        ("https://table.club.example:444", False),
        ("https://club.example.evil", False),
    ],
)
def test_trusted_origins_are_read_as_for_forms(settings, origin, opens):
    settings.ALLOWED_HOSTS = ["club.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.club.example", "https://*.table.club.example"]
    # Django's rule for "https://*.table.club.example" is every subdomain and the name itself.
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk, host="club.example", origin=origin, scheme="wss")
        connected, _ = await socket.connect(timeout=TIMEOUT)
        await socket.disconnect()
        return connected

    assert async_to_sync(scenario)() is opens


@pytest.mark.parametrize(
    ("forwarded", "origin", "opens"),
    [
        (b"https", "https://club.example", True),
        (b"https", "http://club.example", False),
        # Without the proxy's word the socket is plain ws, as pages are plain http.
        (None, "https://club.example", False),
        (b"http", "https://club.example", False),
    ],
)
def test_behind_the_tls_proxy_its_header_says_the_scheme(settings, forwarded, origin, opens):
    settings.ALLOWED_HOSTS = ["club.example"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)
    extra = ((b"x-forwarded-proto", forwarded),) if forwarded else ()

    async def scenario():
        socket = browser_socket(client, game.pk, host="club.example", origin=origin, extra=extra)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        await socket.disconnect()
        return connected

    assert async_to_sync(scenario)() is opens


@pytest.mark.parametrize(
    ("host", "origin", "opens"),
    [
        ("localhost:8000", "http://localhost:8000", True),
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        # Another program on the developer's machine.
        ("localhost:8000", "http://localhost:9999", False),
        ("127.0.0.1:8000", "http://127.0.0.1:3000", False),
        ("localhost:8000", "http://127.0.0.1:8000", False),
    ],
)
def test_in_development_only_the_servers_own_local_origin_opens(settings, host, origin, opens):
    settings.DEBUG = True
    settings.ALLOWED_HOSTS = []
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk, host=host, origin=origin)
        connected, _ = await socket.connect(timeout=TIMEOUT)
        await socket.disconnect()
        return connected

    assert async_to_sync(scenario)() is opens


def test_a_refused_origin_is_refused_at_the_handshake_and_nothing_it_sends_is_read(decoded):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)
    move = selectors.live_game_view(game, user=user)["legal"][0]

    async def scenario():
        socket = browser_socket(client, game.pk, origin="http://testserver:8080")
        connected, _ = await socket.connect(timeout=TIMEOUT)
        await socket.send_json_to({"type": "act", "action": move, "sequence": game.sequence})
        await socket.send_json_to({"type": "sync"})
        silent = await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()
        return connected, silent

    connected, silent = async_to_sync(scenario)()
    assert not connected
    assert silent
    assert decoded == []
    assert sequence_of(game.pk) == game.sequence


# ------------------------------------------------------------------------------- sign-out


def seated_pair():
    """A tournament table with two seated players: (game, the one not to act, the one to act)."""
    director, round_ = live_table_round(players=4, deals=3)
    game = services.live_game_create_for_table(actor=director, table=round_.tables.get(number=1))
    game.refresh_from_db()
    humans = {seat.position: seat.user for seat in game.seats.exclude(user=None)}
    assert game.to_act in humans and len(humans) >= 2
    waiting = next(user for position, user in humans.items() if position != game.to_act)
    return game, waiting, humans[game.to_act]


def sign_out(how: str, client: Client, user) -> None:
    """End the session of `client` the way `how` says (each a way a session ends in a club)."""
    key = client.session.session_key
    if how == "logout":
        client.post(reverse("logout"))
    elif how == "expired":
        Session.objects.filter(session_key=key).update(
            expire_date=timezone.now() - timezone.timedelta(seconds=1)
        )
    elif how == "deleted":
        # `clearsessions`, or the director signing everyone out, works on the store.
        Session.objects.filter(session_key=key).delete()
    elif how == "password changed":
        user.set_password("a new password 1001")
        user.save()
    elif how == "deactivated":
        user.is_active = False
        user.save()


@pytest.mark.parametrize("how", ["logout", "expired", "deleted", "password changed", "deactivated"])
def test_after_signing_out_the_open_tab_gets_no_more_of_his_hand(how):
    game, waiting, mover = seated_pair()
    waiting_client, mover_client = signed_in(waiting), signed_in(mover)

    async def scenario():
        his = browser_socket(waiting_client, game.pk)
        other = browser_socket(mover_client, game.pk)
        assert (await his.connect(timeout=TIMEOUT))[0] and (await other.connect(timeout=TIMEOUT))[0]
        first = (await receive(his))["view"]
        move = (await receive(other))["view"]
        await sync_to_async(sign_out)(how, waiting_client, waiting)
        # The next change of the game: the other seat's move.
        await database_sync_to_async(services.live_game_act)(
            actor=mover, game=game, action=move["legal"][0], expected_sequence=move["sequence"]
        )
        code = await closed_with(his)
        # The other player plays on.
        pushed = (await receive(other))["view"]
        await other.disconnect()
        return first, code, pushed

    first, code, pushed = async_to_sync(scenario)()
    assert first["observation"]["hand"], "he saw his hand while signed in"
    assert code == CLOSE_FORBIDDEN
    assert pushed["sequence"] > first["sequence"]


def test_a_signed_out_tab_cannot_move_and_reads_nothing_after(decoded):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        view = (await receive(socket))["view"]
        await sync_to_async(client.post)(reverse("logout"))
        act = {"type": "act", "action": view["legal"][0], "sequence": view["sequence"]}
        await socket.send_json_to(act)
        code = await closed_with(socket)
        await socket.send_json_to(act)
        silent = await socket.receive_nothing(timeout=0.2)
        return view, code, silent

    view, code, silent = async_to_sync(scenario)()
    assert view["legal"]
    assert code == CLOSE_FORBIDDEN
    assert silent
    assert len(decoded) == 1, "the frame after the close was read"
    assert sequence_of(game.pk) == game.sequence


def test_a_sync_after_signing_out_sends_no_hand():
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        await sync_to_async(client.post)(reverse("logout"))
        await socket.send_json_to({"type": "sync"})
        return await closed_with(socket)

    assert async_to_sync(scenario)() == CLOSE_FORBIDDEN


def test_signing_in_again_elsewhere_keeps_the_tab_playing():
    """Another browser's sign-in (or sign-out) is another session: this tab's still holds."""
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    client = signed_in(user)
    phone = signed_in(user)

    async def scenario():
        socket = browser_socket(client, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        await sync_to_async(phone.post)(reverse("logout"))
        await socket.send_json_to({"type": "sync"})
        view = (await receive(socket))["view"]
        await socket.disconnect()
        return view

    assert async_to_sync(scenario)()["observation"]["hand"]


def test_the_polling_fallback_forgets_the_player_at_sign_out():
    # No fix needed: each poll is a request, and Django's sessions answer it as the user now.
    game, waiting, _mover = seated_pair()
    client = signed_in(waiting)
    url = reverse("live-game-state", args=[game.pk])
    assert client.get(url).json()["observation"]["hand"]

    client.post(reverse("logout"))

    after = client.get(url).json()
    assert after["seat"] is None and after["observation"]["hand"] == []


# --------------------------------------------------------------------------------- frames


def padded_act(view: dict, size: int) -> str:
    """The seat's legal move as one frame of `size` bytes (padding in a field nobody reads)."""
    message = {"type": "act", "action": view["legal"][0], "sequence": view["sequence"], "pad": ""}
    bare = len(json.dumps(message))
    message["pad"] = "x" * (size - bare)
    text = json.dumps(message)
    assert len(text.encode()) == size
    return text


def test_a_huge_frame_is_not_read_and_closes_the_socket(decoded):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        view = (await receive(socket))["view"]
        # A real move, so reading the frame at all would show as the move being made.
        await socket.send_to(text_data=padded_act(view, 15 * 1024 * 1024))
        error = await receive(socket)
        code = await closed_with(socket)
        return error, code

    error, code = async_to_sync(scenario)()
    assert error["type"] == "error" and error["message"]
    assert code == 4413
    assert decoded == []
    assert sequence_of(game.pk) == game.sequence


def test_a_frame_of_many_byte_characters_is_measured_in_bytes(decoded):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")
    # Fewer characters than the limit, but three bytes each.
    text = json.dumps(
        {"type": "sync", "pad": "\u20ac" * (MAX_FRAME_BYTES // 2)}, ensure_ascii=False
    )
    assert len(text) < MAX_FRAME_BYTES < len(text.encode())

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        await socket.send_to(text_data=text)
        await receive(socket)
        return await closed_with(socket)

    assert async_to_sync(scenario)() == 4413
    assert decoded == []


def test_a_huge_binary_frame_closes_the_socket():
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        await socket.send_to(bytes_data=b"{" * (MAX_FRAME_BYTES + 1))
        await receive(socket)
        return await closed_with(socket)

    assert async_to_sync(scenario)() == 4413


def test_a_move_just_under_the_frame_limit_is_still_made():
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        view = (await receive(socket))["view"]
        await socket.send_to(text_data=padded_act(view, MAX_FRAME_BYTES))
        after = (await receive(socket))["view"]
        await socket.disconnect()
        return view, after

    view, after = async_to_sync(scenario)()
    assert after["sequence"] > view["sequence"]


def test_a_refused_connection_reads_none_of_its_frames(decoded):
    owner = UserFactory()
    game = services.practice_game_start(owner=owner, bot_level="easy")
    move = selectors.live_game_view(game, user=owner)["legal"][0]
    stranger = UserFactory()

    async def scenario():
        socket = direct_socket(stranger, game.pk)
        connected, code = await socket.connect(timeout=TIMEOUT)
        await socket.send_json_to({"type": "act", "action": move, "sequence": game.sequence})
        await socket.send_to(text_data="[" * (15 * 1024 * 1024))
        silent = await socket.receive_nothing(timeout=0.2)
        return connected, code, silent

    connected, code, silent = async_to_sync(scenario)()
    assert (connected, code) == (False, CLOSE_FORBIDDEN)
    assert silent, "a refused connection answered"
    assert decoded == []
    assert sequence_of(game.pk) == game.sequence


# ----------------------------------------------------------------------------- the rate


def test_the_allowance_gives_a_burst_then_its_rate():
    clock = Clock()
    allowance = MessageAllowance(burst=MESSAGE_BURST, rate=MESSAGE_RATE, clock=clock)

    assert all(allowance.take() for _ in range(MESSAGE_BURST))
    assert not allowance.take()
    clock.now += 1 / MESSAGE_RATE
    assert allowance.take()
    assert not allowance.take()
    # A long pause refills the burst, no more.
    clock.now += 3600
    assert sum(allowance.take() for _ in range(MESSAGE_BURST * 3)) == MESSAGE_BURST
    # A clock that goes back (it should not) gives nothing extra.
    clock.now -= 3600
    assert not allowance.take()


def test_a_flood_gets_one_error_then_the_socket_is_closed(clock):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        answers = []
        for _ in range(MESSAGE_BURST):
            await socket.send_json_to({"type": "sync"})
            answers.append(await receive(socket))
        await socket.send_json_to({"type": "sync"})
        error = await receive(socket)
        # Dropped without a word, until there were too many.
        for _ in range(MAX_DROPPED - 2):
            await socket.send_json_to({"type": "sync"})
        silent = await socket.receive_nothing(timeout=0.2)
        await socket.send_json_to({"type": "sync"})
        code = await closed_with(socket)
        return answers, error, silent, code

    answers, error, silent, code = async_to_sync(scenario)()
    assert all(answer["type"] == "view" for answer in answers)
    assert error["type"] == "error" and error["message"]
    assert silent
    assert code == 4429


def test_a_player_who_waits_may_go_on(clock):
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        for _ in range(MESSAGE_BURST):
            await socket.send_json_to({"type": "sync"})
            await receive(socket)
        await socket.send_json_to({"type": "sync"})
        too_fast = await receive(socket)
        clock.now += 2
        kinds = []
        for _ in range(int(2 * MESSAGE_RATE)):
            await socket.send_json_to({"type": "sync"})
            kinds.append((await receive(socket))["type"])
        # A new run of dropped messages is told again.
        await socket.send_json_to({"type": "sync"})
        again = await receive(socket)
        await socket.disconnect()
        return too_fast, kinds, again

    too_fast, kinds, again = async_to_sync(scenario)()
    assert too_fast["type"] == "error"
    assert kinds == ["view"] * int(2 * MESSAGE_RATE)
    assert again["type"] == "error"


def test_a_human_pace_is_never_limited(clock):
    """Five minutes of a move every quarter second, faster than anyone plays cards."""
    user = UserFactory()
    game = services.practice_game_start(owner=user, bot_level="easy")

    async def scenario():
        socket = direct_socket(user, game.pk)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await receive(socket)
        kinds = set()
        for _ in range(200):
            clock.now += 1 / (MESSAGE_RATE * 0.8)
            await socket.send_json_to({"type": "sync"})
            kinds.add((await receive(socket))["type"])
        await socket.disconnect()
        return kinds

    assert async_to_sync(scenario)() == {"view"}
