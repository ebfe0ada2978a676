"""A whole tournament run through the REST API alone, as a director and the players would."""

import datetime
from collections import Counter

import pytest
from rest_framework.test import APIClient

from draws import services as draw_services
from tests.api.conftest import PASSWORD
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    """A client that authenticates with the token the API hands out for the user's password."""
    anonymous = APIClient()
    response = anonymous.post(
        "/api/token/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def session_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def seated(round_data) -> list[list[int | None]]:
    return [[seat["registration"] for seat in table["seats"]] for table in round_data["tables"]]


def seat_users(round_data, table_index, registrations_to_users) -> list:
    return [
        registrations_to_users[seat["registration"]]
        for seat in round_data["tables"][table_index]["seats"]
    ]


def test_a_tournament_from_creation_to_the_end_through_the_api(
    django_capture_on_commit_callbacks,
):
    director = UserFactory()
    club = ClubFactory(directors=[director])
    desk = token_client(director)
    public = APIClient()

    # The director creates a two-round tournament and enters eight players who have logins.
    response = desk.post(
        "/api/tournaments/",
        {"club": club.pk, "name": "Friday cup", "date": "2026-12-04", "rounds_planned": 2},
        format="json",
    )
    assert response.status_code == 201, response.content
    tournament = response.json()
    assert tournament["status"] == "draft" and tournament["is_public"] is True
    tid = tournament["id"]

    logins = UserFactory.create_batch(8)
    users_by_registration = {}
    for number, login in enumerate(logins, start=1):
        response = desk.post(
            "/api/players/", {"club": club.pk, "name": f"Player {number}"}, format="json"
        )
        assert response.status_code == 201, response.content
        # A login is linked by its owner (or a site administrator), never by the director.
        Player.objects.filter(pk=response.json()["id"]).update(user=login)
        response = desk.post(
            "/api/registrations/",
            {"tournament": tid, "player": response.json()["id"]},
            format="json",
        )
        assert response.status_code == 201, response.content
        assert response.json()["start_number"] == number
        users_by_registration[response.json()["id"]] = login
    listed = public.get(f"/api/registrations/?tournament={tid}").json()
    assert listed["count"] == 8

    # Round 1 is drawn as a draft: two tables of four, everyone seated exactly once.
    response = desk.post(f"/api/tournaments/{tid}/rounds/", {"seed": 11}, format="json")
    assert response.status_code == 201, response.content
    round_1 = response.json()
    assert (round_1["number"], round_1["status"], round_1["seed"]) == (1, "draft", 11)
    tables = seated(round_1)
    assert [len(table) for table in tables] == [4, 4]
    assert sorted(r for table in tables for r in table) == sorted(users_by_registration)
    assert [t["number"] for t in round_1["tables"]] == [1, 2]
    assert desk.get(f"/api/tournaments/{tid}/").json()["status"] == "running"
    # The public does not see the draft yet.
    assert public.get(f"/api/tournaments/{tid}/rounds/").json() == []
    assert public.get(f"/api/rounds/{round_1['id']}/").status_code == 404

    # A redraw needs another seed and seats the same eight players again.
    response = desk.post(f"/api/rounds/{round_1['id']}/redraw/", {"seed": 11}, format="json")
    assert response.status_code == 400
    assert "seed" in response.json()
    response = desk.post(f"/api/rounds/{round_1['id']}/redraw/", {"seed": 12}, format="json")
    assert response.status_code == 200, response.content
    round_1 = response.json()
    assert round_1["seed"] == 12
    tables = seated(round_1)
    assert sorted(r for table in tables for r in table) == sorted(users_by_registration)

    # The director swaps two players between the tables.
    first = round_1["tables"][0]["seats"][0]
    second = round_1["tables"][1]["seats"][3]
    response = desk.post(
        f"/api/rounds/{round_1['id']}/swap/",
        {"first_seat": first["id"], "second_seat": second["id"]},
        format="json",
    )
    assert response.status_code == 200, response.content
    swapped = response.json()
    assert swapped["tables"][0]["seats"][0]["registration"] == second["registration"]
    assert swapped["tables"][1]["seats"][3]["registration"] == first["registration"]
    everyone = Counter(r for table in seated(swapped) for r in table)
    assert everyone == Counter(list(users_by_registration))

    response = desk.post(f"/api/rounds/{round_1['id']}/publish/")
    assert response.status_code == 200, response.content
    round_1 = response.json()
    assert round_1["status"] == "published" and round_1["published_at"]
    assert seated(round_1) == seated(swapped)
    assert public.get(f"/api/rounds/{round_1['id']}/").json()["status"] == "published"

    # Table 1: a seated player submits the sheet; a second submission from the same starting
    # point is stale; a table-mate confirms.
    table_1 = round_1["tables"][0]["id"]
    north, east, south, west = seat_users(round_1, 0, users_by_registration)
    sheet = game_sheet(players=4, seed=1)
    response = session_client(north).post(
        f"/api/tables/{table_1}/results/", {"sheet": sheet, "expected_version": 0}, format="json"
    )
    assert response.status_code == 201, response.content
    submitted = response.json()
    assert (submitted["number"], submitted["status"], submitted["source"]) == (
        1,
        "submitted",
        "player",
    )
    # Named as the pages name him (his player's name), never by the login he signs in with.
    assert submitted["submitted_by"] == north.player.name != north.username
    assert len(submitted["totals"]) == 4

    response = session_client(east).post(
        f"/api/tables/{table_1}/results/",
        {"sheet": game_sheet(players=4, seed=2), "expected_version": 0},
        format="json",
    )
    assert response.status_code == 409
    assert "detail" in response.json()

    # Nothing is confirmed yet: the public sees no standings.
    assert public.get(f"/api/tournaments/{tid}/standings/").json()["rows"] == []

    with django_capture_on_commit_callbacks(execute=True):
        response = session_client(south).post(f"/api/tables/{table_1}/results/1/confirm/")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"
    assert response.json()["reviewed_by"] == south.player.name

    # The audit trail: every version for the table's players and the director, the confirmed
    # result alone for the public and for players of other tables.
    elsewhere = seat_users(round_1, 1, users_by_registration)[0]
    for insider in (session_client(west), desk):
        result = insider.get(f"/api/tables/{table_1}/results/").json()
        assert result["status"] == "confirmed" and result["version"] == 1
        assert [(v["number"], v["status"]) for v in result["versions"]] == [(1, "confirmed")]
        assert result["versions"][0]["submitted_by"] == north.player.name
    for outsider in (public, session_client(elsewhere)):
        result = outsider.get(f"/api/tables/{table_1}/results/").json()
        assert result["status"] == "confirmed"
        assert result["confirmed"]["number"] == 1
        assert result["confirmed"]["totals"] == submitted["totals"]
        assert result["versions"] == []

    # The standings were recomputed after the confirmation.
    standings = public.get(f"/api/tournaments/{tid}/standings/").json()
    assert standings["version"] == 1
    assert len(standings["rows"]) == 8
    points = sorted(row["tournament_points"] for row in standings["rows"])
    assert points == [0, 0, 0, 0, 0, 1, 2, 3]

    # The round is not over while table 2 has no confirmed result.
    assert public.get(f"/api/rounds/{round_1['id']}/").json()["status"] == "published"
    response = desk.post(f"/api/tournaments/{tid}/rounds/", {}, format="json")
    assert response.status_code == 400

    # Table 2: a player submits, a table-mate disputes, the director enters the corrected sheet.
    table_2 = round_1["tables"][1]["id"]
    players_2 = seat_users(round_1, 1, users_by_registration)
    response = session_client(players_2[0]).post(
        f"/api/tables/{table_2}/results/",
        {"sheet": game_sheet(players=4, seed=3), "expected_version": 0},
        format="json",
    )
    assert response.status_code == 201, response.content
    response = session_client(players_2[1]).post(
        f"/api/tables/{table_2}/results/1/dispute/",
        {"note": "Deal 4 was made, not failed."},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "disputed"
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            f"/api/tables/{table_2}/results/",
            {"sheet": game_sheet(players=4, seed=4), "expected_version": 1, "confirm": True},
            format="json",
        )
    assert response.status_code == 201, response.content
    assert (response.json()["number"], response.json()["status"]) == (2, "confirmed")
    trail = session_client(players_2[2]).get(f"/api/tables/{table_2}/results/").json()
    assert [(v["number"], v["status"], v["source"]) for v in trail["versions"]] == [
        (1, "disputed", "player"),
        (2, "confirmed", "director"),
    ]

    # Every table is confirmed: the round is finished and the standings count both tables.
    assert public.get(f"/api/rounds/{round_1['id']}/").json()["status"] == "finished"
    standings = public.get(f"/api/tournaments/{tid}/standings/").json()
    assert standings["version"] == 2
    assert sum(row["games_won"] for row in standings["rows"]) == 2
    assert sorted(row["tournament_points"] for row in standings["rows"]) == [0, 0, 1, 1, 2, 2, 3, 3]

    # The tournament cannot finish with a round to go... but round 2 can be drawn now.
    response = desk.post(f"/api/tournaments/{tid}/rounds/", {"seed": 21}, format="json")
    assert response.status_code == 201, response.content
    round_2 = response.json()
    assert round_2["number"] == 2
    assert sorted(r for table in seated(round_2) for r in table) == sorted(users_by_registration)
    assert desk.post(f"/api/tournaments/{tid}/finish/").status_code == 400
    assert desk.post(f"/api/rounds/{round_2['id']}/publish/").status_code == 200
    for index, table in enumerate(round_2["tables"]):
        with django_capture_on_commit_callbacks(execute=True):
            response = desk.post(
                f"/api/tables/{table['id']}/results/",
                {"sheet": game_sheet(players=4, seed=10 + index), "expected_version": 0},
                format="json",
            )
            assert response.status_code == 201, response.content
            mate = seat_users(round_2, index, users_by_registration)[1]
            response = session_client(mate).post(f"/api/tables/{table['id']}/results/1/confirm/")
            assert response.status_code == 200, response.content
    rounds = public.get(f"/api/tournaments/{tid}/rounds/").json()
    assert [(r["number"], r["status"]) for r in rounds] == [(1, "finished"), (2, "finished")]
    assert public.get(f"/api/tournaments/{tid}/standings/").json()["version"] == 4

    # All planned rounds are played: no third round, and the director finishes the tournament.
    assert desk.post(f"/api/tournaments/{tid}/rounds/", {}, format="json").status_code == 400
    response = desk.post(f"/api/tournaments/{tid}/finish/")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "finished"
    assert public.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"
    # A finished tournament takes no late corrections from players.
    response = session_client(north).post(
        f"/api/tables/{table_1}/results/",
        {"sheet": game_sheet(players=4, seed=5), "expected_version": 1},
        format="json",
    )
    assert response.status_code == 400


def test_the_public_sees_a_confirmed_result_but_not_who_entered_it(
    client_for, django_capture_on_commit_callbacks
):
    director = UserFactory()
    club = ClubFactory(directors=[director])
    cup = services.tournament_create(
        actor=director, club=club, name="Open cup", date=datetime.date(2026, 12, 6)
    )
    for _ in range(4):
        services.registration_create(
            actor=director, tournament=cup, player=PlayerFactory(club=club)
        )
    round_ = draw_services.round_draw(actor=director, tournament=cup, seed=1)
    draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get()
    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(table)

    public = client_for(None).get(f"/api/tables/{table.pk}/results/").json()
    inside = client_for(director).get(f"/api/tables/{table.pk}/results/").json()

    assert public["confirmed"]["totals"] == inside["confirmed"]["totals"]
    assert public["confirmed"]["submitted_by"] is None and public["versions"] == []
    # A director who plays in no club: his full name, else "Director", never his login (as on
    # the pages).
    assert inside["confirmed"]["submitted_by"] == (director.get_full_name() or "Director")
    assert director.username not in str(inside)
