"""Accessibility: every kind of page the public, a player and a director open, checked by axe-core
(the WCAG rules a program can check) on a phone in Ukrainian and on a laptop in English, over the
demo club (`manage.py demo`: a finished tournament, one with a round being played, a season).
No violation may appear, whatever axe's impact: a form field without a label, a table that
scrolls sideways but cannot be reached with the keyboard, text too pale to read, headings that
skip a level.

One rule is left out, on the live table only: axe wants a card button's name to contain the
text on its face ("Д♣"), but the face is two glyphs, and its name says the card in words
("дама (трефи)"), which is what a screen reader should read.
"""

from __future__ import annotations

from io import StringIO

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from django.core.management import call_command

from seasons.models import Season
from tests.e2e.conftest import LAPTOP, PHONE
from tests.e2e.test_print_pages import signed_in
from tournaments.models import Registration, Round, Seat, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Axe()
ON_THE_LIVE_TABLE = {"rules": {"label-content-name-mismatch": {"enabled": False}}}


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # the demo club is only loaded in development
    call_command("demo", stdout=StringIO())
    finished = Tournament.objects.get(status=Tournament.Status.FINISHED)
    running = Tournament.objects.get(status=Tournament.Status.RUNNING)
    playing = running.rounds.get(status=Round.Status.PUBLISHED)
    entry = Registration.objects.get(tournament=running, player__user__username="player01")
    table = Seat.objects.get(round=playing, registration=entry).table
    season = Season.objects.get()
    return {
        None: [
            "/",
            "/tournaments/",
            f"/tournaments/{running.pk}/",
            f"/tournaments/{running.pk}/rounds/{playing.number}/",
            f"/tournaments/{finished.pk}/rounds/1/tables/1/",
            f"/tournaments/{running.pk}/standings/",
            f"/tournaments/{running.pk}/players/{entry.start_number}/",
            f"/tournaments/{running.pk}/seats/",
            f"/tournaments/{running.pk}/wall/",
            "/seasons/",
            f"/seasons/{season.pk}/",
            f"/seasons/{season.pk}/wall/",
            f"/players/{entry.player_id}/",
            "/accounts/login/",
            "/me/enter/",
            "/practice/",
        ],
        "player01": ["/me/", f"/tables/{table.pk}/sheet/", f"/tables/{table.pk}/seat/"],
        "director": [
            "/manage/",
            "/manage/tournaments/new/",
            "/manage/tournaments/import/",
            f"/manage/tournaments/{running.pk}/",
            f"/manage/tournaments/{running.pk}/edit/",
            f"/manage/tournaments/{running.pk}/players/",
            f"/manage/tournaments/{running.pk}/players/cards/",
            f"/manage/tournaments/{running.pk}/roll-call/",
            f"/manage/tournaments/{running.pk}/finish/",
            f"/manage/registrations/{entry.pk}/",
            f"/manage/rounds/{playing.pk}/",
            f"/manage/rounds/{playing.pk}/board/",
            f"/manage/rounds/{playing.pk}/print/",
            f"/manage/tables/{table.pk}/result/",
            f"/manage/tournaments/{finished.pk}/ranking/print/",
            "/manage/seasons/",
            f"/manage/seasons/{season.pk}/",
            f"/manage/seasons/{season.pk}/delete/",
        ],
    }


def violations(page, options=None) -> list[str]:
    found = AXE.run(page, options={"resultTypes": ["violations"], **(options or {})})
    return [
        f"{page.url}: {violation['id']} ({violation['impact']}) {violation['help']}: "
        + "; ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
        for violation in found.response["violations"]
    ]


@pytest.mark.parametrize(
    ("viewport", "language"), [(PHONE, "uk"), (LAPTOP, "en")], ids=["phone-uk", "laptop-en"]
)
def test_no_page_breaks_an_accessibility_rule_axe_checks(
    live_server, open_page, demo, viewport, language
):
    found = []
    for username, paths in demo.items():
        if username is None:
            page = open_page(viewport=viewport, language=language)
        else:
            page = signed_in(open_page, live_server, User.objects.get(username=username))
            page.set_viewport_size(viewport)
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.ok, path
            found += violations(page)

    # The live table: a practice deal against two bots, as a guest starts one.
    page = open_page(viewport=viewport, language=language)
    page.goto(f"{live_server.url}/practice/")
    page.locator("main form button[type=submit]").first.click()
    page.locator("#hand button.card").first.wait_for()
    found += violations(page, ON_THE_LIVE_TABLE)

    assert found == []
