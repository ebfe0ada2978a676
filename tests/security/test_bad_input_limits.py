"""Oversized and malformed requests to the pages, the live table and its websocket get a clear
4xx answer (or an error message on the websocket) and change nothing; never a server error.

The REST API's own bad input is in tests/api/test_bad_input.py, the director's CSV files in
tests/web/test_director_pages.py; this adds the limits on size and the forged forms and moves.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from core.request_limits import too_large_message
from gameplay.models import LiveGame
from scoring.models import ResultVersion
from tests.factories import game_sheet
from tests.web.test_player_pages import form_data

pytestmark = pytest.mark.django_db

TOO_LARGE = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1


def page_text(response) -> str:
    return response.content.decode()


def assert_refused_as_too_large(response, *, json_key: str | None = None):
    assert response.status_code == 413, (response.status_code, response.content[:300])
    if json_key:
        assert "too large" in response.json()[json_key]
    else:
        assert "too large" in page_text(response)


# --------------------------------------------------------------------------- oversized requests
def test_an_oversized_api_request_is_413_with_a_message(world, client_as):
    client = client_as("director")
    body = json.dumps({"club": world.club.pk, "name": "x" * TOO_LARGE, "date": "2026-12-11"})

    response = client.post("/api/tournaments/", body, content_type="application/json")

    assert_refused_as_too_large(response, json_key="detail")
    assert response["Content-Type"] == "application/json"
    form = client.post("/api/tournaments/", {"name": "x" * TOO_LARGE})  # multipart
    assert_refused_as_too_large(form, json_key="detail")
    encoded = client.post(
        "/api/players/",
        f"club={world.club.pk}&name={'x' * TOO_LARGE}",
        content_type="application/x-www-form-urlencoded",
    )
    assert_refused_as_too_large(encoded, json_key="detail")


def test_an_oversized_api_token_request_is_413(client_as):
    body = json.dumps({"username": "u" * TOO_LARGE, "password": "p"})

    response = client_as("anonymous").post("/api/token/", body, content_type="application/json")

    assert_refused_as_too_large(response, json_key="detail")


def test_deeply_nested_json_to_the_token_endpoint_is_a_400(client_as):
    body = b"[" * 100_000 + b"]" * 100_000

    response = client_as("anonymous").post("/api/token/", body, content_type="application/json")

    assert response.status_code == 400
    assert "nests too deeply" in response.json()["detail"]


@pytest.mark.parametrize(
    "path", ["/api/players/", "/api/tournaments/", "/api/token/", "/api/registrations/"]
)
def test_a_lone_surrogate_in_a_json_body_is_a_400_and_nothing_is_stored(world, client_as, path):
    from tournaments.models import Player, Tournament

    before = Player.objects.count(), Tournament.objects.count()
    body = json.dumps(
        {"club": world.club.pk, "name": "Ірина \ud800", "date": "2026-12-11", "username": "\udfff"}
    )

    response = client_as("director").post(path, body, content_type="application/json")

    assert response.status_code == 400, response.content[:300]
    assert "lone surrogate" in response.json()["detail"]
    assert (Player.objects.count(), Tournament.objects.count()) == before


def test_an_unknown_api_address_is_a_json_404(client_as):
    response = client_as("director").get("/api/tournaments/0.5/rounds/")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


@pytest.mark.parametrize("enforce_csrf_checks", [False, True])
def test_an_oversized_form_post_is_413_with_a_page_that_says_so(
    world, client_as, enforce_csrf_checks
):
    client = client_as("director", enforce_csrf_checks=enforce_csrf_checks)
    url = reverse("director-registration-bulk", args=[world.fresh.pk])
    client.get(reverse("director-registrations", args=[world.fresh.pk]))  # the CSRF cookie
    token = client.cookies[settings.CSRF_COOKIE_NAME].value

    response = client.post(url, {"csrfmiddlewaretoken": token, "names": "Olena\n" * 200_000})

    assert_refused_as_too_large(response)
    assert "1.0" in page_text(response)  # the limit, in the language's format
    assert not world.fresh.registrations.filter(player__name="Olena").exists()


def test_the_oversized_page_speaks_the_visitors_language(world, client_as):
    client = client_as("director")
    url = reverse("director-registration-bulk", args=[world.fresh.pk])

    response = client.post(url, {"names": "x" * TOO_LARGE}, HTTP_ACCEPT_LANGUAGE="uk")

    assert response.status_code == 413
    assert '<html lang="uk">' in page_text(response)
    with translation.override("uk"):
        assert too_large_message() in page_text(response)


def test_too_many_form_fields_are_a_400_with_a_message(world, client_as):
    client = client_as("director")
    data = {f"field{n}": "1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}

    response = client.post(reverse("director-table-result", args=[world.waiting_table.pk]), data)

    assert response.status_code == 400
    assert "Too many form fields" in page_text(response)


def test_too_many_form_fields_to_the_api_are_a_400_with_a_message(world, client_as):
    fields = "&".join(f"f{n}=1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    response = client_as("director").post(
        "/api/players/", fields, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert "Too many form fields" in response.json()["detail"]


def csv_upload(content: bytes, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


def test_an_oversized_upload_is_413_and_registers_nobody(world, client_as):
    url = reverse("director-registration-csv", args=[world.fresh.pk])
    content = b"Olena Koval\n" * (settings.UPLOAD_MAX_FILE_SIZE // 12 + 1)
    before = world.fresh.registrations.count()

    response = client_as("director").post(url, {"file": csv_upload(content)})

    assert response.status_code == 413
    assert "The file is too large" in page_text(response)
    assert world.fresh.registrations.count() == before


def test_a_csv_upload_over_the_memory_threshold_is_refused_by_its_form(world, client_as):
    url = reverse("director-registration-csv", args=[world.fresh.pk])
    content = b"Olena Koval\n" * (2 * settings.FILE_UPLOAD_MAX_MEMORY_SIZE // 12)

    response = client_as("director").post(url, {"file": csv_upload(content)})

    assert response.status_code == 400
    assert "The file is larger than 512 KB" in page_text(response)
    assert not world.fresh.registrations.filter(player__name="Olena Koval").exists()


def test_the_largest_honest_uploads_fit_under_the_limit():
    from archive.importer import ARCHIVE_MAX_BYTES
    from web.forms.director import CSV_MAX_BYTES

    assert max(CSV_MAX_BYTES, ARCHIVE_MAX_BYTES) <= settings.UPLOAD_MAX_FILE_SIZE


def test_too_many_uploaded_files_are_a_400(world, client_as):
    url = reverse("director-registration-csv", args=[world.fresh.pk])
    files = [
        csv_upload(b"Olena\n", f"p{n}.csv")
        for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FILES + 1)
    ]

    response = client_as("director").post(url, {"file": files})

    assert response.status_code == 400
    assert "Too many files" in page_text(response)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Olena,Lviv\n".encode("utf-16"), "This is not a CSV text file."),
        (b"name\n" + b"x" * 500 + b"\n", "at most 120 characters"),
        (b"name\n" + b"".join(b"P%d\n" % n for n in range(1001)), "at most"),
        (b"\xef\xbb\xbf\n\n\n", "The file is empty."),
    ],
    ids=["utf-16", "name too long", "too many lines", "only a byte order mark"],
)
def test_a_malformed_csv_upload_is_refused_with_a_message(world, client_as, content, message):
    url = reverse("director-registration-csv", args=[world.fresh.pk])
    before = world.fresh.registrations.count()

    response = client_as("director").post(url, {"file": csv_upload(content)})

    assert response.status_code < 500
    assert message in page_text(response)
    assert world.fresh.registrations.count() == before


# --------------------------------------------------------------------------- forged score sheets
# The first deal of a real game: well-formed, but no finished game, so never stored.
FIRST_DEAL = {"rows": game_sheet(players=4, seed=4)["rows"][:1]}


def sheet_form(**fields) -> dict:
    """The score-sheet form as the pages post it (having seen version 1), forged."""
    data = {**form_data(FIRST_DEAL, version=1), **fields}
    return {key: value for key, value in data.items() if value is not None}


FORGED_SHEETS = {
    "no management form": {"rows-TOTAL_FORMS": None, "rows-INITIAL_FORMS": None},
    "rows count as text": {"rows-TOTAL_FORMS": "many"},
    "a negative rows count": {"rows-TOTAL_FORMS": "-5"},
    "a huge rows count": {"rows-TOTAL_FORMS": "9" * 30},
    "a float rows count": {"rows-TOTAL_FORMS": "1e9"},
    "a huge score": {"rows-0-score_0": "9" * 400, "rows-0-bid": "100"},
    "scores as words": {"rows-0-score_0": "lots", "rows-0-declarer": "me"},
    "Arabic-Indic digits": {"rows-0-bid": "١٠٠", "rows-0-declarer": "٠"},
    "a NUL byte": {"rows-0-bid": "10\x000", "rows-0-outcome": "made\x00"},
    "an unknown seat": {"rows-0-declarer": "17", "rows-0-dealer": "-3"},
    "an unknown outcome": {"rows-0-outcome": "<script>alert(1)</script>", "rows-0-bid": "100"},
    "an unknown mode": {"mode": "everything"},
    "totals mode with garbage": {"mode": "totals", "total_0": "∞", "winner": "everyone"},
    "a version as text": {"expected_version": "latest"},
    "a huge version": {"expected_version": "9" * 40},
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no script"])
@pytest.mark.parametrize("fields", FORGED_SHEETS.values(), ids=FORGED_SHEETS.keys())
def test_a_forged_sheet_check_is_answered_without_a_server_error(world, client_as, fields, htmx):
    url = reverse("table-sheet-check", args=[world.waiting_table.pk])
    headers = {"HX-Request": "true"} if htmx else {}

    response = client_as("player").post(url, sheet_form(**fields), headers=headers)

    assert response.status_code in (200, 400), response.content[:300]
    assert "<script>alert" not in page_text(response)


@pytest.mark.parametrize("fields", FORGED_SHEETS.values(), ids=FORGED_SHEETS.keys())
def test_a_forged_sheet_submission_is_refused_and_stores_nothing(world, client_as, fields):
    url = reverse("table-sheet", args=[world.waiting_table.pk])
    versions = ResultVersion.objects.filter(table=world.waiting_table).count()

    response = client_as("player").post(url, sheet_form(**fields))

    assert response.status_code in (200, 400, 409), response.content[:300]
    assert ResultVersion.objects.filter(table=world.waiting_table).count() == versions


@pytest.mark.parametrize("fields", FORGED_SHEETS.values(), ids=FORGED_SHEETS.keys())
def test_a_forged_director_sheet_is_refused_and_stores_nothing(world, client_as, fields):
    url = reverse("director-table-result", args=[world.waiting_table.pk])
    data = sheet_form(**fields)  # both pages post the same score-sheet form
    versions = ResultVersion.objects.filter(table=world.waiting_table).count()

    response = client_as("director").post(url, data)

    assert response.status_code in (200, 400, 409), response.content[:300]
    assert ResultVersion.objects.filter(table=world.waiting_table).count() == versions


# --------------------------------------------------------------------------- forged moves
def seat_to_act(world):
    game = LiveGame.objects.get(pk=world.live_game.pk)
    return game, world.live_seated[game.to_act]


FORGED_ACTIONS = {
    "no type": {},
    "type as a list": {"type": ["pass"]},
    "unknown type": {"type": "shuffle"},
    "bid as text": {"type": "bid", "value": "a hundred"},
    "bid as a float": {"type": "bid", "value": 100.5},
    "bid as a boolean": {"type": "bid", "value": True},
    "a huge bid": {"type": "bid", "value": 10**400},
    "a negative bid": {"type": "bid", "value": -100},
    "bid as null": {"type": "bid", "value": None},
    "card as a number": {"type": "play", "card": 5},
    "card not in the deck": {"type": "play", "card": "ZZ"},
    "card as an object": {"type": "play", "card": {"rank": "A"}},
    "give to a seat as text": {"type": "give", "card": "AS", "to": "left"},
    "give to a missing seat": {"type": "give", "card": "AS", "to": 9},
    "contract as text": {"type": "contract", "value": "max"},
    "marriage as text": {"type": "play", "card": "KH", "marriage": "yes"},
    "seat as text": {"type": "pass", "seat": "0"},
    "a long string": {"type": "x" * 3000},
}


def post_move(client, game, body: bytes | str):
    return client.post(
        reverse("live-game-act", args=[game.pk]), body, content_type="application/json"
    )


@pytest.mark.parametrize("action", FORGED_ACTIONS.values(), ids=FORGED_ACTIONS.keys())
def test_a_forged_move_posted_is_refused_with_a_message(world, client, action):
    game, user = seat_to_act(world)
    client.force_login(user)

    response = post_move(client, game, json.dumps({"action": action, "sequence": game.sequence}))

    assert response.status_code in (400, 409), response.content[:300]
    assert response.json()["error"]
    assert LiveGame.objects.get(pk=game.pk).sequence == game.sequence


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 2040 + b"]" * 2040,  # nests too deeply, within the move's size limit
        b'{"action": {"type": "pass"}, "sequence": 1e999}',
        b'{"action": {"type": "pass"}, "sequence": NaN}',
        b'{"action": {"type": "pass"}, "sequence": true}',
        b"\xff\xfe not UTF-8",
        b"",
    ],
    ids=["deep", "infinite sequence", "NaN sequence", "boolean sequence", "not UTF-8", "empty"],
)
def test_a_malformed_move_body_is_a_400(world, client, body):
    game, user = seat_to_act(world)
    client.force_login(user)

    response = post_move(client, game, body)

    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"]
    assert LiveGame.objects.get(pk=game.pk).sequence == game.sequence


def test_an_oversized_move_is_refused(world, client):
    game, user = seat_to_act(world)
    client.force_login(user)
    action = {"type": "pass", "note": "x" * 5000}

    response = post_move(client, game, json.dumps({"action": action, "sequence": game.sequence}))
    huge = post_move(client, game, b'{"pad": "' + b"x" * TOO_LARGE + b'"}')

    assert response.status_code == 400 and response.json()["error"]
    assert_refused_as_too_large(huge, json_key="error")
    assert LiveGame.objects.get(pk=game.pk).sequence == game.sequence


WEBSOCKET_GARBAGE = {
    "not JSON": "{not json",
    "nested too deeply": "[" * 5000 + "]" * 5000,
    "a bare string": '"act"',
    "an act without an action": json.dumps({"type": "act", "sequence": 0}),
    "an act with a list action": json.dumps({"type": "act", "action": [], "sequence": 0}),
    "a float sequence": json.dumps({"type": "act", "action": {"type": "pass"}, "sequence": 0.0}),
}


def test_malformed_websocket_messages_get_an_error_and_the_socket_stays_open(world, websocket_for):
    game, user = seat_to_act(world)
    forged = [
        {"type": "act", "action": action, "sequence": game.sequence}
        for action in FORGED_ACTIONS.values()
    ]

    async def scenario():
        socket = websocket_for(user, game.pk)
        assert (await socket.connect(timeout=10))[0]
        first = await socket.receive_json_from(timeout=10)
        answers = []
        for text in WEBSOCKET_GARBAGE.values():
            await socket.send_to(text_data=text)
            answers.append(await socket.receive_json_from(timeout=10))
        await socket.send_to(bytes_data=b"\x00\x01")
        answers.append(await socket.receive_json_from(timeout=10))
        for message in forged:
            await socket.send_json_to(message)
            answers.append(await socket.receive_json_from(timeout=10))
            # A refused move is followed by the table as it is.
            assert (await socket.receive_json_from(timeout=10))["type"] == "view"
        # Still connected: a sync is answered.
        await socket.send_json_to({"type": "sync"})
        after = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return first, answers, after

    first, answers, after = async_to_sync(scenario)()
    assert first["type"] == "view"
    for answer in answers:
        assert answer["type"] == "error" and answer["message"], answer
    assert after["type"] == "view" and after["view"]["sequence"] == game.sequence
    assert LiveGame.objects.get(pk=game.pk).sequence == game.sequence
