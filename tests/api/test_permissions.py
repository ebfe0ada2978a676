"""Who may read and write what through the REST API: one row per endpoint, one column per role.

Roles: the anonymous public, a player sitting at the table in question, a player of the same
tournament sitting at another table, a director of another club and a director of the club.
"""

import datetime
import re
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from django.db import transaction
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from draws import services as draw_services
from scoring.services import result_submit
from seasons.models import Season
from tests.api.conftest import PASSWORD
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player_at_table", "player_elsewhere", "other_director", "director")


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction that is rolled back at its end.

    Every test runs in its own savepoint inside it (pytest-django's `django_db`), so a test's
    writes are undone before the next one; only the Python objects are shared, and no test
    changes them.
    """
    # The suite's fast hasher is a function fixture, so too late for a module fixture.
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), fast, transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(shared_world):
    return shared_world


def build_world():
    """Club A's tournaments in every state that matters, and club B's director next door.

    - `public`: 8 players with logins, round 1 published; at table 1 the player in seat 0 has
      submitted a sheet (version 1) that waits for confirmation.
    - `draft`: round 1 drawn but not published.
    - `fresh`: players registered, no round drawn.
    - `private`: not public; round 1 published; one of its players plays nowhere else.
    """
    director, other_director = UserFactory(), UserFactory()
    club = ClubFactory(directors=[director])
    ClubFactory(directors=[other_director])

    def tournament(name, players, *, logins=False, **options):
        made = services.tournament_create(
            actor=director, club=club, name=name, date=datetime.date(2026, 12, 4), **options
        )
        registrations = [
            services.registration_create(
                actor=director,
                tournament=made,
                player=PlayerFactory(club=club, user=UserFactory() if logins else None),
            )
            for _ in range(players)
        ]
        return made, registrations

    public, public_registrations = tournament("Public", 8, logins=True)
    public_round = draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=public, seed=11)
    )
    table, other_table = public_round.tables.order_by("number")

    def user_in_seat(table_, position):
        return table_.seats.get(position=position).registration.player.user

    submitter = user_in_seat(table, 0)
    result_submit(actor=submitter, table=table, sheet=game_sheet(players=4), expected_version=0)

    draft, _ = tournament("Draft", 4)
    draft_round = draw_services.round_draw(actor=director, tournament=draft, seed=5)
    draft_table = draft_round.tables.get()
    draft_seats = list(draft_table.seats.order_by("position"))

    fresh, _ = tournament("Fresh", 4)

    private, private_registrations = tournament("Private", 4, is_public=False)
    private_round = draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=private, seed=7)
    )
    private_table = private_round.tables.get()

    season = Season.objects.create(
        club=club,
        name="Club season",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )

    return SimpleNamespace(
        season=season,
        club=club,
        director=director,
        other_director=other_director,
        player_at_table=user_in_seat(table, 1),
        player_elsewhere=user_in_seat(other_table, 0),
        public=public,
        public_player=public_registrations[5].player,
        public_registration=public_registrations[6],
        public_round=public_round,
        table=table,
        draft=draft,
        draft_round=draft_round,
        draft_table=draft_table,
        draft_seats=draft_seats,
        fresh=fresh,
        newcomer=PlayerFactory(club=club),
        private=private,
        private_player=private_registrations[0].player,
        private_registration=private_registrations[0],
        private_round=private_round,
        private_table=private_table,
    )


@dataclass(frozen=True)
class Case:
    method: str
    url: str  # formatted with the world's attributes
    expected: tuple[int, int, int, int, int]  # by role, in the order of ROLES
    body: object = None  # a dict, or a function of the world giving one

    def request(self, client, w):
        url = self.url.format(w=w)
        body = self.body(w) if callable(self.body) else self.body
        return getattr(client, self.method.lower())(url, body, format="json")


# Roles:  anonymous, player at the table, player elsewhere, other club's director, director.
ALL_200 = (200, 200, 200, 200, 200)
DIRECTOR_ONLY_READ = (404, 404, 404, 404, 200)
NO_ONE = (404, 404, 404, 404, 404)
DIRECTOR_WRITES = (401, 403, 403, 403, 200)
DIRECTOR_CREATES = (401, 403, 403, 403, 201)
# Another club's director may create in his own club: naming this club's records is the same
# "no such record" (400 on the field) as naming missing ones, so ids tell him nothing.
DIRECTOR_CREATES_IN_CLUB = (401, 403, 403, 400, 201)
# Draft rounds and private tournaments are invisible, so writing to them is "not found".
DIRECTOR_WRITES_HIDDEN = (401, 404, 404, 404, 200)
TABLE_WRITES = (401, 200, 403, 403, 200)

CASES = {
    # ----------------------------------------------------------------- clubs
    "clubs list": Case("GET", "/api/clubs/", ALL_200),
    "club detail": Case("GET", "/api/clubs/{w.club.pk}/", ALL_200),
    # Clubs are created by a site administrator only.
    "club create": Case("POST", "/api/clubs/", (401, 403, 403, 403, 403), {"name": "New club"}),
    # ----------------------------------------------------------------- players
    "players list": Case("GET", "/api/players/", ALL_200),
    "player detail": Case("GET", "/api/players/{w.public_player.pk}/", ALL_200),
    "player of a private tournament only": Case(
        "GET", "/api/players/{w.private_player.pk}/", DIRECTOR_ONLY_READ
    ),
    "player create": Case(
        "POST",
        "/api/players/",
        DIRECTOR_CREATES_IN_CLUB,
        lambda w: {"club": w.club.pk, "name": "Olena"},
    ),
    "player rename": Case(
        "PATCH", "/api/players/{w.public_player.pk}/", DIRECTOR_WRITES, {"name": "Taras"}
    ),
    "player rename, private": Case(
        "PATCH", "/api/players/{w.private_player.pk}/", DIRECTOR_WRITES_HIDDEN, {"name": "Taras"}
    ),
    # ----------------------------------------------------------------- tournaments
    "tournaments list": Case("GET", "/api/tournaments/", ALL_200),
    "tournament detail": Case("GET", "/api/tournaments/{w.public.pk}/", ALL_200),
    "private tournament detail": Case(
        "GET", "/api/tournaments/{w.private.pk}/", DIRECTOR_ONLY_READ
    ),
    "tournament create": Case(
        "POST",
        "/api/tournaments/",
        DIRECTOR_CREATES_IN_CLUB,
        lambda w: {"club": w.club.pk, "name": "Cup", "date": "2026-12-11"},
    ),
    "tournament update": Case(
        "PATCH", "/api/tournaments/{w.public.pk}/", DIRECTOR_WRITES, {"name": "Renamed"}
    ),
    "private tournament update": Case(
        "PATCH", "/api/tournaments/{w.private.pk}/", DIRECTOR_WRITES_HIDDEN, {"name": "Renamed"}
    ),
    # Only PATCH updates; nothing is deleted through the API.
    "tournament put": Case(
        "PUT", "/api/tournaments/{w.public.pk}/", (401, 405, 405, 405, 405), {"name": "Renamed"}
    ),
    "tournament delete": Case(
        "DELETE", "/api/tournaments/{w.public.pk}/", (401, 405, 405, 405, 405)
    ),
    # The director may, but nothing was played in it: finishing is refused (delete it instead).
    "tournament finish": Case(
        "POST", "/api/tournaments/{w.fresh.pk}/finish/", (401, 403, 403, 403, 400)
    ),
    "private tournament finish": Case(
        # The director may, but round 1 is not finished yet.
        "POST",
        "/api/tournaments/{w.private.pk}/finish/",
        (401, 404, 404, 404, 400),
    ),
    # ----------------------------------------------------------------- rounds
    "tournament rounds": Case("GET", "/api/tournaments/{w.public.pk}/rounds/", ALL_200),
    "private tournament rounds": Case(
        "GET", "/api/tournaments/{w.private.pk}/rounds/", DIRECTOR_ONLY_READ
    ),
    "draw round": Case(
        "POST", "/api/tournaments/{w.fresh.pk}/rounds/", DIRECTOR_CREATES, {"seed": 3}
    ),
    "draw round, private": Case(
        # The director may, but round 1 is not finished yet.
        "POST",
        "/api/tournaments/{w.private.pk}/rounds/",
        (401, 404, 404, 404, 400),
        {"seed": 3},
    ),
    "rounds list": Case("GET", "/api/rounds/", ALL_200),
    "round detail": Case("GET", "/api/rounds/{w.public_round.pk}/", ALL_200),
    "draft round detail": Case("GET", "/api/rounds/{w.draft_round.pk}/", DIRECTOR_ONLY_READ),
    "private round detail": Case("GET", "/api/rounds/{w.private_round.pk}/", DIRECTOR_ONLY_READ),
    "redraw": Case(
        "POST", "/api/rounds/{w.draft_round.pk}/redraw/", DIRECTOR_WRITES_HIDDEN, {"seed": 6}
    ),
    "redraw a published round": Case(
        # Visible to all, so the others are refused; the director learns it is too late.
        "POST",
        "/api/rounds/{w.public_round.pk}/redraw/",
        (401, 403, 403, 403, 400),
        {"seed": 12},
    ),
    "swap seats": Case(
        "POST",
        "/api/rounds/{w.draft_round.pk}/swap/",
        DIRECTOR_WRITES_HIDDEN,
        lambda w: {"first_seat": w.draft_seats[0].pk, "second_seat": w.draft_seats[1].pk},
    ),
    "publish": Case("POST", "/api/rounds/{w.draft_round.pk}/publish/", DIRECTOR_WRITES_HIDDEN),
    "publish a published round": Case(
        "POST", "/api/rounds/{w.public_round.pk}/publish/", (401, 403, 403, 403, 400)
    ),
    # ----------------------------------------------------------------- tables
    "tables list": Case("GET", "/api/tables/", ALL_200),
    "table detail": Case("GET", "/api/tables/{w.table.pk}/", ALL_200),
    "draft table detail": Case("GET", "/api/tables/{w.draft_table.pk}/", DIRECTOR_ONLY_READ),
    "private table detail": Case("GET", "/api/tables/{w.private_table.pk}/", DIRECTOR_ONLY_READ),
    # ----------------------------------------------------------------- registrations
    "registrations list": Case("GET", "/api/registrations/", ALL_200),
    "registration detail": Case("GET", "/api/registrations/{w.public_registration.pk}/", ALL_200),
    "private registration detail": Case(
        "GET", "/api/registrations/{w.private_registration.pk}/", DIRECTOR_ONLY_READ
    ),
    "register": Case(
        "POST",
        "/api/registrations/",
        DIRECTOR_CREATES_IN_CLUB,
        lambda w: {"tournament": w.fresh.pk, "player": w.newcomer.pk},
    ),
    "withdraw": Case(
        "POST", "/api/registrations/{w.public_registration.pk}/withdraw/", DIRECTOR_WRITES
    ),
    "withdraw, private": Case(
        "POST", "/api/registrations/{w.private_registration.pk}/withdraw/", DIRECTOR_WRITES_HIDDEN
    ),
    # ----------------------------------------------------------------- results
    "results read": Case("GET", "/api/tables/{w.table.pk}/results/", ALL_200),
    # A draft table has no result yet, for anyone.
    "results read, draft table": Case("GET", "/api/tables/{w.draft_table.pk}/results/", NO_ONE),
    "results read, private table": Case(
        "GET", "/api/tables/{w.private_table.pk}/results/", DIRECTOR_ONLY_READ
    ),
    "results submit": Case(
        "POST",
        "/api/tables/{w.table.pk}/results/",
        (401, 201, 403, 403, 201),
        {"sheet": game_sheet(players=4, seed=1), "expected_version": 1},
    ),
    "results submit, draft table": Case(
        # The director sees the table, but its round is not published yet.
        "POST",
        "/api/tables/{w.draft_table.pk}/results/",
        (401, 404, 404, 404, 400),
        {"sheet": game_sheet(players=4, seed=1), "expected_version": 0},
    ),
    "results submit, private table": Case(
        "POST",
        "/api/tables/{w.private_table.pk}/results/",
        (401, 404, 404, 404, 201),
        {"sheet": game_sheet(players=4, seed=1), "expected_version": 0},
    ),
    "results confirm": Case("POST", "/api/tables/{w.table.pk}/results/1/confirm/", TABLE_WRITES),
    "results dispute": Case(
        "POST",
        "/api/tables/{w.table.pk}/results/1/dispute/",
        TABLE_WRITES,
        {"note": "Deal 3 was made."},
    ),
    # ----------------------------------------------------------------- standings
    "standings": Case("GET", "/api/tournaments/{w.public.pk}/standings/", ALL_200),
    "private standings": Case(
        "GET", "/api/tournaments/{w.private.pk}/standings/", DIRECTOR_ONLY_READ
    ),
    # ----------------------------------------------------------------- seasons and ratings
    "seasons list": Case("GET", "/api/seasons/", ALL_200),
    "season detail": Case("GET", "/api/seasons/{w.season.pk}/", ALL_200),
    "season create": Case(
        "POST",
        "/api/seasons/",
        DIRECTOR_CREATES_IN_CLUB,
        lambda w: {
            "club": w.club.pk,
            "name": "Winter",
            "starts_on": "2027-01-01",
            "ends_on": "2027-03-31",
        },
    ),
    "season update": Case(
        "PATCH", "/api/seasons/{w.season.pk}/", DIRECTOR_WRITES, {"name": "Renamed season"}
    ),
    "season put": Case(
        "PUT", "/api/seasons/{w.season.pk}/", (401, 405, 405, 405, 405), {"name": "Renamed"}
    ),
    # As a tournament: deleted on the director's pages (after a confirmation), not the API.
    "season delete": Case("DELETE", "/api/seasons/{w.season.pk}/", (401, 405, 405, 405, 405)),
    "season standings": Case("GET", "/api/seasons/{w.season.pk}/standings/", ALL_200),
    "season tournaments": Case(
        "POST",
        "/api/seasons/{w.season.pk}/tournaments/",
        DIRECTOR_WRITES,
        lambda w: {"tournament": w.public.pk, "included": True},
    ),
    "player rating": Case("GET", "/api/players/{w.public_player.pk}/rating/", ALL_200),
    "rating of a player of a private tournament only": Case(
        "GET", "/api/players/{w.private_player.pk}/rating/", DIRECTOR_ONLY_READ
    ),
    # ----------------------------------------------------------------- schema and docs
    "schema": Case("GET", "/api/schema/", ALL_200),
    "docs": Case("GET", "/api/docs/", ALL_200),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_permission_matrix(case, role, world, client_for):
    client = client_for(None if role == "anonymous" else getattr(world, role))

    response = case.request(client, world)

    expected = case.expected[ROLES.index(role)]
    assert response.status_code == expected, response.content[:300]
    if expected in (401, 403, 404):
        assert response.json()["detail"]
    if expected == 401:
        # The client learns how to authenticate.
        assert response["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("role", ROLES)
def test_token_is_handed_out_for_a_login(role, world, client_for):
    user = None if role == "anonymous" else getattr(world, role)
    credentials = {"username": user.username, "password": PASSWORD} if user else {}

    response = client_for().post("/api/token/", credentials, format="json")

    if user is None:
        assert response.status_code == 400
        assert set(response.json()) == {"username", "password"}
    else:
        assert response.status_code == 200
        token = response.json()["token"]
        token_client = client_for()
        token_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert token_client.get(f"/api/tournaments/{world.private.pk}/").status_code == (
            200 if role == "director" else 404
        )


def test_session_writes_need_the_csrf_token_and_token_writes_do_not(world):
    url = f"/api/tables/{world.table.pk}/results/1/confirm/"
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(world.player_at_table)

    response = browser.post(url)

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    token = APIClient(enforce_csrf_checks=True)
    token.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=world.director)}")
    assert token.post(url).status_code == 200


def test_a_wrong_password_or_token_is_refused(world, client_for):
    response = client_for().post(
        "/api/token/", {"username": world.director.username, "password": "wrong"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["non_field_errors"]

    client = client_for()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/tournaments/")
    assert response.status_code == 401
    assert response.json()["detail"]


# --------------------------------------------------------------------------- what lists show
def ids(response) -> set[int]:
    assert response.status_code == 200
    return {item["id"] for item in response.json()["results"]}


@pytest.mark.parametrize("role", ROLES)
def test_private_tournaments_are_absent_from_lists_but_for_their_directors(role, world, client_for):
    client = client_for(None if role == "anonymous" else getattr(world, role))
    insider = role == "director"

    tournaments = ids(client.get("/api/tournaments/"))
    assert {world.public.pk, world.draft.pk, world.fresh.pk} <= tournaments
    assert (world.private.pk in tournaments) is insider

    registrations = ids(client.get("/api/registrations/"))
    assert world.public_registration.pk in registrations
    assert (world.private_registration.pk in registrations) is insider
    filtered = ids(client.get(f"/api/registrations/?tournament={world.private.pk}"))
    assert bool(filtered) is insider

    players = ids(client.get("/api/players/"))
    assert world.public_player.pk in players
    assert (world.private_player.pk in players) is insider

    rounds = ids(client.get("/api/rounds/"))
    assert world.public_round.pk in rounds
    assert (world.private_round.pk in rounds) is insider

    tables = ids(client.get("/api/tables/"))
    assert world.table.pk in tables
    assert (world.private_table.pk in tables) is insider


@pytest.mark.parametrize("role", ROLES)
def test_draft_rounds_are_invisible_to_all_but_the_clubs_directors(role, world, client_for):
    client = client_for(None if role == "anonymous" else getattr(world, role))
    insider = role == "director"

    rounds = client.get(f"/api/tournaments/{world.draft.pk}/rounds/").json()
    assert [r["id"] for r in rounds] == ([world.draft_round.pk] if insider else [])
    assert (world.draft_round.pk in ids(client.get("/api/rounds/"))) is insider
    assert (world.draft_table.pk in ids(client.get("/api/tables/"))) is insider


def test_a_player_of_a_private_tournament_sees_it(world, client_for):
    client = client_for(UserFactory())
    assert client.get(f"/api/tournaments/{world.private.pk}/").status_code == 404

    member = UserFactory()
    Player.objects.filter(pk=world.private_player.pk).update(user=member)
    client = client_for(member)
    assert client.get(f"/api/tournaments/{world.private.pk}/").status_code == 200
    assert client.get(f"/api/tournaments/{world.private.pk}/standings/").status_code == 200
    assert client.get(f"/api/tables/{world.private_table.pk}/results/").status_code == 200
    # Seeing it is not managing it.
    response = client.patch(
        f"/api/tournaments/{world.private.pk}/", {"name": "Mine now"}, format="json"
    )
    assert response.status_code == 403


def test_a_player_does_not_confirm_his_own_sheet_nor_confirm_at_once(world, client_for):
    submitter = world.table.seats.get(position=0).registration.player.user
    client = client_for(submitter)

    response = client.post(f"/api/tables/{world.table.pk}/results/1/confirm/")
    assert response.status_code == 403
    assert response.json()["detail"]

    response = client_for(world.player_at_table).post(
        f"/api/tables/{world.table.pk}/results/",
        {"sheet": game_sheet(players=4, seed=2), "expected_version": 1, "confirm": True},
        format="json",
    )
    assert response.status_code == 403


def test_only_insiders_see_the_audit_trail(world, client_for):
    for role in ROLES:
        client = client_for(None if role == "anonymous" else getattr(world, role))
        result = client.get(f"/api/tables/{world.table.pk}/results/").json()
        assert result["status"] == "submitted" and result["confirmed"] is None
        insider = role in ("player_at_table", "director")
        assert [v["number"] for v in result["versions"]] == ([1] if insider else []), role


def test_the_matrix_covers_every_operation_of_the_schema():
    from drf_spectacular.generators import SchemaGenerator

    def shape(url: str) -> str:
        # "/api/tables/{w.table.pk}/results/1/confirm/" and "/api/tables/{table_id}/results/
        # {number}/confirm/" have the same shape.
        return re.sub(r"\{[^}]*\}|\d+", "{}", url.split("?")[0])

    covered = {(shape(case.url), case.method.lower()) for case in CASES.values()}
    covered.add(("/api/token/", "post"))  # test_token_is_handed_out_for_a_login
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in schema["paths"].items():
        for method in set(item) & {"get", "post", "put", "patch", "delete"}:
            assert (shape(path), method) in covered, (path, method)
