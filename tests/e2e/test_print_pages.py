"""The printed pages as the printer gets them: a draft round's table cards and score sheets (DRAFT
across every page, long names whole, a bot table's live address instead of a sheet) and the
final ranking of 40 players on one A4 page."""

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client

from draws import services as draw_services
from scoring.services import standings_recompute
from tests.factories import ClubFactory, PlayerFactory, UserFactory, enter_confirmed_result
from tournaments import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What an A4 page holds inside the print margins (210 x 297 mm less 10 and 9 mm a side), in CSS
# pixels at 96 dpi: the print pages are laid out and measured at this size.
PRINTABLE = {"width": 718, "height": 1054}
NAMES = ["Богдан Кравченко", "Олена Коваль-Шевченко", "Ірина Бондар", "Тарас Шевчук"]


def signed_in(open_page, live_server, user):
    client = Client()
    client.force_login(user)
    page = open_page(viewport=PRINTABLE)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return page


def tournament_of(director, club, name, players, **options):
    tournament = services.tournament_create(
        actor=director, club=club, name=name, date=datetime.date(2026, 12, 4), **options
    )
    for number in range(players):
        player_name = NAMES[number] if number < len(NAMES) else f"Гравець Номер {number + 1}"
        player = PlayerFactory(club=club, name=player_name)
        services.registration_create(actor=director, tournament=tournament, player=player)
    return tournament


def pdf_pages(page, path) -> int:
    """The pages of the page printed to PDF, as the browser's print dialog would print it."""
    page.pdf(path=str(path), format="A4", prefer_css_page_size=True)
    (count,) = re.findall(rb"/Type\s*/Pages\b.*?/Count\s+(\d+)", path.read_bytes(), re.S)
    return int(count)


def assert_fits_pages(page) -> None:
    """Nothing wider than the paper (a printer would shrink the whole page to fit), and each
    printed page (an article) no taller than one sheet."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PRINTABLE["width"]
    heights = page.evaluate(
        "Array.from(document.querySelectorAll('article'), a => a.getBoundingClientRect().height)"
    )
    assert heights and max(heights) <= PRINTABLE["height"], heights


def test_the_print_pages_on_paper(live_server, open_page, screenshot, tmp_path):
    director = UserFactory()
    club = ClubFactory(name="Клуб «Козир»", directors=[director])
    # Seven players at tables of 4 with bots: one paper table and one with a bot.
    evening = tournament_of(director, club, "Зимовий кубок", 7, table_size="4", bots_allowed=True)
    draft = draw_services.round_draw(actor=director, tournament=evening, seed=3)

    page = signed_in(open_page, live_server, director)
    page.emulate_media(media="print")
    page.goto(f"{live_server.url}/manage/rounds/{draft.pk}/print/")
    body = page.locator("body")
    assert "DRAFT" in body.inner_text()
    assert page.locator("text=Played live at").count() == 1
    for name in NAMES:  # the paper table's column heads print the names whole
        heads = page.locator("table.score-grid .seat-name", has_text=name)
        if heads.count():
            box = heads.first.bounding_box()
            cell = heads.first.locator("xpath=..").bounding_box()
            assert box["width"] <= cell["width"] + 1
    screenshot(page, "print-draft-round")
    assert_fits_pages(page)
    # Table 1 on paper: a game to 1001 at a table of 4 has a first sheet and a continuation;
    # the bot table one page.
    assert pdf_pages(page, tmp_path / "round.pdf") == 3

    final = tournament_of(director, club, "Кубок сорока", 40, table_size="4")
    round_ = draw_services.round_draw(actor=director, tournament=final, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    for seed, table in enumerate(round_.tables.all()):
        enter_confirmed_result(table, seed=seed)
    standings_recompute(tournament_id=final.pk)
    page.goto(f"{live_server.url}/manage/tournaments/{final.pk}/ranking/print/")
    assert page.locator("table.ranking tbody tr").count() == 40
    screenshot(page, "print-final-ranking")
    assert_fits_pages(page)
    assert pdf_pages(page, tmp_path / "ranking.pdf") == 1
