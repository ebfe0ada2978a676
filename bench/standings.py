"""Benchmark of the standings: 1,000 players over 10 rounds recomputed from scratch.

Goal (standings issue): under 1 second per recomputation. Each round seats the players at random
tables of 4, with a few tables of 3 (and now and then a bot in a seat); every table gets random
totals, placements and a winner. The timed part is what a recomputation does: build the
`TableResult`s from plain stored values and call `compute_standings`. Runs it several times and
reports the median; prints one JSON line.

    python bench/standings.py [--players 1000] [--rounds 10] [--runs 7]
"""

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from standings.ranking import DEFAULT_PRECEDENCE, TableResult, compute_standings  # noqa: E402

GOALS = {"median_seconds": 1.0}


def table_sizes(players: int) -> list[int]:
    """Tables of 4, plus as few tables of 3 as the player count needs."""
    threes = (-players) % 4
    return [3] * threes + [4] * ((players - 3 * threes) // 4)


# (round, table, seated, totals, placements, winner), as a selector reads them.
StoredRow = tuple[int, int, list[int | None], list[int], list[int], int | None]


def stored_results(players: int, rounds: int, seed: int) -> list[StoredRow]:
    """Plain tuples, as a selector would read them from the database."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    rows: list[StoredRow] = []
    for round_number in range(1, rounds + 1):
        rng.shuffle(ids)
        start = 0
        for table_number, size in enumerate(table_sizes(players), start=1):
            seated: list[int | None] = list(ids[start : start + size])
            start += size
            if size == 4 and rng.random() < 0.02:
                seated[rng.randrange(4)] = None  # a bot took the seat of a no-show
            totals = [rng.randrange(-60, 241) * 5 for _ in range(size)]
            winner_seat = rng.randrange(size)
            totals[winner_seat] = max(totals) + rng.choice((0, 5, 50))
            others = sorted(
                (seat for seat in range(size) if seat != winner_seat), key=lambda s: -totals[s]
            )
            placements = [1] * size
            for position, seat in enumerate(others):
                earlier = others[position - 1] if position else None
                if earlier is not None and totals[earlier] == totals[seat]:
                    placements[seat] = placements[earlier]
                else:
                    placements[seat] = position + 2
            rows.append(
                (round_number, table_number, seated, totals, placements, seated[winner_seat])
            )
    return rows


def recompute(players: list[int], stored: list[StoredRow]) -> float:
    started = time.perf_counter()
    results = [
        TableResult(
            round_number=round_number,
            table_number=table_number,
            players=tuple(seated),
            totals=tuple(totals),
            placements=tuple(placements),
            winner=winner,
        )
        for round_number, table_number, seated, totals, placements, winner in stored
    ]
    compute_standings(players, results, precedence=(*DEFAULT_PRECEDENCE, "random"), seed=2024)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    stored = stored_results(args.players, args.rounds, seed=1)
    players = list(range(1, args.players + 1))
    times = [recompute(players, stored) for _ in range(args.runs)]
    result = {
        "benchmark": "standings",
        "players": args.players,
        "rounds": args.rounds,
        "tables": len(stored),
        "runs": args.runs,
        "median_seconds": round(statistics.median(times), 4),
        "runs_seconds": [round(t, 4) for t in times],
        "goals": GOALS,
    }
    result["goals_met"] = result["median_seconds"] < GOALS["median_seconds"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
