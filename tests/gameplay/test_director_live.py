"""The director's live tables: starting one from the round page, seating a bot, paper sheets."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from draws import services as draw_services
from gameplay import services
from gameplay.models import LiveGame, LiveSeatChange
from scoring.models import ResultVersion, TableResult
from scoring.services import result_submit
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tests.gameplay.conftest import live_table_round
from tournaments import services as tournament_services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_round():
    return live_table_round(players=4, deals=3)


def live_url(table):
    return reverse("director-table-live", args=[table.pk])


def bot_url(game, position):
    return reverse("director-seat-bot", args=[game.pk, position])


def test_play_live_starts_the_table_and_opens_its_game(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    client.force_login(director)

    response = client.post(live_url(table))

    game = LiveGame.objects.get(table=table)
    assert response.status_code == 302
    assert response["Location"] == reverse("live-game", args=[game.pk])
    assert game.status == LiveGame.Status.PLAYING
    assert client.get(response["Location"]).status_code == 200
    # A second press opens the same game instead of starting another one.
    again = client.post(live_url(table))
    assert again["Location"] == reverse("live-game", args=[game.pk])
    assert LiveGame.objects.filter(table=table).count() == 1


def test_play_live_is_for_directors_and_posts_only(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)

    client.force_login(UserFactory())
    assert client.post(live_url(table)).status_code == 403
    client.force_login(director)
    assert client.get(live_url(table)).status_code == 405
    assert not LiveGame.objects.filter(table=table).exists()


def test_a_table_of_a_draft_round_is_not_started(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)
    client.force_login(director)

    response = client.post(live_url(table), follow=True)

    assert not LiveGame.objects.filter(table=table).exists()
    assert "Publish the round" in response.content.decode()


def test_the_round_page_offers_play_live_then_the_live_table(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    client.force_login(director)
    page = reverse("director-round", args=[round_.pk])

    html = client.get(page).content.decode()
    assert "Play live" in html and live_url(table) in html
    assert "Open the live table" not in html

    client.post(live_url(table))
    game = LiveGame.objects.get(table=table)
    html = client.get(page).content.decode()
    assert "Open the live table" in html
    assert reverse("live-game", args=[game.pk]) in html
    assert "Replace with a bot" in html
    for seat in game.seats.exclude(user=None):
        assert bot_url(game, seat.position) in html
    for seat in game.seats.filter(user=None):
        assert bot_url(game, seat.position) not in html
    # The part of the page that reloads itself shows the same.
    part = client.get(reverse("director-round-results", args=[round_.pk])).content.decode()
    assert "Open the live table" in part and "Replace with a bot" in part


def test_the_round_page_in_ukrainian(client, table_round):
    director, round_ = table_round
    client.force_login(director)
    html = client.get(
        reverse("director-round", args=[round_.pk]), headers={"accept-language": "uk"}
    ).content.decode()

    assert '<html lang="uk">' in html
    assert "Play live" not in html and "Грати в застосунку" in html


def test_a_director_replaces_a_seat_with_a_bot(client, table_round, committed):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)
    leaving = game.seats.exclude(user=None).order_by("position").first()
    client.force_login(director)

    response = client.post(bot_url(game, leaving.position), {"level": "hard"})

    assert response.status_code == 302
    assert response["Location"] == reverse("director-round", args=[round_.pk])
    seat = game.seats.get(position=leaving.position)
    assert (seat.user, seat.bot_level) == (None, "hard")
    assert LiveSeatChange.objects.get(game=game).changed_by == director


def test_replacing_a_seat_checks_the_level_and_the_seat(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = services.live_game_create_for_table(actor=director, table=table)
    human = game.seats.exclude(user=None).order_by("position").first()
    bot = game.seats.filter(user=None).first()
    client.force_login(director)

    response = client.post(bot_url(game, human.position), {"level": "genius"}, follow=True)
    assert "level" in response.content.decode()
    response = client.post(bot_url(game, bot.position), {"level": "easy"}, follow=True)
    assert "already" in response.content.decode()
    assert not LiveSeatChange.objects.filter(game=game).exists()


def test_only_a_director_replaces_a_seat(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = services.live_game_create_for_table(actor=director, table=table)
    human = game.seats.exclude(user=None).order_by("position").first()

    client.force_login(human.user)
    response = client.post(bot_url(game, human.position), {"level": "easy"})

    assert response.status_code == 403
    assert game.seats.get(position=human.position).user == human.user
    client.force_login(director)
    assert client.get(bot_url(game, human.position)).status_code == 405


def test_a_paper_sheet_is_refused_at_a_table_with_a_bot(table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    assert table.seats.filter(registration=None).exists()

    with pytest.raises(ValidationError, match="bot seat"):
        result_submit(
            actor=director,
            table=table,
            sheet=game_sheet(players=table.seats.count()),
            expected_version=0,
            confirm=True,
        )
    assert not ResultVersion.objects.filter(table=table).exists()
    assert TableResult.objects.get(table=table).status == TableResult.Status.PENDING


def test_the_director_s_result_page_shows_the_refusal(client, table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    client.force_login(director)
    data = {"mode": "totals", "expected_version": "0", "note": ""}
    for position in range(table.seats.count()):
        data[f"total_{position}"] = "1001" if position == 0 else "500"
    data["winner"] = "0"

    response = client.post(reverse("director-table-result", args=[table.pk]), data)

    assert not ResultVersion.objects.filter(table=table).exists()
    assert response.status_code == 200
    assert "This table has a bot seat" in response.content.decode()


def test_a_paper_sheet_is_accepted_at_a_table_without_bots():
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = tournament_services.tournament_create(
        actor=director,
        club=club,
        name="Paper cup",
        date=datetime.date(2026, 12, 1),
        table_size="3",
        bots_allowed=True,
    )
    for number in range(3):
        player = PlayerFactory(club=club, name=f"Player {number + 1}")
        tournament_services.registration_create(
            actor=director, tournament=tournament, player=player
        )
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    round_ = draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get()
    assert not table.seats.filter(registration=None).exists()

    version = result_submit(
        actor=director,
        table=table,
        sheet=game_sheet(players=3),
        expected_version=0,
        confirm=True,
    )

    assert version.status == ResultVersion.Status.CONFIRMED
