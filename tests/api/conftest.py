"""Fixtures of the REST API tests: API clients per role."""

import pytest
from rest_framework.test import APIClient

PASSWORD = "secret-password"  # what tests.factories.UserFactory sets


@pytest.fixture
def client_for():
    """An API client logged in as a user (session authentication), or anonymous for None."""

    def make(user=None) -> APIClient:
        client = APIClient()
        client.raise_request_exception = False
        if user is not None:
            client.force_login(user)
        return client

    return make
