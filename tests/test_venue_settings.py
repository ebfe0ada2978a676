"""Venue mode's settings: in development the site answers by this computer's network address
(phones in the club room open `make run ADDRESS=0.0.0.0:8000`) and PUBLIC_URL's host, while
production keeps to ALLOWED_HOSTS as set; PUBLIC_URL is checked when the settings load."""

import json
import subprocess

import pytest

from core.network import lan_addresses
from tests.test_settings import PRODUCTION_SECRET_KEY, PROJECT_DIR, run_python

PROBE = """
import json
from django.conf import settings
print(json.dumps({"hosts": settings.ALLOWED_HOSTS, "public_url": settings.PUBLIC_URL}))
"""


def settings_with(**environment: str) -> dict:
    environment.setdefault("PUBLIC_URL", "")
    loaded = run_python("-c", PROBE, **environment)
    assert loaded.returncode == 0, loaded.stderr
    return json.loads(loaded.stdout)


def test_development_answers_by_localhost_and_the_computers_network_address():
    hosts = settings_with()["hosts"]

    assert hosts[:3] == [".localhost", "127.0.0.1", "[::1]"]
    assert hosts[3:] == lan_addresses()
    assert "*" not in hosts


def test_development_answers_by_public_urls_host_too():
    loaded = settings_with(PUBLIC_URL="http://192.168.1.20:8000/")

    assert loaded["public_url"] == "http://192.168.1.20:8000"
    assert "192.168.1.20" in loaded["hosts"]


def test_hosts_set_by_hand_are_taken_as_they_are_in_development():
    assert settings_with(ALLOWED_HOSTS="club.example")["hosts"] == ["club.example"]


def test_production_answers_only_by_the_hosts_it_is_given():
    loaded = settings_with(
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
        ALLOWED_HOSTS="club.example",
        PUBLIC_URL="https://club.example",
    )

    assert loaded == {"hosts": ["club.example"], "public_url": "https://club.example"}


@pytest.mark.parametrize(
    "value", ["192.168.1.20:8000", "ftp://club.example", "http://club.example/cup", "http://x:0"]
)
def test_a_public_url_that_is_not_an_address_refuses_to_start_and_says_what_is_wanted(value):
    loaded = run_python("-c", PROBE, PUBLIC_URL=value)

    assert loaded.returncode != 0
    assert "PUBLIC_URL must be the address phones open the site by" in loaded.stderr


def test_make_run_listens_where_it_is_told_and_tells_the_demo_the_same():
    dry_run = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-n",
            "-C",
            str(PROJECT_DIR),
            "run",
            "ADDRESS=0.0.0.0:8123",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    default = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(PROJECT_DIR), "run"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout

    assert "manage.py demo --address '0.0.0.0:8123'" in dry_run
    assert "manage.py runserver '0.0.0.0:8123'" in dry_run
    assert "manage.py runserver '127.0.0.1:8000'" in default
