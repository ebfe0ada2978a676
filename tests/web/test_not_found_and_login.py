"""Where a lost visitor is sent: the 404 page outside the API, and the sign-in page, which
tells players that they need no password."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_an_unknown_page_says_so_and_offers_the_ways_in(client):
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page
    for name in ("public-tournament-list", "player-enter", "home"):
        assert f'href="{reverse(name)}"' in page


def test_an_unknown_page_in_ukrainian_and_the_api_keeps_json(client):
    client.cookies["django_language"] = "uk"
    assert "Сторінку не знайдено" in client.get("/no/such/page/").content.decode()
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_the_sign_in_page_sends_players_to_their_code_instead_of_a_password(client):
    page = client.get(reverse("login")).content.decode()

    assert 'id="players-sign-in"' in page
    assert f'href="{reverse("player-enter")}"' in page
