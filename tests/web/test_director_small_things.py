"""The small things a director notices in an evening: who entered a result, dates as the public
pages write them, the site's icon, where the header and the sign-in lead, short seeds, which
pairs met before, one message for a late entry during a draft, and conflicts that say one thing."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from draws import services as draw_services
from scoring import services as scoring_services
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    game_sheet,
)
from tests.web.test_director_pages import sheet_data
from tournaments import services
from tournaments.models import Registration, Round

pytestmark = pytest.mark.django_db

NAMES = ["Олена Коваль", "Тарас Шевчук", "Ірина Бондар", "Андрій Мельник"]


def page(response) -> str:
    return response.content.decode()


@pytest.fixture
def director():
    return UserFactory(username="olena_k", first_name="Олена", last_name="Коваль")


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def tournament(club):
    tournament = TournamentFactory(club=club, rounds_planned=2, date=datetime.date(2026, 12, 1))
    for name in NAMES:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    return tournament


@pytest.fixture
def table(director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get()


def history_rows(text: str) -> str:
    return text.split('class="data history"', 1)[1].split("</table>", 1)[0]


# --------------------------------------------------------------------------- entered by
def test_entered_by_names_the_player_not_his_login(desk, table):
    seat = table.seats.select_related("registration__player").first()
    player = seat.registration.player
    player.user = UserFactory(username="taras1987")
    player.save(update_fields=["user"])
    scoring_services.result_submit(
        actor=player.user, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0
    )

    rows = history_rows(page(desk.get(reverse("director-table-result", args=[table.pk]))))

    assert player.name in rows
    assert "taras1987" not in rows


def test_entered_by_names_a_director_who_plays_elsewhere_by_his_full_name(desk, director, table):
    PlayerFactory(name="Гравець іншого клубу", user=director)  # a player of another club
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0
    )

    rows = history_rows(page(desk.get(reverse("director-table-result", args=[table.pk]))))

    assert "Олена Коваль" in rows
    assert "olena_k" not in rows and "Гравець іншого клубу" not in rows


def test_entered_by_names_a_director_without_a_full_name_director_not_by_login(client, club, table):
    director = UserFactory(username="desk2")
    club.directors.add(director)
    client.force_login(director)
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0
    )

    rows = history_rows(page(client.get(reverse("director-table-result", args=[table.pk]))))

    assert "(Director)" in rows and "desk2" not in rows


# --------------------------------------------------------------------------- dates
def test_director_pages_write_dates_as_the_public_pages_do(desk, director, tournament, table):
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0
    )
    headers = {"accept-language": "uk"}

    home = page(desk.get(reverse("director-home"), headers=headers))
    public = page(desk.get(reverse("public-tournament", args=[tournament.pk]), headers=headers))
    result = page(desk.get(reverse("director-table-result", args=[table.pk]), headers=headers))

    assert "1 грудня 2026" in public
    assert "1 грудня 2026" in home
    assert "01.12.2026" not in home and "12/01/2026" not in home
    today = timezone.localtime()
    assert f"{today.day} " in history_rows(result)
    assert not re.search(r"\d\d\.\d\d\.\d{4}", history_rows(result))


# --------------------------------------------------------------------------- icon, header
def test_every_page_links_the_icon_and_favicon_ico_is_no_404(client):
    home = page(client.get("/"))
    assert 'rel="icon" href="/static/favicon.svg"' in home

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"

    from django.contrib.staticfiles import finders

    with open(finders.find("favicon.svg"), encoding="utf-8") as file:
        icon = file.read()
    assert icon.startswith("<svg") and "viewBox" in icon


def test_the_headers_tournaments_link_opens_the_tournament_list(client):
    header = page(client.get("/")).split("</header>", 1)[0]
    assert f'href="{reverse("public-tournament-list")}">Tournaments<' in header


# --------------------------------------------------------------------------- sign-in
def sign_in(client, user, **extra):
    return client.post(
        reverse("login"), {"username": user.username, "password": "secret-password", **extra}
    )


def test_a_director_lands_on_his_tournaments_after_signing_in(client, director, club):
    response = sign_in(client, director)
    assert response.status_code == 302
    assert response["Location"] == reverse("director-home")


def test_the_home_pages_sign_in_link_does_not_send_a_director_back_home(client, director, club):
    assert f'href="{reverse("login")}?next=/"' in page(client.get("/"))
    response = sign_in(client, director, next="/")
    assert response["Location"] == reverse("director-home")


def test_a_player_lands_on_his_table_and_anyone_else_at_home(client):
    player = PlayerFactory(user=UserFactory())
    assert sign_in(client, player.user)["Location"] == reverse("player-home")
    client.logout()
    assert sign_in(client, UserFactory())["Location"] == reverse("home")


def test_an_explicit_next_page_wins(client, director, club):
    response = sign_in(client, director, next="/tournaments/")
    assert response["Location"] == "/tournaments/"


def test_the_home_page_never_invites_a_signed_in_user_to_sign_in(client, director, club):
    assert "Sign in" in page(client.get("/"))
    for user in (director, PlayerFactory(user=UserFactory()).user, UserFactory()):
        client.force_login(user)
        text = page(client.get("/"))
        assert "Sign in" not in text, user
        assert reverse("login") not in text
    client.force_login(director)
    assert f'href="{reverse("director-home")}"' in page(client.get("/")).split('class="roles"')[1]


# --------------------------------------------------------------------------- seeds
def test_a_new_seed_is_six_digits(director, tournament):
    seeds = {services.new_seed() for _ in range(200)}
    assert all(100_000 <= seed <= 999_999 for seed in seeds)
    round_ = draw_services.round_draw(actor=director, tournament=tournament)
    assert len(str(round_.seed)) == 6
    made = services.tournament_create(
        actor=director, club=tournament.club, name="Cup", date=datetime.date(2026, 12, 4)
    )
    assert len(str(made.seed)) == 6


def test_a_random_redraw_never_draws_the_same_seed(director, tournament, monkeypatch):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=123_456)
    drawn = iter([123_456 - 100_000, 654_321 - 100_000])
    monkeypatch.setattr(services.secrets, "randbelow", lambda limit: next(drawn))

    draw_services.round_redraw(actor=director, round_=round_)

    round_.refresh_from_db()
    assert round_.seed == 654_321


def test_a_typed_seed_is_taken_within_the_bounds_and_refused_beyond(desk, director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=1)
    url = reverse("director-round-redraw", args=[round_.pk])

    assert desk.post(url, {"seed": str(services.SEED_LIMIT - 1)}).status_code == 302
    round_.refresh_from_db()
    assert round_.seed == services.SEED_LIMIT - 1

    assert desk.post(url, {"seed": "42"}).status_code == 302
    round_.refresh_from_db()
    assert round_.seed == 42

    response = desk.post(url, {"seed": str(services.SEED_LIMIT)})
    assert response.status_code == 400
    round_.refresh_from_db()
    assert round_.seed == 42


# --------------------------------------------------------------------------- repeated pairs
def test_the_draw_preview_names_the_pairs_who_met_before(
    desk, director, tournament, table, finish_round
):
    finish_round(table.round)
    second = draw_services.round_draw(actor=director, tournament=tournament, seed=9)
    assert second.status == Round.Status.DRAFT

    text = page(desk.get(reverse("director-round", args=[second.pk])))

    assert "6 pairs met in an earlier round" in text
    pairs = re.findall(r"<li>([^<]+) and ([^<]+): round 1</li>", text)
    assert len(pairs) == 6
    assert {name for pair in pairs for name in pair} == set(NAMES)


# --------------------------------------------------------------------------- late entry
def test_a_late_entry_during_a_draft_gets_one_clear_message(desk, director, tournament):
    draw_services.round_draw(actor=director, tournament=tournament, seed=1)

    response = desk.post(
        reverse("director-registration-add", args=[tournament.pk]), {"name": "Петро Марченко"}
    )

    text = page(response)
    assert response.status_code == 400
    assert text.count("Round 1 is drawn but not published") == 1
    assert "so no player can be added now" in text
    assert "plays from round 2 on" in text and "delete the draft" in text
    assert "redraw it after" not in text
    assert not Registration.objects.filter(player__name="Петро Марченко").exists()
    # Before anything is typed the page says the same, once.
    notice = page(desk.get(reverse("director-registrations", args=[tournament.pk])))
    assert notice.count("Round 1 is drawn but not published") == 1


# --------------------------------------------------------------------------- conflicts
def test_a_conflict_on_the_result_page_says_what_happened_and_what_to_do(desk, director, table):
    scoring_services.result_submit(
        actor=director, table=table, sheet=game_sheet(players=4, seed=2), expected_version=0
    )
    response = desk.post(
        reverse("director-table-result", args=[table.pk]),
        sheet_data(game_sheet(players=4, seed=1), expected_version=0),
    )

    assert response.status_code == 409
    alert = page(response).split('role="alert"', 1)[1].split("</div>", 1)[0]
    assert "Version 1 of this result was saved meanwhile, so this sheet was not saved." in alert
    assert "reload" not in alert.lower()
    assert "save your entry again to replace that version" in alert
    assert "to keep the newer version" in alert


def test_confirming_an_old_version_says_which_is_the_latest(desk, director, table):
    for version in range(2):
        scoring_services.result_submit(
            actor=director,
            table=table,
            sheet=game_sheet(players=4, seed=version),
            expected_version=version,
        )
    response = desk.post(
        reverse("director-table-confirm", args=[table.pk]), {"version": "1"}, follow=True
    )

    text = page(response)
    assert "Version 2 is the latest version of this result, so nothing was changed" in text
    assert "reload" not in text.split('class="messages"', 1)[1].split("</ul>", 1)[0].lower()
