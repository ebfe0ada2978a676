"""Clients of a running server (tests/integration/stack.py): a director and players over HTTP.

They work the way the pages and the API are used: the director signs in on the sign-in page and
gets an API token, players open their personal links, forms carry the CSRF token, a table is
watched over its websocket.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import override_settings

from gameplay.models import LiveGame
from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import Player, Tournament

T = TypeVar("T")
PASSWORD = "a-director-password-for-tests"
TIMEOUT = 30


def wait_until(check: Callable[[], T | None], *, seconds: float, what: str) -> T:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {seconds} s")


def club_with_players(*, count: int, **options: Any) -> tuple[Tournament, Any, list[Player]]:
    """A club with a director (password PASSWORD), `count` players and a public tournament.

    Tables of 4 filled by bots, four deals a round unless `options` say otherwise.
    """
    admin = UserFactory(is_superuser=True, is_staff=True)
    director = UserFactory(username=f"director-{time.monotonic_ns()}")
    # The servers hash with Django's default; the tests' own fast hasher is unknown to them.
    director.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    director.save()
    club = services.club_create(
        actor=admin, name=f"Club {time.monotonic_ns()}", directors=[director]
    )
    fields = {
        "table_size": "4",
        "bots_allowed": True,
        "round_format": Tournament.RoundFormat.DEALS,
        "deals_per_round": 4,
        "rounds_planned": 3,
    } | options
    tournament = services.tournament_create(
        actor=director, club=club, name="Evening cup", date=datetime.date.today(), **fields
    )
    players = [
        services.player_create(actor=director, club=club, name=f"Player {number:03d}")
        for number in range(1, count + 1)
    ]
    for player in players:
        services.registration_create(actor=director, tournament=tournament, player=player)
    return tournament, director, players


class _Browser:
    """A requests session that behaves like a browser on this site (cookies, CSRF)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.http = requests.Session()

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.http.get(self.base_url + path, timeout=TIMEOUT, **kwargs)

    def post_form(self, path: str, data: dict[str, Any] | None = None) -> requests.Response:
        if "csrftoken" not in self.http.cookies:
            self.get("/")  # every page sets the CSRF cookie
        headers = {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}
        return self.http.post(
            self.base_url + path, data=data or {}, headers=headers, timeout=TIMEOUT
        )

    def post_json(self, path: str, payload: Any) -> requests.Response:
        if "csrftoken" not in self.http.cookies:
            self.get("/")
        headers = {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}
        return self.http.post(self.base_url + path, json=payload, headers=headers, timeout=TIMEOUT)


class Director(_Browser):
    def __init__(self, base_url: str, user) -> None:
        super().__init__(base_url)
        page = self.get("/accounts/login/")
        assert page.status_code == 200, page.text[:500]
        signed_in = self.post_form(
            "/accounts/login/",
            {
                "username": user.username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": self.http.cookies["csrftoken"],
            },
        )
        assert "sessionid" in self.http.cookies, signed_in.text[:500]
        token = requests.post(
            f"{base_url}/api/token/",
            data={"username": user.username, "password": PASSWORD},
            timeout=TIMEOUT,
        )
        token.raise_for_status()
        self.api = requests.Session()
        self.api.headers["Authorization"] = f"Token {token.json()['token']}"

    def api_get(self, path: str) -> Any:
        response = self.api.get(self.base_url + path, timeout=TIMEOUT)
        response.raise_for_status()
        return response.json()

    def api_post(self, path: str, payload: dict | None = None) -> Any:
        response = self.api.post(self.base_url + path, json=payload or {}, timeout=TIMEOUT)
        assert response.status_code < 300, (response.status_code, response.text[:500])
        return response.json()

    def draw_and_publish(self, tournament_id: int) -> int:
        round_ = self.api_post(f"/api/tournaments/{tournament_id}/rounds/")
        self.api_post(f"/api/rounds/{round_['id']}/publish/")
        return round_["id"]

    def tables(self, round_id: int) -> list[dict]:
        return self.api_get(f"/api/rounds/{round_id}/")["tables"]

    def play_live(self, table_id: int) -> LiveGame:
        response = self.post_form(f"/manage/tables/{table_id}/live/")
        assert response.status_code == 200 and "/games/" in response.url, response.url
        return LiveGame.objects.get(table_id=table_id)

    def seat_bot(self, game_id: int, position: int, *, level: str) -> None:
        response = self.post_form(
            f"/manage/games/{game_id}/seats/{position}/bot/", {"level": level}
        )
        assert response.status_code == 200, response.status_code

    def standings(self, tournament_id: int) -> dict:
        return self.api_get(f"/api/tournaments/{tournament_id}/standings/")

    def public(self, path: str) -> requests.Response:
        return requests.get(self.base_url + path, timeout=TIMEOUT)


class PlayerClient(_Browser):
    """A player signed in with the personal link, at a live table."""

    def __init__(self, base_url: str, user_id: int, *, secret_key: str) -> None:
        super().__init__(base_url)
        player = Player.objects.get(user_id=user_id)
        registration = player.registrations.order_by("-pk").first()
        # The link is signed with the server's key, as the director's printed cards would be.
        with override_settings(SECRET_KEY=secret_key):
            link = selectors.player_personal_link(registration)
        # The link's page signs in when its button is pressed (a form with the CSRF token).
        response = self.post_form(link, {})
        assert response.status_code == 200 and "sessionid" in self.http.cookies, response.url

    def state(self, game_id: int) -> dict:
        response = self.get(f"/games/{game_id}/state/")
        response.raise_for_status()
        return response.json()

    def act(self, game_id: int, action: dict, sequence: int) -> dict:
        response = self.post_json(
            f"/games/{game_id}/act/", {"action": action, "sequence": sequence}
        )
        # 409: the table moved on between the look and the move (a bot, a table-mate); look again.
        assert response.status_code in (200, 409), (response.status_code, response.text[:500])
        return response.json()

    async def listen(self, game_id: int, into: list[dict], seconds: float) -> None:
        """Keep every message of the table's websocket until the game ends or time runs out."""
        from websockets.asyncio.client import connect

        url = self.base_url.replace("http://", "ws://") + f"/ws/games/{game_id}/"
        cookie = "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())
        deadline = time.monotonic() + seconds
        async with connect(
            url, additional_headers={"Cookie": cookie, "Origin": self.base_url}, max_size=2**22
        ) as websocket:
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(websocket.recv(), deadline - time.monotonic())
                except TimeoutError:
                    return
                message = json.loads(raw)
                into.append(message)
                if message.get("type") == "view" and message["view"]["status"] == "finished":
                    return
