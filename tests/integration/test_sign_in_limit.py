"""The sign-in limit holds across the web processes: uvicorn with two workers in production mode,
and no Redis (the embedded mode's cache is per process, the limit's counts are not).

Each failed attempt goes over a new connection, so the attempts are spread over both processes;
the right password is then refused for a token and on the admin's sign-in alike.
"""

import time

import pytest
import requests
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.factories import UserFactory
from tests.integration.conftest import shared_database_url
from tests.integration.stack import Stack

pytestmark = pytest.mark.integration

PASSWORD = "a-password-for-the-limit-test"


@pytest.fixture
def web_without_redis(transactional_db, collected_static):
    with Stack(
        shared_database_url(),
        web_workers=2,
        celery_workers=0,
        beat=False,
        static_root=collected_static,
        extra_env={"REDIS_URL": ""},
    ) as running:
        yield running


def test_failures_spread_over_two_web_processes_lock_the_account_in_both(web_without_redis):
    stack = web_without_redis
    user = UserFactory(username=f"limited-{time.monotonic_ns()}", is_staff=True)
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, PBKDF2PasswordHasher().salt())
    user.save()
    token_url = f"{stack.base_url}/api/token/"

    def ask(password: str) -> int:
        with requests.Session() as fresh:  # a new connection, so either process may answer
            answer = fresh.post(
                token_url, json={"username": user.username, "password": password}, timeout=30
            )
        return answer.status_code

    assert [ask("wrong") for _ in range(5)] == [400] * 5
    assert all(ask(PASSWORD) == 429 for _ in range(4))

    browser = requests.Session()
    page = browser.get(f"{stack.base_url}/admin/login/", timeout=30)
    refused = browser.post(
        f"{stack.base_url}/admin/login/",
        data={
            "username": user.username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": page.cookies.get("csrftoken") or browser.cookies["csrftoken"],
            "next": "/admin/",
        },
        headers={"Referer": f"{stack.base_url}/admin/login/"},
        allow_redirects=False,
        timeout=30,
    )
    assert refused.status_code == 429
    assert "sessionid" not in browser.cookies
