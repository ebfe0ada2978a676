"""The admin works for every model, for a site administrator and for a club's director."""

from io import StringIO

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory
from tournaments.models import Club, Tournament

pytestmark = pytest.mark.django_db

APP_MODELS = [
    model for model in admin.site._registry if model._meta.app_label in ("tournaments", "scoring")
]


@pytest.fixture
def demo(settings):
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())


def test_every_app_model_is_in_the_admin():
    names = {model.__name__ for model in APP_MODELS}
    assert names >= {
        "Club",
        "Player",
        "Tournament",
        "Registration",
        "Round",
        "Table",
        "Seat",
        "TableResult",
        "ResultVersion",
        "StandingsSnapshot",
    }


@pytest.mark.parametrize("model", APP_MODELS, ids=lambda m: m.__name__)
def test_every_list_and_change_page_opens(client, demo, model):
    client.login(username="director", password="director")
    opts = model._meta
    listing = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert listing.status_code == 200
    first = model.objects.first()
    page = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[first.pk]))
    assert page.status_code == 200


def test_a_staff_director_sees_only_his_club(client, demo):
    director = UserFactory(is_staff=True)
    director.user_permissions.add(*Permission.objects.filter(content_type__app_label="tournaments"))
    ClubFactory(name="Other club", directors=[director])
    client.force_login(director)

    page = client.get(reverse("admin:tournaments_tournament_changelist"))

    assert page.status_code == 200
    assert not Tournament.objects.filter(club__name="Other club").exists()
    assert "Autumn Cup" not in page.content.decode()
    clubs = client.get(reverse("admin:tournaments_club_changelist")).content.decode()
    assert "Other club" in clubs and "Demo club" not in clubs
    assert Club.objects.count() == 2
