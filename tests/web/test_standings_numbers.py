"""Standings as people read them: figures rounded half-up to two decimals, "—" for a figure
that does not exist, the order of ranking written out, the tournament's scoring and rules on its
page, and CSV files with the column separator the reader's spreadsheet expects."""

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse

from scoring.models import StandingsSnapshot
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services

pytestmark = pytest.mark.django_db

UK = {"accept-language": "uk"}


@pytest.fixture
def director():
    return UserFactory()


def make_tournament(director, **options):
    club = ClubFactory(directors=[director])
    return services.tournament_create(
        actor=director,
        club=club,
        name="Friday Cup",
        date=datetime.date(2026, 11, 27),
        rounds_planned=3,
        **options,
    )


def register(director, tournament, names):
    registrations = []
    for name in names:
        player = PlayerFactory(club=tournament.club, name=name)
        registrations.append(
            services.registration_create(actor=director, tournament=tournament, player=player)
        )
    return registrations


def row(registration, rank, *, played, points, score, avg, opponents, won=0):
    return {
        "rank": rank,
        "tied": False,
        "player": registration.pk,
        "registration": registration.pk,
        "start_number": registration.start_number,
        "name": registration.player.name,
        "withdrawn": False,
        "tournament_points": points,
        "total_score": score,
        "average_placement": avg,
        "games_won": won,
        "opponent_strength": opponents,
        "games_played": played,
        "random": 0.5,
    }


@pytest.fixture
def standings(director):
    """Three players: 5/3 as an average place, a third of a point, and one who has not played
    (the pure ranking stores his average place as 0)."""
    tournament = make_tournament(director)
    anna, borys, ivan = register(director, tournament, ["Анна", "Борис", "Іван"])
    rows = [
        row(anna, 1, played=3, points=2 / 3, score=1500, avg=5 / 3, opponents=4.125, won=1),
        row(borys, 2, played=3, points=0.125, score=900, avg=2.5, opponents=2.675),
        row(ivan, 3, played=0, points=0, score=0, avg=0.0, opponents=0),
    ]
    StandingsSnapshot.objects.create(tournament=tournament, version=1, rows=rows)
    return tournament, (anna, borys, ivan)


def column_texts(response, key):
    table = response.context["standings"]
    index = [column.key for column in table.columns].index(key)
    return [line.cells[index].text for line in table.rows]


def csv_table(response, delimiter):
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")  # Excel needs it to read Cyrillic names
    return list(csv.reader(io.StringIO(body[1:]), delimiter=delimiter))


# ----------------------------------------------------------------------------- rounding


def test_standings_round_half_up_to_two_decimals_and_show_a_dash_for_no_games(client, standings):
    tournament, _players = standings

    response = client.get(reverse("public-standings", args=[tournament.pk]))

    # 5/3 is 1.67 (not 1.66); nobody's average place is 0, the one who has not played has none.
    assert column_texts(response, "average_placement") == ["1.67", "2.50", "—"]
    # Half a hundredth rounds up, as people round: 0.125 is 0.13, 2.675 is 2.68.
    assert column_texts(response, "tournament_points") == ["0.67", "0.13", "0.00"]
    assert column_texts(response, "opponent_strength") == ["4.13", "2.68", "0.00"]
    page = response.content.decode()
    assert "1.66" not in page
    assert "No table played yet" in page


def test_the_wall_screen_and_the_live_block_round_the_same_way(client, standings):
    tournament, _players = standings

    for name in ("public-wall", "public-wall-live", "public-standings-live"):
        response = client.get(reverse(name, args=[tournament.pk]))
        page = response.content.decode()
        assert re.search(r'<td class="num( extra)?">1\.67</td>', page), name
        assert re.search(r'<td class="num( extra)?">—</td>', page), name
        assert "1.66" not in page, name


def test_ukrainian_pages_round_the_same_with_a_decimal_comma(client, standings):
    tournament, _players = standings

    response = client.get(reverse("public-standings", args=[tournament.pk]), headers=UK)

    assert column_texts(response, "average_placement") == ["1,67", "2,50", "—"]


def test_the_player_page_shows_his_figures_rounded_and_none_before_he_plays(client, standings):
    tournament, (anna, _borys, ivan) = standings

    page = client.get(reverse("public-player", args=[tournament.pk, anna.start_number]))
    assert page.context["standing_facts"][0].name == "Tables played"
    facts = {fact.name: fact.text for fact in page.context["standing_facts"]}
    assert facts["Average place at the table"] == "1.67"
    assert facts["Tournament points"] == "0.67"
    assert "<dd>1.67</dd>" in page.content.decode()

    page = client.get(reverse("public-player", args=[tournament.pk, ivan.start_number]))
    facts = {fact.name: fact.text for fact in page.context["standing_facts"]}
    assert facts["Average place at the table"] == "—"
    assert facts["Tables played"] == "0"


# ----------------------------------------------------------------------------- explained


def test_the_order_of_ranking_is_written_under_the_table_and_every_head_explained(
    client, standings
):
    tournament, _players = standings

    for name in ("public-standings", "public-tournament"):
        page = client.get(reverse(name, args=[tournament.pk])).content.decode()
        assert (
            "Ranked by tournament points, then total score (the sum of the game totals), then "
            "opponents&#x27; strength (the tournament points of everyone met at a table), then "
            "games won, then average place at the table (lower is better)."
        ) in page, name
        assert "share a rank (=)" in page
        # Not only in a hover title: a phone shows the meaning of "Opp." in the page itself.
        assert (
            "<dt>Opp.</dt><dd>Opponents&#x27; strength: the tournament points of everyone met at "
            "a table</dd>"
        ) in page, name


def test_a_tournament_ranked_to_a_random_draw_says_so_and_shares_no_rank(client, director):
    tournament = make_tournament(director, standings_precedence=["games_won", "random"])
    (anna,) = register(director, tournament, ["Анна"])
    rows = [row(anna, 1, played=1, points=3, score=1001, avg=1, opponents=3, won=1)]
    StandingsSnapshot.objects.create(tournament=tournament, version=1, rows=rows)

    page = client.get(reverse("public-standings", args=[tournament.pk])).content.decode()

    assert "Ranked by games won, then a random draw (the same every time)." in page
    assert "share a rank" not in page


def test_the_tournament_page_shows_points_per_place_and_the_rule_options(client, director):
    tournament = make_tournament(
        director,
        placement_points={"4": [3, 1.5, 1, 0], "3": [2, 1, 0]},
        rules={"must_beat": True, "target": 501},
    )

    response = client.get(reverse("public-tournament", args=[tournament.pk]))

    points = response.context["placement_points"]
    assert points.places == [1, 2, 3, 4]
    # Tables of 4, and of 3 when the player count needs them (no bots fill the seats).
    assert [(line.label, line.points) for line in points.lines] == [
        ("Tables of 4", ["3", "1.5", "1", "0"]),
        ("Tables of 3", ["2", "1", "0", ""]),
    ]
    options = {line.label: line for line in response.context["rule_options"]}
    assert options["Must beat"].value == "on" and options["Must beat"].changed
    assert options["Target"].value == "501" and options["Target"].changed
    assert options["Lowest bid"].value == "40" and not options["Lowest bid"].changed
    assert options["Bid cap"].value.startswith("Up to 120")
    page = response.content.decode()
    assert "Tournament points per place at the table" in page
    # The two that differ are said at once; all of them are a click away.
    assert page.count("not the standard rule") == 4
    assert "differs from the standard rules of 1001 in:" in page
    # Nothing is played yet: the order of ranking is said with the rules.
    assert "Ranked by tournament points, then total score" in page


def test_a_tournament_with_bots_has_points_for_its_own_table_size_only(client, director):
    tournament = make_tournament(director, table_size="3", bots_allowed=True)

    points = client.get(reverse("public-tournament", args=[tournament.pk])).context[
        "placement_points"
    ]

    assert [(line.label, line.points) for line in points.lines] == [
        ("Tables of 3", ["3", "1.5", "0"])
    ]


# ----------------------------------------------------------------------------- CSV


def test_the_csv_has_the_pages_rounded_figures_and_an_empty_cell_for_none(client, standings):
    tournament, _players = standings

    rows = csv_table(client.get(reverse("public-standings-csv", args=[tournament.pk])), ",")

    header = rows[0]
    average = header.index("Average place at the table")
    points = header.index("Tournament points")
    assert [line[average] for line in rows[1:]] == ["1.67", "2.5", ""]
    assert [line[points] for line in rows[1:]] == ["0.67", "0.13", "0"]


def test_the_csv_is_separated_by_semicolons_in_ukrainian_and_commas_in_english(client, standings):
    tournament, _players = standings
    url = reverse("public-standings-csv", args=[tournament.pk])

    ukrainian = csv_table(client.get(url, headers=UK), ";")
    english = csv_table(client.get(url), ",")

    # Excel set to Ukrainian splits at ";" and reads a decimal comma.
    assert len(ukrainian[0]) == len(english[0]) > 5
    average = english[0].index("Average place at the table")
    assert ukrainian[1][average] == "1,67"
    assert english[1][average] == "1.67"


@pytest.mark.parametrize(
    ("sep", "delimiter"), [(",", ","), (";", ";"), ("tab", "\t"), ("\t", "\t")]
)
@pytest.mark.parametrize("name", ["public-standings-csv", "public-results-csv"])
def test_the_separator_may_be_chosen_for_both_files(client, standings, name, sep, delimiter):
    tournament, _players = standings

    response = client.get(reverse(name, args=[tournament.pk]), {"sep": sep}, headers=UK)

    assert response.status_code == 200
    header = csv_table(response, delimiter)[0]
    assert len(header) > 5  # split into its columns, not one long cell


@pytest.mark.parametrize("sep", ["|", "", "comma", ";;", "\x00"])
@pytest.mark.parametrize("name", ["public-standings-csv", "public-results-csv"])
def test_any_other_separator_is_refused_with_a_message(client, standings, name, sep):
    tournament, _players = standings

    response = client.get(reverse(name, args=[tournament.pk]), {"sep": sep})

    assert response.status_code == 400
    assert "separated by a comma, a semicolon or a tab" in response.content.decode()


def test_the_standings_page_links_each_separator_with_the_languages_first(client, standings):
    tournament, _players = standings
    csv_url = reverse("public-standings-csv", args=[tournament.pk])
    results_url = reverse("public-results-csv", args=[tournament.pk])

    ukrainian = client.get(reverse("public-standings", args=[tournament.pk]), headers=UK)
    english = client.get(reverse("public-standings", args=[tournament.pk]))

    assert f'href="{csv_url}?sep=%3B" download' in ukrainian.content.decode()
    assert f'href="{csv_url}?sep=%2C" download' in english.content.decode()
    for sep in ("%2C", "%3B", "tab"):
        assert f'href="{csv_url}?sep={sep}"' in english.content.decode()
        assert f'href="{results_url}?sep={sep}"' in english.content.decode()
    for url in (f"{csv_url}?sep=%3B", f"{results_url}?sep=tab"):
        assert client.get(url).status_code == 200


def test_a_tournament_by_the_standard_rules_says_so(client, director):
    tournament = make_tournament(director)

    response = client.get(reverse("public-tournament", args=[tournament.pk]))

    assert "played by the standard rules of 1001" in response.content.decode()
    assert not any(line.changed for line in response.context["rule_options"])
    assert len(response.context["rule_options"]) == 10
