"""The Content-Security-Policy in a real browser: the pages work under it, injected code does not.

Chromium reports every refusal as a `securitypolicyviolation` event and a console line ("Refused
to ...", "... violates the following Content Security Policy directive ..."); both are collected
for the whole visit, across navigations.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from draws import services as draw_services
from tests.e2e.conftest import LAPTOP
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "secret-password"
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sample || ""}`);
});
"""


class Visit:
    """A browser page that remembers every policy violation it saw."""

    def __init__(self, open_page, *, hidden: bool = False) -> None:
        self.page = open_page(viewport=LAPTOP)
        self.violations: list[str] = []
        self.page.context.expose_binding(
            "reportViolation", lambda source, text: self.violations.append(text)
        )
        self.page.context.add_init_script(REPORT_VIOLATIONS)
        if hidden:
            # As a background tab or a phone with its screen off reports itself.
            self.page.context.add_init_script(
                "Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'});"
            )
        self.page.on("console", self._console)

    def _console(self, message) -> None:
        text = message.text
        if "Content Security Policy" in text or text.startswith("Refused to"):
            self.violations.append(text)

    def open(self, url: str):
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        assert "script-src 'self'" in response.headers["content-security-policy"]
        return response


@pytest.fixture
def tournament():
    """A public tournament whose first round is published, so its pages have content."""
    director = UserFactory()
    club = ClubFactory(directors=[director])
    made = services.tournament_create(
        actor=director, club=club, name="Policy Cup", date=datetime.date(2026, 12, 4)
    )
    for number in range(8):
        player = PlayerFactory(club=club, name=f"Player {number + 1}")
        services.registration_create(actor=director, tournament=made, player=player)
    drawn = draw_services.round_draw(actor=director, tournament=made, seed=7)
    draw_services.round_publish(actor=director, round_=drawn)
    return made


def sign_in(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}{reverse('login')}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form button[type=submit] >> nth=-1")


def test_the_pages_work_under_the_policy_without_a_single_violation(
    live_server, open_page, tournament
):
    visit = Visit(open_page)
    page = visit.page
    base = live_server.url

    # Home page: the language switch (static/js/site.js, no inline handler) still switches.
    visit.open(f"{base}/")
    with page.expect_navigation():
        page.select_option("#language", "uk")
    assert page.locator("html").get_attribute("lang") == "uk"
    with page.expect_navigation():
        page.select_option("#language", "en")

    visit.open(f"{base}{reverse('public-tournament', args=[tournament.pk])}")
    visit.open(f"{base}{reverse('public-round', args=[tournament.pk, 1])}")

    # The table page: a practice game, its script, its websocket attempt and its polling.
    UserFactory(username="olena")
    sign_in(page, base, "olena")
    visit.open(f"{base}/")
    with page.expect_navigation():
        page.locator(f"form[action='{reverse('practice-start')}'] button[type=submit]").click()
    expect(page.locator("#hand button.card").first).to_be_visible()
    expect(page.locator("#connection")).to_have_attribute("data-state", "polling")
    act = page.locator('#controls [data-key="pass"], #controls [data-key="bid"]').first
    sequence = page.locator("#live-table").get_attribute("data-sequence")
    act.click()
    page.wait_for_function(
        "(n) => document.getElementById('live-table').dataset.sequence !== n", arg=sequence
    )

    # The API documentation: Swagger UI draws every operation from the schema.
    visit.open(f"{base}{reverse('api-docs')}")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() > 10

    assert visit.violations == []


def test_the_live_standings_poll_while_shown_and_rest_while_hidden(
    live_server, open_page, tournament
):
    url = f"{live_server.url}{reverse('public-standings', args=[tournament.pk])}"
    live = reverse("public-standings-live", args=[tournament.pk])
    polls = {"shown": 0, "hidden": 0}

    for state in ("shown", "hidden"):
        visit = Visit(open_page, hidden=state == "hidden")

        def count(request, state=state):
            if live in request.url:
                polls[state] += 1

        visit.page.on("request", count)
        visit.open(url)
        visit.page.wait_for_timeout(3_500)
        assert visit.violations == [], state

    # Once a second while shown (htmx's "every 1s", no eval), never while hidden.
    assert polls["shown"] >= 2
    assert polls["hidden"] == 0


def test_injected_markup_cannot_run_script(live_server, open_page):
    visit = Visit(open_page)
    visit.open(f"{live_server.url}/")

    visit.page.evaluate(
        """() => {
            document.body.insertAdjacentHTML(
                "beforeend", '<img src="/static/none.png" onerror="window.injected = 1">'
            );
            const script = document.createElement("script");
            script.textContent = "window.injected = 2";
            document.body.append(script);
        }"""
    )
    visit.page.wait_for_timeout(500)

    assert visit.page.evaluate("() => window.injected") is None
    assert any("script-src" in violation for violation in visit.violations), visit.violations
