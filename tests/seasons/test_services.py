"""Seasons and ratings kept up to date from the tournaments' results: recomputed when a result
is confirmed or corrected, a tournament finishes or is marked unrated; private tournaments and
other clubs' seasons stay out; every write is a director's."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from ratings.rating import recompute_ratings
from scoring.selectors import standings_latest
from seasons import selectors, services
from seasons.models import PlayerRating, RatingPoint, SeasonStandings
from tests.factories import ClubFactory, TournamentFactory, UserFactory, enter_confirmed_result

pytestmark = pytest.mark.django_db

SPRING = {"starts_on": datetime.date(2026, 1, 1), "ends_on": datetime.date(2026, 6, 30)}


def season_of(director, club, **fields):
    return services.season_create(
        actor=director, club=club, **({"name": "Spring"} | SPRING | fields)
    )


def test_confirmed_results_rate_every_player_as_the_pure_recomputation_does(
    play_tournament, club, players
):
    tournament = play_tournament()

    ratings = {r.player_id: r for r in PlayerRating.objects.all()}
    expected = recompute_ratings(selectors.rated_tables(club.pk)).ratings
    assert set(ratings) == {p.pk for p in players}
    for player_id, rating in ratings.items():
        assert rating.mu == pytest.approx(expected[player_id].mu)
        assert rating.tables == 2
    assert RatingPoint.objects.filter(tournament=tournament).count() == len(players)


def test_a_correction_in_an_old_tournament_changes_the_ratings_after_it(
    play_tournament, director, django_capture_on_commit_callbacks
):
    old = play_tournament(date=datetime.date(2026, 2, 1), finish=False)
    play_tournament(date=datetime.date(2026, 3, 1))
    before = dict(PlayerRating.objects.values_list("player_id", "mu"))
    table = old.rounds.get(number=1).tables.first()

    with django_capture_on_commit_callbacks(execute=True):
        enter_confirmed_result(table, seed=table.pk + 99)

    after = dict(PlayerRating.objects.values_list("player_id", "mu"))
    assert after != before
    expected = recompute_ratings(selectors.rated_tables(old.club_id)).ratings
    assert after == pytest.approx({p: r.mu for p, r in expected.items()})


def test_an_unrated_tournament_rates_nobody(
    play_tournament, director, django_capture_on_commit_callbacks
):
    tournament = play_tournament()
    assert PlayerRating.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_rated_set(actor=director, tournament=tournament, rated=False)

    assert not PlayerRating.objects.exists() and not RatingPoint.objects.exists()


def test_a_private_tournament_neither_rates_nor_counts_in_the_season(
    play_tournament, director, club, django_capture_on_commit_callbacks
):
    season = season_of(director, club)
    tournament = play_tournament(is_public=False, season=season)
    with django_capture_on_commit_callbacks(execute=True):
        services.season_standings_recompute(season_id=season.pk)

    assert not PlayerRating.objects.exists()
    assert tournament.season_id == season.pk
    assert SeasonStandings.objects.get(season=season).rows == []


def test_finishing_a_tournament_of_the_season_updates_the_season_table(
    play_tournament, director, club, players, django_capture_on_commit_callbacks
):
    season = season_of(director, club, best_count=1)
    first = play_tournament(season=season, date=datetime.date(2026, 2, 1))
    second = play_tournament(season=season, date=datetime.date(2026, 3, 1), finish=False)
    table = SeasonStandings.objects.get(season=season)
    assert [t["id"] for t in table.tournaments] == [first.pk]

    with django_capture_on_commit_callbacks(execute=True):
        from tournaments.services import tournament_finish

        tournament_finish(actor=director, tournament=second)

    table = SeasonStandings.objects.get(season=season)
    assert [t["id"] for t in table.tournaments] == [first.pk, second.pk]
    points = {}
    for tournament in (first, second):
        for row in standings_latest(tournament).rows:
            points.setdefault(row["player"], []).append(row["tournament_points"])
    for row in table.rows:
        # Best 1 of 2: the better of his two tournaments.
        assert row["season_points"] == pytest.approx(max(points[row["player"]]))
        assert row["tournaments_played"] == 2
        assert sum(result["counted"] for result in row["results"]) == 1
    assert [row["rank"] for row in table.rows] == sorted(row["rank"] for row in table.rows)


def test_only_a_director_of_the_club_writes_seasons(director, club):
    stranger = UserFactory()
    with pytest.raises(PermissionDenied):
        season_of(stranger, club)
    season = season_of(director, club)
    with pytest.raises(PermissionDenied):
        services.season_update(actor=stranger, season=season, name="Mine")
    with pytest.raises(PermissionDenied):
        services.season_delete(actor=stranger, season=season)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "  "}, "name"),
        ({"ends_on": datetime.date(2025, 12, 31)}, "ends_on"),
        ({"ends_on": datetime.date(2030, 1, 1)}, "ends_on"),
        ({"best_count": 0}, "best_count"),
        ({"placement_points": [1, 5]}, "placement_points"),
        ({"precedence": ["random", "season_points"]}, "precedence"),
    ],
)
def test_a_bad_season_is_refused_with_its_reason(director, club, fields, field):
    with pytest.raises(ValidationError) as refused:
        season_of(director, club, **fields)

    assert field in refused.value.message_dict


def test_a_tournament_joins_only_a_season_of_its_club_and_dates(director, club):
    season = season_of(director, club)
    other_club_season = season_of(director, ClubFactory(directors=[director]))
    late = TournamentFactory(club=club, date=datetime.date(2026, 9, 1))
    on_time = TournamentFactory(club=club, date=datetime.date(2026, 4, 1))

    for tournament, target in ((late, season), (on_time, other_club_season)):
        with pytest.raises(ValidationError):
            services.tournament_season_set(actor=director, tournament=tournament, season=target)
    services.tournament_season_set(actor=director, tournament=on_time, season=season)

    assert list(season.tournaments.all()) == [on_time]
    with pytest.raises(PermissionDenied):
        services.tournament_season_set(actor=UserFactory(), tournament=on_time, season=None)


def test_recomputing_twice_stores_the_same_numbers(play_tournament, club):
    play_tournament()
    first = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "tables"))

    services.ratings_recompute(club_id=club.pk)
    services.ratings_recompute(club_id=club.pk)

    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "tables")) == first


def test_the_periodic_catch_up_restores_what_a_lost_task_left_stale(play_tournament, club):
    play_tournament()
    stored = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma"))
    PlayerRating.objects.all().delete()  # as if the task after the last result had been lost

    assert services.seasons_catch_up() >= 1

    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma")) == stored
