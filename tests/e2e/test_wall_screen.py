"""The wall screen of a club of 47 on a laptop-sized screen, as the room reads it at the start of
a round: "Find your seat" comes first, reads down each column like a printed list, every
player is on exactly one screenful, in alphabetical order across them, and a long name is
shown whole (on a second line) rather than cut.

Locators use ids, classes and data attributes, never translated text.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from draws import services as draw_services
from tests.e2e.conftest import LAPTOP
from tests.factories import ClubFactory, UserFactory
from tournaments import services
from web.presenters.venue import alphabetical_key

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST = ["Олександр", "Марія", "Богдан", "Олена", "Тарас", "Юлія", "Андрій", "Наталія"]
LAST = ["Коваленко", "Шевчук", "Бондаренко", "Ткаченко", "Кравченко", "Олійник"]
LONG_NAME = "Костянтин-Володимир Преображенський-Верхньодніпровський"

# What the wall shows of its seat list now: each shown line's name, box and whether the name is
# cut; None while another panel is on the screen.
SHOWN_SEATS = """() => {
    const panel = document.querySelector('[aria-labelledby="wall-seats"]');
    if (panel.hidden) {
        return null;
    }
    const footer = document.querySelector('.wall-footer');
    const room = window.innerHeight - (footer ? footer.getBoundingClientRect().height : 0);
    return Array.from(panel.querySelectorAll('[data-wall-item]'))
        .filter((line) => !line.hidden)
        .map((line) => {
            const box = line.getBoundingClientRect();
            const name = line.querySelector('.name');
            return {
                name: name.textContent,
                left: Math.round(box.left),
                top: Math.round(box.top),
                inside: box.right <= window.innerWidth && box.bottom <= room,
                cut: name.scrollWidth > name.clientWidth,
            };
        });
}"""


@pytest.fixture
def round_of_47():
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="City Cup", date=datetime.date(2026, 12, 5), is_public=True
    )
    names = [f"{first} {last}" for last in LAST for first in FIRST][:46] + [LONG_NAME]
    services.registration_create_from_names(actor=director, tournament=tournament, names=names)
    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    draw_services.round_publish(actor=director, round_=draft)
    return tournament, names


@pytest.mark.parametrize("language", ["uk", "en"])
def test_find_your_seat_reads_down_the_columns_one_screenful_at_a_time(
    live_server, open_page, screenshot, round_of_47, language
):
    tournament, names = round_of_47
    wall = open_page(viewport=LAPTOP, language=language)
    # The longest time a screenful may stay: the test moves on with the arrow key.
    wall.goto(f"{live_server.url}/tournaments/{tournament.pk}/wall/?seconds=120")
    dots = wall.locator("[data-wall-dots] span")
    expect(dots.first).to_be_visible()
    slides = dots.count()

    screenfuls = []
    for number in range(slides):
        shown = wall.evaluate(SHOWN_SEATS)
        if shown is not None:
            screenfuls.append(shown)
            screenshot(wall, f"{language}-wall-seats-{len(screenfuls)}")
        wall.keyboard.press("ArrowRight")
        expect(dots.nth((number + 1) % slides)).to_have_class("current")

    # The seats open the rotation: no table has a result yet.
    assert screenfuls and wall.evaluate(SHOWN_SEATS) == screenfuls[0]
    listed = [line["name"] for screenful in screenfuls for line in screenful]
    assert listed == sorted(names, key=alphabetical_key)
    assert len(screenfuls) >= 2 and any(
        len({line["left"] for line in screenful}) >= 2 for screenful in screenfuls
    )
    for screenful in screenfuls:
        # Down each column, then the next column to the right.
        assert screenful == sorted(screenful, key=lambda line: (line["left"], line["top"]))
        assert all(line["inside"] and not line["cut"] for line in screenful)
