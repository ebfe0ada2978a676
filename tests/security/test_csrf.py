"""Every page that takes a POST refuses one without the CSRF token, and every form the pages
render carries the token. The pages are the rows of the permission matrix, which is checked
against the site's URL patterns (tests/security/test_page_permissions.py).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client

from gameplay.models import LiveGame
from tests.security.conftest import ROLES, user_of
from tests.security.test_page_permissions import LOGIN, PAGES, Page

pytestmark = pytest.mark.django_db

REFUSED = (LOGIN, 403, 405)
CSRF_FAILURE = b"CSRF verification failed"  # Django's page for a refused POST


def poster(page: Page) -> str | None:
    """A role whose POST the page takes (the director first), or None for a GET-only page."""
    for role in ("director", "player", "other_director", "anonymous"):
        if page.post[ROLES.index(role)] not in REFUSED:
            return role
    return None


POSTED = {name: poster(page) for name, page in PAGES.items()}
# The live table takes moves only from its seated players: none of the roles is one.
POSTED["live-game-act"] = "seated"


def test_the_pages_that_take_a_post_are_the_ones_expected():
    takes_post = {name for name, role in POSTED.items() if role}
    # A safety net for the matrix itself: a page turning GET-only would drop out of the CSRF
    # checks below unnoticed.
    assert len(takes_post) >= 25, sorted(takes_post)
    assert {"login", "logout", "table-sheet", "director-registration-csv"} <= takes_post


def client_for(world, role: str, *, enforce: bool) -> Client:
    client = Client(enforce_csrf_checks=enforce)
    client.raise_request_exception = False
    if role == "seated":
        game = LiveGame.objects.get(pk=world.live_game.pk)
        client.force_login(world.live_seated[game.to_act])
    elif role != "anonymous":
        client.force_login(user_of(world, role))
    return client


def post(client: Client, page: Page, world, token: str | None = None):
    url = page.url(world)
    if page.json:
        headers = {"X-CSRFToken": token} if token else {}
        return client.post(url, page.data(world), content_type="application/json", headers=headers)
    data = dict(page.data(world)) if page.data else {}
    if token:
        data["csrfmiddlewaretoken"] = token
    return client.post(url, data)


@pytest.mark.parametrize("name", [name for name, role in POSTED.items() if role])
def test_a_post_without_the_csrf_token_is_refused(name, world):
    page, role = PAGES[name], POSTED[name]
    client = client_for(world, role, enforce=True)

    response = post(client, page, world)

    assert response.status_code == 403, (name, response.status_code)
    assert CSRF_FAILURE in response.content

    # With the token the very same POST gets past the check.
    client.get(PAGES["home"].url(world))  # the page that sets the CSRF cookie
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    accepted = post(client, page, world, token)
    assert CSRF_FAILURE not in accepted.content, name
    assert accepted.status_code != 403 or name == "live-game-act", (name, accepted.status_code)


class PostForms(HTMLParser):
    """Each <form method="post"> of a page, with the names of the inputs it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and (attributes.get("method") or "").lower() == "post":
            self._open = {"action": attributes.get("action"), "inputs": set()}
            self.forms.append(self._open)
        elif tag == "input" and self._open is not None:
            self._open["inputs"].add(attributes.get("name"))

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None


def post_forms(html: str) -> list[dict]:
    parser = PostForms()
    parser.feed(html)
    return parser.forms


@pytest.mark.parametrize("role", ROLES)
def test_every_form_of_every_page_carries_the_csrf_token(role, world, client_as):
    client = client_as(role)
    checked = 0
    for name, page in PAGES.items():
        if page.get[ROLES.index(role)] != 200:
            continue
        response = client.get(page.url(world))
        if not response["Content-Type"].startswith("text/html"):
            continue
        for form in post_forms(response.content.decode()):
            assert "csrfmiddlewaretoken" in form["inputs"], (name, form["action"])
            checked += 1
    # Every page has the language switch; signed-in people's also the sign-out button.
    assert checked >= 10


def test_the_form_parser_finds_a_form_without_the_token():
    forms = post_forms('<form method="POST" action="/x/"><input name="a"></form><form></form>')

    assert forms == [{"action": "/x/", "inputs": {"a"}}]
