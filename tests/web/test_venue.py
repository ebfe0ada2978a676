"""The venue during a round, as the director and the players use it: the round clock, the roll
call and the draw that follows it, the find-your-seat list, the results board, the wall screen."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from draws import services as draw_services
from scoring import services as scoring_services
from scoring.models import TableResult
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import selectors, services
from tournaments.models import Registration, Round
from web.presenters.venue import alphabetical_key

pytestmark = pytest.mark.django_db

NAMES = [
    "Юлія Савчук",
    "Ігор Литвин",
    "Андрій Мельник",
    "Євген Гнатюк",
    "Богдан Кравець",
    "Ґанна Ґудзь",
    "Олена Коваль",
    "Тарас Шевчук",
]
ROOT = Path(__file__).resolve().parents[2]
NOW = datetime.datetime(2026, 12, 4, 19, 0, 0, tzinfo=datetime.UTC)


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def tournament(director):
    club = ClubFactory(directors=[director])
    made = services.tournament_create(
        actor=director, club=club, name="Friday Cup", date=datetime.date(2026, 12, 4)
    )
    for name in NAMES:
        PlayerFactory(club=club, name=name, user=UserFactory())
    services.registration_create_from_names(actor=director, tournament=made, names=NAMES)
    return made


@pytest.fixture
def published(director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    return draw_services.round_publish(actor=director, round_=round_)


@pytest.fixture
def clock_at(monkeypatch):
    """Set the time the services and pages read (`clock_at(seconds after NOW)`)."""

    def move(seconds: float) -> None:
        moment = NOW + datetime.timedelta(seconds=seconds)
        monkeypatch.setattr(timezone, "now", lambda: moment)

    move(0)
    return move


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def text_of(response) -> str:
    return response.content.decode()


def clock_post(client, round_, action, minutes=None):
    data = {"action": action}
    if minutes is not None:
        data["minutes"] = str(minutes)
    return client.post(reverse("director-round-clock", args=[round_.pk]), data)


def remaining_shown(html: str) -> int:
    return int(re.search(r'data-remaining="(-?\d+)"', html).group(1))


# --------------------------------------------------------------------------- clock services
def test_the_clock_starts_pauses_resumes_and_extends_without_losing_time(
    director, published, clock_at
):
    draw_services.round_clock_start(actor=director, round_=published, minutes=45)
    clock_at(600)
    draw_services.round_clock_pause(actor=director, round_=published)
    clock_at(900)  # five minutes of a pause
    draw_services.round_clock_resume(actor=director, round_=published)
    draw_services.round_clock_extend(actor=director, round_=published, minutes=10)
    clock_at(960)

    published.refresh_from_db()
    assert published.clock_seconds == 55 * 60
    assert published.clock_paused_seconds == 300
    from web.presenters.venue import clock_reading

    assert clock_reading(published).remaining == 55 * 60 - 660


def test_only_the_clubs_directors_work_the_clock(published):
    other = UserFactory()
    ClubFactory(directors=[other])

    with pytest.raises(PermissionDenied):
        draw_services.round_clock_start(actor=other, round_=published, minutes=30)


@pytest.mark.parametrize("minutes", [0, 301, -1, True])
def test_a_clock_length_out_of_bounds_is_refused(director, published, minutes):
    with pytest.raises(ValidationError):
        draw_services.round_clock_start(actor=director, round_=published, minutes=minutes)


def test_the_clock_refuses_what_its_state_does_not_allow(director, published, tournament):
    with pytest.raises(ValidationError):
        draw_services.round_clock_pause(actor=director, round_=published)
    with pytest.raises(ValidationError):
        draw_services.round_clock_extend(actor=director, round_=published, minutes=5)
    draw_services.round_clock_start(actor=director, round_=published, minutes=30)
    with pytest.raises(ValidationError):
        draw_services.round_clock_start(actor=director, round_=published, minutes=30)
    with pytest.raises(ValidationError):
        draw_services.round_clock_resume(actor=director, round_=published)
    with pytest.raises(ValidationError):
        draw_services.round_clock_extend(actor=director, round_=published, minutes=61)


def test_a_draft_round_has_no_clock(director, tournament):
    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=3)

    with pytest.raises(ValidationError):
        draw_services.round_clock_start(actor=director, round_=draft, minutes=30)


def test_reset_takes_the_clock_off_every_page(director, published, client):
    draw_services.round_clock_start(actor=director, round_=published, minutes=30)
    draw_services.round_clock_reset(actor=director, round_=published)

    wall = client.get(reverse("public-wall", args=[published.tournament_id]))

    assert "data-round-clock" not in text_of(wall)
    published.refresh_from_db()
    assert published.clock_started_at is None


# --------------------------------------------------------------------------- clock pages
def test_the_director_works_the_clock_from_the_round_page(desk, published, clock_at):
    page = desk.get(reverse("director-round", args=[published.pk]))
    assert "Start the clock" in text_of(page)

    response = clock_post(desk, published, "start", 40)
    assert response.status_code == 302
    page = desk.get(response["Location"])
    assert "Pause" in text_of(page)
    assert remaining_shown(text_of(page)) == 40 * 60

    clock_at(120)
    clock_post(desk, published, "pause")
    page = text_of(desk.get(reverse("director-round", args=[published.pk])))
    assert "Resume" in page and "clock paused" in page
    assert remaining_shown(page) == 38 * 60

    clock_post(desk, published, "resume")
    clock_post(desk, published, "extend", 5)
    assert remaining_shown(text_of(desk.get(reverse("director-round", args=[published.pk])))) == (
        43 * 60
    )


@pytest.mark.parametrize(
    "data",
    [
        {"action": "start", "minutes": "0"},
        {"action": "start", "minutes": "301"},
        {"action": "start", "minutes": "ten"},
        {"action": "start"},
        {"action": "extend", "minutes": "1000000000000"},
        {"action": "explode"},
        {},
    ],
)
def test_bad_clock_input_is_a_400_with_the_reason(desk, published, data):
    response = desk.post(reverse("director-round-clock", args=[published.pk]), data)

    assert response.status_code == 400
    assert 'class="messages"' in text_of(response)
    published.refresh_from_db()
    assert published.clock_started_at is None


def test_a_refused_clock_change_says_why(desk, published):
    response = clock_post(desk, published, "pause")

    page = desk.get(response["Location"])
    assert "The clock is not started." in text_of(page)


def test_the_clock_is_on_the_wall_and_in_overtime_says_so(director, published, client, clock_at):
    draw_services.round_clock_start(actor=director, round_=published, minutes=1)
    clock_at(90)

    html = text_of(client.get(reverse("public-wall", args=[published.tournament_id])))

    assert "round-clock-wall" in html
    assert remaining_shown(html) == -30
    assert "+0:30" in html
    assert re.search(r"data-clock-overtime>", html)  # the overtime label is not hidden
    assert "js/clock.js" in html


def test_a_paused_clock_shows_paused_and_does_not_tick(director, published, client, clock_at):
    draw_services.round_clock_start(actor=director, round_=published, minutes=20)
    clock_at(60)
    draw_services.round_clock_pause(actor=director, round_=published)

    html = text_of(client.get(reverse("public-wall", args=[published.tournament_id])))

    assert 'data-ticking="0"' in html
    assert "is-paused" in html
    assert "19:00" in html


def test_the_wall_asks_again_once_the_clock_changes(director, published, client, clock_at):
    url = reverse("public-wall-live", args=[published.tournament_id])
    first = client.get(reverse("public-wall", args=[published.tournament_id]))
    state = re.search(r"state=([^\"&]+)", text_of(first)).group(1)
    assert client.get(url, {"state": state}).status_code == 204

    draw_services.round_clock_start(actor=director, round_=published, minutes=20)

    assert client.get(url, {"state": state}).status_code == 200


def test_the_players_see_the_clock_on_their_page_and_sheet(client, director, published, clock_at):
    seat = published.seats.filter(registration__isnull=False).first()
    client.force_login(seat.registration.player.user)
    before = selectors.player_status_key(seat.registration.player.user)
    table_key = selectors.table_status_key(seat.registration.player.user, seat.table)

    draw_services.round_clock_start(actor=director, round_=published, minutes=50)

    user = seat.registration.player.user
    assert selectors.player_status_key(user) != before
    assert selectors.table_status_key(user, seat.table) != table_key
    home = text_of(client.get(reverse("player-home")))
    assert "data-round-clock" in home and "50:00" in home and "js/clock.js" in home
    status = text_of(client.get(reverse("player-status")))
    assert "data-round-clock" in status
    sheet = text_of(client.get(reverse("table-sheet-status", args=[seat.table_id])))
    assert "data-round-clock" in sheet and "50:00" in sheet


# --------------------------------------------------------------------------- roll call
def test_an_absent_player_sits_out_the_draw_and_sits_in_again_once_present(
    director, tournament, finish_round
):
    absent = tournament.registrations.get(player__name="Тарас Шевчук")
    services.registration_presence_set(actor=director, registration=absent, present=False)

    first = draw_services.round_draw(actor=director, tournament=tournament, seed=3)

    assert not first.seats.filter(registration=absent).exists()
    assert first.seats.filter(registration__isnull=False).count() == len(NAMES) - 1
    absent.refresh_from_db()
    assert absent.status == Registration.Status.ACTIVE
    assert absent.withdrawn_after is None

    draw_services.round_publish(actor=director, round_=first)
    finish_round(first)
    services.registration_presence_set(actor=director, registration=absent, present=True)
    second = draw_services.round_draw(actor=director, tournament=tournament, seed=4)

    assert second.seats.filter(registration=absent).exists()


def test_a_redraw_follows_the_roll_call(director, tournament):
    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    absent = tournament.registrations.get(player__name="Олена Коваль")
    services.registration_presence_set(actor=director, registration=absent, present=False)

    draw_services.round_redraw(actor=director, round_=draft, seed=8)

    assert not draft.seats.filter(registration=absent).exists()


def test_only_the_clubs_directors_call_the_roll(tournament):
    other = UserFactory()
    ClubFactory(directors=[other])
    registration = tournament.registrations.first()

    with pytest.raises(PermissionDenied):
        services.registration_presence_set(actor=other, registration=registration, present=False)
    with pytest.raises(PermissionDenied):
        services.registrations_all_present(actor=other, tournament=tournament)


def test_a_withdrawn_player_is_not_marked_present(director, tournament):
    registration = tournament.registrations.first()
    services.registration_withdraw(actor=director, registration=registration)

    with pytest.raises(ValidationError):
        services.registration_presence_set(actor=director, registration=registration, present=True)


def test_the_roll_call_page_marks_players_absent_and_everyone_present(desk, tournament):
    url = reverse("director-roll-call", args=[tournament.pk])
    page = text_of(desk.get(url))
    assert "8 of 8 players present" in page
    # Alphabetical, in the Ukrainian alphabet's order: Є after Е, Ґ after Г, І after И.
    names = [name for name in NAMES if name in page]
    assert sorted(names, key=lambda name: page.index(name)) == [
        "Андрій Мельник",
        "Богдан Кравець",
        "Ґанна Ґудзь",
        "Євген Гнатюк",
        "Ігор Литвин",
        "Олена Коваль",
        "Тарас Шевчук",
        "Юлія Савчук",
    ]

    registration = tournament.registrations.get(player__name="Ігор Литвин")
    response = desk.post(
        reverse("director-registration-presence", args=[registration.pk]), {"present": "0"}
    )
    assert response.status_code == 302
    page = text_of(desk.get(response["Location"]))
    assert "7 of 8 players present" in page
    assert "Ігор Литвин is absent" in page

    response = desk.post(reverse("director-roll-call-all-present", args=[tournament.pk]))
    page = text_of(desk.get(response["Location"]))
    assert "8 of 8 players present" in page
    registration.refresh_from_db()
    assert registration.present


def test_a_presence_without_a_choice_is_a_400(desk, tournament):
    registration = tournament.registrations.first()

    response = desk.post(
        reverse("director-registration-presence", args=[registration.pk]), {"present": "maybe"}
    )

    assert response.status_code == 400
    registration.refresh_from_db()
    assert registration.present


def test_the_draw_says_how_many_are_absent(desk, director, tournament):
    for name in ("Олена Коваль", "Тарас Шевчук"):
        registration = tournament.registrations.get(player__name=name)
        services.registration_presence_set(actor=director, registration=registration, present=False)

    page = text_of(desk.get(reverse("director-tournament", args=[tournament.pk])))
    assert "2 players are marked absent and sit out round 1." in page
    # Named, in start-number order, so the director sees who.
    names = [r.player.name for r in tournament.registrations.order_by("start_number")]
    absent = ", ".join(n for n in names if n in ("Олена Коваль", "Тарас Шевчук"))
    assert f'<span class="absent-names">({absent})</span>' in page

    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    preview = text_of(desk.get(reverse("director-round", args=[draft.pk])))
    assert "2 players are marked absent and sit out round 1." in preview


def test_the_roll_call_after_a_draft_warns_to_draw_again(desk, director, tournament):
    draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    registration = tournament.registrations.first()

    response = desk.post(
        reverse("director-registration-presence", args=[registration.pk]), {"present": "0"}
    )

    assert "draw it again" in text_of(desk.get(response["Location"]))


# --------------------------------------------------------------------------- find your seat
def test_alphabetical_order_follows_the_ukrainian_alphabet():
    names = ["Яна", "Ігор", "Иван", "Євген", "Ерік", "Ґанна", "Галина", "Їжак", "Andrew"]

    assert sorted(names, key=alphabetical_key) == [
        "Andrew",
        "Галина",
        "Ґанна",
        "Ерік",
        "Євген",
        "Иван",
        "Ігор",
        "Їжак",
        "Яна",
    ]


def test_the_seat_list_names_every_player_alphabetically_with_table_and_seat(client, published):
    html = text_of(client.get(reverse("public-seat-list", args=[published.tournament_id])))

    rows = re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td class="num">(\d+)</td>\s*<td class="num">(\d+)</td>',
        html,
    )
    assert [name for name, _table, _seat in rows] == sorted(NAMES, key=alphabetical_key)
    for name, table, seat in rows:
        found = published.seats.get(registration__player__name=name)
        assert (int(table), int(seat)) == (found.table.number, found.position + 1)
    assert "@media print" in (ROOT / "static/css/venue.css").read_text(encoding="utf-8")
    assert "css/venue.css" in html


def test_the_seat_list_waits_for_a_published_round(client, director, tournament):
    draw_services.round_draw(actor=director, tournament=tournament, seed=3)

    html = text_of(client.get(reverse("public-seat-list", args=[tournament.pk])))

    assert "No round is being played" in html
    assert "Тарас Шевчук" not in html


def test_a_private_tournaments_seat_list_is_not_found(client, director):
    club = ClubFactory(directors=[director])
    private = services.tournament_create(
        actor=director, club=club, name="Closed", date=datetime.date(2026, 12, 4), is_public=False
    )

    assert client.get(reverse("public-seat-list", args=[private.pk])).status_code == 404


def test_the_wall_shows_seat_numbers_and_the_seat_list(client, published):
    html = text_of(client.get(reverse("public-wall", args=[published.tournament_id])))

    assert 'aria-labelledby="wall-seats"' in html
    assert '<span class="seat-no" title="Seat">1</span>' in html
    first = sorted(NAMES, key=alphabetical_key)[0]
    seat = published.seats.get(registration__player__name=first)
    assert f"table {seat.table.number} · seat {seat.position + 1}" in html


def test_the_wall_shows_the_seats_first_until_a_table_has_its_result(
    client, published, django_capture_on_commit_callbacks
):
    def panels():
        html = text_of(client.get(reverse("public-wall", args=[published.tournament_id])))
        return re.findall(r'aria-labelledby="(wall-[a-z]+)"', html)

    # The room looks for its seats: they come first, then the standings and the tables.
    assert panels() == ["wall-seats", "wall-standings", "wall-round"]
    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(published.tables.order_by("number").first(), seed=1)
    # Once results come in, the standings lead again and the seats close the rotation.
    assert panels() == ["wall-standings", "wall-round", "wall-seats"]


# --------------------------------------------------------------------------- results board
def test_the_results_board_sorts_the_tables_by_what_they_wait_for(
    desk, director, tournament, django_capture_on_commit_callbacks
):
    for name in ("Богдан Кравець", "Олена Коваль", "Тарас Шевчук", "Юлія Савчук"):
        PlayerFactory(club=tournament.club, name=name + " II", user=UserFactory())
    services.registration_create_from_names(
        actor=director,
        tournament=tournament,
        names=[
            n + " II" for n in ("Богдан Кравець", "Олена Коваль", "Тарас Шевчук", "Юлія Савчук")
        ],
    )
    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    round_ = draw_services.round_publish(actor=director, round_=draft)
    confirmed, waiting, missing = round_.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(confirmed, seed=1)
    submitter = waiting.seats.get(position=0).registration.player.user
    scoring_services.result_submit(
        actor=submitter, table=waiting, sheet=game_sheet(players=4, seed=2), expected_version=0
    )

    html = text_of(desk.get(reverse("director-results-board", args=[round_.pk])))

    def group(status):
        block = html.split(f'data-board="{status}"')[1].split("</section>")[0]
        return re.findall(r"/manage/tables/(\d+)/result/", block)

    assert group("confirmed") == [str(confirmed.pk)]
    assert group("submitted") == [str(waiting.pk)]
    assert group("pending") == [str(missing.pk)]
    assert group("disputed") == []
    assert TableResult.objects.get(table=waiting).status == "submitted"
    partial = desk.get(reverse("director-results-board", args=[round_.pk]), HTTP_HX_REQUEST="true")
    assert "<html" not in text_of(partial) and 'id="results-board"' in text_of(partial)


def test_the_results_board_is_for_the_clubs_directors_only(client, published):
    other = UserFactory()
    ClubFactory(directors=[other])
    client.force_login(other)

    assert client.get(reverse("director-results-board", args=[published.pk])).status_code == 403


# --------------------------------------------------------------------------- tournament page
def test_the_tournament_page_links_to_the_venue_pages(desk, published):
    tournament = published.tournament
    html = text_of(desk.get(reverse("director-tournament", args=[tournament.pk])))

    for url in (
        reverse("public-tournament", args=[tournament.pk]),
        reverse("public-standings", args=[tournament.pk]),
        reverse("public-wall", args=[tournament.pk]),
        reverse("public-seat-list", args=[tournament.pk]),
        reverse("director-roll-call", args=[tournament.pk]),
        reverse("director-results-board", args=[published.pk]),
    ):
        assert f'href="{url}"' in html, url
    assert Round.objects.get(pk=published.pk).status == Round.Status.PUBLISHED
