"""The list filters of the API do what the OpenAPI schema says, and the schema says what works.

`/api/rounds/?tournament=3` once returned every round. Every query parameter the schema documents
for a list (besides `page`) is tried here on a world of two clubs and three tournaments: it keeps
exactly the records it names; a value that is not valid, or a filter a list does not have, is a
400 with a message naming it, never a 500 and never the whole list.
"""

import datetime
import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from rest_framework.test import APIClient

from draws import services as draw_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Registration, Round, Table, Tournament

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/clubs/",
    "/api/players/",
    "/api/tournaments/",
    "/api/registrations/",
    "/api/rounds/",
    "/api/tables/",
]


def make_tournament(director, club, name, players):
    tournament = services.tournament_create(
        actor=director, club=club, name=name, date=datetime.date(2026, 11, 27), rounds_planned=3
    )
    for number in range(players):
        player = PlayerFactory(club=club, name=f"{name} {number + 1}")
        services.registration_create(actor=director, tournament=tournament, player=player)
    return tournament


@pytest.fixture
def world():
    director = UserFactory()
    home, away = ClubFactory(directors=[director]), ClubFactory(directors=[director])
    first = make_tournament(director, home, "Friday", 8)
    second = make_tournament(director, home, "Saturday", 4)
    third = make_tournament(director, away, "Sunday", 4)
    for tournament in (first, second):
        round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=7)
        draw_services.round_publish(actor=director, round_=round_)
    draw_services.round_draw(actor=director, tournament=third, seed=8)  # a draft
    withdrawn = first.registrations.order_by("start_number").last()
    services.registration_withdraw(actor=director, registration=withdrawn)
    Tournament.objects.filter(pk=third.pk).update(status=Tournament.Status.FINISHED)
    client = APIClient()
    client.force_login(director)
    return {
        "client": client,
        "club": home.pk,
        "tournament": first.pk,
        "draft_tournament": third.pk,
        "player": withdrawn.player_id,
        "round": Round.objects.get(tournament=first, number=1).pk,
        # A value of each status filter that some records have and others not.
        "status": {
            "/api/tournaments/": Tournament.Status.FINISHED,
            "/api/registrations/": Registration.Status.WITHDRAWN,
            "/api/rounds/": Round.Status.DRAFT,
        },
    }


def schema():
    """The schema as /api/schema/ serves it (built in process: parametrize needs it before any
    request can be made)."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(document, renderer_context={}))


def documented_filters() -> list[tuple[str, str]]:
    """(list, query parameter) for every filter the schema documents."""
    found = []
    for path in LISTS:
        for parameter in schema()["paths"][path]["get"].get("parameters", []):
            if parameter["in"] == "query" and parameter["name"] != "page":
                found.append((path, parameter["name"]))
    return found


def items(response):
    assert response.status_code == 200, response.content[:500]
    return response.json()["results"]


def test_the_schema_documents_the_filters_that_work_and_their_400():
    assert sorted(documented_filters()) == sorted(
        [
            ("/api/players/", "club"),
            ("/api/tournaments/", "club"),
            ("/api/tournaments/", "status"),
            ("/api/registrations/", "tournament"),
            ("/api/registrations/", "player"),
            ("/api/registrations/", "status"),
            ("/api/rounds/", "tournament"),
            ("/api/rounds/", "status"),
            ("/api/tables/", "tournament"),
            ("/api/tables/", "round"),
        ]
    )
    paths = APIClient().get("/api/schema/?format=json").json()["paths"]
    for path in LISTS:
        assert "400" in paths[path]["get"]["responses"], path
    statuses = {
        parameter["name"]: parameter["schema"]
        for parameter in paths["/api/rounds/"]["get"]["parameters"]
    }
    assert statuses["status"]["enum"] == ["draft", "published", "finished"]
    assert statuses["tournament"]["type"] == "integer"


@pytest.mark.parametrize(("path", "name"), documented_filters())
def test_every_documented_filter_keeps_exactly_the_records_it_names(world, path, name):
    value = world["status"][path] if name == "status" else world[name]
    client = world["client"]
    everything = items(client.get(path))

    kept = items(client.get(path, {name: value}))

    assert kept, "the world has records of this value"
    assert len(kept) < len(everything), "and records of others"
    assert all(item[name] == value for item in kept)
    assert sorted(item["id"] for item in kept) == sorted(
        item["id"] for item in everything if item[name] == value
    )


def test_the_rounds_of_one_tournament_are_only_its_rounds(world):
    client = world["client"]

    rounds = items(client.get(f"/api/rounds/?tournament={world['tournament']}"))
    drafts = items(client.get(f"/api/rounds/?tournament={world['draft_tournament']}"))

    assert [(item["tournament"], item["number"]) for item in rounds] == [(world["tournament"], 1)]
    assert [(item["number"], item["status"]) for item in drafts] == [(1, "draft")]
    # The public sees no draft, filtered or not.
    assert items(APIClient().get(f"/api/rounds/?tournament={world['draft_tournament']}")) == []
    assert items(APIClient().get("/api/rounds/?status=draft")) == []


def test_filters_combine(world):
    client = world["client"]
    other = Tournament.objects.exclude(pk=world["tournament"]).first().pk

    both = items(
        client.get("/api/tables/", {"tournament": world["tournament"], "round": world["round"]})
    )
    neither = items(client.get("/api/tables/", {"tournament": other, "round": world["round"]}))

    assert len(both) == Table.objects.filter(round_id=world["round"]).count() == 2
    assert neither == []


def test_an_id_of_nothing_is_an_empty_list_and_an_empty_value_filters_nothing(world):
    client = world["client"]

    assert items(client.get("/api/rounds/?tournament=999999")) == []
    assert len(items(client.get("/api/rounds/?tournament="))) == len(
        items(client.get("/api/rounds/"))
    )


BAD_VALUES = ["first", "-1", "0", "1.5", "²", "9" * 19, " 1", "1,2"]


@pytest.mark.parametrize(("path", "name"), documented_filters())
@pytest.mark.parametrize("value", BAD_VALUES)
def test_a_bad_value_is_a_400_naming_the_filter(world, path, name, value):
    response = world["client"].get(path, {name: value})

    assert response.status_code == 400, response.content[:500]
    body = response.json()
    assert list(body) == [name]
    message = body[name][0]
    assert ("not one of" in message) if name == "status" else ("is not an id" in message)


@pytest.mark.parametrize("path", LISTS)
def test_a_filter_a_list_does_not_have_is_a_400_not_the_whole_list(world, path):
    response = world["client"].get(path, {"tournamnet": 3})

    assert response.status_code == 400
    assert "no such filter" in json.dumps(response.json()) or "no filters" in json.dumps(
        response.json()
    )


def test_one_record_is_found_whatever_the_query_says(world):
    # Filters are for lists; a record's own address answers as before.
    response = world["client"].get(f"/api/rounds/{world['round']}/?tournament=999999")

    assert response.status_code == 200
    assert response.json()["id"] == world["round"]
