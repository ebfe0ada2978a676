"""The director's draw panel tells, before he draws, how many rounds can be repeat-free for the
players it would seat, and what that means for the rounds his tournament plans."""

import datetime

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db


def tournament_of(count, **options):
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Outlook Cup", date=datetime.date(2026, 12, 8), **options
    )
    for _ in range(count):
        player = PlayerFactory(club=club)
        services.registration_create(actor=director, tournament=tournament, player=player)
    return director, tournament


def panel(client, director, tournament) -> str:
    client.force_login(director)
    page = client.get(reverse("director-tournament", args=[tournament.pk])).content.decode()
    assert 'id="draw-outlook"' in page
    start = page.index('<div class="draw-outlook')
    return page[start : page.index("</div>", start)]


def test_27_players_at_tables_of_4_can_play_9_rounds_without_a_repeat(client):
    director, tournament = tournament_of(
        27, table_size="mixed", seating_mode="schedule", rounds_planned=8
    )

    text = panel(client, director, tournament)

    assert "27 players: 6 tables of 4, 1 table of 3" in text
    assert "At most 9 rounds can be repeat-free" in text and "proven impossible" in text
    assert "plans 8 rounds: nobody needs to meet anybody twice" in text
    assert text.startswith('<div class="draw-outlook" ')


def test_more_rounds_than_can_be_repeat_free_are_announced_with_the_round_repeats_start(client):
    director, tournament = tournament_of(
        13, table_size="mixed", seating_mode="schedule", rounds_planned=6
    )

    text = panel(client, director, tournament)

    # 13 players: 4 rounds proven the most (the counting bound says 5).
    assert "At most 4 rounds can be repeat-free" in text
    assert "from round 5 on some pairs meet again" in text
    assert text.startswith('<div class="draw-outlook warn" ')


def test_round_by_round_seating_is_told_the_schedule_mode_keeps_rounds_repeat_free(client):
    director, tournament = tournament_of(16, table_size="4", rounds_planned=5)

    text = panel(client, director, tournament)

    assert "At most 5 rounds can be repeat-free" in text
    assert "schedule mode" in text


def test_bots_and_absent_players_change_the_tables_counted(client):
    director, tournament = tournament_of(10, table_size="4", bots_allowed=True, rounds_planned=3)
    absent = tournament.registrations.first()
    services.registration_presence_set(actor=director, registration=absent, present=False)

    text = panel(client, director, tournament)

    assert "9 players: 3 tables of 4 (3 bot seats)" in text


def test_no_outlook_without_players_to_draw(client):
    director, tournament = tournament_of(1)
    client.force_login(director)
    page = client.get(reverse("director-tournament", args=[tournament.pk])).content.decode()
    assert 'id="draw-outlook"' not in page


def test_the_draw_button_says_it_is_drawing_while_a_large_field_is_searched(client):
    director, tournament = tournament_of(8)
    client.force_login(director)
    page = client.get(reverse("director-tournament", args=[tournament.pk])).content.decode()

    form = page[page.index(f'action="{reverse("director-round-draw", args=[tournament.pk])}"') :]
    form = form[: form.index("</form>")]
    assert 'role="status" data-busy-status data-busy-text="Drawing the seats' in form
