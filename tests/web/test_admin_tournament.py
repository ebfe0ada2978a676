"""The tournament's admin page: rule options, ranking and points per place to read, not JSON to
type, and a status that moves only through the director's pages."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def tournament():
    return TournamentFactory(
        club=ClubFactory(),
        rules={"must_beat": True, "concede_bonus": 40},
        placement_points={"3": [3, 1.5, 0], "4": [3, 2, 1, 0]},
    )


def change_url(tournament) -> str:
    return reverse("admin:tournaments_tournament_change", args=[tournament.pk])


def test_the_rules_ranking_and_points_read_as_lists_not_json(admin_client, tournament):
    text = admin_client.get(change_url(tournament)).content.decode()

    assert "<li>Must beat: Yes</li>" in text
    assert "<li>Points for the defenders when the declarer concedes: 40</li>" in text
    assert "<li>Lowest bid: 40</li>" in text  # RULES.md's where the tournament sets none
    assert "<li>Tournament points</li>" in text and "<li>Total score</li>" in text
    assert "<li>tables of 3: 3 · 1.5 · 0</li>" in text
    assert "<li>tables of 4: 3 · 2 · 1 · 0</li>" in text
    assert 'name="rules"' not in text and '"must_beat"' not in text
    assert 'name="standings_precedence"' not in text and 'name="placement_points"' not in text


def test_the_summaries_are_in_the_readers_language(admin_client, tournament):
    text = admin_client.get(change_url(tournament), headers={"accept-language": "uk"})
    text = text.content.decode()
    assert "<li>столи на 3 гравці: 3 · 1,5 · 0</li>" in text
    assert "Обов&#x27;язково бити: Так" in text or "Обов'язково бити: Так" in text


def test_the_status_cannot_jump_from_draft_to_finished_in_the_admin(admin_client, tournament):
    page = admin_client.get(change_url(tournament)).content.decode()
    assert 'name="status"' not in page

    form = {
        "club": str(tournament.club_id),
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "status": "finished",
        "rounds_planned": "5",
        "table_size": "4",
        "round_format": "game",
        "deals_per_round": "",
        "seating_mode": "balanced",
        "is_public": "on",
        "rules": '{"target": 5}',
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
        "registrations-MIN_NUM_FORMS": "0",
        "registrations-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    response = admin_client.post(change_url(tournament), form)

    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT
    assert tournament.rules == {"must_beat": True, "concede_bonus": 40}


def test_a_tournament_added_in_the_admin_starts_as_a_draft_with_the_defaults(admin_client):
    club = ClubFactory()
    form = {
        "club": str(club.pk),
        "name": "Winter cup",
        "date": "2026-12-04",
        "status": "finished",
        "rounds_planned": "3",
        "table_size": "4",
        "round_format": "game",
        "deals_per_round": "",
        "seating_mode": "balanced",
        "registrations-TOTAL_FORMS": "0",
        "registrations-INITIAL_FORMS": "0",
        "registrations-MIN_NUM_FORMS": "0",
        "registrations-MAX_NUM_FORMS": "1000",
        "_save": "Save",
    }
    response = admin_client.post(reverse("admin:tournaments_tournament_add"), form)

    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Winter cup")
    assert made.status == Tournament.Status.DRAFT
    assert made.rules == {}
    assert made.standings_precedence[0] == "tournament_points"


def test_a_rounds_status_is_not_typed_in_the_admin(admin_client):
    from draws import services as draw_services
    from tests.factories import RegistrationFactory

    director = UserFactory()
    tournament = TournamentFactory(club=ClubFactory(directors=[director]))
    RegistrationFactory.create_batch(4, tournament=tournament)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)

    page = admin_client.get(reverse("admin:tournaments_round_change", args=[round_.pk]))

    assert page.status_code == 200
    assert 'name="status"' not in page.content.decode()


def test_once_a_round_is_drawn_the_admin_does_not_edit_the_format(admin_client, tournament):
    before = admin_client.get(change_url(tournament)).content.decode()
    assert 'name="table_size"' in before and 'name="rounds_planned"' in before
    tournament.rounds.create(number=1, seed=7)

    text = admin_client.get(change_url(tournament)).content.decode()

    for field in ("table_size", "rounds_planned", "round_format", "seating_mode", "bots_allowed"):
        assert f'name="{field}"' not in text, field
    assert 'name="name"' in text  # the name and the date stay editable
