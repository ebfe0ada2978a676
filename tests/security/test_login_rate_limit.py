"""Failed sign-ins are limited, with one count for every route (the sign-in page, the admin's
sign-in and API tokens): after five for a user name from one address, twenty for a user name from
anywhere or fifty from one address within the window, further attempts get 429 and a message,
whatever the password; other people elsewhere are not affected, a club behind one address is not
locked out together, and a successful sign-in never counts.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from core import login_limit
from core.login_limit import refusal_message
from tests.api.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOGIN = reverse("login")
TOKEN = "/api/token/"


def sign_in(client: Client, user, password: str, address: str = "10.0.0.1", **extra):
    return client.post(
        LOGIN, {"username": user.username, "password": password}, REMOTE_ADDR=address, **extra
    )


def ask_token(client: Client, user, password: str, address: str = "10.0.0.1"):
    return client.post(
        TOKEN,
        {"username": user.username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def signed_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def fail(times: int, attempt, user, address: str = "10.0.0.1") -> None:
    for _ in range(times):
        assert attempt(Client(), user, "wrong", address).status_code in (200, 400)


# --------------------------------------------------------------------------- the sign-in page
def test_the_sixth_failure_on_the_page_is_refused_with_429_and_the_form():
    user = UserFactory()
    client = Client()
    for _ in range(5):
        response = sign_in(client, user, "wrong")
        assert response.status_code == 200
        assert "errorlist" in response.content.decode()

    refused = sign_in(client, user, PASSWORD)  # even the right password, now

    assert refused.status_code == 429
    page = refused.content.decode()
    assert refusal_message() in page
    assert 'name="password"' in page and f'value="{user.username}"' in page
    assert int(refused["Retry-After"]) == 15 * 60
    assert not signed_in(client)


def test_failures_on_many_user_names_from_one_address_are_limited():
    for _ in range(50):
        fail(1, sign_in, UserFactory(), "10.0.0.7")

    response = sign_in(Client(), UserFactory(), PASSWORD, "10.0.0.7")

    assert response.status_code == 429


def test_a_club_behind_one_address_is_not_locked_out_by_a_few_players_typos():
    # Ten players at the club's NAT each mistype their password four times: forty failures.
    for _ in range(10):
        fail(4, sign_in, UserFactory(), "10.0.0.8")

    client = Client()
    response = sign_in(client, UserFactory(), PASSWORD, "10.0.0.8")

    assert response.status_code == 302
    assert signed_in(client)


def test_the_same_user_from_another_address_still_signs_in_after_five_failures():
    user = UserFactory()
    fail(5, sign_in, user, "10.0.0.9")
    assert sign_in(Client(), user, PASSWORD, "10.0.0.9").status_code == 429

    assert sign_in(Client(), user, PASSWORD, "10.0.0.10").status_code == 302


def test_failures_on_one_user_name_from_many_addresses_are_limited():
    user = UserFactory()
    for number in range(20):
        fail(1, sign_in, user, f"10.0.1.{number}")

    assert sign_in(Client(), user, PASSWORD, "10.0.1.99").status_code == 429
    # Any spelling of the name counts as the same name.
    other_spelling = Client().post(
        LOGIN, {"username": f" {user.username.upper()} ", "password": "x"}, REMOTE_ADDR="10.0.2.1"
    )
    assert other_spelling.status_code == 429


def test_someone_else_elsewhere_is_not_blocked_by_the_failures():
    victim, bystander = UserFactory(), UserFactory()
    fail(5, sign_in, victim, "10.0.0.1")
    assert sign_in(Client(), victim, PASSWORD, "10.0.0.1").status_code == 429

    client = Client()
    response = sign_in(client, bystander, PASSWORD, "10.0.0.2")

    assert response.status_code == 302
    assert signed_in(client)


def test_a_successful_sign_in_does_not_count_and_clears_the_user_names_failures():
    user = UserFactory()
    fail(4, sign_in, user, "10.0.0.1")
    client = Client()
    assert sign_in(client, user, PASSWORD, "10.0.0.2").status_code == 302
    client.post(reverse("logout"))

    # Four more failures from a third address: the name's count started again.
    fail(4, sign_in, user, "10.0.0.3")
    assert sign_in(Client(), user, PASSWORD, "10.0.0.3").status_code == 302
    # The successes did not count for the second address either.
    fail(4, sign_in, UserFactory(), "10.0.0.2")
    assert sign_in(Client(), UserFactory(), PASSWORD, "10.0.0.2").status_code == 302


def test_the_refusal_is_in_the_visitors_language():
    user = UserFactory()
    fail(5, sign_in, user)

    response = sign_in(Client(), user, PASSWORD, HTTP_ACCEPT_LANGUAGE="uk")

    assert response.status_code == 429
    page = response.content.decode()
    assert '<html lang="uk">' in page
    with translation.override("uk"):
        assert refusal_message() in page


def test_the_limit_is_configurable_and_ends_with_its_window(settings, monkeypatch):
    settings.LOGIN_RATE_LIMIT = {"per_user_and_address": 2, "window": 60}
    user = UserFactory()
    fail(2, sign_in, user)

    refused = sign_in(Client(), user, PASSWORD)
    assert refused.status_code == 429
    assert "1 minute." in refused.content.decode()
    # The window's minute later (the clock moved on, not waited for: a slow machine's sign-ins
    # must not let the failures age out before the refusal is asked for).
    later = timezone.now() + datetime.timedelta(seconds=61)
    monkeypatch.setattr(login_limit.timezone, "now", lambda: later)
    assert sign_in(Client(), user, PASSWORD).status_code == 302


def test_an_empty_or_odd_form_is_refused_with_the_form_and_a_long_name_counts():
    client = Client(REMOTE_ADDR="10.0.0.1")
    for data in (
        {},
        {"username": ""},
        {"username": ["a", "b"], "password": "x"},
        {"password": "x"},
        {"username": "\x00", "password": "x"},
    ):
        response = client.post(LOGIN, data)
        assert response.status_code == 200
        assert response.context["form"].errors
    for _ in range(5):
        assert client.post(LOGIN, {"username": "x" * 10_000, "password": "x"}).status_code == 200

    assert client.post(LOGIN, {"username": "x" * 10_000, "password": "x"}).status_code == 429


# --------------------------------------------------------------------------- the API token
def test_the_sixth_failure_for_a_token_is_refused_with_429():
    user = UserFactory()
    for _ in range(5):
        response = ask_token(Client(), user, "wrong")
        assert response.status_code == 400
        assert response.json()["non_field_errors"]

    refused = ask_token(Client(), user, PASSWORD)

    assert refused.status_code == 429
    assert refused.json() == {"detail": refusal_message()}
    assert int(refused["Retry-After"]) == 15 * 60


def test_the_page_and_the_token_share_the_count():
    user = UserFactory()
    fail(3, sign_in, user)
    fail(2, ask_token, user)

    assert ask_token(Client(), user, PASSWORD).status_code == 429
    assert sign_in(Client(), user, PASSWORD).status_code == 429


def test_a_token_for_someone_else_elsewhere_and_after_a_success():
    victim, bystander = UserFactory(), UserFactory()
    fail(5, ask_token, victim, "10.0.3.1")
    assert ask_token(Client(), bystander, PASSWORD, "10.0.3.2").status_code == 200

    user = UserFactory()
    fail(4, ask_token, user, "10.0.4.1")
    assert ask_token(Client(), user, PASSWORD, "10.0.4.2").status_code == 200
    fail(4, ask_token, user, "10.0.4.3")
    response = ask_token(Client(), user, PASSWORD, "10.0.4.3")
    assert response.status_code == 200
    assert response.json()["token"]


def test_the_token_refusal_is_in_the_clients_language():
    user = UserFactory()
    fail(5, ask_token, user)

    response = Client().post(
        TOKEN,
        {"username": user.username, "password": PASSWORD},
        content_type="application/json",
        REMOTE_ADDR="10.0.0.1",
        HTTP_ACCEPT_LANGUAGE="uk",
    )

    assert response.status_code == 429
    with translation.override("uk"):
        assert response.json()["detail"] == refusal_message()


# --------------------------------------------------------------------------- the admin's sign-in
ADMIN_LOGIN = "/admin/login/"


def admin_sign_in(client: Client, user, password: str, address: str = "10.0.0.1"):
    return client.post(
        ADMIN_LOGIN,
        {"username": user.username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=address,
    )


def test_the_admin_refuses_the_right_password_after_failures_on_the_page_and_the_token():
    staff = UserFactory(is_staff=True, is_superuser=True)
    fail(3, sign_in, staff)
    fail(2, ask_token, staff)
    client = Client()

    refused = admin_sign_in(client, staff, PASSWORD)

    assert refused.status_code == 429
    assert refusal_message() in refused.content.decode()
    assert int(refused["Retry-After"]) == 15 * 60
    assert not signed_in(client)
    assert client.get("/admin/").status_code == 302  # still sent to the sign-in


def test_failures_on_the_admin_count_for_the_page_and_the_token():
    staff = UserFactory(is_staff=True)
    for _ in range(5):
        assert admin_sign_in(Client(), staff, "wrong").status_code == 200

    assert admin_sign_in(Client(), staff, PASSWORD).status_code == 429
    assert sign_in(Client(), staff, PASSWORD).status_code == 429
    assert ask_token(Client(), staff, PASSWORD).status_code == 429


def test_the_admin_signs_in_below_the_limit():
    staff = UserFactory(is_staff=True)
    fail(4, sign_in, staff)
    client = Client()

    assert admin_sign_in(client, staff, PASSWORD).status_code == 302
    assert client.get("/admin/").status_code == 200


def test_any_call_of_authenticate_is_refused_over_the_limit():
    """A route added later that calls authenticate() is limited too, with no code of its own."""
    from django.contrib.auth import authenticate
    from django.test import RequestFactory

    user = UserFactory()
    fail(5, sign_in, user, "10.0.9.1")
    request = RequestFactory().post("/anywhere/", REMOTE_ADDR="10.0.9.1")

    assert authenticate(request, username=user.username, password=PASSWORD) is None


def test_the_counts_live_in_the_database_so_every_web_process_sees_them():
    from django.core.cache import cache

    from core.models import SignInFailureCount

    user = UserFactory()
    fail(5, sign_in, user, "10.0.9.2")
    cache.clear()  # nothing of the limit is in a process's cache

    assert SignInFailureCount.objects.filter(count=5).count() == 3  # pair, name and address
    assert sign_in(Client(), user, PASSWORD, "10.0.9.2").status_code == 429


@pytest.mark.parametrize("username", ["\ud800", "a\udfffb", "\x00", ["a"], {"a": 1}, 7])
def test_a_token_request_with_an_odd_user_name_is_a_failure_not_a_server_error(username):
    response = Client().post(
        TOKEN,
        {"username": username, "password": "x"},
        content_type="application/json",
        REMOTE_ADDR="10.0.9.3",
    )

    assert response.status_code == 400


@pytest.mark.parametrize(
    "path",
    ["/accounts/password_reset/", "/accounts/reset/MQ/set-password/"],
)
def test_there_is_no_password_reset_by_e_mail_since_the_site_sends_none(client, path):
    # Django's reset mails a link; with no mail server a reset asked for would be a 500.
    assert client.post(path, {"email": "someone@example.org"}).status_code == 404
