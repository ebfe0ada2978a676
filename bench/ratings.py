"""Benchmark of the club ratings' recomputation from scratch (ratings/rating.py): a club of 500
players and 200 tournaments, every table rated again in date order by OpenSkill's Plackett-Luce
model, and the season table of the year over the same tournaments (ratings/season.py).

The history is synthetic and seeded: each tournament draws 20 to 48 of the club's players
(regulars come more often), plays 5 rounds at tables of 4 (and of 3 where the count needs it),
places each table at random with an occasional tie, and a bot fills a seat now and then. Goal:
the whole club in under 2 seconds. Prints one JSON line: the tables rated, the median and the
largest of several runs, and the season table's median.

    python bench/ratings.py [--runs 5] [--players 500] [--tournaments 200]
"""

import argparse
import datetime
import json
import random
import statistics
import sys
import time
from collections.abc import Hashable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ratings.rating import RatedTable, recompute_ratings  # noqa: E402
from ratings.season import SeasonRule, TournamentFinish, compute_season  # noqa: E402

GOAL_SECONDS = 2.0
ROUNDS = 5


def tables_of(count: int) -> list[int]:
    """Table sizes seating `count` players at tables of 4, with tables of 3 where needed."""
    threes = (4 - count % 4) % 4
    return [3] * threes + [4] * ((count - 3 * threes) // 4)


def club_history(players: int, tournaments: int, seed: int) -> list[RatedTable]:
    rng = random.Random(seed)
    weights = [rng.paretovariate(1.5) for _ in range(players)]
    start = datetime.date(2026, 1, 1)
    history = []
    for number in range(tournaments):
        day = (start + datetime.timedelta(days=number * 2)).toordinal()
        size = rng.randint(20, 48)
        field: set[int] = set()
        while len(field) < size:
            field.update(rng.choices(range(players), weights=weights, k=size - len(field)))
        field_list = sorted(field)
        for round_number in range(1, ROUNDS + 1):
            rng.shuffle(field_list)
            seated = 0
            for table_number, seats in enumerate(tables_of(len(field_list)), start=1):
                people: list[int | None] = list(field_list[seated : seated + seats])
                seated += seats
                if rng.random() < 0.05:
                    people[rng.randrange(seats)] = None  # a bot's seat
                places = list(range(1, seats + 1))
                rng.shuffle(places)
                if rng.random() < 0.1:  # a tie for some place
                    first = rng.randrange(seats)
                    places[first] = places[(first + 1) % seats]
                history.append(
                    RatedTable(
                        when=(day, number, round_number, table_number),
                        event=number,
                        players=tuple(people),
                        placements=tuple(places),
                    )
                )
    return history


def season_finishes(history: list[RatedTable]) -> list[TournamentFinish]:
    """Each tournament's final ranks, by the sum of the places (enough for the season's work)."""
    totals: dict[tuple[Hashable, Hashable], float] = {}
    for table in history:
        for player, place in zip(table.players, table.placements, strict=True):
            if player is not None:
                key = (table.event, player)
                totals[key] = totals.get(key, 0) + (len(table.players) - place)
    finishes = []
    by_event: dict[Hashable, list[tuple[Hashable, float]]] = {}
    for (event, player), points in totals.items():
        by_event.setdefault(event, []).append((player, points))
    for event, rows in by_event.items():
        rows.sort(key=lambda row: -row[1])
        for rank, (player, points) in enumerate(rows, start=1):
            finishes.append(TournamentFinish(event, player, rank, float(points)))
    return finishes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=200)
    arguments = parser.parse_args()
    history = club_history(arguments.players, arguments.tournaments, seed=18)
    finishes = season_finishes(history)
    rating_seconds, season_seconds = [], []
    rated = None
    for _ in range(arguments.runs):
        started = time.perf_counter()
        result = recompute_ratings(history)
        rating_seconds.append(time.perf_counter() - started)
        if rated is None:
            rated = result
        assert result == rated, "the recomputation must be deterministic"
        started = time.perf_counter()
        compute_season(
            range(arguments.players),
            finishes,
            rule=SeasonRule(best_count=10),
            seed=1,
        )
        season_seconds.append(time.perf_counter() - started)
    median = statistics.median(rating_seconds)
    print(
        json.dumps(
            {
                "bench": "ratings",
                "players": arguments.players,
                "tournaments": arguments.tournaments,
                "tables": len(history),
                "players_rated": len(rated.ratings) if rated else 0,
                "runs": arguments.runs,
                "recompute_median_s": round(median, 3),
                "recompute_max_s": round(max(rating_seconds), 3),
                "season_table_median_s": round(statistics.median(season_seconds), 3),
                "goal_s": GOAL_SECONDS,
                "within_goal": median < GOAL_SECONDS,
            }
        )
    )


if __name__ == "__main__":
    main()
