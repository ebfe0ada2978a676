"""The public pages as a spectator, a player and a wall screen see them.

Tournament page, round draws, table results, live standings, wall screen, player pages, CSV files:
all of them for a public tournament, none of them for a private one, never a draft round, and the
standings read from the stored snapshot only.
"""

import csv
import datetime
import gzip
import io
import re

import pytest
from django.urls import reverse

from draws import services as draw_services
from scoring import selectors as scoring_selectors
from scoring.services import result_record_live
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    UserFactory,
    enter_confirmed_result,
    game_sheet,
)
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture
def director():
    return UserFactory()


def make_tournament(director, *, players=8, name="Friday Cup", is_public=True, **options):
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name=name,
        date=datetime.date(2026, 11, 27),
        rounds_planned=3,
        is_public=is_public,
        **options,
    )
    for number in range(players):
        player = PlayerFactory(club=club, name=f"Гравець {number + 1}")
        services.registration_create(actor=director, tournament=tournament, player=player)
    return tournament


def publish_next_round(director, tournament):
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=7)
    return draw_services.round_publish(actor=director, round_=round_)


@pytest.fixture
def played(director, finish_round):
    """Two finished rounds and a third one drawn as a draft (not published yet)."""
    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    finish_round(publish_next_round(director, tournament))
    draw_services.round_draw(actor=director, tournament=tournament, seed=9)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def private(director, finish_round):
    tournament = make_tournament(director, name="Closed Club Night", is_public=False)
    finish_round(publish_next_round(director, tournament))
    return tournament


def page_urls(tournament):
    """Every public page and file of a tournament (the first round, table and player)."""
    pk = tournament.pk
    return [
        reverse("public-tournament", args=[pk]),
        reverse("public-round", args=[pk, 1]),
        reverse("public-table", args=[pk, 1, 1]),
        reverse("public-standings", args=[pk]),
        reverse("public-standings-live", args=[pk]),
        reverse("public-wall", args=[pk]),
        reverse("public-wall-live", args=[pk]),
        reverse("public-player", args=[pk, 1]),
        reverse("public-standings-csv", args=[pk]),
        reverse("public-results-csv", args=[pk]),
    ]


def text_of(response) -> str:
    return response.content.decode()


def csv_rows(response) -> list[list[str]]:
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


# ----------------------------------------------------------------------------- visibility


def test_every_page_of_a_public_tournament_opens_for_a_visitor(client, played):
    for url in page_urls(played):
        response = client.get(url)
        assert response.status_code == 200, url


def test_no_page_or_file_of_a_private_tournament_exists_for_the_public(client, private):
    stranger = UserFactory()
    for url in page_urls(private):
        assert client.get(url).status_code == 404, url
    client.force_login(stranger)
    for url in page_urls(private):
        assert client.get(url).status_code == 404, url


def test_the_director_and_the_players_of_a_private_tournament_see_its_pages(
    client, private, director
):
    client.force_login(director)
    assert client.get(reverse("public-standings", args=[private.pk])).status_code == 200

    player = private.registrations.first().player
    player.user = UserFactory()
    player.save()
    client.force_login(player.user)
    assert client.get(reverse("public-round", args=[private.pk, 1])).status_code == 200


def test_a_private_tournament_is_neither_listed_nor_found(client, played, private):
    home = text_of(client.get(reverse("home")))
    assert played.name in home
    assert private.name not in home

    listing = text_of(client.get(reverse("public-tournament-list")))
    assert played.name in listing and private.name not in listing

    search = text_of(client.get(reverse("public-tournament-list"), {"q": "closed"}))
    assert private.name not in search
    assert "No tournament matches that name." in search


def test_unknown_tournament_round_table_and_player_are_not_found(client, played):
    pk = played.pk
    assert client.get(reverse("public-tournament", args=[pk + 1000])).status_code == 404
    assert client.get(reverse("public-round", args=[pk, 7])).status_code == 404
    assert client.get(reverse("public-table", args=[pk, 1, 99])).status_code == 404
    assert client.get(reverse("public-player", args=[pk, 99])).status_code == 404


def test_a_draft_round_is_shown_nowhere_not_even_to_the_director(client, played, director):
    draft = played.rounds.get(number=3)
    assert draft.status == Round.Status.DRAFT
    round_url = reverse("public-round", args=[played.pk, 3])
    drafted_table = draft.tables.get(number=1)
    seated = drafted_table.seats.exclude(registration=None).first().registration

    for user in (None, director):
        if user is not None:
            client.force_login(user)
        assert client.get(round_url).status_code == 404
        assert client.get(reverse("public-table", args=[played.pk, 3, 1])).status_code == 404
        for url in page_urls(played):
            assert round_url not in text_of(client.get(url)), url
        player_page = text_of(client.get(reverse("public-player", args=[played.pk, 1])))
        assert "Round 3" not in player_page
        wall = text_of(client.get(reverse("public-wall", args=[played.pk])))
        assert "Round 2: tables" in wall and "Round 3" not in wall
        player_page = client.get(reverse("public-player", args=[played.pk, seated.start_number]))
        assert [line.round_number for line in player_page.context["progress"]] == [1, 2]


# ----------------------------------------------------------------------------- pages


def test_tournament_page_shows_the_facts_rounds_and_leaders(client, played):
    response = client.get(reverse("public-tournament", args=[played.pk]))

    page = text_of(response)
    assert "Friday Cup" in page
    assert "/static/css/public.css" in page
    assert reverse("public-round", args=[played.pk, 1]) in page
    assert reverse("public-round", args=[played.pk, 2]) in page
    assert reverse("public-standings", args=[played.pk]) in page
    assert reverse("public-wall", args=[played.pk]) in page
    leader = scoring_selectors.standings_latest(played).rows[0]["name"]
    assert leader in page


def test_a_tournament_without_results_lists_its_registered_players(client, director):
    tournament = make_tournament(director, players=5)

    page = text_of(client.get(reverse("public-tournament", args=[tournament.pk])))

    assert "5 players registered" in page
    assert "Гравець 5" in page
    assert "No results are confirmed yet." in page


def test_round_page_shows_every_table_with_seats_and_confirmed_results(client, played):
    round_ = played.rounds.get(number=1)

    response = client.get(reverse("public-round", args=[played.pk, 1]))

    tables = response.context["tables"]
    assert [table.number for table in tables] == [1, 2]
    page = text_of(response)
    for table in round_.tables.all():
        result = scoring_selectors.table_result(table).confirmed
        for seat in table.seats.select_related("registration__player"):
            assert seat.registration.player.name in page
            assert f'<td class="num">{result.totals[seat.position]}</td>' in page
    assert "The round is finished" in page


def test_round_page_shows_a_table_waiting_for_its_result_without_numbers(client, director):
    tournament = make_tournament(director)
    round_ = publish_next_round(director, tournament)

    response = client.get(reverse("public-round", args=[tournament.pk, round_.number]))

    page = text_of(response)
    assert "no result yet" in page
    assert "0 of 2 tables have a confirmed result." in page
    assert "Score sheet of table" not in page


def test_table_page_shows_the_confirmed_score_sheet_deal_by_deal(client, played):
    table = played.rounds.get(number=1).tables.get(number=1)
    version = scoring_selectors.table_result(table).confirmed

    response = client.get(reverse("public-table", args=[played.pk, 1, 1]))

    deals = response.context["deals"]
    assert len(deals) == len(version.sheet["rows"])
    assert list(deals[-1].running) == version.totals
    assert "Score sheet" in text_of(response)


def test_standings_page_shows_the_stored_snapshot_with_polling(client, played):
    snapshot = scoring_selectors.standings_latest(played)

    response = client.get(reverse("public-standings", args=[played.pk]))

    page = text_of(response)
    live = reverse("public-standings-live", args=[played.pk])
    assert f'hx-get="{live}?version={snapshot.version}"' in page
    assert 'hx-trigger="every 1s' in page
    names = [line.name for line in response.context["standings"].rows]
    assert names == [row["name"] for row in snapshot.rows]
    assert len(names) == 8
    assert reverse("public-player", args=[played.pk, snapshot.rows[0]["start_number"]]) in page


def test_pages_never_recompute_the_standings(client, played, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a page recomputed the standings")

    monkeypatch.setattr("standings.ranking.compute_standings", refuse)
    monkeypatch.setattr("scoring.services.standings_recompute", refuse)

    for url in page_urls(played):
        assert client.get(url).status_code == 200, url


def test_a_column_of_numbers_has_one_number_of_decimals_so_the_points_line_up(
    client, director, finish_round
):
    # Second place earns 1.5 points, so the points column has fractions.
    tournament = make_tournament(director, placement_points={"4": [3, 1.5, 1, 0]})
    finish_round(publish_next_round(director, tournament))

    response = client.get(reverse("public-standings", args=[tournament.pk]))

    table = response.context["standings"]
    column = [column.key for column in table.columns].index("tournament_points")
    texts = [line.cells[column].text for line in table.rows]
    decimals = {len(text.partition(".")[2]) for text in texts}
    assert len(decimals) == 1 and decimals != {0}
    assert f'<td class="num">{texts[0]}</td>' in text_of(response)


def test_bots_appear_by_level_on_the_round_page_the_player_page_and_in_the_csv(
    client, director, django_capture_on_commit_callbacks
):
    tournament = make_tournament(director, players=7, bots_allowed=True)
    round_ = publish_next_round(director, tournament)
    bot_table = round_.tables.get(seats__registration=None)
    # Tables of humans enter paper sheets; the table with a bot is played live, and its
    # result comes from the live game.
    for table in round_.tables.order_by("number"):
        with django_capture_on_commit_callbacks(execute=True):
            if table == bot_table:
                result_record_live(
                    table=table, sheet=game_sheet(players=table.seats.count(), seed=table.pk)
                )
            else:
                enter_confirmed_result(table, seed=table.pk)
    someone = bot_table.seats.exclude(registration=None).first().registration

    round_page = text_of(client.get(reverse("public-round", args=[tournament.pk, 1])))
    player_page = text_of(
        client.get(reverse("public-player", args=[tournament.pk, someone.start_number]))
    )
    results = csv_rows(client.get(reverse("public-results-csv", args=[tournament.pk])))

    assert "Bot (normal)" in round_page
    assert "Bot (normal)" in player_page
    bots = [line for line in results[1:] if line[4] == "Bot (normal)"]
    assert len(bots) == 1 and bots[0][3] == ""


# ----------------------------------------------------------------------------- live standings


def test_live_standings_answer_204_until_a_confirmation_brings_a_new_table(
    client, director, django_capture_on_commit_callbacks
):
    tournament = make_tournament(director)
    round_ = publish_next_round(director, tournament)
    live = reverse("public-standings-live", args=[tournament.pk])

    page = client.get(reverse("public-standings", args=[tournament.pk]))
    assert page.context["standings"].version == ""
    assert client.get(live, {"version": ""}).status_code == 204

    first, second = round_.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(first, seed=1)

    fresh = client.get(live, {"version": ""})
    assert fresh.status_code == 200
    snapshot = scoring_selectors.standings_latest(tournament)
    body = text_of(fresh)
    assert f"?version={snapshot.version}" in body
    assert 'id="standings-live"' in body
    assert "<html" not in body
    for seat in first.seats.select_related("registration__player"):
        assert seat.registration.player.name in body
    assert "no-cache" in fresh["Cache-Control"] or "no-store" in fresh["Cache-Control"]

    assert client.get(live, {"version": str(snapshot.version)}).status_code == 204

    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(second, seed=2)
    newer = client.get(live, {"version": str(snapshot.version)})
    assert newer.status_code == 200
    assert f"?version={snapshot.version + 1}" in text_of(newer)


def test_wall_screen_has_large_type_cycling_panels_and_its_own_polling(client, played):
    response = client.get(reverse("public-wall", args=[played.pk]), {"seconds": "8"})

    page = text_of(response)
    assert 'class="public wall-screen"' in page
    assert 'data-wall-seconds="8"' in page
    assert page.count("data-wall-panel") == 2
    assert "/static/js/public.js" in page
    state = response.context["state"]
    live = reverse("public-wall-live", args=[played.pk])
    assert client.get(live, {"state": state}).status_code == 204
    assert client.get(live, {"state": "old"}).status_code == 200


def test_wall_screen_seconds_are_kept_within_bounds(client, played):
    url = reverse("public-wall", args=[played.pk])
    assert client.get(url, {"seconds": "0"}).context["seconds"] == 3
    assert client.get(url, {"seconds": "100000"}).context["seconds"] == 120
    assert client.get(url, {"seconds": "x"}).context["seconds"] == 12


# ----------------------------------------------------------------------------- player page


def test_player_page_lists_each_round_and_charts_one_point_per_finished_round(client, played):
    registration = played.registrations.get(start_number=3)

    response = client.get(reverse("public-player", args=[played.pk, 3]))

    page = text_of(response)
    assert registration.player.name in page
    progress = response.context["progress"]
    assert [line.round_number for line in progress] == [1, 2]
    for line in progress:
        assert line.table is not None and line.seat is not None
        assert len(line.opponents) == 3
        for opponent in line.opponents:
            assert opponent.name in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert svg.count("<circle") == 2  # two finished rounds, the draft round not counted
    assert "<polyline" in svg
    assert "<script" not in page.split("<svg")[1].split("</svg>")[0]
    row = next(
        row
        for row in scoring_selectors.standings_latest(played).rows
        if row["registration"] == registration.pk
    )
    assert progress[-1].running_points == row["tournament_points"]
    assert sum(line.seat.total for line in progress) == row["total_score"]


def test_player_chart_counts_a_round_in_play_only_once_his_table_is_confirmed(client, director):
    tournament = make_tournament(director)
    round_ = publish_next_round(director, tournament)
    table = round_.tables.get(number=1)
    mine = table.seats.first().registration.start_number
    url = reverse("public-player", args=[tournament.pk, mine])

    assert client.get(url).context["chart"] is None
    enter_confirmed_result(table, seed=3)
    chart = client.get(url).context["chart"]
    assert [point.round_number for point in chart.points] == [1]


# ----------------------------------------------------------------------------- CSV


def test_standings_csv_has_a_header_every_player_and_excel_friendly_encoding(client, played):
    snapshot = scoring_selectors.standings_latest(played)

    response = client.get(reverse("public-standings-csv", args=[played.pk]))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    assert "standings.csv" in response["Content-Disposition"]
    rows = csv_rows(response)
    assert rows[0][:3] == ["Rank", "Start number", "Player"]
    assert len(rows) == 1 + len(snapshot.rows)
    for line, row in zip(rows[1:], snapshot.rows, strict=True):
        assert line[0] == str(row["rank"])
        assert line[2] == row["name"]
        assert float(line[4]) == row["tournament_points"]
        assert int(line[5]) == row["total_score"]


def test_the_standings_csv_has_the_pages_columns_in_the_tournaments_order(
    client, director, finish_round
):
    tournament = make_tournament(
        director, standings_precedence=["games_won", "total_score", "random"]
    )
    finish_round(publish_next_round(director, tournament))
    page = text_of(client.get(reverse("public-standings", args=[tournament.pk])))

    header, *rows = csv_rows(client.get(reverse("public-standings-csv", args=[tournament.pk])))

    assert header == [
        "Rank",
        "Start number",
        "Player",
        "Tables played",
        "Games won",
        "Total score",
        "Tournament points",
        "Status",
    ]
    assert page.index("Wins") < page.index("Score") < page.index("Points")
    snapshot = scoring_selectors.standings_latest(tournament)
    assert [int(row[4]) for row in rows] == [line["games_won"] for line in snapshot.rows]


def test_csv_quotes_names_with_commas_and_quotes(client, director, finish_round):
    tournament = make_tournament(director)
    registration = tournament.registrations.get(start_number=1)
    registration.player.name = 'Коваль, Олена "Лисиця"'
    registration.player.save()
    finish_round(publish_next_round(director, tournament))

    standings = csv_rows(client.get(reverse("public-standings-csv", args=[tournament.pk])))
    results = csv_rows(client.get(reverse("public-results-csv", args=[tournament.pk])))

    assert 'Коваль, Олена "Лисиця"' in [line[2] for line in standings[1:]]
    assert 'Коваль, Олена "Лисиця"' in [line[4] for line in results[1:]]


TOKEN_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def kept_for_the_test(monkeypatch):
    """The poll state and the kept pages last a second, which a busy machine can spend between
    two requests of one test: kept for a minute here, so that a test of what is kept does not
    race the clock. (Giving way to a new snapshot does not wait for it to expire.)"""
    from scoring import standings_cache

    monkeypatch.setattr(standings_cache, "POLL_SECONDS", 60)
    monkeypatch.setattr(standings_cache, "PAGE_SECONDS", 60)


def test_visitors_not_signed_in_share_one_kept_standings_page_each_with_his_own_token(
    director, finish_round, django_assert_num_queries, kept_for_the_test
):
    from django.test import Client

    from web.views.public import TOKEN_STAND_IN

    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    url = reverse("public-standings", args=[tournament.pk])
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    rendered = first.get(url)

    # A big event's phones: the second visitor's page comes from the cache, no query at all.
    with django_assert_num_queries(0):
        kept = second.get(url)

    assert rendered.status_code == kept.status_code == 200
    pages = [text_of(rendered), text_of(kept)]
    tokens = [TOKEN_INPUT.findall(page) for page in pages]
    assert all(len(found) == 1 for found in tokens) and tokens[0] != tokens[1]
    assert all(TOKEN_STAND_IN not in page for page in pages)
    assert f'"X-CSRFToken": "{tokens[1][0]}"' in pages[1]
    # The same page but for the token.
    first_page, kept_page = (
        page.replace(found[0], "") for page, found in zip(pages, tokens, strict=True)
    )
    assert kept_page == first_page
    # The token each got is his: the language switch on the kept page works for him.
    switched = second.post(
        reverse("set_language"),
        {"language": "uk", "next": url, "csrfmiddlewaretoken": tokens[1][0]},
    )
    assert switched.status_code == 302
    assert "Оновлено" in text_of(second.get(url))
    assert "Last updated" in text_of(first.get(url))


def test_a_kept_standings_page_gives_way_at_once_to_new_standings(
    client, director, finish_round, kept_for_the_test
):
    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    url = reverse("public-standings", args=[tournament.pk])
    before = scoring_selectors.standings_latest(tournament).version
    assert f"?version={before}" in text_of(client.get(url))

    finish_round(publish_next_round(director, tournament))

    after = scoring_selectors.standings_latest(tournament).version
    assert after != before
    assert f"?version={after}" in text_of(client.get(url))


def test_no_signed_in_or_private_standings_page_is_kept_for_others(
    client, director, finish_round, kept_for_the_test
):
    public = make_tournament(director)
    finish_round(publish_next_round(director, public))
    private = make_tournament(director, name="Closed Club Night", is_public=False)
    finish_round(publish_next_round(director, private))
    public_url = reverse("public-standings", args=[public.pk])
    private_url = reverse("public-standings", args=[private.pk])
    client.get(public_url)  # kept for visitors not signed in

    client.force_login(director)
    signed_in = [text_of(client.get(url)) for url in (public_url, private_url)]
    client.logout()

    assert all("Sign out" in page for page in signed_in)
    assert "Sign out" not in text_of(client.get(public_url))
    assert client.get(private_url).status_code == 404
    # A page with a query is not the one kept (its links repeat the address).
    assert "seconds%3D5" in text_of(client.get(public_url, {"seconds": 5}))


def test_prerendered_standings_are_served_in_each_language_without_rendering(
    client, director, finish_round, django_assert_max_num_queries
):
    from web.presenters.live_standings import live_prerender

    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    live_prerender(tournament.pk)
    live = reverse("public-standings-live", args=[tournament.pk])

    # The tournament and the latest version; no snapshot rows, no rendering.
    with django_assert_max_num_queries(2):
        english = client.get(live, {"version": ""})
    client.cookies["django_language"] = "uk"
    with django_assert_max_num_queries(2):
        ukrainian = client.get(live, {"version": ""})

    assert english.status_code == ukrainian.status_code == 200
    assert "Last updated" in text_of(english)
    assert "Оновлено" in text_of(ukrainian)


def test_the_worker_keeps_the_whole_page_in_each_language_as_a_visitor_gets_it(
    director, finish_round, django_assert_num_queries, kept_for_the_test
):
    from django.core.cache import cache
    from django.test import Client

    from web import tasks

    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    url = reverse("public-standings", args=[tournament.pk])
    cache.clear()  # nothing kept by the requests of the round's results
    tasks.prerender_standings(tournament.pk)

    # Every visitor's page comes from the cache at once, in his language: no query at all.
    pages = {}
    for language in ("en", "uk"):
        visitor = Client()
        visitor.cookies["django_language"] = language
        with django_assert_num_queries(0):
            pages[language] = text_of(visitor.get(url))
    # The same page a request renders, but for the visitor's token.
    cache.clear()
    rendered = {}
    for language in ("en", "uk"):
        visitor = Client()
        visitor.cookies["django_language"] = language
        rendered[language] = text_of(visitor.get(url))

    latest = scoring_selectors.standings_latest(tournament).version
    assert f"?version={latest}" in pages["en"]
    assert "Last updated" in pages["en"] and "Оновлено" in pages["uk"]
    for language in ("en", "uk"):
        kept, fresh = (TOKEN_INPUT.sub("", page) for page in (pages[language], rendered[language]))
        kept, fresh = (re.sub(r'"X-CSRFToken": "[^"]+"', "", page) for page in (kept, fresh))
        assert kept == fresh


def test_the_worker_keeps_no_page_of_a_private_tournament(director, finish_round):
    from django.core.cache import cache

    from scoring import standings_cache
    from web import tasks
    from web.presenters.live_standings import columns_text

    private = make_tournament(director, is_public=False)
    finish_round(publish_next_round(director, private))
    cache.clear()
    tasks.prerender_standings(private.pk)

    latest = str(scoring_selectors.standings_latest(private).version)
    for language in ("en", "uk"):
        key = standings_cache.page_key(private.pk, latest, columns_text(private), language)
        assert standings_cache.page(key) is None
    assert standings_cache.poll_state(private.pk) is None


def test_a_poll_that_accepts_gzip_gets_the_workers_gzip_as_it_is(client, director, finish_round):
    from web.presenters.live_standings import live_prerender

    tournament = make_tournament(director)
    finish_round(publish_next_round(director, tournament))
    live_prerender(tournament.pk)
    live = reverse("public-standings-live", args=[tournament.pk])
    client.get(live, {"version": ""})  # the first poll keeps the latest version for the others

    polls = [client.get(live, {"version": ""}, HTTP_ACCEPT_ENCODING="gzip, br") for _ in "ab"]
    plain = client.get(live, {"version": ""})

    # Compressed once by the worker (Django's gzip pads each answer differently against BREACH;
    # the block holds no secret to protect), the same bytes for every phone.
    first, second = polls
    assert first["Content-Encoding"] == "gzip" and "Accept-Encoding" in first["Vary"]
    assert first.content == second.content
    assert gzip.decompress(first.content).decode() == plain.content.decode()
    assert "Content-Encoding" not in plain
    assert 'id="standings-live"' in plain.content.decode()


def test_csv_never_hands_a_spreadsheet_a_formula(client, director, finish_round):
    tournament = make_tournament(director)
    names = {1: '=HYPERLINK("http://evil.example","x")', 2: "+1+1", 3: "@SUM(A1)", 4: "-2+3"}
    for number, name in names.items():
        registration = tournament.registrations.get(start_number=number)
        registration.player.name = name
        registration.player.save()
    finish_round(publish_next_round(director, tournament))

    standings = csv_rows(client.get(reverse("public-standings-csv", args=[tournament.pk])))
    results = csv_rows(client.get(reverse("public-results-csv", args=[tournament.pk])))

    shown = {line[2] for line in standings[1:]} | {line[4] for line in results[1:]}
    assert {"'" + name for name in names.values()} <= shown
    assert not shown & set(names.values())
    # Negative totals are numbers, and stay numbers.
    totals = [int(line[5]) for line in results[1:]]
    assert len(totals) == len(results) - 1


def test_results_csv_has_one_line_per_seat_of_every_confirmed_table(client, played):
    response = client.get(reverse("public-results-csv", args=[played.pk]))

    rows = csv_rows(response)
    assert rows[0] == [
        "Round",
        "Table",
        "Seat",
        "Start number",
        "Player",
        "Total",
        "Place",
        "Tournament points",
        "Winner",
    ]
    assert len(rows) == 1 + 2 * 8  # two finished rounds of 8 players; the draft is left out
    assert {line[0] for line in rows[1:]} == {"1", "2"}
    points: dict[str, float] = {}
    for line in rows[1:]:
        points[line[3]] = points.get(line[3], 0) + float(line[7])
    for row in scoring_selectors.standings_latest(played).rows:
        assert points[str(row["start_number"])] == row["tournament_points"]
    winners = [line for line in rows[1:] if line[8] == "yes"]
    assert len(winners) <= 4


def test_csv_of_a_tournament_without_results_has_only_the_header(client, director):
    tournament = make_tournament(director)
    for name in ("public-standings-csv", "public-results-csv"):
        rows = csv_rows(client.get(reverse(name, args=[tournament.pk])))
        assert len(rows) == 1


# ----------------------------------------------------------------------------- home and lists


def test_home_lists_running_tournaments_first_then_finished_ones(
    client, director, played, finish_round
):
    finished = make_tournament(director, name="Summer Open")
    finish_round(publish_next_round(director, finished))
    services.tournament_finish(actor=director, tournament=finished, note="One round only")
    upcoming = make_tournament(director, name="Spring Trophy")

    page = text_of(client.get(reverse("home")))

    assert page.index(played.name) < page.index(upcoming.name) < page.index(finished.name)
    assert f'href="{reverse("player-home")}"' in page
    assert f'href="{reverse("director-home")}"' in page
    assert reverse("public-standings", args=[played.pk]) in page


def test_search_finds_tournaments_by_a_cyrillic_name_in_any_case(client, director):
    make_tournament(director, name="Кубок Осені", players=4)
    make_tournament(director, name="Winter League", players=4)

    response = client.get(reverse("public-tournament-list"), {"q": "осені"})

    page = text_of(response)
    assert "Кубок Осені" in page and "Winter League" not in page
    assert response.context["page"].paginator.count == 1


# ----------------------------------------------------------------------------- languages


@pytest.mark.parametrize("how", ["header", "cookie"])
def test_every_page_renders_in_ukrainian(client, played, how, settings):
    if how == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "uk"
        headers = {}
    else:
        headers = {"accept-language": "uk"}

    for url in [reverse("home"), reverse("public-tournament-list"), *page_urls(played)]:
        response = client.get(url, headers=headers)
        assert response.status_code == 200, url
        if response["Content-Type"].startswith("text/html") and b"<html" in response.content:
            assert '<html lang="uk">' in text_of(response), url

    overview = text_of(client.get(reverse("public-tournament", args=[played.pk]), headers=headers))
    assert "27 листопада 2026" in overview


def test_numbers_use_the_decimal_comma_in_ukrainian(client, director, finish_round):
    tournament = make_tournament(director, placement_points={"4": [3, 1.5, 1, 0]})
    finish_round(publish_next_round(director, tournament))

    english = text_of(client.get(reverse("public-standings", args=[tournament.pk])))
    ukrainian = text_of(
        client.get(
            reverse("public-standings", args=[tournament.pk]), headers={"accept-language": "uk"}
        )
    )

    assert re.search(r'<td class="num">\d+\.\d+</td>', english)
    assert re.search(r'<td class="num">\d+,\d+</td>', ukrainian)
    assert not re.search(r'<td class="num">\d+\.\d+</td>', ukrainian)
    # A comma-separated CSV keeps a dot, whatever the language, so that scripts read it; the
    # Ukrainian default (semicolons, for Excel in Ukrainian) has the decimal comma Excel reads.
    csv_url = reverse("public-standings-csv", args=[tournament.pk])
    rows = csv_rows(client.get(csv_url + "?sep=,", headers={"accept-language": "uk"}))
    assert any("." in line[4] for line in rows[1:])
    assert not any("," in line[4] for line in rows[1:])
    body = client.get(csv_url, headers={"accept-language": "uk"}).content.decode()
    rows = list(csv.reader(io.StringIO(body[1:]), delimiter=";"))
    assert any(re.fullmatch(r"\d+,\d+", line[4]) for line in rows[1:])


def test_chart_coordinates_stay_machine_readable_in_ukrainian(client, played):
    page = text_of(
        client.get(reverse("public-player", args=[played.pk, 1]), headers={"accept-language": "uk"})
    )

    points = re.search(r'<polyline class="line" points="([^"]*)"', page).group(1)
    assert re.fullmatch(r"\d+(\.\d)?,\d+(\.\d)?( \d+(\.\d)?,\d+(\.\d)?)*", points)
