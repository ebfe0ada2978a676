"""At a tournament's live table a player never sees another seat's cards and never acts for
another seat, through the table page, its JSON endpoints or its websocket.

tests/gameplay covers the practice game's pages and the websocket's views; this adds the
tournament table seen by each of its seated players, a player of another table, both directors
and the public over HTTP, and every way of moving for someone else.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from gameplay import selectors, services
from gameplay.models import LiveAction, LiveGame
from rules.cards import CARD_NAMES
from tests.gameplay.conftest import human_choice
from tests.gameplay.test_consumers import assert_only_own_cards, hidden_from

pytestmark = pytest.mark.django_db

VIEW_SCRIPT = re.compile(r'<script id="table-view" type="application/json">(.*?)</script>', re.S)


def fresh(world) -> LiveGame:
    return LiveGame.objects.get(pk=world.live_game.pk)


def signed_in(user) -> Client:
    client = Client()
    client.raise_request_exception = False
    if user is not None:
        client.force_login(user)
    return client


def watchers(world) -> list[tuple[Client, int | None]]:
    """Each seated player with his seat, then people who hold no seat here (seat None)."""
    seated = [(signed_in(user), seat) for seat, user in world.live_seated.items()]
    others = [world.player, world.director, world.other_director, None]
    return seated + [(signed_in(user), None) for user in others]


def assert_page_shows_only_own_cards(response, game: LiveGame, seat: int | None) -> None:
    assert response.status_code == 200
    html = response.content.decode()
    match = VIEW_SCRIPT.search(html)
    assert match, "the page carries no view"
    assert_only_own_cards({"type": "view", "view": json.loads(match.group(1))}, game.pk, seat)
    # Nothing outside the view names a card of the deal in progress.
    rest = VIEW_SCRIPT.sub("", html)
    state = selectors.live_game_state(game)
    assert not {card for card in CARD_NAMES if f'"{card}"' in rest} & hidden_from(state, seat)


def test_over_http_each_seat_sees_only_its_own_cards_at_every_step(world):
    rng = random.Random(5)
    people = watchers(world)
    state_url = reverse("live-game-state", args=[world.live_game.pk])
    page_url = reverse("live-game", args=[world.live_game.pk])
    deals_seen = set()
    for step in range(60):
        game = fresh(world)
        for client, seat in people:
            view = client.get(state_url).json()
            assert_only_own_cards({"type": "view", "view": view}, game.pk, seat)
            # Only the seat to act is offered moves, and only its own.
            assert bool(view["legal"]) == (seat is not None and seat == game.to_act)
            assert all(action["seat"] == seat for action in view["legal"])
            if step % 10 == 0:
                assert_page_shows_only_own_cards(client.get(page_url), game, seat)
        deals_seen.add(len(selectors.live_game_state(game).deals))
        user = world.live_seated[game.to_act]
        view = selectors.live_game_view(game, user=user)
        services.live_game_act(
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
    assert len(deals_seen) >= 2, "the run never reached a second deal"


def test_the_deal_in_progress_has_no_replay_for_anyone(world):
    game = fresh(world)
    current = selectors.live_game_view(game, user=world.director)["current_deal"]["number"]

    for client, _seat in watchers(world):
        for number in (current, current + 1, 0, 10**6):
            response = client.get(reverse("live-deal-replay", args=[game.pk, number]))
            assert response.status_code in (302, 404), (number, response.status_code)


def others_turn(world) -> tuple[LiveGame, int, dict, list[tuple[int, object]]]:
    """The game, the seat to act, one of its legal moves and the other seated players."""
    game = fresh(world)
    to_act = game.to_act
    action = selectors.live_game_view(game, user=world.live_seated[to_act])["legal"][0]
    others = [(seat, user) for seat, user in world.live_seated.items() if seat != to_act]
    return game, to_act, action, others


def forgeries(action: dict, own_seat: int, to_act: int) -> list[dict]:
    """Ways a player might try to make the move of the seat to act."""
    bare = {key: value for key, value in action.items() if key != "seat"}
    return [
        action,  # the other seat's move as offered to it, naming its seat
        bare,  # no seat: the server must take the sender's own
        {**bare, "seat": own_seat},  # his own seat, out of turn
        {**bare, "seat": str(to_act)},
        {**bare, "seat": float(to_act)},
        {**bare, "seat": [to_act]},
        {**bare, "seat": None},
    ]


def assert_nothing_stored(game: LiveGame) -> None:
    assert fresh_game(game).sequence == game.sequence
    assert LiveAction.objects.filter(game=game).count() == game.sequence


def fresh_game(game: LiveGame) -> LiveGame:
    return LiveGame.objects.get(pk=game.pk)


def test_over_http_no_one_moves_for_the_seat_to_act(world):
    game, to_act, action, others = others_turn(world)
    url = reverse("live-game-act", args=[game.pk])

    for seat, user in others:
        client = signed_in(user)
        for forged in forgeries(action, seat, to_act):
            body = json.dumps({"action": forged, "sequence": game.sequence})
            response = client.post(url, body, content_type="application/json")
            assert response.status_code == 400, (forged, response.status_code)
            answer = response.json()
            assert answer["error"]
            # The refusal comes with the sender's own view: still only his own cards.
            assert_only_own_cards({"type": "view", "view": answer["view"]}, game.pk, seat)
            assert_nothing_stored(game)
    body = json.dumps({"action": action, "sequence": game.sequence})
    for user in (world.player, world.director, world.other_director, None):
        response = signed_in(user).post(url, body, content_type="application/json")
        assert response.status_code == 403, response.status_code
        assert response.json()["error"]
        assert_nothing_stored(game)
    # The seat to act itself may.
    mover = signed_in(world.live_seated[to_act])
    assert mover.post(url, body, content_type="application/json").status_code == 200
    assert fresh_game(game).sequence == game.sequence + 1


def test_over_the_websocket_no_one_moves_for_the_seat_to_act(world, websocket_for):
    game, to_act, action, others = others_turn(world)

    async def scenario():
        answers = []
        for seat, user in others:
            socket = websocket_for(user, game.pk)
            assert (await socket.connect(timeout=10))[0]
            await socket.receive_json_from(timeout=10)
            for forged in forgeries(action, seat, to_act):
                await socket.send_json_to(
                    {"type": "act", "action": forged, "sequence": game.sequence}
                )
                error = await socket.receive_json_from(timeout=10)
                view = await socket.receive_json_from(timeout=10)
                answers.append((seat, error, view))
            await socket.disconnect()
        return answers

    answers = async_to_sync(scenario)()

    assert len(answers) == len(others) * len(forgeries(action, 0, to_act))
    for seat, error, view in answers:
        assert error["type"] == "error" and error["message"], error
        assert view["type"] == "view"
        assert_only_own_cards(view, game.pk, seat)
    assert_nothing_stored(game)


def test_a_spectator_socket_gets_no_cards_and_cannot_move(world, websocket_for):
    game, _to_act, action, _others = others_turn(world)

    async def scenario():
        socket = websocket_for(world.player, game.pk)  # he plays at another table
        assert (await socket.connect(timeout=10))[0]
        first = await socket.receive_json_from(timeout=10)
        await socket.send_json_to({"type": "act", "action": action, "sequence": game.sequence})
        error = await socket.receive_json_from(timeout=10)
        after = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return first, error, after

    first, error, after = async_to_sync(scenario)()

    assert first["view"]["seat"] is None and first["view"]["observation"]["hand"] == []
    assert_only_own_cards(first, game.pk, None)
    assert error["type"] == "error" and error["message"]
    assert_only_own_cards(after, game.pk, None)
    assert_nothing_stored(game)


# --------------------------------------------------------------------------- the archive
def test_the_directors_archive_download_holds_no_card_of_the_deal_in_play(world, client_as):
    """A director may sit at a table too: the file he downloads mid-deal must not deal him the
    hands and the talon."""
    deal = fresh(world).deals.get(finished_at=None)

    response = client_as("director").get(
        reverse("director-tournament-archive", args=[world.public.pk])
    )

    assert response.status_code == 200
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    assert deal.salt.encode() not in text and deal.commitment.encode() not in text
    assert json.dumps(deal.deck, separators=(",", ":")).encode() not in text
