"""Reads of seasons, their stored tables and players' ratings, and the inputs of their
recomputation (public tournaments only: a private tournament neither rates nor counts)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from ratings.rating import RatedTable
from ratings.season import TournamentFinish
from scoring.models import StandingsSnapshot, TableResult
from seasons.models import PlayerRating, RatingPoint, Season, SeasonStandings
from tournaments.models import Player, Seat, Tournament


def seasons_listed() -> QuerySet[Season]:
    """Every club's seasons, newest first (a season itself is public; what it shows is only
    its public tournaments)."""
    return Season.objects.select_related("club").order_by("-starts_on", "-pk")


def season_tournaments(season: Season) -> QuerySet[Tournament]:
    """The public tournaments of the season, oldest first, finished or not."""
    return season.tournaments.filter(is_public=True).order_by("date", "pk")


def season_standings(season: Season) -> SeasonStandings | None:
    return SeasonStandings.objects.filter(season=season).first()


def season_finishes(
    season: Season,
) -> tuple[list[int], list[TournamentFinish], list[dict[str, Any]], dict[int, str]]:
    """What the season table is computed from: its finished public tournaments' final standings.

    Returns the players (ids, in the order they first appear), their finishes, the tournaments
    that count (id, name, date, oldest first) and the players' names.
    """
    tournaments = list(
        season_tournaments(season)
        .filter(status=Tournament.Status.FINISHED)
        .values("pk", "name", "date")
    )
    latest: dict[int, StandingsSnapshot] = {}
    for snapshot in StandingsSnapshot.objects.filter(
        tournament_id__in=[t["pk"] for t in tournaments]
    ).order_by("tournament_id", "-version"):
        latest.setdefault(snapshot.tournament_id, snapshot)
    players: dict[int, None] = {}
    finishes = []
    counted = []
    for tournament in tournaments:
        snapshot = latest.get(tournament["pk"])
        if snapshot is None:
            continue
        counted.append(
            {
                "id": tournament["pk"],
                "name": tournament["name"],
                "date": tournament["date"].isoformat(),
            }
        )
        for row in snapshot.rows:
            players.setdefault(row["player"], None)
            finishes.append(
                TournamentFinish(
                    event=tournament["pk"],
                    player=row["player"],
                    rank=row["rank"],
                    points=row["tournament_points"],
                )
            )
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    return list(players), finishes, counted, names


def rated_tables(club_id: int) -> list[RatedTable]:
    """Every confirmed table of the club's public, rated tournaments, in date order; players by
    their Player ids (a player keeps his rating from one tournament to the next)."""
    tournaments = Tournament.objects.filter(club_id=club_id, rated=True, is_public=True)
    seats: dict[int, list[int | None]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(round__tournament__in=tournaments)
        .order_by("table_id", "position")
        .values_list("table_id", "registration__player_id")
        .iterator(chunk_size=5000)
    ):
        seats[table_id].append(player_id)
    tables = []
    for table_id, number, round_number, tournament_id, date, placements in (
        TableResult.objects.filter(
            table__round__tournament__in=tournaments, confirmed__isnull=False
        )
        .values_list(
            "table_id",
            "table__number",
            "table__round__number",
            "table__round__tournament_id",
            "table__round__tournament__date",
            "confirmed__placements",
        )
        .iterator(chunk_size=5000)
    ):
        players = tuple(seats.get(table_id, ()))
        if len(players) != len(placements):
            continue  # a sheet that does not fit its table is not a result to rate
        tables.append(
            RatedTable(
                when=(date.toordinal(), tournament_id, round_number, number),
                event=tournament_id,
                players=players,
                placements=tuple(placements),
            )
        )
    return tables


def ratings_of(player_ids: list[int]) -> dict[int, PlayerRating]:
    return {
        rating.player_id: rating for rating in PlayerRating.objects.filter(player_id__in=player_ids)
    }


def rating_order(registrations: list[tuple[int, int]]) -> list[int]:
    """Registration ids, highest rating first, from (registration id, player id) pairs; the
    unrated keep their order after the rated (the seat draw's seeding of a first round)."""
    ratings = ratings_of([player for _registration, player in registrations])
    rated = [
        (registration, ratings[player].conservative)
        for registration, player in registrations
        if player in ratings
    ]
    rated.sort(key=lambda item: -item[1])
    order = [registration for registration, _rating in rated]
    seen = set(order)
    return order + [
        registration for registration, _player in registrations if registration not in seen
    ]


@dataclass(frozen=True)
class RatingChartPoint:
    date: datetime.date
    tournament_id: int
    tournament_name: str
    rating: float
    sigma: float


def rating_history(player: Player) -> list[RatingChartPoint]:
    """The player's rating after each of his rated tournaments, oldest first."""
    points = (
        RatingPoint.objects.filter(player=player, tournament__is_public=True)
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id")
    )
    return [
        RatingChartPoint(
            date=point.tournament.date,
            tournament_id=point.tournament_id,
            tournament_name=point.tournament.name,
            rating=point.conservative,
            sigma=point.sigma,
        )
        for point in points
    ]
