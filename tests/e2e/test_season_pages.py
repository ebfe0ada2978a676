"""A club's season on a phone, as a player opens it from the wall's link: the season table, then
his profile across tournaments with its rating chart. At 360x740 in English and Ukrainian:
nothing wider than the screen (the season table scrolls in its box, no column hidden, the name in
view), the chart's dates inside the chart, each tournament's rank and points on the screen.

Locators use ids, hrefs and classes, never translated text.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from draws.services import round_draw, round_publish
from seasons import services
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.services import tournament_finish

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
NAMES = [
    "Оксана Лисенко",
    "Ярослав Ковальчук",
    "Наталія Ткачук",
    "Тарас Шевченко",
    "Софія Кравчук",
    "Галина Бойко",
    "Юлія Савчук",
    "Михайло Гончар",
]


@pytest.fixture
def season_played(finish_round):
    """A season of two finished public tournaments of eight players, two rounds each."""
    director = UserFactory()
    club = ClubFactory(directors=[director])
    players = [PlayerFactory(club=club, name=name) for name in NAMES]
    season = services.season_create(
        actor=director,
        club=club,
        name="Spring league",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    for month in (2, 3):
        tournament = TournamentFactory(
            club=club, season=season, date=datetime.date(2026, month, 1), rounds_planned=2
        )
        for number, player in enumerate(players, start=1):
            RegistrationFactory(tournament=tournament, player=player, start_number=number)
        for _ in range(2):
            round_ = round_draw(actor=director, tournament=tournament)
            round_publish(actor=director, round_=round_)
            finish_round(round_)
        tournament_finish(actor=director, tournament=tournament)
    services.season_standings_recompute(season_id=season.pk)
    return season, players


def page_fits(page) -> bool:
    return page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_player_finds_himself_in_the_season_and_opens_his_profile_on_a_phone(
    live_server, open_page, screenshot, season_played, language
):
    season, players = season_played
    page = open_page(viewport=PHONE, language=language)

    page.goto(f"{live_server.url}{reverse('public-season', args=[season.pk])}")
    profile = reverse("public-player-profile", args=[players[0].pk])
    link = page.locator(f"a[href='{profile}']").first
    expect(link).to_be_visible()
    assert page.locator("table tbody tr").count() >= len(players)
    assert page_fits(page)
    # No column is hidden on a phone: the table scrolls sideways in its box, and the player's
    # name stays in view at its far right.
    hidden = page.evaluate(
        """() => [...document.querySelectorAll("table.standings th, table.standings td")]
            .filter((cell) => getComputedStyle(cell).display === "none").length"""
    )
    assert hidden == 0
    wrap = page.locator(".table-wrap").first
    expect(wrap).to_have_attribute("tabindex", "0")
    wrap.evaluate("(box) => { box.scrollLeft = box.scrollWidth; }")
    name = page.locator("table.standings tbody th[scope=row]").first.bounding_box()
    assert name["x"] >= 0 and name["x"] + name["width"] <= PHONE["width"]
    screenshot(page, f"season-{language}-table-phone")

    link.click()
    expect(page).to_have_url(f"{live_server.url}{profile}")
    chart = page.locator("figure.chart svg")
    expect(chart).to_be_visible()
    assert page.locator("figure.chart circle.point").count() == 2  # one per rated tournament
    assert page_fits(page)
    # Every date under the chart is drawn inside it (the last one was cut at the right edge).
    outside = page.evaluate(
        """() => {
            const box = document.querySelector("figure.chart svg").getBoundingClientRect();
            return [...document.querySelectorAll("figure.chart .x-label")]
                .map((label) => label.getBoundingClientRect())
                .filter((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5).length;
        }"""
    )
    assert outside == 0
    # Each tournament's rank and points are on the screen, not cut off at its right edge.
    cells = page.locator("table.career td.rank, table.career td.points")
    assert cells.count() == 2 * 2
    for box in (cells.nth(index).bounding_box() for index in range(cells.count())):
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, f"season-{language}-profile-phone")
