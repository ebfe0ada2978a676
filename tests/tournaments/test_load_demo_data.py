"""`manage.py load_demo_data`, which `make run` calls on every start."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def load_demo_data() -> str:
    out = StringIO()
    call_command("load_demo_data", stdout=out)
    return out.getvalue()


def test_creates_a_director_who_can_sign_in_to_the_admin(client, settings):
    settings.DEBUG = True

    output = load_demo_data()

    assert "Created superuser 'director'" in output
    director = get_user_model().objects.get(username="director")
    assert director.is_superuser
    assert director.is_staff
    assert client.login(username="director", password="director")


def test_running_twice_keeps_one_director(settings):
    settings.DEBUG = True

    load_demo_data()
    second_output = load_demo_data()

    assert "already exists" in second_output
    assert get_user_model().objects.filter(username="director").count() == 1


def test_loads_nothing_when_debug_is_off(settings):
    settings.DEBUG = False

    output = load_demo_data()

    assert "DEBUG is off" in output
    assert not get_user_model().objects.filter(username="director").exists()
