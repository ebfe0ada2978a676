"""A practice game: one click on the home page, then a human against two bots to the end."""

import random

import pytest
from django.urls import reverse

from gameplay import selectors
from gameplay.models import LiveAction, LiveGame
from gameplay.shuffle import commitment_matches
from tests.factories import UserFactory
from tests.gameplay.conftest import play_as_human

pytestmark = pytest.mark.django_db


def test_the_home_page_has_a_practice_button_that_posts(client):
    page = client.get("/").content.decode()

    assert f'action="{reverse("practice-start")}"' in page
    assert 'method="post"' in page


def test_practice_starts_in_one_click_and_opens_the_table(client):
    user = UserFactory()
    client.force_login(user)

    response = client.post(reverse("practice-start"))

    game = LiveGame.objects.get(practice_owner=user)
    assert response.status_code == 302
    assert response["Location"] == reverse("live-game", args=[game.pk])
    assert game.status == LiveGame.Status.PLAYING
    assert [(seat.user, seat.bot_level) for seat in game.seats.order_by("position")] == [
        (user, ""),
        (None, "easy"),
        (None, "easy"),
    ]


def test_practice_starts_a_guest_game_for_an_anonymous_visitor(client):
    # Until issue 13 a visitor was asked to sign in here; now he plays at once, as a guest.
    response = client.post(reverse("practice-start"))

    game = LiveGame.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("live-game", args=[game.pk])
    assert game.practice_owner is None and game.practice_guest
    assert game.practice_guest == client.session[selectors.GUEST_SESSION_KEY]


def test_practice_is_started_by_a_post_only_and_its_address_shows_the_offer(client):
    client.force_login(UserFactory())

    page = client.get(reverse("practice-start"))

    assert page.status_code == 200 and "Practice against bots" in page.content.decode()
    assert 'method="post"' in page.content.decode()
    assert not LiveGame.objects.exists()


def test_a_whole_practice_game_plays_to_the_end_in_the_embedded_mode(committed):
    from gameplay.services import practice_game_start

    user = UserFactory()
    rng = random.Random(11)
    game = committed(practice_game_start, user=user)
    moves = 0
    while game.status == LiveGame.Status.PLAYING:
        # Bots move in-process before each call returns, so the human is always to act here.
        assert committed(play_as_human, game, user, rng), "the bots left the human waiting"
        game.refresh_from_db()
        moves += 1
        assert moves < 5000

    view = selectors.live_game_view(game, user=user)
    assert view["status"] == "finished"
    assert max(view["totals"]) >= 1001
    assert view["winner"] is not None and view["winner"] == game.winner
    assert view["current_deal"] is None and view["legal"] == []
    assert game.to_act is None and game.finished_at is not None
    sequences = list(game.actions.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, game.sequence + 1))
    assert LiveAction.objects.filter(game=game, by_bot=False).count() == moves
    assert len(view["deals"]) == game.deals.count() > 1
    for deal in view["deals"]:
        assert commitment_matches(deal["deck"], deal["salt"], deal["commitment"])
