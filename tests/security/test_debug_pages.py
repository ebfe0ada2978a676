"""While DEBUG is on (the embedded mode, venue mode on the club's network), a server error shows
its traceback, with every frame's local variables, to this computer only."""

import pytest
from django.test import Client
from django.urls import path

SECRET_HAND = "A♠ K♠ Q♠ J♠ 10♠ A♥ K♥"


def failing_view(request):
    hand = SECRET_HAND  # a local variable, as a deal's hidden cards are in a game's view
    raise RuntimeError(f"the view failed with {len(hand)} characters in hand")


urlpatterns = [path("fails/", failing_view)]


def error_page(address: str, accept: str = "text/html") -> tuple[int, str]:
    client = Client(raise_request_exception=False, REMOTE_ADDR=address)
    response = client.get("/fails/", HTTP_ACCEPT=accept)
    return response.status_code, response.content.decode()


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("address", ["192.168.1.23", "10.0.0.7", "fe80::1", "not an address"])
@pytest.mark.parametrize("accept", ["text/html", "text/plain"])
def test_a_phone_in_the_room_gets_the_plain_error_page(settings, address, accept):
    settings.DEBUG = True

    status, page = error_page(address, accept)

    assert status == 500
    assert "Server Error (500)" in page
    assert SECRET_HAND not in page
    assert "Traceback" not in page and "failing_view" not in page


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
def test_this_computer_gets_the_technical_page_to_debug_with(settings, address):
    settings.DEBUG = True

    status, page = error_page(address)

    assert status == 500
    assert "failing_view" in page and "RuntimeError" in page
    assert "&#x27;A♠ K♠ Q♠ J♠ 10♠ A♥ K♥&#x27;" in page  # the local variable, to debug with
