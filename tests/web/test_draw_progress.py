"""While a large field's schedule is searched (seconds, in the director's own request), the draw
panel asks how far the search has come and shows it: the share done and the repeat-free rounds
found so far. Only the club's directors may ask."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from draws import progress
from draws import services as draw_services
from tests.factories import ClubFactory, UserFactory
from tests.web.test_draw_outlook import tournament_of

pytestmark = pytest.mark.django_db


def progress_url(tournament) -> str:
    return reverse("director-round-draw-progress", args=[tournament.pk])


def test_the_draw_panel_and_the_redraw_ask_for_the_progress_of_their_draw(client):
    director, tournament = tournament_of(8, seating_mode="schedule")
    client.force_login(director)
    page = client.get(reverse("director-tournament", args=[tournament.pk])).content.decode()
    assert f'data-busy-progress="{progress_url(tournament)}"' in page
    assert "data-busy-bar" in page
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=1)
    page = client.get(reverse("director-round", args=[round_.pk])).content.decode()
    redraw = page[page.index('id="redraw"') :]
    redraw = redraw[: redraw.index("</form>")]
    assert f'data-busy-progress="{progress_url(tournament)}"' in redraw


def test_no_search_running_answers_with_nothing_to_show(client):
    director, tournament = tournament_of(8, seating_mode="schedule")
    client.force_login(director)
    response = client.get(progress_url(tournament))
    assert response.status_code == 200
    assert response.json() == {"percent": None, "text": None}


def test_a_running_search_is_shown_with_its_share_and_its_repeat_free_rounds(client):
    director, tournament = tournament_of(8, seating_mode="schedule")
    report = progress.reporter(tournament.pk, round_number=1, rounds=30, bound=53)
    report(0.42, 21)
    client.force_login(director)
    found = client.get(progress_url(tournament)).json()
    assert found["percent"] == 42
    assert found["text"] == (
        "Round 1: the search is 42% done; so far 21 of 30 rounds are repeat-free "
        "(at most 53 can be)."
    )
    report(1.0, 1)
    text = client.get(progress_url(tournament), HTTP_ACCEPT_LANGUAGE="uk").json()["text"]
    assert text == (
        "Тур 1: пошук виконано на 100%; поки що 1 тур із 30 без повторних зустрічей "
        "(можливо щонайбільше 53)."
    )


def test_only_the_clubs_directors_may_ask(client):
    _, tournament = tournament_of(8, seating_mode="schedule")
    progress.reporter(tournament.pk, round_number=1, rounds=5, bound=7)(0.5, 3)
    assert client.get(progress_url(tournament)).status_code == 302  # to the sign-in page
    other = UserFactory()
    ClubFactory(directors=[other])
    client.force_login(other)
    assert client.get(progress_url(tournament)).status_code == 403
    assert client.post(progress_url(tournament)).status_code == 405


def test_a_large_field_draw_reports_as_it_searches_and_leaves_nothing_behind(monkeypatch):
    director, tournament = tournament_of(70, seating_mode="schedule", rounds_planned=10)
    monkeypatch.setattr(progress, "INTERVAL", 0)
    seen = []
    store = cache.set

    def recording(key, value, *args, **kwargs):
        if isinstance(value, progress.DrawProgress):
            seen.append(value)
        return store(key, value, *args, **kwargs)

    monkeypatch.setattr(progress.cache, "set", recording)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)

    assert round_.number == 1
    assert len(seen) >= 10
    assert {item.round_number for item in seen} == {1}
    assert {(item.rounds, item.bound) for item in seen} == {(10, 23)}
    assert seen[-1].share == 1 and seen[-1].repeat_free == 10
    assert progress.current(tournament.pk) is None
