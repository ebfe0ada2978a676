"""A private tournament in a club season stays private (issue 18): its name, its players and
their results appear on no season page, file or profile, whoever asks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from seasons import services
from tests.security.conftest import PRIVATE_NAME, PRIVATE_PLAYER_NAME, ROLES

pytestmark = pytest.mark.django_db


@pytest.fixture
def computed(world):
    services.season_standings_recompute(season_id=world.season.pk)
    services.ratings_recompute(club_id=world.club.pk)
    return world


@pytest.mark.parametrize("role", ROLES)
def test_season_pages_and_files_name_nothing_of_the_private_tournament(computed, client_as, role):
    client = client_as(role)
    season = computed.season.pk
    for url in (
        reverse("public-season", args=[season]),
        reverse("public-season-wall", args=[season]),
        reverse("public-season-wall-live", args=[season]),
        reverse("public-season-csv", args=[season]) + "?sep=,",
        reverse("public-season-list"),
        reverse("public-player-profile", args=[computed.public_player.pk]),
    ):
        response = client.get(url)
        text = response.content.decode("utf-8-sig")
        assert response.status_code == 200, url
        assert PRIVATE_NAME not in text and PRIVATE_PLAYER_NAME not in text, url


@pytest.mark.parametrize("role", ROLES)
def test_a_player_of_the_private_tournament_alone_has_no_profile(computed, client_as, role):
    response = client_as(role).get(
        reverse("public-player-profile", args=[computed.private_player.pk])
    )

    assert response.status_code == 404


def test_the_private_tournament_rates_nobody(computed):
    from seasons.models import PlayerRating

    assert not PlayerRating.objects.filter(player=computed.private_player).exists()
