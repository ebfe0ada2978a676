"""The browser reaches the live server: the home page in English and in Ukrainian."""

import pytest

from tests.e2e.conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_home_page_opens_and_switches_language(live_server, open_page, screenshot):
    page = open_page(viewport=PHONE)
    page.goto(live_server.url)
    assert page.locator("html").get_attribute("lang") == "en"

    with page.expect_navigation():
        page.select_option("#language", "uk")

    assert page.locator("html").get_attribute("lang") == "uk"
    screenshot(page, "home-phone-uk")
    page.goto(live_server.url)  # the choice is remembered
    assert page.locator("html").get_attribute("lang") == "uk"
