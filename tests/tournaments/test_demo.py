"""`manage.py demo`, which `make run` calls on every start."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from scoring.models import StandingsSnapshot, TableResult
from tournaments.models import Club, Player, Round, Tournament
from web.management.commands import demo as demo_command

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


def test_the_first_run_says_step_by_step_what_it_creates_and_where_to_open_it(
    settings, monkeypatch
):
    settings.DEBUG = True
    settings.PUBLIC_URL = ""
    monkeypatch.setattr(demo_command, "lan_addresses", lambda: ["192.168.1.20"])
    out = StringIO()

    call_command("demo", address="0.0.0.0:8123", stdout=out)

    lines = out.getvalue().splitlines()
    steps = [
        "Creating the demo data",
        "  Demo club, directed by director",
        "  16 players with logins player01 ... player16",
        "  Autumn Cup: a tournament of 16 players",
        "  Autumn Cup: round 1, playing its 4 tables",
        "  Autumn Cup: round 3, playing its 4 tables",
        "  Autumn Cup: finished",
        "  Winter League: round 2, playing its 4 tables",
        "  the standings of both tournaments",
        "Created the demo club and its tournaments.",
        "Open http://127.0.0.1:8123/manage/ and sign in as the director",
        "Phones in the room: http://192.168.1.20:8123/",
    ]
    found = [next(i for i, line in enumerate(lines) if line.startswith(step)) for step in steps]
    assert found == sorted(found)
    assert ":8000" not in out.getvalue()


def test_the_addresses_follow_the_port_the_server_listens_on(settings):
    settings.DEBUG = False  # no data: only the addresses
    settings.PUBLIC_URL = ""
    out = StringIO()

    call_command("demo", address="127.0.0.1:8101", stdout=out)

    output = out.getvalue()
    assert "Open http://127.0.0.1:8101/manage/" in output
    assert "Phones in the room cannot reach a server on 127.0.0.1" in output
    assert "make run ADDRESS=0.0.0.0:8101" in output
    assert ":8000" not in output


def test_with_public_url_the_demo_says_what_the_codes_carry(settings):
    settings.DEBUG = False
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    out = StringIO()

    call_command("demo", address="0.0.0.0:8000", stdout=out)

    assert "QR codes and player cards carry PUBLIC_URL: http://192.168.1.20:8000/" in (
        out.getvalue()
    )


def test_without_an_address_the_demo_guesses_none(settings):
    settings.DEBUG = False

    output = demo()

    assert "http://" not in output
    assert "Open /manage/ at the address the server prints" in output


def test_an_address_that_is_none_is_refused(settings):
    with pytest.raises(CommandError, match="not an address"):
        call_command("demo", address="the club", stdout=StringIO())


def test_on_the_clubs_network_the_published_passwords_stop_working(client, settings, monkeypatch):
    settings.DEBUG = True
    settings.PUBLIC_URL = ""
    monkeypatch.setattr(demo_command, "lan_addresses", lambda: ["192.168.1.20"])
    demo()  # tried on this computer first, with the published passwords
    out = StringIO()

    call_command("demo", address="0.0.0.0:8123", stdout=out)

    output = out.getvalue()
    assert "director / director" not in output and "/ player\n" not in output
    assert not client.login(username="director", password="director")
    assert not client.login(username="player01", password="player")
    new_password = re.search(r"Director login: director / (\S+) \(shown only now", output)[1]
    assert client.login(username="director", password=new_password)
    assert "entry code or the personal link" in output
    # The next start on the network changes nothing more and says where the password went.
    again = StringIO()
    call_command("demo", address="0.0.0.0:8123", stdout=again)
    assert new_password not in again.getvalue()
    assert "changepassword director" in again.getvalue()
    assert client.login(username="director", password=new_password)


def test_on_this_computer_only_the_published_passwords_stay(client, settings):
    settings.DEBUG = True
    out = StringIO()

    call_command("demo", address="127.0.0.1:8123", stdout=out)

    assert "Director login: director / director" in out.getvalue()
    assert client.login(username="director", password="director")
