"""Practice as a guest, the options, the rotating first bidder, "continue my game" and the limits.

A visitor who is not signed in plays practice games bound to his session: another session (a
second guest, a signed-in stranger) never opens or moves at them, over the pages, the JSON
endpoints or the websocket; when he signs in the games become his user's. Games started
anonymously are limited per session and per address.
"""

from __future__ import annotations

import datetime
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from gameplay import selectors, services
from gameplay.models import LiveGame
from gameplay.tasks import forget_stale_guest_games
from tests.factories import UserFactory
from tests.gameplay.conftest import live_table_round

pytestmark = pytest.mark.django_db

GUEST_A = selectors.Guest("a" * 43)
GUEST_B = selectors.Guest("b" * 43)


def guest_client() -> tuple[Client, LiveGame]:
    """A fresh browser that started a practice game from the home page, and that game."""
    client = Client()
    client.raise_request_exception = False
    response = client.post(reverse("practice-start"))
    assert response.status_code == 302
    game = LiveGame.objects.get(practice_guest=client.session[selectors.GUEST_SESSION_KEY])
    assert response["Location"] == reverse("live-game", args=[game.pk])
    return client, game


def game_urls(game: LiveGame) -> dict[str, str]:
    return {
        "page": reverse("live-game", args=[game.pk]),
        "state": reverse("live-game-state", args=[game.pk]),
        "act": reverse("live-game-act", args=[game.pk]),
        "replay": reverse("live-deal-replay", args=[game.pk, 1]),
    }


def post_move(client: Client, game: LiveGame, view: dict):
    return client.post(
        reverse("live-game-act", args=[game.pk]),
        json.dumps({"action": view["legal"][0], "sequence": view["sequence"]}),
        content_type="application/json",
    )


# ---------------------------------------------------------------- services and selectors


def test_a_guest_game_belongs_to_the_guest_alone():
    game = services.practice_game_start(user=GUEST_A)

    seats = list(game.seats.order_by("position"))
    assert game.practice_owner is None and game.practice_guest == GUEST_A.key
    assert [(seat.user, seat.bot_level) for seat in seats] == [
        (None, ""),
        (None, "easy"),
        (None, "easy"),
    ]
    assert selectors.live_game_for_user(GUEST_A, game.pk) == game
    assert selectors.seat_of(game, GUEST_A) == seats[0]
    view = selectors.live_game_view(game, user=GUEST_A)
    assert view["seat"] == 0 and len(view["observation"]["hand"]) == 7 and view["legal"]

    for other in (GUEST_B, AnonymousUser(), UserFactory(), None):
        assert selectors.live_game_for_user(other, game.pk) is None
        assert selectors.seat_of(game, other) is None
        assert selectors.live_game_view(game, user=other)["observation"]["hand"] == []
        assert selectors.practice_game_to_continue(other) is None
    with pytest.raises(PermissionDenied):
        services.live_game_act(
            actor=GUEST_B, game=game, action=view["legal"][0], expected_sequence=0
        )
    services.live_game_act(actor=GUEST_A, game=game, action=view["legal"][0], expected_sequence=0)
    assert LiveGame.objects.get(pk=game.pk).sequence == 1


def test_an_anonymous_visitor_without_a_guest_key_cannot_start_a_game():
    with pytest.raises(PermissionDenied):
        services.practice_game_start(user=AnonymousUser())
    assert selectors.viewer_of(AnonymousUser(), {selectors.GUEST_SESSION_KEY: "short"}) == (
        AnonymousUser()
    )
    assert selectors.viewer_of(AnonymousUser(), {selectors.GUEST_SESSION_KEY: 7}) == (
        AnonymousUser()
    )
    assert selectors.viewer_of(None, {selectors.GUEST_SESSION_KEY: GUEST_A.key}) == GUEST_A


def test_four_players_and_the_bots_level_are_chosen():
    user = UserFactory()

    game = services.practice_game_start(user=user, players=4, bot_level="hard")

    assert game.players == 4
    assert [(seat.position, seat.bot_level) for seat in game.seats.order_by("position")] == [
        (0, ""),
        (1, "hard"),
        (2, "hard"),
        (3, "hard"),
    ]
    # The human is the first to bid in his first game: the dealer sits at his right.
    assert game.first_dealer == 3 and game.to_act == 0


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 5},
        {"players": "3"},
        {"players": True},
        {"players": 3.0},
        {"bot_level": "godlike"},
        {"bot_level": ""},
    ],
)
def test_options_out_of_range_are_refused(options):
    with pytest.raises(ValidationError):
        services.practice_game_start(user=GUEST_A, **options)
    assert not LiveGame.objects.exists()


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("player", ["user", "guest"])
def test_the_first_bidder_moves_one_seat_on_with_each_new_game(players, player):
    who = UserFactory() if player == "user" else GUEST_A
    games = [services.practice_game_start(user=who, players=players) for _ in range(players + 1)]

    dealers = [game.first_dealer for game in games]
    assert dealers == [(players - 1 + number) % players for number in range(players + 1)]
    # On-commit hooks do not run here, so nobody has moved: the first bidder is to act.
    first_bidders = [game.to_act for game in games]
    assert first_bidders[0] == 0
    assert sorted(first_bidders[:players]) == list(range(players))
    assert first_bidders[players] == 0


def test_continue_finds_the_latest_unfinished_game():
    user = UserFactory()
    older = services.practice_game_start(user=user)
    newer = services.practice_game_start(user=user)
    guests = services.practice_game_start(user=GUEST_A)

    assert selectors.practice_game_to_continue(user) == newer
    assert selectors.practice_game_to_continue(GUEST_A) == guests
    LiveGame.objects.filter(pk=newer.pk).update(status=LiveGame.Status.FINISHED)
    assert selectors.practice_game_to_continue(user) == older
    assert selectors.live_games_of_user(GUEST_A) == [guests]


def test_signing_in_hands_the_guests_games_over_to_the_user():
    user = UserFactory(first_name="Olena", last_name="Kovalenko")
    game = services.practice_game_start(user=GUEST_A)
    other = services.practice_game_start(user=GUEST_B)

    assert services.practice_games_hand_over(guest=GUEST_A, user=user) == 1

    game.refresh_from_db()
    assert game.practice_owner == user and game.practice_guest == ""
    seat = game.seats.get(position=0)
    assert seat.user == user and seat.name == "Olena Kovalenko" and not seat.is_bot
    assert selectors.live_game_for_user(user, game.pk) == game
    assert selectors.live_game_view(game, user=user)["seat"] == 0
    assert selectors.live_game_for_user(GUEST_A, game.pk) is None
    assert LiveGame.objects.get(pk=other.pk).practice_guest == GUEST_B.key
    assert services.practice_games_hand_over(guest=GUEST_A, user=user) == 0


# ---------------------------------------------------------------- limits


def test_a_guest_keeps_a_few_unfinished_games_and_gives_up_the_oldest(settings):
    settings.PRACTICE_LIMITS = {"guest_unfinished": 2}
    first = services.practice_game_start(user=GUEST_A)
    second = services.practice_game_start(user=GUEST_A)
    third = services.practice_game_start(user=GUEST_A)

    statuses = {
        game.pk: game.status
        for game in LiveGame.objects.filter(pk__in=[first.pk, second.pk, third.pk])
    }
    assert statuses == {
        first.pk: LiveGame.Status.FINISHED,
        second.pk: LiveGame.Status.PLAYING,
        third.pk: LiveGame.Status.PLAYING,
    }
    # Another guest's games are not his to give up.
    services.practice_game_start(user=GUEST_B)
    assert LiveGame.objects.get(pk=second.pk).status == LiveGame.Status.PLAYING


def test_starting_games_is_limited_per_guest_per_address_and_per_user(settings):
    settings.PRACTICE_LIMITS = {"per_guest": 2, "per_address": 3, "per_user": 2}
    for _ in range(2):
        services.practice_game_start(user=GUEST_A, address="192.0.2.1")
    with pytest.raises(services.PracticeLimitReached) as refused:
        services.practice_game_start(user=GUEST_A, address="192.0.2.9")
    assert 0 < refused.value.retry_after <= 3600
    assert "minutes" in str(refused.value)

    # A new session from the same address: the address's own limit.
    services.practice_game_start(user=GUEST_B, address="192.0.2.1")
    with pytest.raises(services.PracticeLimitReached):
        services.practice_game_start(user=selectors.Guest("c" * 43), address="192.0.2.1")
    services.practice_game_start(user=selectors.Guest("c" * 43), address="198.51.100.7")
    # The address is kept as a keyed hash only.
    assert not LiveGame.objects.filter(practice_address__contains="192.0.2").exists()

    user = UserFactory()
    for _ in range(2):
        services.practice_game_start(user=user, address="192.0.2.1")
    with pytest.raises(services.PracticeLimitReached):
        services.practice_game_start(user=user)
    # Games older than the window count no more.
    LiveGame.objects.update(created_at=timezone.now() - datetime.timedelta(hours=2))
    services.practice_game_start(user=user)
    services.practice_game_start(user=GUEST_A, address="192.0.2.1")


def test_old_guest_games_are_forgotten_by_the_periodic_task():
    stale = services.practice_game_start(user=GUEST_A, address="192.0.2.1")
    fresh = services.practice_game_start(user=GUEST_B, address="192.0.2.1")
    users = services.practice_game_start(user=UserFactory())
    long_ago = timezone.now() - datetime.timedelta(days=4)
    LiveGame.objects.filter(pk__in=[stale.pk, users.pk]).update(
        turn_started_at=long_ago, created_at=long_ago
    )

    forget_stale_guest_games()

    assert not LiveGame.objects.filter(pk=stale.pk).exists()
    assert LiveGame.objects.get(pk=fresh.pk).practice_address != ""
    assert LiveGame.objects.filter(pk=users.pk).exists()
    LiveGame.objects.filter(pk=fresh.pk).update(
        created_at=timezone.now() - datetime.timedelta(hours=2)
    )
    assert services.practice_guest_games_forget() == 0
    # Past the limit's window the address is no longer kept.
    assert LiveGame.objects.get(pk=fresh.pk).practice_address == ""


# ---------------------------------------------------------------- pages and JSON endpoints


def test_a_visitor_plays_at_once_and_only_his_session_opens_the_game():
    owner, game = guest_client()
    urls = game_urls(game)

    page = owner.get(urls["page"])
    assert page.status_code == 200
    view = owner.get(urls["state"]).json()
    assert view["seat"] == 0 and len(view["observation"]["hand"]) == 7

    second_guest, _ = guest_client()
    for name in ("page", "state", "replay"):
        assert second_guest.get(urls[name]).status_code == 404, name
    assert post_move(second_guest, game, view).status_code == 404
    assert LiveGame.objects.get(pk=game.pk).sequence == 0
    # A game id that does not exist looks the same to him.
    assert second_guest.get(reverse("live-game", args=[game.pk + 1000])).status_code == 404

    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(urls["page"]).status_code == 403
    assert stranger.get(urls["state"]).status_code == 403
    # A visitor who never played is asked to sign in, as before.
    visitor = Client()
    response = visitor.get(urls["page"])
    assert response.status_code == 302 and reverse("login") in response["Location"]

    assert post_move(owner, game, view).status_code == 200
    assert LiveGame.objects.get(pk=game.pk).sequence >= 1


@pytest.mark.parametrize("public", [True, False])
def test_a_guest_watches_a_tournament_table_as_any_visitor(public):
    director, round_ = live_table_round(players=4, deals=3, public=public)
    table_game = services.live_game_create_for_table(
        actor=director, table=round_.tables.get(number=1)
    )
    guest, _ = guest_client()
    urls = game_urls(table_game)

    assert (selectors.live_game_for_user(GUEST_A, table_game.pk) is not None) == public
    if public:
        view = guest.get(urls["state"]).json()
        assert view["seat"] is None and view["observation"]["hand"] == [] and not view["legal"]
        assert guest.get(urls["page"]).status_code == 200
    else:
        # Not a practice game: signing in may help him, so he is asked to.
        response = guest.get(urls["page"])
        assert response.status_code == 302 and reverse("login") in response["Location"]
        assert guest.get(urls["state"]).status_code == 403


def test_the_home_page_offers_to_continue_only_the_sessions_own_game():
    owner, game = guest_client()
    link = f'href="{reverse("live-game", args=[game.pk])}"'

    assert link in owner.get("/").content.decode()
    assert link not in Client().get("/").content.decode()
    other, _ = guest_client()
    assert link not in other.get("/").content.decode()
    LiveGame.objects.filter(pk=game.pk).update(status=LiveGame.Status.FINISHED)
    assert link not in owner.get("/").content.decode()


def test_the_home_page_form_has_defaults_so_one_click_starts():
    page = Client().get("/").content.decode()

    assert f'action="{reverse("practice-start")}"' in page
    assert 'name="players" value="3" id="practice-players_0" checked' in page
    assert 'name="bot_level" value="easy" id="practice-bot_level_0" checked' in page
    assert 'value="4"' in page and 'value="normal"' in page


def test_the_hard_bots_are_for_signed_in_players_not_guests():
    # A guest is offered the easy and normal bots, and told why not the hard ones.
    guest = Client()
    offer = guest.get(reverse("practice-start")).content.decode()
    assert 'value="normal"' in offer and 'value="hard"' not in offer
    assert "sign in to practise against them" in offer
    refused = guest.post(reverse("practice-start"), {"players": "4", "bot_level": "hard"})
    assert refused.status_code == 400 and not LiveGame.objects.exists()
    with pytest.raises(ValidationError, match="sign in to practise"):
        services.practice_game_start(user=GUEST_A, players=4, bot_level="hard")

    # A player of the club signed in may.
    player = Client()
    player.force_login(UserFactory())
    assert 'value="hard"' in player.get(reverse("practice-start")).content.decode()
    started = player.post(reverse("practice-start"), {"players": "4", "bot_level": "hard"})
    assert started.status_code == 302
    assert set(
        LiveGame.objects.get().seats.exclude(bot_level="").values_list("bot_level", flat=True)
    ) == {"hard"}


def test_the_form_starts_the_game_chosen():
    client = Client()

    response = client.post(reverse("practice-start"), {"players": "4", "bot_level": "normal"})

    game = LiveGame.objects.get()
    assert response.status_code == 302
    assert game.players == 4
    assert set(game.seats.exclude(bot_level="").values_list("bot_level", flat=True)) == {"normal"}


@pytest.mark.parametrize(
    "data",
    [
        {"players": "5"},
        {"players": "2"},
        {"players": "3abc"},
        {"players": "9" * 5000},
        {"bot_level": "godlike"},
        {"bot_level": "x" * 5000},
    ],
)
def test_bad_options_get_the_form_back_with_a_400(data):
    client = Client()

    response = client.post(reverse("practice-start"), data)

    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not LiveGame.objects.exists()
    assert selectors.GUEST_SESSION_KEY not in client.session


def test_too_many_games_get_a_429_with_the_wait(settings):
    settings.PRACTICE_LIMITS = {"per_guest": 1}
    client, game = guest_client()

    response = client.post(reverse("practice-start"))

    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    page = response.content.decode()
    assert "Too many practice games" in page
    # He is offered the game he has.
    assert f'href="{reverse("live-game", args=[game.pk])}"' in page
    assert LiveGame.objects.count() == 1


def test_signing_in_keeps_the_guests_game_and_cycles_the_session():
    user = UserFactory(username="olena")
    client, game = guest_client()
    guest_session = client.session.session_key

    response = client.post(reverse("login"), {"username": "olena", "password": "secret-password"})

    assert response.status_code == 302
    assert client.session.session_key != guest_session
    assert selectors.GUEST_SESSION_KEY not in client.session
    game.refresh_from_db()
    assert game.practice_owner == user and game.practice_guest == ""
    assert client.get(reverse("live-game-state", args=[game.pk])).json()["seat"] == 0
    assert f'href="{reverse("live-game", args=[game.pk])}"' in client.get("/").content.decode()
    # The old session is gone: its cookie opens nothing.
    old = Client()
    old.cookies[settings.SESSION_COOKIE_NAME] = guest_session
    assert old.get(reverse("live-game-state", args=[game.pk])).status_code == 403


# ---------------------------------------------------------------- the websocket


def socket_for(client: Client, game: LiveGame) -> WebsocketCommunicator:
    """The table's websocket through the real ASGI application, with the client's cookies."""
    from config.asgi import application

    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    return WebsocketCommunicator(
        application,
        f"/ws/games/{game.pk}/",
        headers=[
            (b"cookie", cookies.encode()),
            (b"host", b"testserver"),
            (b"origin", b"http://testserver"),
        ],
    )


@pytest.fixture
def in_memory_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.mark.django_db(transaction=True)
def test_over_the_websocket_only_the_guests_session_sees_and_moves(in_memory_channel_layer):
    owner, game = guest_client()
    second_guest, _ = guest_client()
    visitor = Client()
    visitor.get("/")

    async def scenario():
        own = socket_for(owner, game)
        connected, _ = await own.connect(timeout=10)
        first = await own.receive_json_from(timeout=10)
        view = first["view"]
        await own.send_json_to({"type": "act", "action": view["legal"][0], "sequence": 0})
        after = await own.receive_json_from(timeout=10)
        await own.disconnect()
        refused = []
        for client in (second_guest, visitor):
            other = socket_for(client, game)
            ok, code = await other.connect(timeout=10)
            refused.append((ok, code))
            await other.disconnect()
        return connected, view, after, refused

    connected, view, after, refused = async_to_sync(scenario)()
    assert connected
    assert view["seat"] == 0 and len(view["observation"]["hand"]) == 7
    assert after["type"] == "view" and after["view"]["sequence"] >= 1
    assert refused == [(False, 4403), (False, 4403)]


@pytest.mark.django_db(transaction=True)
def test_a_guests_socket_closes_once_his_session_no_longer_holds_the_game(
    in_memory_channel_layer,
):
    owner, game = guest_client()
    socket = socket_for(owner, game)
    session = owner.session

    async def scenario():
        connected, _ = await socket.connect(timeout=10)
        await socket.receive_json_from(timeout=10)
        # Signing in elsewhere in this browser cycles the session: the old one is deleted.
        await database_sync_to_async(session.delete)()
        await socket.send_json_to({"type": "sync"})
        output = await socket.receive_output(timeout=10)
        await socket.disconnect()
        return connected, output

    connected, output = async_to_sync(scenario)()
    assert connected
    assert output == {"type": "websocket.close", "code": 4403}


def test_the_seats_are_named_in_the_language_of_whoever_looks_not_of_whoever_started():
    """A game started from an English page is read in Ukrainian with Ukrainian names."""
    with translation.override("en"):
        game = services.practice_game_start(user=GUEST_A, players=4)

    with translation.override("uk"):
        names = [seat["name"] for seat in selectors.live_game_view(game, user=GUEST_A)["players"]]
    with translation.override("en"):
        english = [seat["name"] for seat in selectors.live_game_view(game, user=GUEST_A)["players"]]

    assert names == ["Гість", "Бот 1", "Бот 2", "Бот 3"]
    assert english == ["Guest", "Bot 1", "Bot 2", "Bot 3"]
    assert set(game.seats.values_list("name", flat=True)) == {""}
