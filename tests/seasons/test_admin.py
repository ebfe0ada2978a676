"""The seasons' admin pages are confined to the clubs a staff director directs, as every admin
of the site is (tournaments.admin.ClubScoped)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from seasons import services
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_staff_director_sees_and_reaches_only_his_own_clubs_seasons(client, director, club):
    services.season_create(
        actor=director,
        club=club,
        name="Their season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    theirs = club.seasons.get()
    other = UserFactory(is_staff=True)
    from django.contrib.auth.models import Permission

    other.user_permissions.set(Permission.objects.filter(content_type__app_label="seasons"))
    own_club = ClubFactory(directors=[other])
    services.season_create(
        actor=other,
        club=own_club,
        name="Our season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    client.force_login(other)

    listed = client.get(reverse("admin:seasons_season_changelist")).content.decode()
    opened = client.get(reverse("admin:seasons_season_change", args=[theirs.pk]))

    assert "Our season" in listed and "Their season" not in listed
    assert opened.status_code == 302
