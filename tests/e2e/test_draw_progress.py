"""The director draws round 1 of a large field in schedule mode: while the schedule is searched,
the draw panel shows the seconds, a progress bar and the repeat-free rounds found so far, on a
phone and in Ukrainian; then the drawn round's page comes."""

import base64
import datetime
import json
import re
import time

import pytest

from draws import progress
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_print_pages import signed_in
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def slow_search(monkeypatch):
    """Every report of the search followed by a pause, as on a busy machine, so the page has
    time to ask (the live server runs in this process)."""
    reporter = progress.reporter

    def slowed(*args, **kwargs):
        report = reporter(*args, **kwargs)

        def slow(share: float, repeat_free: int) -> None:
            report(share, repeat_free)
            time.sleep(0.15)

        return slow

    monkeypatch.setattr(progress, "reporter", slowed)


def test_a_large_fields_draw_shows_how_its_search_goes(live_server, open_page, slow_search):
    director = UserFactory()
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Великий турнір",
        date=datetime.date(2026, 12, 9),
        table_size="4",
        seating_mode="schedule",
        rounds_planned=20,
    )
    for number in range(100):
        player = PlayerFactory(club=club, name=f"Гравець {number + 1}")
        services.registration_create(actor=director, tournament=tournament, player=player)

    page = signed_in(lambda **_: open_page(viewport=PHONE, language="uk"), live_server, director)
    page.goto(f"{live_server.url}/manage/tournaments/{tournament.pk}/")
    form = page.locator("form", has=page.locator("[data-busy-status]"))
    # While the draw's answer is awaited the browser has a navigation pending, and Playwright
    # waits for it before it looks at the page: the page itself notes what its panel shows, in
    # its session storage, which outlives the navigation.
    form.evaluate(
        """form => {
            const seen = [];
            new MutationObserver(() => {
                const bar = form.querySelector("[data-busy-bar]");
                seen.push({
                    bar: bar.hidden ? null : bar.value,
                    width: document.documentElement.scrollWidth,
                    status: form.querySelector("[data-busy-status]").textContent,
                    detail: form.querySelector("[data-busy-detail]").textContent,
                });
                sessionStorage.setItem("seen", JSON.stringify(seen));
            }).observe(form, {subtree: true, attributes: true, childList: true});
            // Sent from the page's script: a click would wait for the draw's answer.
            form.requestSubmit();
        }"""
    )
    # Playwright's own screenshot would wait for the navigation too; the browser's does not.
    time.sleep(2.5)
    browser = page.context.new_cdp_session(page)
    shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "draw-progress-uk-phone.png").write_bytes(base64.b64decode(shot["data"]))
    page.wait_for_url(re.compile(r"/manage/rounds/\d+/"), timeout=60_000)
    assert progress.current(tournament.pk) is None
    seen = json.loads(page.evaluate("sessionStorage.getItem('seen')"))
    shown = [item for item in seen if item["bar"] is not None]
    assert len(shown) >= 2, seen
    assert [item["bar"] for item in shown] == sorted(item["bar"] for item in shown)
    for item in shown:
        assert item["width"] <= PHONE["width"]
        assert re.fullmatch(
            r"Тур 1: пошук виконано на \d+%; поки що \d+ тур(и|ів)? із 20 без "
            r"повторних зустрічей \(можливо щонайбільше 33\)\.",
            item["detail"],
        )
        assert re.search(r"\d+ с$", item["status"])
