"""A private tournament is invisible to everyone but its club's directors and its own players:
on every public page, in lists and search results, in the CSV files, through the REST API and in
its schema. Its name and its players' names are searched for in every answer.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from gameplay import selectors
from tests.factories import UserFactory
from tests.security.conftest import PRIVATE_NAME, PRIVATE_PLAYER_NAME
from tests.web.test_public_pages import page_urls

pytestmark = pytest.mark.django_db

OUTSIDERS = ("anonymous", "player", "other_director")
SECRETS = (PRIVATE_NAME, PRIVATE_PLAYER_NAME)


def private_pages(world) -> list[str]:
    """Every public page and file of the private tournament, and its table's score sheet."""
    return [*page_urls(world.private), reverse("table-sheet", args=[world.private_table.pk])]


def listings(world) -> list[str]:
    """Pages and API lists that name tournaments or players, searches included."""
    words = ["Secret", "secret night", "Zoryana", "Hidden", world.club.name]
    return [
        reverse("home"),
        reverse("public-tournament-list"),
        *(f"{reverse('public-tournament-list')}?q={word}" for word in words),
        f"{reverse('public-tournament-list')}?page=2",
        reverse("player-home"),
        "/api/tournaments/",
        "/api/players/",
        f"/api/players/?club={world.club.pk}",
        "/api/registrations/",
        f"/api/registrations/?tournament={world.private.pk}",
        "/api/rounds/",
        "/api/tables/",
        "/api/schema/",
        "/api/schema/?format=json",
        "/api/docs/",
    ]


def api_details(world) -> list[str]:
    return [
        f"/api/tournaments/{world.private.pk}/",
        f"/api/tournaments/{world.private.pk}/rounds/",
        f"/api/tournaments/{world.private.pk}/standings/",
        f"/api/players/{world.private_player.pk}/",
        f"/api/registrations/{world.private_registration.pk}/",
        f"/api/rounds/{world.private_round.pk}/",
        f"/api/tables/{world.private_table.pk}/",
        f"/api/tables/{world.private_table.pk}/results/",
    ]


def assert_keeps_the_secrets(response, url: str) -> None:
    text = response.content.decode("utf-8-sig", errors="replace")
    for secret in SECRETS:
        assert secret not in text, f"{url} tells {secret!r}"


@pytest.mark.parametrize("role", OUTSIDERS)
def test_every_page_and_file_of_a_private_tournament_is_not_found(role, world, client_as):
    client = client_as(role)
    for url in private_pages(world):
        response = client.get(url)
        if role == "anonymous" and url.startswith("/tables/"):
            assert response.status_code == 302  # sign in first; then it is not found
        else:
            assert response.status_code == 404, (url, response.status_code)
        assert_keeps_the_secrets(response, url)


def test_its_director_sees_every_page_and_file(world, client_as):
    client = client_as("director")
    for url in private_pages(world):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    standings = client.get(reverse("public-standings-csv", args=[world.private.pk]))
    assert PRIVATE_PLAYER_NAME in standings.content.decode("utf-8-sig")


@pytest.mark.parametrize("role", OUTSIDERS)
def test_lists_searches_and_the_api_never_name_it(role, world, client_as):
    client = client_as(role)
    for url in listings(world):
        response = client.get(url)
        if role == "anonymous" and url == reverse("player-home"):
            assert response.status_code == 302
            continue
        assert response.status_code == 200, (url, response.status_code)
        assert_keeps_the_secrets(response, url)


@pytest.mark.parametrize("role", OUTSIDERS)
def test_the_api_says_not_found_for_each_of_its_objects(role, world, client_as):
    client = client_as(role)
    for url in api_details(world):
        response = client.get(url)
        assert response.status_code == 404, (url, response.status_code)
        assert_keeps_the_secrets(response, url)


def test_its_director_finds_it_in_lists_and_searches(world, client_as):
    client = client_as("director")
    for url in (
        reverse("home"),
        f"{reverse('public-tournament-list')}?q=secret",
        "/api/tournaments/",
        "/api/players/",
    ):
        assert any(secret in client.get(url).content.decode() for secret in SECRETS), url


def test_a_private_tournaments_live_table_is_not_watched_by_outsiders(world, client_as):
    # The live table's tournament turns private; `player` plays in it, so he stays an insider.
    world.public.is_public = False
    world.public.save(update_fields=["is_public"])
    game = world.live_game
    urls = [
        reverse("live-game", args=[game.pk]),
        reverse("live-game-state", args=[game.pk]),
        reverse("live-deal-replay", args=[game.pk, 1]),
    ]

    stranger = Client()
    stranger.force_login(UserFactory())
    for client in (client_as("anonymous"), client_as("other_director"), stranger):
        for url in urls:
            response = client.get(url)
            assert response.status_code in (302, 403), (url, response.status_code)
            if response.status_code == 302:
                assert response["Location"].startswith(reverse("login"))
    assert selectors.live_game_for_user(AnonymousUser(), game.pk) is None
    assert client_as("director").get(urls[0]).status_code == 200
    assert client_as("player").get(urls[0]).status_code == 200


def test_the_schema_names_no_tournament_player_or_club(world, client_as):
    schema = client_as("director").get("/api/schema/?format=json").content.decode()

    for name in (*SECRETS, world.public.name, world.club.name, world.director.username):
        assert name not in schema
