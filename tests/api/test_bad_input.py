"""Bad input to the REST API gets a clear 4xx answer that says what is wrong, never a 500."""

import datetime
import json
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from draws import services as draw_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services

pytestmark = pytest.mark.django_db

HUGE = 10**30
NOWHERE = 987654


@pytest.fixture
def w():
    """A director's club with a running tournament (round 1 published, one table of four players
    with logins), a tournament with players but no round, and a player of another club."""
    director = UserFactory()
    club = ClubFactory(directors=[director])

    def tournament(name, players, **options):
        made = services.tournament_create(
            actor=director, club=club, name=name, date=datetime.date(2026, 12, 4), **options
        )
        for _ in range(players):
            player = PlayerFactory(club=club, user=UserFactory())
            services.registration_create(actor=director, tournament=made, player=player)
        return made

    running = tournament("Running", 4)
    round_ = draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=running, seed=3)
    )
    table = round_.tables.get()
    seats = list(table.seats.order_by("position"))
    fresh = tournament("Fresh", 4)
    draft_round = draw_services.round_draw(actor=director, tournament=fresh, seed=4)
    return SimpleNamespace(
        director=director,
        club=club,
        running=running,
        round=round_,
        table=table,
        seats=seats,
        player=seats[0].registration.player,
        registration=seats[0].registration,
        player_user=seats[0].registration.player.user,
        fresh=fresh,
        draft_round=draft_round,
        draft_seats=list(draft_round.seats.order_by("table__number", "position")),
        stranger=PlayerFactory(club=ClubFactory()),
    )


def texts(value) -> list[str]:
    """Every message string in an error response's JSON, however nested."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in texts(item)]
    return []


def assert_clear_4xx(response, status: int, mentions: str = ""):
    """The status, and a JSON body with a message (mentioning `mentions`, case-insensitively)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    messages = texts(response.json())
    assert messages and all(message.strip() for message in messages), response.json()
    if mentions:
        assert mentions.lower() in json.dumps(response.json()).lower(), response.json()


@dataclass(frozen=True)
class Bad:
    method: str
    url: str  # formatted with the fixture `w`
    body: object  # a JSON-able value, or a function of `w`; bytes are sent raw
    status: int
    mentions: str = ""
    as_user: str = "director"  # or "player" (a player at the table)


def tournament(**fields):
    return lambda w: {"club": w.club.pk, "name": "Cup", "date": "2026-12-11", **fields}


def submission(sheet, **fields):
    return {"sheet": sheet, "expected_version": 0, **fields}


def sheet_with_row(**changes):
    sheet = game_sheet(players=4, seed=1)
    sheet["rows"][0] = {**sheet["rows"][0], **changes}
    return sheet


def sheet_without(name):
    sheet = game_sheet(players=4, seed=1)
    del sheet["rows"][0][name]
    return sheet


VALID_SHEET = game_sheet(players=4, seed=1)
RESULTS = "/api/tables/{w.table.pk}/results/"

CASES = {
    # ------------------------------------------------------------------ malformed bodies
    "malformed JSON": Bad("POST", "/api/tournaments/", b'{"name": "Cup",', 400, "JSON parse"),
    "malformed JSON in a result": Bad("POST", RESULTS, b"{sheet: 1}", 400, "JSON parse", "player"),
    "malformed JSON to the token": Bad("POST", "/api/token/", b"{", 400, "JSON parse"),
    "not UTF-8": Bad("POST", "/api/tournaments/", b'{"name": "\xff\xfe"}', 400),
    "NaN is not JSON": Bad("POST", "/api/tournaments/{w.fresh.pk}/rounds/", b'{"seed": NaN}', 400),
    "deeply nested JSON": Bad(
        "POST", RESULTS, b"[" * 100_000 + b"]" * 100_000, 400, as_user="player"
    ),
    "a list instead of an object": Bad("POST", "/api/tournaments/", [1, 2], 400, "dictionary"),
    "a number instead of an object": Bad("POST", RESULTS, 7, 400, as_user="player"),
    "an empty body": Bad("POST", "/api/players/", {}, 400, "required"),
    # ------------------------------------------------------------------ tournaments: wrong types
    "date not a date": Bad("POST", "/api/tournaments/", tournament(date="tomorrow"), 400, "date"),
    "date that does not exist": Bad(
        "POST", "/api/tournaments/", tournament(date="2026-02-30"), 400, "date"
    ),
    "rounds as words": Bad(
        "POST", "/api/tournaments/", tournament(rounds_planned="five"), 400, "rounds_planned"
    ),
    "rounds as a fraction": Bad(
        "POST", "/api/tournaments/", tournament(rounds_planned=2.5), 400, "rounds_planned"
    ),
    "public as maybe": Bad("POST", "/api/tournaments/", tournament(is_public="maybe"), 400),
    "club as a name": Bad("POST", "/api/tournaments/", tournament(club="Club 1"), 400, "club"),
    "table size 5": Bad("POST", "/api/tournaments/", tournament(table_size="5"), 400, "table_size"),
    "rules as a string": Bad("POST", "/api/tournaments/", tournament(rules="strict"), 400, "rules"),
    "rules as a list": Bad("POST", "/api/tournaments/", tournament(rules=["must_beat"]), 400),
    "precedence as a string": Bad(
        "POST", "/api/tournaments/", tournament(standings_precedence="random"), 400
    ),
    "precedence with an unknown metric": Bad(
        "POST",
        "/api/tournaments/",
        tournament(standings_precedence=["charm"]),
        400,
        "charm",
    ),
    "placement points as a list": Bad(
        "POST", "/api/tournaments/", tournament(placement_points=[3, 2, 1, 0]), 400
    ),
    "placement points for tables of 5": Bad(
        "POST",
        "/api/tournaments/",
        tournament(placement_points={"5": [4, 3, 2, 1, 0]}),
        400,
        "placement_points",
    ),
    "placement points that grow": Bad(
        "POST",
        "/api/tournaments/",
        tournament(placement_points={"3": [0, 1, 2], "4": [0, 1, 2, 3]}),
        400,
        "placement_points",
    ),
    "deals for a full game": Bad(
        "POST", "/api/tournaments/", tournament(deals_per_round=12), 400, "deals_per_round"
    ),
    "deals not a multiple of the table": Bad(
        "POST",
        "/api/tournaments/",
        tournament(round_format="deals", deals_per_round=7),
        400,
        "deals_per_round",
    ),
    "update with a rule of the wrong type": Bad(
        "PATCH", "/api/tournaments/{w.fresh.pk}/", {"rules": {"must_beat": "yes"}}, 400, "rules"
    ),
    "format change after the draw": Bad(
        "PATCH", "/api/tournaments/{w.running.pk}/", {"table_size": "3"}, 400, "table_size"
    ),
    "fewer rounds than drawn": Bad(
        "PATCH", "/api/tournaments/{w.running.pk}/", {"rounds_planned": 0}, 400, "rounds_planned"
    ),
    "a blank name": Bad("PATCH", "/api/tournaments/{w.fresh.pk}/", {"name": "   "}, 400, "name"),
    "a null name": Bad("PATCH", "/api/tournaments/{w.fresh.pk}/", {"name": None}, 400, "name"),
    # ------------------------------------------------------------------ unknown rule options
    "an unknown rule option": Bad(
        "POST", "/api/tournaments/", tournament(rules={"trumps": "hearts"}), 400, "trumps"
    ),
    "a rule option out of range": Bad(
        "POST", "/api/tournaments/", tournament(rules={"min_bid": 42}), 400, "min_bid"
    ),
    "a huge target": Bad(
        "POST", "/api/tournaments/", tournament(rules={"target": HUGE}), 400, "target"
    ),
    "a bid cap not on the list": Bad(
        "POST", "/api/tournaments/", tournament(rules={"bid_cap": ["none"]}), 400, "bid_cap"
    ),
    # ------------------------------------------------------------------ negative and huge numbers
    "negative rounds": Bad(
        "POST", "/api/tournaments/", tournament(rounds_planned=-1), 400, "rounds_planned"
    ),
    "zero rounds": Bad(
        "POST", "/api/tournaments/", tournament(rounds_planned=0), 400, "rounds_planned"
    ),
    "61 rounds": Bad("POST", "/api/tournaments/", tournament(rounds_planned=61), 400, "rounds"),
    "a huge number of rounds": Bad(
        "POST", "/api/tournaments/", tournament(rounds_planned=HUGE), 400, "rounds_planned"
    ),
    "negative deals": Bad(
        "POST",
        "/api/tournaments/",
        tournament(round_format="deals", deals_per_round=-12),
        400,
        "deals_per_round",
    ),
    "a huge club id": Bad("POST", "/api/tournaments/", tournament(club=HUGE), 400, "club"),
    "a negative seed": Bad("POST", "/api/tournaments/{w.fresh.pk}/rounds/", {"seed": -1}, 400),
    "a huge seed": Bad("POST", "/api/rounds/{w.draft_round.pk}/redraw/", {"seed": 2**63}, 400),
    "a seed as text": Bad(
        "POST", "/api/rounds/{w.draft_round.pk}/redraw/", {"seed": "lucky"}, 400, "seed"
    ),
    "a negative expected version": Bad(
        "POST", RESULTS, submission(VALID_SHEET, expected_version=-1), 400, "expected_version"
    ),
    "a huge expected version": Bad(
        "POST", RESULTS, submission(VALID_SHEET, expected_version=HUGE), 409, "version", "player"
    ),
    "seat zero": Bad(
        "POST", "/api/rounds/{w.draft_round.pk}/swap/", {"first_seat": 0, "second_seat": 1}, 400
    ),
    "a huge seat": Bad(
        "POST",
        "/api/rounds/{w.draft_round.pk}/swap/",
        lambda w: {"first_seat": HUGE, "second_seat": w.draft_seats[0].pk},
        404,
    ),
    "a huge id in the path": Bad("GET", "/api/tournaments/" + "9" * 25 + "/", None, 404),
    "a huge table id in the path": Bad("GET", "/api/tables/" + "9" * 25 + "/results/", None, 404),
    "a huge version in the path": Bad(
        "POST", "/api/tables/{w.table.pk}/results/" + "9" * 25 + "/confirm/", None, 409
    ),
    "a huge club filter": Bad("GET", "/api/players/?club=" + "9" * 25, None, 400, "club"),
    "a huge tournament filter": Bad(
        "GET", "/api/registrations/?tournament=" + "9" * 25, None, 400, "tournament"
    ),
    "a superscript digit as the club filter": Bad("GET", "/api/players/?club=²", None, 400, "id"),
    "a superscript digit as the tournament filter": Bad(
        "GET", "/api/registrations/?tournament=²", None, 400, "id"
    ),
    "a filter the list does not have": Bad(
        "GET", "/api/rounds/?tournamnet=3", None, 400, "no such filter"
    ),
    "a page that is not a number": Bad("GET", "/api/tournaments/?page=first", None, 404, "page"),
    "a page past the end": Bad("GET", "/api/tournaments/?page=99", None, 404, "page"),
    # ------------------------------------------------------------------ nonexistent ids
    "no such tournament": Bad("GET", f"/api/tournaments/{NOWHERE}/", None, 404),
    "a tournament id that is not a number": Bad("GET", "/api/tournaments/first/", None, 404),
    "draw in no such tournament": Bad("POST", f"/api/tournaments/{NOWHERE}/rounds/", {}, 404),
    "redraw no such round": Bad("POST", f"/api/rounds/{NOWHERE}/redraw/", {}, 404),
    "swap no such seat": Bad(
        "POST",
        "/api/rounds/{w.draft_round.pk}/swap/",
        lambda w: {"first_seat": NOWHERE, "second_seat": w.draft_seats[0].pk},
        404,
    ),
    "swap a seat of another round": Bad(
        "POST",
        "/api/rounds/{w.draft_round.pk}/swap/",
        lambda w: {"first_seat": w.seats[0].pk, "second_seat": w.draft_seats[0].pk},
        404,
    ),
    "swap a seat with itself": Bad(
        "POST",
        "/api/rounds/{w.draft_round.pk}/swap/",
        lambda w: {"first_seat": w.draft_seats[0].pk, "second_seat": w.draft_seats[0].pk},
        400,
    ),
    "swap in a published round": Bad(
        "POST",
        "/api/rounds/{w.round.pk}/swap/",
        lambda w: {"first_seat": w.seats[0].pk, "second_seat": w.seats[1].pk},
        400,
        "published",
    ),
    "results of no such table": Bad("GET", f"/api/tables/{NOWHERE}/results/", None, 404),
    "submit to no such table": Bad(
        "POST", f"/api/tables/{NOWHERE}/results/", submission(VALID_SHEET), 404
    ),
    "confirm no such version": Bad(
        "POST", "/api/tables/{w.table.pk}/results/7/confirm/", None, 409, "version"
    ),
    "confirm at no such table": Bad("POST", f"/api/tables/{NOWHERE}/results/1/confirm/", None, 404),
    "dispute no such version": Bad(
        "POST", "/api/tables/{w.table.pk}/results/3/dispute/", {"note": "wrong"}, 409
    ),
    "standings of no such tournament": Bad(
        "GET", f"/api/tournaments/{NOWHERE}/standings/", None, 404
    ),
    "withdraw no such registration": Bad(
        "POST", f"/api/registrations/{NOWHERE}/withdraw/", {}, 404
    ),
    "register in no such tournament": Bad(
        "POST",
        "/api/registrations/",
        lambda w: {"tournament": NOWHERE, "player": w.player.pk},
        400,
        "tournament",
    ),
    "register a player of another club": Bad(
        "POST",
        "/api/registrations/",
        lambda w: {"tournament": w.running.pk, "player": w.stranger.pk},
        400,
        "player",
    ),
    "register a player twice": Bad(
        "POST",
        "/api/registrations/",
        lambda w: {"tournament": w.running.pk, "player": w.player.pk},
        400,
        "player",
    ),
    "a player for no such club": Bad(
        "POST", "/api/players/", {"club": NOWHERE, "name": "Olena"}, 400, "club"
    ),
    "a player for no such login": Bad(
        "POST",
        "/api/players/",
        lambda w: {"club": w.club.pk, "name": "Olena", "user": NOWHERE},
        400,
        "user",
    ),
    "a login that is already a player": Bad(
        "POST",
        "/api/players/",
        lambda w: {"club": w.club.pk, "name": "Olena", "user": w.player_user.pk},
        400,
        "user",
    ),
    "withdraw with a draft round pending": Bad(
        "POST",
        "/api/registrations/{w.draft_seats[0].registration_id}/withdraw/",
        {},
        400,
        "delete the draft",
    ),
    "draw with a draft round pending": Bad(
        "POST", "/api/tournaments/{w.fresh.pk}/rounds/", {}, 400, "publish"
    ),
    # ------------------------------------------------------------------ oversized strings
    "a long tournament name": Bad(
        "POST", "/api/tournaments/", tournament(name="x" * 161), 400, "name"
    ),
    "a huge tournament name": Bad(
        "POST", "/api/tournaments/", tournament(name="x" * 100_000), 400, "name"
    ),
    "a long player name": Bad(
        "POST", "/api/players/", lambda w: {"club": w.club.pk, "name": "x" * 121}, 400, "name"
    ),
    "a long new player name": Bad(
        "PATCH", "/api/players/{w.player.pk}/", {"name": "y" * 5000}, 400, "name"
    ),
    "a blank new player name": Bad(
        "PATCH", "/api/players/{w.player.pk}/", {"name": " \t "}, 400, "name"
    ),
    "a long precedence": Bad(
        "POST",
        "/api/tournaments/",
        tournament(standings_precedence=["games_won"] * 11),
        400,
        "standings_precedence",
    ),
    "a long metric name": Bad(
        "POST",
        "/api/tournaments/",
        tournament(standings_precedence=["m" * 41]),
        400,
        "standings_precedence",
    ),
    "a long note with a sheet": Bad(
        "POST", RESULTS, submission(VALID_SHEET, note="n" * 1001), 400, "note", "player"
    ),
    "a long dispute note": Bad(
        "POST", "/api/tables/{w.table.pk}/results/1/dispute/", {"note": "n" * 1001}, 400, "note"
    ),
    "an empty dispute note": Bad(
        "POST", "/api/tables/{w.table.pk}/results/1/dispute/", {"note": "  "}, 400, "note"
    ),
    "a long user name for a token": Bad(
        "POST", "/api/token/", {"username": "u" * 10_000, "password": "p"}, 400
    ),
    "a list as the user name": Bad(
        "POST", "/api/token/", {"username": ["a"], "password": "p"}, 400, "username"
    ),
    # ------------------------------------------------------------------ score sheets
    "no sheet": Bad("POST", RESULTS, {"expected_version": 0}, 400, "sheet", "player"),
    "no expected version": Bad("POST", RESULTS, {"sheet": VALID_SHEET}, 400, "expected_version"),
    "a sheet that is text": Bad("POST", RESULTS, submission("all good"), 400, "sheet", "player"),
    "a sheet that is a list": Bad("POST", RESULTS, submission([1, 2]), 400, "sheet", "player"),
    "a sheet that is null": Bad("POST", RESULTS, submission(None), 400, "sheet", "player"),
    "a sheet without mode": Bad(
        "POST", RESULTS, submission({"rows": VALID_SHEET["rows"]}), 400, "mode", "player"
    ),
    "a sheet of an unknown mode": Bad(
        "POST", RESULTS, submission({"mode": "tricks", "rows": []}), 400, "mode", "player"
    ),
    "a sheet whose mode is a list": Bad(
        "POST", RESULTS, submission({"mode": ["deals"], "rows": []}), 400, "mode", "player"
    ),
    "a sheet whose mode is an object": Bad(
        "POST", RESULTS, submission({"mode": {"deals": 1}}), 400, "mode", "player"
    ),
    "a sheet with an extra field": Bad(
        "POST", RESULTS, submission({**VALID_SHEET, "weather": "fine"}), 400, "weather", "player"
    ),
    "rows that are not a list": Bad(
        "POST", RESULTS, submission({"mode": "deals", "rows": "many"}), 400, "rows", "player"
    ),
    "no rows": Bad(
        "POST", RESULTS, submission({"mode": "deals", "rows": []}), 400, "no rows", "player"
    ),
    "a row that is a number": Bad(
        "POST", RESULTS, submission({"mode": "deals", "rows": [5]}), 400, "row 1", "player"
    ),
    "a row without scores": Bad(
        "POST", RESULTS, submission(sheet_without("scores")), 400, "scores", "player"
    ),
    "a row with text for the bid": Bad(
        "POST", RESULTS, submission(sheet_with_row(bid="fifty")), 400, "bid", "player"
    ),
    "a row with a fractional bid": Bad(
        "POST", RESULTS, submission(sheet_with_row(bid=50.5)), 400, "bid", "player"
    ),
    "a row with a huge bid": Bad(
        "POST", RESULTS, submission(sheet_with_row(bid=HUGE, contract=HUGE)), 400, "bid", "player"
    ),
    "a row with a negative dealer": Bad(
        "POST", RESULTS, submission(sheet_with_row(dealer=-1)), 400, "dealer", "player"
    ),
    "a row with a huge score": Bad(
        "POST", RESULTS, submission(sheet_with_row(scores=[HUGE, 0, 0, 0])), 400, "row 1", "player"
    ),
    "a row with three scores at a table of four": Bad(
        "POST", RESULTS, submission(sheet_with_row(scores=[0, 0, 0])), 400, "scores", "player"
    ),
    "a row with an unknown outcome": Bad(
        "POST", RESULTS, submission(sheet_with_row(outcome="won")), 400, "outcome", "player"
    ),
    "a row with an outcome that is a list": Bad(
        "POST", RESULTS, submission(sheet_with_row(outcome=["made"])), 400, "outcome", "player"
    ),
    "a row with an unknown field": Bad(
        "POST", RESULTS, submission(sheet_with_row(trump="hearts")), 400, "trump", "player"
    ),
    "a sheet of a game that is not over": Bad(
        "POST",
        RESULTS,
        submission({"mode": "deals", "rows": VALID_SHEET["rows"][:3]}),
        400,
        "sheet",
        "player",
    ),
    "a sheet of a table of three": Bad(
        "POST", RESULTS, submission(game_sheet(players=3)), 400, "sheet", "player"
    ),
    "final totals where the deals are required": Bad(
        "POST",
        RESULTS,
        submission({"mode": "totals", "totals": [1005, 0, 0, 0], "winner": 0}),
        400,
        "deal by deal",
        "player",
    ),
    "confirm at once as text": Bad(
        "POST", RESULTS, submission(VALID_SHEET, confirm="perhaps"), 400, "confirm"
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_bad_input_gets_a_clear_4xx(case, w, client_for):
    client = client_for(w.player_user if case.as_user == "player" else w.director)
    if "/results/1/" in case.url:
        # Version 1 of the table's sheet, waiting for confirmation.
        client_for(w.player_user).post(RESULTS.format(w=w), submission(VALID_SHEET), format="json")
    url = case.url.format(w=w)
    body = case.body(w) if callable(case.body) else case.body

    if isinstance(body, bytes):
        response = getattr(client, case.method.lower())(url, body, content_type="application/json")
    else:
        response = getattr(client, case.method.lower())(url, body, format="json")

    if case.status == 200:
        # A filter that cannot apply is ignored.
        assert response.status_code == 200, response.content[:500]
    else:
        assert_clear_4xx(response, case.status, case.mentions)


def test_an_unsupported_media_type_is_refused(w, client_for):
    response = client_for(w.director).post(
        "/api/tournaments/", "name=Cup", content_type="text/plain"
    )
    assert_clear_4xx(response, 415, "media type")


def test_the_club_slug_made_from_a_long_name_fits_its_column(client_for):
    admin = UserFactory(is_superuser=True)
    name = "Kyiv club of the card game one thousand and one " * 3
    name = name[:120]

    response = client_for(admin).post("/api/clubs/", {"name": name}, format="json")

    assert response.status_code in (201, 400), response.content[:500]
    if response.status_code == 201:
        assert len(response.json()["slug"]) <= 60


def test_placement_points_for_one_table_size_keep_the_default_for_the_other(w, client_for):
    response = client_for(w.director).post(
        "/api/tournaments/",
        tournament(table_size="4", placement_points={"3": [2, 1, 0]})(w),
        format="json",
    )

    assert response.status_code == 201
    assert response.json()["placement_points"] == {"3": [2, 1, 0], "4": [3, 2, 1, 0]}


def test_club_names_are_checked(client_for):
    admin = UserFactory(is_superuser=True)
    client = client_for(admin)
    ClubFactory(name="Taken")

    assert_clear_4xx(client.post("/api/clubs/", {"name": "x" * 121}, format="json"), 400, "name")
    assert_clear_4xx(client.post("/api/clubs/", {"name": "Taken"}, format="json"), 400, "name")
    assert_clear_4xx(client.post("/api/clubs/", {"name": "  "}, format="json"), 400, "name")
    response = client.post("/api/clubs/", {"name": "Ok", "slug": "not a slug!"}, format="json")
    assert_clear_4xx(response, 400, "slug")


def test_a_conflicting_submission_says_what_to_do(w, client_for):
    first, second = (client_for(seat.registration.player.user) for seat in w.seats[:2])
    url = RESULTS.format(w=w)
    assert first.post(url, submission(VALID_SHEET), format="json").status_code == 201

    response = second.post(url, submission(game_sheet(players=4, seed=2)), format="json")

    assert_clear_4xx(response, 409, "was not saved")


def test_a_disputed_sheet_waits_for_the_director(w, client_for):
    submitter, mate = (client_for(seat.registration.player.user) for seat in w.seats[:2])
    url = RESULTS.format(w=w)
    assert submitter.post(url, submission(VALID_SHEET), format="json").status_code == 201

    response = submitter.post(f"{url}1/dispute/", {"note": "mine is wrong"}, format="json")
    assert_clear_4xx(response, 400, "corrected sheet")
    response = mate.post(f"{url}1/dispute/", {"note": "Deal 2 was made."}, format="json")
    assert response.status_code == 200
    assert_clear_4xx(mate.post(f"{url}1/confirm/"), 400, "director")
    assert_clear_4xx(mate.post(f"{url}1/dispute/", {"note": "again"}, format="json"), 400)
    assert client_for(w.director).post(f"{url}1/confirm/").status_code == 200


def test_sheet_errors_name_every_bad_row(w, client_for):
    sheet = game_sheet(players=4, seed=1)
    sheet["rows"][0]["bid"] = 51
    sheet["rows"][2]["scores"] = "lots"

    response = client_for(w.player_user).post(RESULTS.format(w=w), submission(sheet), format="json")

    assert_clear_4xx(response, 400)
    messages = response.json()["sheet"]
    assert any(message.startswith("row 1") for message in messages), messages
    assert any(message.startswith("row 3") for message in messages), messages


# --------------------------------------------------------------------------- throttling
@pytest.fixture
def two_results_a_minute(settings, monkeypatch):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"results": "2/minute"},
    }
    # DRF copies the rates into a class attribute when it is imported, so a changed setting
    # reaches the throttle only through that attribute.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", api_settings.DEFAULT_THROTTLE_RATES)
    from django.core.cache import cache

    cache.clear()


def test_result_submissions_are_throttled(w, client_for, two_results_a_minute):
    player, mate = (client_for(seat.registration.player.user) for seat in w.seats[:2])
    url = RESULTS.format(w=w)
    bad = submission({"mode": "deals", "rows": []})

    assert player.post(url, bad, format="json").status_code == 400
    assert player.post(url, bad, format="json").status_code == 400
    response = player.post(url, submission(VALID_SHEET), format="json")

    assert_clear_4xx(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    # Reading is not throttled, and the limit is per person.
    assert player.get(url).status_code == 200
    assert mate.post(url, submission(VALID_SHEET), format="json").status_code == 201
