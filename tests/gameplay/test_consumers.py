"""The live table's websocket: each seat gets only its own cards; moves go through or say why.

Consumers run in asgiref's event loop via `async_to_sync`, so their database calls come back to the
test's thread; the tests still use transactional databases, as Channels recommends.
"""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from gameplay import selectors, services
from gameplay.consumers import MESSAGE_RATE, LiveGameConsumer
from gameplay.models import LiveGame
from gameplay.routing import websocket_urlpatterns
from rules.cards import CARD_NAMES
from tests.factories import UserFactory
from tests.gameplay.conftest import human_choice, live_table_round

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 10


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    # The tests talk to one process; Redis (if configured) is the integration tests' business.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def human_pace(monkeypatch):
    """The scripted players answer at once; on the connection's clock they move at a human's
    pace, below the message allowance (tests/security/test_websocket_hardening.py tests it)."""
    now = [0.0]

    def clock() -> float:
        now[0] += 1.5 / MESSAGE_RATE
        return now[0]

    monkeypatch.setattr(LiveGameConsumer, "clock", staticmethod(clock))


def start_practice(user) -> LiveGame:
    return services.practice_game_start(owner=user, bot_level="easy")


def communicator_for(user, game_id: int) -> WebsocketCommunicator:
    """A websocket to the game as `user` would open it (the session middleware's work done)."""
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game_id}/")
    communicator.scope["user"] = user
    return communicator


async def receive(communicator: WebsocketCommunicator) -> dict:
    return await communicator.receive_json_from(timeout=TIMEOUT)


def state_at(game_id: int, sequence: int):
    """The engine's game after the first `sequence` actions: the truth to compare messages with."""
    game = LiveGame.objects.get(pk=game_id)
    game.sequence = sequence
    return selectors.replay_live_game(game)


def hidden_from(state, seat: int | None) -> set[str]:
    """Cards `seat` (None: a spectator) may not know now: the other hands, less the revealed
    talon and the seat's own gifts."""
    deal = state.deals[-1]
    if deal.done:
        return set()
    hidden = set()
    for other in range(state.players):
        if other != seat:
            hidden |= {CARD_NAMES[card] for card in deal.hand(other)}
    if deal.talon_revealed:
        hidden -= {CARD_NAMES[card] for card in deal.talon_cards}
    for given in deal.observation(seat).given:
        hidden.discard(CARD_NAMES[given[1]])
    return hidden


def assert_only_own_cards(message: dict, game_id: int, seat: int | None) -> None:
    """No card another seat holds unseen appears anywhere in the message."""
    if message["type"] != "view":
        assert set(message) == {"type", "message"}
        return
    view = message["view"]
    state = state_at(game_id, view["sequence"])
    deal = state.deals[-1]
    assert view["seat"] == seat
    own = [] if seat is None else [CARD_NAMES[card] for card in deal.hand(seat)]
    assert view["observation"]["hand"] == own
    # Finished deals show their decks; the deal in progress must not be among them.
    assert all(entry["number"] <= len(state.deals) for entry in view["deals"])
    if not deal.done:
        assert all(entry["number"] < len(state.deals) for entry in view["deals"])
    in_progress = json.dumps({key: value for key, value in view.items() if key != "deals"})
    leaked = {card for card in hidden_from(state, seat) if f'"{card}"' in in_progress}
    assert not leaked, f"seat {seat} was sent {sorted(leaked)} at action {view['sequence']}"


async def play_randomly(communicator, seat: int, moves: int, rng: random.Random) -> list[dict]:
    """Play `moves` random legal actions for the seat; every message received, in order."""
    received = [await receive(communicator)]
    view = received[-1]["view"]
    made = 0
    while made < moves and view["status"] != "finished":
        if not view["legal"]:
            received.append(await receive(communicator))
            if received[-1]["type"] == "view":
                view = received[-1]["view"]
            continue
        action = rng.choice(view["legal"])
        await communicator.send_json_to(
            {"type": "act", "action": action, "sequence": view["sequence"]}
        )
        made += 1
        received.append(await receive(communicator))
        assert received[-1]["type"] == "view", received[-1]
        view = received[-1]["view"]
    return received


def test_a_seat_never_receives_another_seats_cards():
    user = UserFactory()
    game = start_practice(user)

    async def scenario():
        communicator = communicator_for(user, game.pk)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        messages = await play_randomly(communicator, 0, moves=60, rng=random.Random(3))
        await communicator.disconnect()
        return messages

    messages = async_to_sync(scenario)()
    views = [message for message in messages if message["type"] == "view"]
    assert len(views) > 20
    # The run went through bidding, play and into a later deal, where leaks would show.
    phases = {view["view"]["observation"]["phase"] for view in views}
    assert {"bidding", "play"} <= phases
    assert views[-1]["view"]["deals"], "no deal was finished"
    for message in messages:
        assert_only_own_cards(message, game.pk, seat=0)


def test_two_seats_the_director_and_a_spectator_each_get_only_what_they_may_see():
    director, round_ = live_table_round(players=4, deals=3)
    table = round_.tables.get(number=1)
    game = services.live_game_create_for_table(actor=director, table=table)
    seated = {seat.position: seat.user for seat in game.seats.exclude(user=None)}
    assert len(seated) >= 2
    watchers = [(user, position) for position, user in seated.items()]
    watchers += [(director, None), (AnonymousUser(), None)]
    rng = random.Random(8)

    def current_sequence() -> tuple[int, int | None, str]:
        row = LiveGame.objects.get(pk=game.pk)
        return row.sequence, row.to_act, row.status

    async def scenario():
        sockets = [communicator_for(user, game.pk) for user, _ in watchers]
        received: list[list[dict]] = [[] for _ in watchers]
        for communicator in sockets:
            assert (await communicator.connect(timeout=TIMEOUT))[0]
        latest: list[dict] = [{} for _ in watchers]

        async def catch_up(target: int) -> None:
            # Every connection is told of every change; read each one up to the latest view.
            for index, communicator in enumerate(sockets):
                while latest[index].get("sequence", -1) < target:
                    message = await receive(communicator)
                    received[index].append(message)
                    if message["type"] == "view":
                        latest[index] = message["view"]

        moves = 0
        sequence, to_act, status = await database_sync_to_async(current_sequence)()
        await catch_up(sequence)
        while status != "finished" and moves < 120:
            index = next(i for i, (_, seat) in enumerate(watchers) if seat == to_act)
            view = latest[index]
            await sockets[index].send_json_to(
                {"type": "act", "action": human_choice(view["legal"], rng), "sequence": sequence}
            )
            moves += 1
            # The mover's own answer comes first: the table after the move (and the bots').
            answer = await receive(sockets[index])
            received[index].append(answer)
            assert answer["type"] == "view", answer
            latest[index] = answer["view"]
            sequence, to_act, status = await database_sync_to_async(current_sequence)()
            await catch_up(sequence)
        for communicator in sockets:
            await communicator.disconnect()
        return received, moves

    received, moves = async_to_sync(scenario)()
    assert moves > 20
    for (_, seat), messages in zip(watchers, received, strict=True):
        assert any(message["type"] == "view" and message["view"]["deals"] for message in messages)
        for message in messages:
            assert_only_own_cards(message, game.pk, seat)


def test_a_move_is_pushed_to_every_connection_of_the_game():
    user = UserFactory()
    game = start_practice(user)

    async def scenario():
        playing = communicator_for(user, game.pk)
        watching = communicator_for(user, game.pk)  # the same player in a second tab
        assert (await playing.connect(timeout=TIMEOUT))[0]
        assert (await watching.connect(timeout=TIMEOUT))[0]
        view = (await receive(playing))["view"]
        first = (await receive(watching))["view"]
        assert first["sequence"] == view["sequence"]
        action = view["legal"][0]
        await playing.send_json_to({"type": "act", "action": action, "sequence": view["sequence"]})
        after = (await receive(playing))["view"]
        # The other tab is told of each change (the move, then the bots' replies) until it
        # shows the same table.
        pushed = (await receive(watching))["view"]
        while pushed["sequence"] < after["sequence"]:
            pushed = (await receive(watching))["view"]
        await playing.disconnect()
        await watching.disconnect()
        return view, after, pushed

    before, after, pushed = async_to_sync(scenario)()
    assert after["sequence"] > before["sequence"]
    assert pushed["sequence"] == after["sequence"]
    assert pushed["observation"]["bids"] == after["observation"]["bids"]


def test_an_illegal_move_is_refused_with_a_message_and_changes_nothing():
    user = UserFactory()
    game = start_practice(user)

    async def scenario():
        communicator = communicator_for(user, game.pk)
        await communicator.connect(timeout=TIMEOUT)
        view = (await receive(communicator))["view"]
        # A bid below the minimum is never legal.
        bad = {"seat": view["seat"], "type": "bid", "value": 5}
        await communicator.send_json_to(
            {"type": "act", "action": bad, "sequence": view["sequence"]}
        )
        error = await receive(communicator)
        again = (await receive(communicator))["view"]
        await communicator.disconnect()
        return view, error, again

    view, error, again = async_to_sync(scenario)()
    assert error["type"] == "error"
    assert error["message"]
    assert again["sequence"] == view["sequence"]


def test_a_move_made_on_an_old_view_is_refused():
    user = UserFactory()
    game = start_practice(user)

    async def scenario():
        communicator = communicator_for(user, game.pk)
        await communicator.connect(timeout=TIMEOUT)
        view = (await receive(communicator))["view"]
        action = view["legal"][0]
        stale = view["sequence"] - 1 if view["sequence"] else view["sequence"] + 5
        await communicator.send_json_to({"type": "act", "action": action, "sequence": stale})
        error = await receive(communicator)
        current = (await receive(communicator))["view"]
        await communicator.disconnect()
        return view, error, current

    view, error, current = async_to_sync(scenario)()
    assert error["type"] == "error" and error["message"]
    assert current["sequence"] == view["sequence"]


def test_sync_sends_the_view_again_and_bad_messages_get_an_error():
    user = UserFactory()
    game = start_practice(user)

    async def scenario():
        communicator = communicator_for(user, game.pk)
        await communicator.connect(timeout=TIMEOUT)
        first = (await receive(communicator))["view"]
        await communicator.send_json_to({"type": "sync", "since": 0})
        again = await receive(communicator)
        await communicator.send_json_to({"type": "shout"})
        unknown = await receive(communicator)
        await communicator.send_json_to({"type": "act", "action": "pass", "sequence": "x"})
        malformed = await receive(communicator)
        await communicator.send_json_to([1, 2])
        not_object = await receive(communicator)
        await communicator.disconnect()
        return first, again, [unknown, malformed, not_object]

    first, again, errors = async_to_sync(scenario)()
    assert again == {"type": "view", "view": first}
    assert all(error["type"] == "error" and error["message"] for error in errors)


def test_only_people_allowed_to_watch_may_connect():
    owner = UserFactory()
    game = start_practice(owner)
    stranger = UserFactory()

    async def scenario():
        results = []
        for user in (stranger, AnonymousUser()):
            communicator = communicator_for(user, game.pk)
            results.append(await communicator.connect(timeout=TIMEOUT))
            await communicator.disconnect()
        missing = communicator_for(owner, game.pk + 1000)
        results.append(await missing.connect(timeout=TIMEOUT))
        return results

    for connected, code in async_to_sync(scenario)():
        assert not connected
        assert code == 4403


def test_the_asgi_application_knows_the_player_by_the_session_and_checks_the_origin():
    from config.asgi import application

    user = UserFactory()
    game = start_practice(user)
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    path = f"/ws/games/{game.pk}/"

    async def scenario():
        own_page = WebsocketCommunicator(
            application,
            path,
            headers=[
                (b"cookie", cookie.encode()),
                (b"host", b"testserver"),
                (b"origin", b"http://testserver"),
            ],
        )
        connected, _ = await own_page.connect(timeout=TIMEOUT)
        view = (await receive(own_page))["view"] if connected else None
        await own_page.disconnect()
        other_site = WebsocketCommunicator(
            application,
            path,
            headers=[
                (b"cookie", cookie.encode()),
                (b"host", b"testserver"),
                (b"origin", b"http://evil.example"),
            ],
        )
        refused, _ = await other_site.connect(timeout=TIMEOUT)
        await other_site.disconnect()
        return connected, view, refused

    connected, view, refused = async_to_sync(scenario)()
    assert connected
    assert view["seat"] == 0
    assert not refused


def test_the_leak_check_itself_catches_a_card_of_another_seat():
    user = UserFactory()
    game = start_practice(user)
    view = selectors.live_game_view(game, user=user)
    other_card = CARD_NAMES[selectors.live_game_state(game).deals[-1].hand(1)[0]]
    view["observation"]["talon"] = [other_card]

    with pytest.raises(AssertionError, match=other_card):
        assert_only_own_cards({"type": "view", "view": view}, game.pk, seat=0)
