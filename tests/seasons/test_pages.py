"""The public season pages (table, wall screen, CSV) and a player's profile across tournaments:
what they show, and that nothing of a private tournament appears on them."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from scoring.models import StandingsSnapshot
from seasons import services
from seasons.models import SeasonStandings
from seasons.selectors import RatingChartPoint
from tests.factories import PlayerFactory
from web.presenters.seasons import rating_chart, rating_text, season_table

pytestmark = pytest.mark.django_db

SPRING = {"starts_on": datetime.date(2026, 1, 1), "ends_on": datetime.date(2026, 6, 30)}


@pytest.fixture
def season(director, club):
    return services.season_create(actor=director, club=club, name="Spring league", **SPRING)


@pytest.fixture
def played(play_tournament, season, django_capture_on_commit_callbacks):
    first = play_tournament(season=season, date=datetime.date(2026, 2, 1), name="February cup")
    second = play_tournament(season=season, date=datetime.date(2026, 3, 1), name="March cup")
    hidden = play_tournament(
        season=season, date=datetime.date(2026, 4, 1), name="Secret cup", is_public=False
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.season_standings_recompute(season_id=season.pk)
    return first, second, hidden


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_the_season_page_ranks_the_players_of_its_public_tournaments(
    client, season, played, players
):
    page = text_of(client.get(reverse("public-season", args=[season.pk])))

    assert "Spring league" in page and "February cup" in page and "March cup" in page
    assert "Secret cup" not in page
    for player in players:
        assert player.name in page
        assert reverse("public-player-profile", args=[player.pk]) in page
    assert "Each tournament gives its tournament points." in page
    # The table's columns are headed by the tournaments' names, their dates in the titles.
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert 'title="February cup (1 Feb 2026)">February cup</abbr>' in head


def test_the_season_csv_has_a_line_per_player_and_a_column_per_public_tournament(
    client, season, played, players
):
    response = client.get(reverse("public-season-csv", args=[season.pk]), {"sep": ","})

    text = response.content.decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert response["Content-Type"].startswith("text/csv")
    assert len(lines) == 1 + len(players)
    assert "February cup" in lines[0] and "Secret cup" not in text
    table = SeasonStandings.objects.get(season=season)
    assert lines[1].startswith(f"1,{table.rows[0]['name']},")


def test_a_bad_csv_separator_is_a_clear_400(client, season):
    response = client.get(reverse("public-season-csv", args=[season.pk]), {"sep": "x"})

    assert response.status_code == 400


def test_the_wall_screen_shows_the_table_and_its_poll_answers_204_until_it_changes(
    client, season, played
):
    wall = text_of(client.get(reverse("public-season-wall", args=[season.pk])))
    assert "data-wall-seconds" in wall and "Spring league" in wall
    state = SeasonStandings.objects.get(season=season).computed_at.isoformat()
    live = reverse("public-season-wall-live", args=[season.pk])

    assert client.get(live, {"state": state}).status_code == 204
    assert client.get(live, {"state": "old"}).status_code == 200


def test_the_season_list_names_every_season(client, season):
    page = text_of(client.get(reverse("public-season-list")))

    assert "Spring league" in page


def test_a_players_profile_shows_his_public_tournaments_rating_and_deals(client, played, players):
    first, second, _hidden = played
    player = players[0]

    page = text_of(client.get(reverse("public-player-profile", args=[player.pk])))

    assert "February cup" in page and "March cup" in page and "Secret cup" not in page
    assert "±" in page and "<svg" in page
    assert "Deals declared" in page
    registration = first.registrations.get(player=player)
    assert reverse("public-player", args=[first.pk, registration.start_number]) in page
    assert '<span class="badge">running</span>' not in page

    type(second).objects.filter(pk=second.pk).update(status="running")
    page = text_of(client.get(reverse("public-player-profile", args=[player.pk])))
    march = page.split("March cup</a>", 1)[1].split("</th>", 1)[0]
    assert '<span class="badge">running</span>' in march  # its rank is not final yet


def test_head_to_head_counts_the_tables_the_two_shared(client, played, players):
    player = players[0]
    page = text_of(client.get(reverse("public-player-profile", args=[player.pk])))
    opponent = next(other for other in players[1:] if f'value="{other.pk}"' in page)

    page = text_of(
        client.get(reverse("public-player-profile", args=[player.pk]), {"opponent": opponent.pk})
    )

    assert "Tables together" in page and f"{opponent.name} placed higher" in page


def test_a_player_of_private_tournaments_only_has_no_public_profile(client, club, play_tournament):
    loner = PlayerFactory(club=club, name="Private Person")
    others = [PlayerFactory(club=club) for _ in range(7)]
    play_tournament(field=[loner, *others], is_public=False, rounds=1)

    response = client.get(reverse("public-player-profile", args=[loner.pk]))

    assert response.status_code == 404


@pytest.mark.parametrize("opponent", ["x", "-1", "99999999999999999999", "1" * 40])
def test_a_strange_opponent_is_ignored_never_an_error(client, played, players, opponent):
    response = client.get(
        reverse("public-player-profile", args=[players[0].pk]), {"opponent": opponent}
    )

    assert response.status_code == 200


def test_the_registration_list_shows_each_players_rating(client, director, play_tournament):
    tournament = play_tournament(finish=False)
    client.force_login(director)

    page = text_of(client.get(reverse("director-registrations", args=[tournament.pk])))

    assert "Rating" in page and "±" in page


def test_the_tournament_form_marks_a_tournament_unrated_and_puts_it_into_a_season(
    client, director, club, season
):
    client.force_login(director)
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(club=club, date=datetime.date(2026, 4, 1))
    form = client.get(reverse("director-tournament-edit", args=[tournament.pk]))
    assert 'name="rated"' in text_of(form) and "Spring league" in text_of(form)
    data = {
        key: value
        for key, value in form.context["form"].initial.items()
        if value is not None and not isinstance(value, bool)
    }
    data |= {name: "on" for name, value in form.context["form"].initial.items() if value is True}
    data.pop("rated", None)
    data["season"] = season.pk

    response = client.post(reverse("director-tournament-edit", args=[tournament.pk]), data)

    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert tournament.rated is False and tournament.season == season


def test_a_draft_round_tells_the_profile_nothing_of_who_sits_with_whom(
    client, director, club, players
):
    from draws.services import round_draw
    from tests.factories import RegistrationFactory, TournamentFactory

    tournament = TournamentFactory(club=club)
    for number, player in enumerate(players, start=1):
        RegistrationFactory(tournament=tournament, player=player, start_number=number)
    round_draw(actor=director, tournament=tournament)

    page = text_of(client.get(reverse("public-player-profile", args=[players[0].pk])))

    assert "This player has not met anyone at a table yet." in page
    assert all(f'value="{other.pk}"' not in page for other in players[1:])


def test_the_rating_chart_writes_a_date_once_for_two_tournaments_of_that_day():
    days = [datetime.date(2026, 3, 1), datetime.date(2026, 3, 1), datetime.date(2026, 4, 5)]
    history = [
        RatingChartPoint(
            date=day,
            tournament_id=number,
            tournament_name=f"Cup {number}",
            rating=10.0 + number,
            sigma=2.0,
        )
        for number, day in enumerate(days, start=1)
    ]
    chart = rating_chart(history)

    labels = [tick.label for tick in chart.x_ticks]
    assert len(labels) == 2 and len(set(labels)) == 2
    assert [tick.position for tick in chart.x_ticks] == [chart.points[0].x, chart.points[2].x]
    assert len(chart.points) == 3  # every tournament keeps its point


# A date of ten characters under the chart measures 81 of the chart's units in Chromium.
DATE_LABEL_WIDTH = 81


def label_extent(tick) -> tuple[float, float]:
    x = float(tick.position)
    if tick.anchor == "start":
        return x, x + DATE_LABEL_WIDTH
    if tick.anchor == "end":
        return x - DATE_LABEL_WIDTH, x
    return x - DATE_LABEL_WIDTH / 2, x + DATE_LABEL_WIDTH / 2


@pytest.mark.parametrize("count", [2, 3, 5, 6, 7, 12, 30])
def test_the_rating_chart_dates_never_overlap_and_keep_the_first_and_the_last(count):
    history = [
        RatingChartPoint(
            date=datetime.date(2026, 1, 4) + datetime.timedelta(weeks=number),
            tournament_id=number,
            tournament_name=f"Cup {number}",
            rating=float(number % 4),
            sigma=2.0,
        )
        for number in range(count)
    ]

    chart = rating_chart(history)

    ticks = chart.x_ticks
    assert ticks[0].position == chart.points[0].x and ticks[-1].position == chart.points[-1].x
    extents = [label_extent(tick) for tick in ticks]
    for earlier, later in zip(extents, extents[1:], strict=False):
        assert later[0] > earlier[1], [tick.label for tick in ticks]
    assert all(chart.left <= start and end <= chart.right for start, end in extents)
    assert len(ticks) >= min(count, 3)  # not thinned to nothing


def head_labels(page: str) -> list[str]:
    head = page.split("<thead>", 1)[1].split("</thead>", 1)[0]
    return re.findall(r'<abbr title="[^"]*">([^<]*)</abbr>', head)


@pytest.mark.parametrize(
    ("precedence", "labels"),
    [
        (None, ["Points", "Wins", "Best", "Played"]),
        (["tournaments_played", "all_points", "random"], ["Played", "All pts.", "Points"]),
    ],
)
def test_the_season_table_shows_its_criteria_in_their_order_and_says_what_they_are(
    client, director, season, played, precedence, labels
):
    if precedence is not None:
        services.season_update(actor=director, season=season, precedence=precedence)
        services.season_standings_recompute(season_id=season.pk)

    page = text_of(client.get(reverse("public-season", args=[season.pk])))

    # The criteria first, in the order they rank by: the first that differs says why.
    assert head_labels(page)[: len(labels)] == labels
    legend = page.split('<dl class="column-legend">', 1)[1].split("</dl>", 1)[0]
    assert re.findall(r"<dt>([^<]*)</dt>", legend) == labels
    if precedence is None:
        assert "<dd>Tournaments won (first place, shared or not)</dd>" in legend
        assert "<dd>Best final rank in a tournament of the season</dd>" in legend
    assert "February cup" not in legend  # the tournaments are listed under the table


def test_the_profile_marks_an_unrated_tournament_which_the_chart_leaves_out(
    client, played, players
):
    first, second, _hidden = played
    type(first).objects.filter(pk=first.pk).update(rated=False)

    page = text_of(client.get(reverse("public-player-profile", args=[players[0].pk])))

    february = page.split("February cup</a>", 1)[1].split("</th>", 1)[0]
    march = page.split("March cup</a>", 1)[1].split("</th>", 1)[0]
    assert '<span class="badge">unrated</span>' in february
    assert "unrated" not in march


def test_a_shared_rank_on_the_profile_reads_as_in_the_standings(client, played, players):
    first, _second, _hidden = played
    snapshot = StandingsSnapshot.objects.filter(tournament=first).order_by("-version").first()
    registration = first.registrations.get(player=players[0])
    rows = [
        row | {"rank": 1, "tied": True} if row["registration"] == registration.pk else row
        for row in snapshot.rows
    ]
    type(snapshot).objects.filter(pk=snapshot.pk).update(rows=rows)

    page = text_of(client.get(reverse("public-player-profile", args=[players[0].pk])))

    february = page.split("February cup</a>", 1)[1].split("</tr>", 1)[0]
    shared = '1<abbr class="tie" title="Shared rank">=</abbr> of 8 players</td>'
    assert shared in february


def test_one_kind_of_number_has_one_format(client, season, played, players):
    """Points line up their decimals in a column (the season's and each tournament's alike, on
    the profile too); a rating always has one decimal."""
    first, second, _hidden = played
    table = SeasonStandings.objects.get(season=season)
    for index, row in enumerate(table.rows):
        row["season_points"] = [10, 7.5][index % 2]
        row["results"][0]["value"] = [8, 1.5][index % 2]
        row["results"][1] |= {"value": 3, "counted": index % 2 == 0}
    table.save()
    snapshot = StandingsSnapshot.objects.filter(tournament=first).order_by("-version").first()
    registration = first.registrations.get(player=players[0])
    rows = [
        row | {"tournament_points": 2.5} if row["registration"] == registration.pk else row
        for row in snapshot.rows
    ]
    type(snapshot).objects.filter(pk=snapshot.pk).update(rows=rows)

    lines = season_table(season, table).rows
    points = [column.key for column in season_table(season, table).columns].index("season_points")
    assert [line.cells[points].text for line in lines[:2]] == ["10.0", "7.5"]
    assert [line.cells[-2].text for line in lines[:2]] == ["8.0", "1.5"]
    assert [line.cells[-1].text for line in lines[:2]] == ["3", "(3)"]
    assert rating_text(5 + 3 * 2, 2) == "5.0 ± 2.0"
    assert rating_text(3.8 + 3 * 7.5, 7.5) == "3.8 ± 7.5"
    page = text_of(client.get(reverse("public-player-profile", args=[players[0].pk])))
    march = page.split("March cup</a>", 1)[1].split("</tr>", 1)[0]
    february = page.split("February cup</a>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="num points"' in march and '">2.5</td>' in february
    points_text = march.rsplit('data-label="Tournament points">', 1)[1].split("<", 1)[0]
    assert re.fullmatch(r"\d+\.\d", points_text), points_text  # decimals as February's 2.5


def test_head_to_head_with_someone_never_met_says_so_and_chooses_nobody(
    client, club, played, players
):
    stranger = PlayerFactory(club=club, name="Never Met")
    url = reverse("public-player-profile", args=[players[0].pk])

    page = text_of(client.get(url, {"opponent": stranger.pk}))

    h2h = page.split('id="h2h-heading"', 1)[1]
    assert f"{players[0].name} has not met this player at a table" in h2h
    assert "Never Met" not in page and "Tables together" not in page
    # Nobody else is shown as chosen: the list stands at its "choose" line.
    assert '<option value="" selected>Choose an opponent</option>' in h2h
    assert h2h.count(" selected>") == 1

    plain = text_of(client.get(url))
    assert "has not met this player" not in plain


def test_the_wall_screen_heads_only_the_latest_tournaments(client, season, played):
    table = season_table(season, SeasonStandings.objects.get(season=season), latest_tournaments=1)
    every = season_table(season, SeasonStandings.objects.get(season=season))

    heads = [column.label for column in table.columns]
    assert "March cup" in heads and "February cup" not in heads
    assert len(every.columns) == len(table.columns) + 1
    assert all(len(line.cells) == len(table.columns) for line in table.rows)
    # The wall holds the latest three: both of this season's public tournaments.
    wall = text_of(client.get(reverse("public-season-wall", args=[season.pk])))
    assert "February cup" in wall and "March cup" in wall
