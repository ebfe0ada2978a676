"""Who may open and post to every page of the site: one row per URL pattern, one column per role.

Roles (tests/security/conftest.py): the anonymous visitor, a player seated at a table of the
tournament, a director of another club and the club's director. The rows are checked against the
site's URL patterns, so a new page cannot be added without saying who may use it. The REST API
has its own matrix (tests/api/test_permissions.py); the admin is Django's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import URLResolver, get_resolver, reverse

from tests.security.conftest import ROLES

pytestmark = pytest.mark.django_db

# Route prefixes this matrix leaves to others: the admin, the API and the language switch.
EXCLUDED_PREFIXES = ("admin/", "api/", "i18n/", "static/")

LOGIN = "login"  # a redirect to the sign-in page
# A redirect to the players' way in (issue 13): the code's entry, or a table's "which seat is
# yours?" page; never the password form.
ENTRY = "entry"
MOVED = "moved"  # a redirect elsewhere: the action was taken or refused with a message


@dataclass(frozen=True)
class Page:
    url: Callable[[Any], str]
    get: tuple[int | str, ...]  # by role, in the order of ROLES
    post: tuple[int | str, ...]
    data: Callable[[Any], Any] | None = None  # the POSTed form (or JSON for `json=True`)
    json: bool = False


def named(name: str, *args: str | int) -> Callable[[Any], str]:
    """The URL of a route; a text argument names an object of the world (its pk is used)."""

    def build(world) -> str:
        values = [getattr(world, arg).pk if isinstance(arg, str) else arg for arg in args]
        return reverse(name, args=values)

    return build


def with_text(name: str, *args: str) -> Callable[[Any], str]:
    return lambda world: reverse(name, args=args)


# Roles:            anonymous, player, other club's director, director.
EVERYONE = (200, 200, 200, 200)
NO_POST = (405, 405, 405, 405)
SIGNED_IN = (LOGIN, 200, 200, 200)
DIRECTOR = (LOGIN, 403, 403, 200)
DIRECTOR_ACTS = (LOGIN, 403, 403, MOVED)
# An empty registration form: the director gets it back with the problem, as a 400.
DIRECTOR_FORM_REFUSED = (LOGIN, 403, 403, 400)
GET_ONLY_FOR_DIRECTOR = (LOGIN, 405, 405, 405)
PUBLIC = {"get": EVERYONE, "post": NO_POST}


def move(world) -> str:
    """A well-formed move, for a game in which none of the roles holds a seat."""
    return json.dumps({"action": {"type": "pass"}, "sequence": world.live_game.sequence})


PAGES: dict[str, Page] = {
    # ------------------------------------------------------------------ site
    "home": Page(named("home"), **PUBLIC),
    "healthz": Page(named("healthz"), **PUBLIC),
    "favicon": Page(named("favicon"), (MOVED,) * 4, NO_POST),  # to the static icon
    # ------------------------------------------------------------------ accounts
    "login": Page(named("login"), EVERYONE, EVERYONE),  # an empty form: shown again with errors
    "logout": Page(named("logout"), NO_POST, (MOVED,) * 4),
    "password_change": Page(named("password_change"), SIGNED_IN, SIGNED_IN),
    "password_change_done": Page(named("password_change_done"), SIGNED_IN, (LOGIN, 405, 405, 405)),
    # ------------------------------------------------------------------ director's pages
    "director-home": Page(named("director-home"), (LOGIN, 403, 200, 200), GET_ONLY_FOR_DIRECTOR),
    # Another club's director creates tournaments of his own club here.
    "director-tournament-create": Page(
        named("director-tournament-create"), (LOGIN, 403, 200, 200), (LOGIN, 403, 400, 400)
    ),
    "director-tournament-import": Page(
        named("director-tournament-import"), (LOGIN, 403, 200, 200), (LOGIN, 403, 400, 400)
    ),
    "director-tournament": Page(
        named("director-tournament", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-final-ranking": Page(
        named("director-final-ranking", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-tournament-archive": Page(
        named("director-tournament-archive", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-tournament-edit": Page(
        named("director-tournament-edit", "public"), DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    # The public tournament is not complete: finishing it without a reason is refused (400);
    # something was played in it, so deleting it is refused too; it is not finished, so
    # "reopen" only leads back to its page.
    "director-tournament-finish": Page(
        named("director-tournament-finish", "public"), DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-tournament-reopen": Page(
        named("director-tournament-reopen", "public"), DIRECTOR_ACTS, DIRECTOR_ACTS
    ),
    "director-tournament-delete": Page(
        named("director-tournament-delete", "public"), DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-registrations": Page(
        named("director-registrations", "fresh"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-registration-add": Page(
        named("director-registration-add", "fresh"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-registration-bulk": Page(
        named("director-registration-bulk", "fresh"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-registration-csv": Page(
        named("director-registration-csv", "fresh"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-player-cards": Page(
        named("director-player-cards", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-registration-withdraw": Page(
        named("director-registration-withdraw", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_ACTS,
    ),
    "director-registration-rejoin": Page(
        named("director-registration-rejoin", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_ACTS,
    ),
    "director-registration-new-link": Page(
        named("director-registration-new-link", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_ACTS,
    ),
    # Corrections of a registration: an empty form is refused, and the public registration
    # has a seat, so it cannot be deleted.
    "director-registration-fix": Page(
        named("director-registration-fix", "public_registration"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-registration-rename": Page(
        named("director-registration-rename", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_FORM_REFUSED,
    ),
    "director-registration-merge": Page(
        named("director-registration-merge", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_FORM_REFUSED,
    ),
    "director-registration-delete": Page(
        named("director-registration-delete", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_FORM_REFUSED,
    ),
    "director-round-draw": Page(
        named("director-round-draw", "public"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-round-draw-progress": Page(
        named("director-round-draw-progress", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-round": Page(named("director-round", "fresh_round"), DIRECTOR, GET_ONLY_FOR_DIRECTOR),
    "director-round-results": Page(
        named("director-round-results", "public_round"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-round-redraw": Page(  # no seed: a new one is drawn at random
        named("director-round-redraw", "fresh_round"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-round-swap": Page(
        named("director-round-swap", "fresh_round"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-round-publish": Page(
        named("director-round-publish", "fresh_round"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-round-delete": Page(
        named("director-round-delete", "fresh_round"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-round-print": Page(
        named("director-round-print", "public_round"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    # An empty sheet form (no row count): refused with the sheet and the problem, as a 400.
    "director-table-result": Page(
        named("director-table-result", "waiting_table"), DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-table-confirm": Page(
        named("director-table-confirm", "waiting_table"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-table-live": Page(
        named("director-table-live", "confirmed_table"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-seat-bot": Page(
        named("director-seat-bot", "live_game", 0), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    # The venue during a round (web/views/venue.py); an empty clock or presence form is refused.
    "director-round-clock": Page(
        named("director-round-clock", "public_round"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_FORM_REFUSED
    ),
    "director-results-board": Page(
        named("director-results-board", "public_round"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-roll-call": Page(
        named("director-roll-call", "public"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "director-roll-call-all-present": Page(
        named("director-roll-call-all-present", "public"), GET_ONLY_FOR_DIRECTOR, DIRECTOR_ACTS
    ),
    "director-registration-presence": Page(
        named("director-registration-presence", "public_registration"),
        GET_ONLY_FOR_DIRECTOR,
        DIRECTOR_FORM_REFUSED,
    ),
    # ------------------------------------------------------------------ live tables
    # Anyone may watch a public tournament's table (without the hidden cards); only a seated
    # player may move (tests/security/test_seat_isolation.py), and none of these roles sits here.
    # Anyone may practise: a visitor who is not signed in plays as a guest (issue 13).
    "practice-start": Page(named("practice-start"), EVERYONE, (MOVED,) * 4),
    "live-game": Page(named("live-game", "live_game"), **PUBLIC),
    "live-game-state": Page(named("live-game-state", "live_game"), **PUBLIC),
    "live-game-act": Page(named("live-game-act", "live_game"), NO_POST, (403,) * 4, move, True),
    # The deal in progress has no replay, for anyone.
    # A tournament table's lasting live address: its game once started (a redirect), until then
    # a page that waits for it; the waiting table plays on paper, so it waits for everyone.
    "table-play": Page(named("table-play", "waiting_table"), EVERYONE, NO_POST),
    "live-deal-replay": Page(named("live-deal-replay", "live_game", 1), (404,) * 4, NO_POST),
    # ------------------------------------------------------------------ player's pages
    "player-home": Page(named("player-home"), (ENTRY, 200, 200, 200), (ENTRY, 405, 405, 405)),
    "player-link": Page(with_text("player-link", "bogus-token"), (400,) * 4, (400,) * 4),
    # An empty code is refused on the page, as a 400.
    "player-enter": Page(named("player-enter"), EVERYONE, (400,) * 4),
    "player-status": Page(named("player-status"), (403, 200, 200, 200), NO_POST),
    # The player of the table and the director go on to the sheet; the others choose a seat.
    "table-seat": Page(named("table-seat", "waiting_table"), (200, MOVED, 200, MOVED), (400,) * 4),
    "table-seat-hand-over": Page(
        named("table-seat-hand-over", "waiting_table", 0), NO_POST, (ENTRY, 403, 403, MOVED)
    ),
    "table-sheet": Page(
        named("table-sheet", "waiting_table"), (ENTRY, 200, 403, 200), (ENTRY, 400, 403, 400)
    ),
    "table-sheet-status": Page(
        named("table-sheet-status", "waiting_table"), (403, 200, 403, 200), NO_POST
    ),
    "table-sheet-check": Page(
        named("table-sheet-check", "waiting_table"),
        (ENTRY, 405, 405, 405),
        (ENTRY, 200, 403, 200),
    ),
    "table-result-confirm": Page(
        named("table-result-confirm", "waiting_table", 1),
        (ENTRY, 405, 405, 405),
        (ENTRY, MOVED, 403, MOVED),
    ),
    "table-result-dispute": Page(
        named("table-result-dispute", "waiting_table", 1),
        (ENTRY, 405, 405, 405),
        (ENTRY, 400, 403, 400),  # an empty note is refused on the page
    ),
    # ------------------------------------------------------------------ public pages
    "public-tournament-list": Page(named("public-tournament-list"), **PUBLIC),
    "public-tournament": Page(named("public-tournament", "public"), **PUBLIC),
    "public-round": Page(named("public-round", "public", 1), **PUBLIC),
    "public-table": Page(named("public-table", "public", 1, 1), **PUBLIC),
    "public-standings": Page(named("public-standings", "public"), **PUBLIC),
    "public-standings-live": Page(named("public-standings-live", "public"), **PUBLIC),
    "public-standings-csv": Page(named("public-standings-csv", "public"), **PUBLIC),
    "public-results-csv": Page(named("public-results-csv", "public"), **PUBLIC),
    "public-wall": Page(named("public-wall", "public"), **PUBLIC),
    "public-wall-live": Page(named("public-wall-live", "public"), **PUBLIC),
    "public-player": Page(named("public-player", "public", 1), **PUBLIC),
    "public-seat-list": Page(named("public-seat-list", "public"), **PUBLIC),
    # ------------------------------------------------------------------ seasons and profiles
    # Another club's director makes seasons of his own club here; an empty form is a 400.
    "director-seasons": Page(
        named("director-seasons"), (LOGIN, 403, 200, 200), (LOGIN, 403, 400, 400)
    ),
    "director-season": Page(
        named("director-season", "season"), (LOGIN, 403, 403, 200), (LOGIN, 403, 403, 400)
    ),
    # The confirmation page, then the season deleted (its tournaments stay).
    "director-season-delete": Page(
        named("director-season-delete", "season"), DIRECTOR, DIRECTOR_ACTS
    ),
    # The import is a form of the seasons page: posted only; another club's director imports
    # into his own club (without a file, a 400).
    "director-season-import": Page(
        named("director-season-import"), (LOGIN, 405, 405, 405), (LOGIN, 403, 400, 400)
    ),
    "director-season-archive": Page(
        named("director-season-archive", "season"), DIRECTOR, GET_ONLY_FOR_DIRECTOR
    ),
    "public-season-list": Page(named("public-season-list"), **PUBLIC),
    "public-season": Page(named("public-season", "season"), **PUBLIC),
    "public-season-wall": Page(named("public-season-wall", "season"), **PUBLIC),
    "public-season-wall-live": Page(named("public-season-wall-live", "season"), **PUBLIC),
    "public-season-csv": Page(named("public-season-csv", "season"), **PUBLIC),
    "public-player-profile": Page(named("public-player-profile", "public_player"), **PUBLIC),
}


def site_routes() -> dict[str, str]:
    """Every named URL pattern of the site (name: route), less the excluded prefixes."""
    found: dict[str, str] = {}

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(EXCLUDED_PREFIXES):
                continue
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            else:
                assert pattern.name, f"the route {route!r} has no name"
                found.setdefault(pattern.name, route)

    walk(get_resolver().url_patterns, "")
    return found


def test_the_matrix_has_a_row_for_every_page_of_the_site():
    routes = site_routes()

    missing = sorted(set(routes) - set(PAGES))
    stale = sorted(set(PAGES) - set(routes))

    assert not missing, f"say who may use these pages in PAGES: {missing}"
    assert not stale, f"these rows name no page any more: {stale}"


def assert_outcome(response, expected, url: str) -> None:
    if expected == LOGIN:
        assert response.status_code == 302, (url, response.status_code)
        assert response["Location"].startswith(reverse("login") + "?next="), response["Location"]
    elif expected == ENTRY:
        assert response.status_code == 302, (url, response.status_code)
        location = response["Location"]
        assert location.startswith(reverse("player-enter") + "?next=") or location.endswith(
            "/seat/"
        ), location
    elif expected == MOVED:
        assert response.status_code == 302, (url, response.status_code, response.content[:300])
        assert not response["Location"].startswith(reverse("login")), response["Location"]
    else:
        assert response.status_code == expected, (url, response.status_code, response.content[:300])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", PAGES)
def test_get(name, role, world, client_as):
    page = PAGES[name]
    url = page.url(world)

    response = client_as(role).get(url)

    assert_outcome(response, page.get[ROLES.index(role)], url)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", PAGES)
def test_post(name, role, world, client_as):
    page = PAGES[name]
    url = page.url(world)
    data = page.data(world) if page.data else {}

    client = client_as(role)
    if page.json:
        response = client.post(url, data, content_type="application/json")
    else:
        response = client.post(url, data)

    assert_outcome(response, page.post[ROLES.index(role)], url)
