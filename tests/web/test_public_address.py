"""Venue mode: the QR codes, player cards and personal links carry PUBLIC_URL when it is set, the
address the director browses by otherwise, and the director is warned when that address is one
no phone in the room can open."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from core.network import ListenAddress, is_local_only_host, is_local_only_url
from draws import services as draw_services
from tests.factories import ClubFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments import selectors
from web import public_address

WARNING = "Phones in the room cannot open"


# --------------------------------------------------------------------------- which hosts
@given(st.ip_addresses(network="127.0.0.0/8"))
def test_every_loopback_address_is_one_phones_cannot_open(address):
    assert is_local_only_host(str(address))


@given(st.ip_addresses(network="192.168.0.0/16") | st.ip_addresses(network="10.0.0.0/8"))
def test_a_club_network_address_is_one_phones_can_open(address):
    assert not is_local_only_host(str(address))
    assert not is_local_only_url(f"http://{address}:8000/manage/")


@pytest.mark.parametrize(
    "url",
    ["http://localhost:8000/", "http://LOCALHOST./", "http://[::1]:8101/x", "http://0.0.0.0:80/"],
)
def test_localhost_ipv6_loopback_and_any_address_are_local_only(url):
    assert is_local_only_url(url)


@pytest.mark.parametrize("host", ["club.example", "testserver", "[2001:db8::5]", "fe80::1"])
def test_names_and_other_addresses_are_not_local_only(host):
    assert not is_local_only_host(host)


@pytest.mark.parametrize(
    ("text", "local", "room"),
    [
        ("8000", "http://127.0.0.1:8000/", []),
        ("127.0.0.1:8101", "http://127.0.0.1:8101/", []),
        ("0.0.0.0:8123", "http://127.0.0.1:8123/", ["http://192.168.1.20:8123/"]),
        ("[::]:8123", "http://[::1]:8123/", ["http://192.168.1.20:8123/"]),
        ("192.168.1.20:8000", "http://192.168.1.20:8000/", ["http://192.168.1.20:8000/"]),
    ],
)
def test_a_listen_address_gives_the_addresses_to_open(text, local, room):
    address = ListenAddress.parse(text)

    assert address.local_url() == local
    assert address.room_urls(["192.168.1.20"]) == room


@pytest.mark.parametrize("text", ["", "nonsense", "0.0.0.0:", "0.0.0.0:0", "1.2.3.4:70000"])
def test_a_listen_address_that_is_none_is_refused(text):
    with pytest.raises(ValueError):
        ListenAddress.parse(text)


# --------------------------------------------------------------------------- the helper
@pytest.fixture(autouse=True)
def club_network(settings):
    """The club room's network: the computer is 192.168.1.20 on it."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]


def request_at(host: str):
    return RequestFactory().get("/manage/", HTTP_HOST=host)


def test_without_public_url_the_address_is_the_one_the_director_browses_by(settings):
    settings.PUBLIC_URL = ""

    url = public_address.absolute_url(request_at("192.168.1.20:8101"), "/tables/7/sheet/")

    assert url == "http://192.168.1.20:8101/tables/7/sheet/"


def test_public_url_wins_over_the_address_the_director_browses_by(settings):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    request = request_at("127.0.0.1:8101")

    assert public_address.absolute_url(request, "/tables/7/sheet/") == (
        "http://192.168.1.20:8000/tables/7/sheet/"
    )
    assert public_address.local_address_warning(request) is None


def test_browsing_by_loopback_without_public_url_is_warned_with_the_network_address(
    settings, monkeypatch
):
    settings.PUBLIC_URL = ""
    monkeypatch.setattr(public_address, "lan_addresses", lambda: ["192.168.1.20"])

    warning = public_address.local_address_warning(request_at("127.0.0.1:8101"))

    assert warning.host == "127.0.0.1"
    assert warning.network_urls == ["http://192.168.1.20:8101/manage/"]
    assert public_address.local_address_warning(request_at("192.168.1.20:8101")) is None


def test_a_loopback_public_url_is_warned_about_too(settings):
    settings.PUBLIC_URL = "http://localhost:8000"

    assert public_address.local_address_warning(request_at("192.168.1.20:8000")).host == (
        "localhost"
    )


# --------------------------------------------------------------------------- the pages
@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def tournament(director):
    tournament = TournamentFactory(club=ClubFactory(directors=[director]), table_size=4)
    for _ in range(8):
        RegistrationFactory(tournament=tournament)
    return tournament


@pytest.fixture
def printed_round(director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament)
    return draw_services.round_publish(actor=director, round_=round_)


@pytest.fixture
def desk(client, director, monkeypatch):
    monkeypatch.setattr(public_address, "lan_addresses", lambda: ["192.168.1.20"])
    client.force_login(director)
    return client


def link_start(registration) -> str:
    """A personal link up to its signature, which carries the second it was made."""
    return selectors.player_personal_link(registration).split(":")[0] + ":"


def director_pages(tournament, round_) -> list[str]:
    return [
        reverse("director-home"),
        reverse("director-player-cards", args=[tournament.pk]),
        reverse("director-round-print", args=[round_.pk]),
    ]


@pytest.mark.django_db
def test_a_director_browsing_by_127_0_0_1_is_told_how_phones_can_open_the_codes(
    desk, settings, tournament, printed_round
):
    settings.PUBLIC_URL = ""

    for path in director_pages(tournament, printed_round):
        page = desk.get(path, HTTP_HOST="127.0.0.1:8101").content.decode()

        assert f"{WARNING} 127.0.0.1: set PUBLIC_URL or open this page by the" in page, path
        assert f'href="http://192.168.1.20:8101{path}"' in page
        assert "make run ADDRESS=0.0.0.0:8101" in page
        assert "PUBLIC_URL=http://192.168.1.20:8101 make run" in page

    cards = desk.get(director_pages(tournament, printed_round)[1], HTTP_HOST="127.0.0.1:8101")
    registration = tournament.registrations.first()
    assert f"http://127.0.0.1:8101{link_start(registration)}" in cards.content.decode()


@pytest.mark.django_db
def test_with_public_url_every_code_carries_it_and_nothing_warns(
    desk, settings, tournament, printed_round
):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"

    home, cards, printed = (
        desk.get(path, HTTP_HOST="127.0.0.1:8101").content.decode()
        for path in director_pages(tournament, printed_round)
    )

    for page in (home, cards, printed):
        assert WARNING not in page
    for registration in tournament.registrations.all():
        assert f"http://192.168.1.20:8000{link_start(registration)}" in cards
    for table in printed_round.tables.all():
        assert f"http://192.168.1.20:8000{reverse('table-sheet', args=[table.pk])}" in printed
    assert "http://127.0.0.1" not in cards + printed


@pytest.mark.django_db
def test_a_director_browsing_by_the_network_address_is_not_warned(
    desk, settings, tournament, printed_round
):
    settings.PUBLIC_URL = ""

    for path in director_pages(tournament, printed_round):
        page = desk.get(path, HTTP_HOST="192.168.1.20:8000").content.decode()
        assert WARNING not in page
