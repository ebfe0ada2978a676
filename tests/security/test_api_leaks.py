"""What the REST API gives away to people who may not write: browsable pages, answers, logins.

The browsable API (kept while DEBUG is on) renders an HTML form for every write a user may
attempt, with a select of every record a related field accepts; those choices, and the answers to
writes, must name nothing the user may not see. Who may write is checked before the data is read.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.test import APIClient
from rest_framework.views import APIView

from tests.factories import PlayerFactory, UserFactory
from tests.security.conftest import PRIVATE_NAME, PRIVATE_PLAYER_NAME, ROLES, user_of
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

RIVAL_PRIVATE_NAME = "Rival Closed Masters"
RIVAL_PLAYER_NAME = "Bohdana Rival-Secret"
NOWHERE = 987654


@pytest.fixture(autouse=True)
def browsable_api(monkeypatch):
    """The renderers DEBUG serves, whatever production serves (JSON only)."""
    monkeypatch.setattr(APIView, "renderer_classes", [JSONRenderer, BrowsableAPIRenderer])


@pytest.fixture
def rival(world):
    """Club B's private tournament, with a player of its own who has a login."""
    tournament = services.tournament_create(
        actor=world.other_director,
        club=world.other_club,
        name=RIVAL_PRIVATE_NAME,
        date=datetime.date(2026, 12, 5),
        is_public=False,
    )
    player = PlayerFactory(club=world.other_club, name=RIVAL_PLAYER_NAME, user=UserFactory())
    services.registration_create(actor=world.other_director, tournament=tournament, player=player)
    return tournament, player


def api_as(world, role: str) -> APIClient:
    client = APIClient()
    client.raise_request_exception = False
    user = user_of(world, role)
    if user is not None:
        client.force_login(user)
    return client


def html(response) -> str:
    assert response.status_code < 500, response.content[:500]
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def secrets_in(page: str, world, role: str) -> list[str]:
    """The names and logins on a page that the role may not know."""
    viewer = user_of(world, role)
    hidden = []
    if role != "other_director":  # club B's, whose director he is
        hidden += [RIVAL_PRIVATE_NAME, RIVAL_PLAYER_NAME]
    if role != "director":
        hidden += [PRIVATE_NAME, PRIVATE_PLAYER_NAME]
    found = [name for name in hidden if name in page]
    for username in get_user_model().objects.values_list("username", flat=True):
        if (viewer is None or username != viewer.username) and re.search(
            rf"(?<![\w-]){re.escape(username)}(?![\w-])", page
        ):
            found.append(username)
    return found


PAGES = [
    "/api/",
    "/api/clubs/",
    "/api/players/",
    "/api/tournaments/",
    "/api/registrations/",
    "/api/rounds/",
    "/api/tables/",
    "/api/players/{w.public_registration.player_id}/",
    "/api/tournaments/{w.public.pk}/",
    "/api/tournaments/{w.public.pk}/rounds/",
    "/api/registrations/{w.public_registration.pk}/",
    "/api/rounds/{w.public_round.pk}/",
    "/api/tables/{w.confirmed_table.pk}/",
    "/api/tables/{w.confirmed_table.pk}/results/",
    "/api/tournaments/{w.public.pk}/standings/",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", PAGES)
def test_browsable_pages_name_nothing_the_visitor_may_not_see(world, rival, role, url):
    page = html(api_as(world, role).get(url.format(w=world), HTTP_ACCEPT="text/html"))

    assert secrets_in(page, world, role) == []


@pytest.mark.parametrize("role", ROLES)
def test_a_refused_write_shown_in_the_browser_lists_nothing_either(world, rival, role):
    client = api_as(world, role)
    for url, body in [
        ("/api/registrations/", {"tournament": world.fresh.pk, "player": "x"}),
        ("/api/players/", {"club": world.club.pk, "name": ""}),
        ("/api/tournaments/", {"club": world.club.pk, "name": ""}),
    ]:
        page = html(client.post(url, body, HTTP_ACCEPT="text/html"))
        assert secrets_in(page, world, role) == [], url


def test_the_directors_forms_offer_his_own_clubs_tournaments_and_players(world, rival):
    page = html(api_as(world, "director").get("/api/registrations/", HTTP_ACCEPT="text/html"))

    assert PRIVATE_NAME in page and PRIVATE_PLAYER_NAME in page  # his own club's
    assert secrets_in(page, world, "director") == []


def test_a_written_rounds_page_offers_no_other_clubs_tournaments(world, rival):
    # The answer to a write renders a form from the serializer that wrote it.
    client = api_as(world, "director")
    response = client.post(f"/api/rounds/{world.fresh_round.pk}/publish/", HTTP_ACCEPT="text/html")

    assert secrets_in(html(response), world, "director") == []


def test_the_player_form_offers_the_directors_own_login_only(world):
    page = html(api_as(world, "director").get("/api/players/", HTTP_ACCEPT="text/html"))

    select = re.search(r'<select[^>]*name="user"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    offered = re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1))
    assert [label.strip() for label in offered if label.strip("- \n")] == [world.director.username]


# --------------------------------------------------------------------------- who may write first
def test_who_directs_no_club_is_refused_registrations_whatever_the_ids(world, rival):
    client = api_as(world, "player")
    bodies = [
        {"tournament": world.private.pk, "player": world.private_player.pk},
        {"tournament": rival[0].pk, "player": rival[1].pk},
        {"tournament": world.public.pk, "player": world.public_registration.player_id},
        {"tournament": NOWHERE, "player": NOWHERE},
        {"tournament": "x"},
        {},
    ]

    answers = [client.post("/api/registrations/", body, format="json") for body in bodies]

    assert {answer.status_code for answer in answers} == {403}
    assert len({answer.content for answer in answers}) == 1
    assert answers[0].json()["detail"]


def test_a_tournament_of_another_club_is_answered_as_a_missing_one(world, rival):
    client = api_as(world, "other_director")
    own_player = rival[1]

    answers = [
        client.post(
            "/api/registrations/",
            {"tournament": tournament, "player": own_player.pk},
            format="json",
        )
        for tournament in (world.private.pk, world.public.pk, NOWHERE)
    ]

    assert {answer.status_code for answer in answers} == {400}
    assert len({answer.content for answer in answers}) == 1
    assert answers[0].json()["tournament"]
    assert not world.private.registrations.filter(player=own_player).exists()


def test_a_player_of_another_club_is_answered_as_a_missing_one(world, rival):
    client = api_as(world, "other_director")

    answers = [
        client.post(
            "/api/registrations/", {"tournament": rival[0].pk, "player": player}, format="json"
        )
        for player in (world.private_player.pk, NOWHERE)
    ]

    assert {answer.status_code for answer in answers} == {400}
    assert len({answer.content for answer in answers}) == 1
    assert answers[0].json()["player"]


def test_a_club_one_does_not_direct_is_answered_as_a_missing_one(world):
    client = api_as(world, "other_director")
    for url, extra in [("/api/players/", {}), ("/api/tournaments/", {"date": "2026-12-11"})]:
        answers = [
            client.post(url, {"club": club, "name": "Cup", **extra}, format="json")
            for club in (world.club.pk, NOWHERE)
        ]
        assert {answer.status_code for answer in answers} == {400}, url
        assert len({answer.content for answer in answers}) == 1, url
        assert answers[0].json()["club"]


@pytest.mark.parametrize(
    ("role", "method", "url", "body"),
    [
        ("player", "patch", "/api/players/{w.public_registration.player_id}/", {"name": ""}),
        ("other_director", "patch", "/api/tournaments/{w.public.pk}/", {"rounds_planned": "x"}),
        ("player", "post", "/api/rounds/{w.public_round.pk}/redraw/", {"seed": "lucky"}),
        ("player", "post", "/api/rounds/{w.public_round.pk}/swap/", {"first_seat": 0}),
        ("other_director", "post", "/api/tournaments/{w.public.pk}/rounds/", {"seed": -1}),
        ("other_director", "post", "/api/tables/{w.waiting_table.pk}/results/", {}),
        ("other_director", "post", "/api/tables/{w.waiting_table.pk}/results/1/dispute/", {}),
    ],
    ids=["rename", "tournament", "redraw", "swap", "draw", "submit", "dispute"],
)
def test_who_may_not_write_is_refused_before_his_data_is_judged(world, role, method, url, body):
    response = getattr(api_as(world, role), method)(url.format(w=world), body, format="json")

    assert response.status_code == 403
    assert list(response.json()) == ["detail"]


# --------------------------------------------------------------------------- linking logins
def test_a_director_cannot_link_a_login_of_someone_else_to_his_player(world):
    stranger = UserFactory()  # a login that belongs to no player
    client = api_as(world, "director")

    answers = [
        client.post(
            "/api/players/",
            {"club": world.club.pk, "name": "Taken Over", "user": login},
            format="json",
        )
        for login in (stranger.pk, NOWHERE)
    ]

    assert {answer.status_code for answer in answers} == {400}
    assert len({answer.content for answer in answers}) == 1  # no way to tell which logins exist
    assert "own login" in answers[0].json()["user"][0]
    assert not Player.objects.filter(name="Taken Over").exists()
    assert not Player.objects.filter(user=stranger).exists()


def test_the_service_refuses_linking_a_login_of_someone_else(world):
    stranger = UserFactory()

    with pytest.raises(PermissionDenied):
        services.player_create(
            actor=world.director, club=world.club, name="Taken Over", user=stranger
        )

    assert not Player.objects.filter(user=stranger).exists()


def test_a_director_links_his_own_login(world):
    response = api_as(world, "director").post(
        "/api/players/",
        {"club": world.club.pk, "name": "The Director", "user": world.director.pk},
        format="json",
    )

    assert response.status_code == 201, response.content
    assert Player.objects.get(pk=response.json()["id"]).user == world.director


def test_a_site_administrator_links_any_login(world):
    admin = UserFactory(is_staff=True, is_superuser=True)
    somebody, another = UserFactory(), UserFactory()
    client = APIClient()
    client.force_login(admin)

    response = client.post(
        "/api/players/",
        {"club": world.club.pk, "name": "Linked By Admin", "user": somebody.pk},
        format="json",
    )

    assert response.status_code == 201, response.content
    assert Player.objects.get(pk=response.json()["id"]).user == somebody
    player = services.player_create(actor=admin, club=world.club, name="Another", user=another)
    assert player.user == another
