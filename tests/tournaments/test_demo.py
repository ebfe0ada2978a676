"""`manage.py demo`, which `make run` calls on every start."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.models import StandingsSnapshot, TableResult
from tournaments.models import Club, Player, Round, Tournament

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_the_demo_has_a_finished_and_a_running_tournament_and_prints_the_logins(client, settings):
    settings.DEBUG = True

    output = demo()

    assert "director / director" in output
    club = Club.objects.get(name="Demo club")
    assert Player.objects.filter(club=club).count() == 16
    finished = Tournament.objects.get(name="Autumn Cup")
    running = Tournament.objects.get(name="Winter League")
    assert finished.status == "finished"
    assert set(finished.rounds.values_list("status", flat=True)) == {"finished"}
    assert running.status == "running"
    in_progress = running.rounds.get(status=Round.Status.PUBLISHED)
    statuses = sorted(
        TableResult.objects.filter(table__round=in_progress).values_list("status", flat=True)
    )
    assert statuses == ["confirmed", "confirmed", "pending", "submitted"]
    assert StandingsSnapshot.objects.filter(tournament=finished).exists()
    assert client.login(username="director", password="director")
    assert client.login(username="player01", password="player")


def test_running_the_demo_twice_changes_nothing(settings):
    settings.DEBUG = True
    demo()
    counts = (Club.objects.count(), Player.objects.count(), Tournament.objects.count())

    output = demo()

    assert "already there" in output
    assert (Club.objects.count(), Player.objects.count(), Tournament.objects.count()) == counts
    assert get_user_model().objects.filter(username="director").count() == 1


def test_no_demo_with_debug_off(settings):
    settings.DEBUG = False
    assert "DEBUG is off" in demo()
    assert not Club.objects.exists()
