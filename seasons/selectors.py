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
from tournaments.models import Player, Registration, Round, Seat, Tournament


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


def registrations_by_rating(registration_ids: list[int]) -> list[int]:
    """Registration ids, highest club rating first; the unrated after them in the given order."""
    pairs = dict(
        Registration.objects.filter(pk__in=registration_ids).values_list("pk", "player_id")
    )
    return rating_order([(pk, pairs[pk]) for pk in registration_ids if pk in pairs])


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


# ----------------------------------------------------------------------------- a player's career
@dataclass(frozen=True)
class CareerTournament:
    tournament: Tournament
    start_number: int
    rank: int | None
    tied: bool
    points: float | None
    field: int
    withdrawn: bool


def player_is_public(player: Player) -> bool:
    """A player's profile shows his public tournaments; one who has none has no public page."""
    return player.registrations.filter(tournament__is_public=True).exists()


def player_tournaments(player: Player) -> list[CareerTournament]:
    """The player's public tournaments, newest first, with his rank and points in the latest
    standings of each."""
    registrations = list(
        player.registrations.filter(tournament__is_public=True)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    latest: dict[int, StandingsSnapshot] = {}
    for snapshot in StandingsSnapshot.objects.filter(
        tournament_id__in=[r.tournament_id for r in registrations]
    ).order_by("tournament_id", "-version"):
        latest.setdefault(snapshot.tournament_id, snapshot)
    career = []
    for registration in registrations:
        snapshot = latest.get(registration.tournament_id)
        rows = snapshot.rows if snapshot is not None else []
        row = next((r for r in rows if r["registration"] == registration.pk), None)
        career.append(
            CareerTournament(
                tournament=registration.tournament,
                start_number=registration.start_number,
                rank=row["rank"] if row else None,
                tied=bool(row and row["tied"]),
                points=row["tournament_points"] if row else None,
                field=len(rows),
                withdrawn=registration.status == registration.Status.WITHDRAWN,
            )
        )
    return career


@dataclass(frozen=True)
class DealStats:
    """A player's deals from the deal-by-deal sheets (typed, or of live tables) of his public
    tournaments (the marriages of live tables: gameplay.selectors.marriages_declared)."""

    tables: int
    deals: int
    declared: int
    made: int
    total_score: int

    @property
    def average_score(self) -> float | None:
        return self.total_score / self.deals if self.deals else None

    @property
    def made_share(self) -> float | None:
        return self.made / self.declared if self.declared else None


def public_seats(player: Player) -> list[tuple[int, int]]:
    """(table id, seat position) of every seat of the player in the published rounds of his
    public tournaments (a draft round's seats are the director's until he publishes them)."""
    return list(
        Seat.objects.filter(registration__player=player, round__tournament__is_public=True)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("table_id", "position")
    )


def player_deal_stats(player: Player) -> DealStats:
    seats = dict(public_seats(player))
    tables = deals = declared = made = total = 0
    for table_id, sheet in TableResult.objects.filter(
        table_id__in=seats, confirmed__isnull=False
    ).values_list("table_id", "confirmed__sheet"):
        tables += 1
        if not isinstance(sheet, dict) or sheet.get("mode") != "deals":
            continue
        position = seats[table_id]
        for row in sheet.get("rows") or []:
            scores = row.get("scores") or []
            if position >= len(scores):
                continue
            deals += 1
            total += int(scores[position])
            if row.get("declarer") == position:
                declared += 1
                made += row.get("outcome") == "made"
    return DealStats(tables, deals, declared, made, total)


@dataclass(frozen=True)
class HeadToHead:
    opponent: Player
    tables: int
    ahead: int
    behind: int
    level: int


def opponents_met(player: Player) -> list[Player]:
    """Everyone who sat at a table with the player in his public tournaments, by name."""
    table_ids = [table for table, _position in public_seats(player)]
    return list(
        Player.objects.filter(registrations__seats__table_id__in=table_ids)
        .exclude(pk=player.pk)
        .distinct()
        .order_by("name", "pk")
    )


def head_to_head(player: Player, opponent: Player) -> HeadToHead:
    """How the two placed at the confirmed tables of public tournaments where both sat."""
    mine = dict(public_seats(player))
    theirs = dict(public_seats(opponent))
    shared = set(mine) & set(theirs)
    ahead = behind = level = 0
    for table_id, placements in TableResult.objects.filter(
        table_id__in=shared, confirmed__isnull=False
    ).values_list("table_id", "confirmed__placements"):
        my_place, their_place = placements[mine[table_id]], placements[theirs[table_id]]
        if my_place < their_place:
            ahead += 1
        elif my_place > their_place:
            behind += 1
        else:
            level += 1
    return HeadToHead(opponent, ahead + behind + level, ahead, behind, level)
