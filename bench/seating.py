"""Benchmark of the seat draw: repeat-free rounds of whole schedules, and the time of one round.

Goals (tournaments issue, seat draw): every known instance reaches its best known number of
repeat-free rounds in `schedule` mode within 10 seconds; 12 players at tables of 4 are reported as
allowing only one repeat-free round; schedules of other sizes (tabu search) also within 10
seconds; one round for 200 players (balanced and standings, after a
5-round history) within 2 seconds. Runs each measurement several times and reports the median
time; prints one JSON line with `goals_met`.

    python bench/seating.py [--runs 3]
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from draws.seating import draw_round, meeting_counts  # noqa: E402
from draws.seating.constructions import KNOWN_MAXIMA  # noqa: E402
from draws.seating.tournament import draw_tournament  # noqa: E402

SCHEDULE_SECONDS = 10.0
ROUND_SECONDS = 2.0


def schedule_instance(players: int, table_size: int, rounds: int, runs: int) -> dict:
    results = [
        draw_tournament(
            players, table_size=table_size, fill="mixed", rounds=rounds, mode="schedule", seed=run
        )
        for run in range(runs)
    ]
    return {
        "instance": f"{players}/{table_size}",
        "rounds": rounds,
        # The worst run counts: a director gets one draw, not the best of several.
        "repeat_free_rounds": min(result["repeat_free_rounds"] for result in results),
        "known_max": results[0]["known_max"],
        "proven_max": results[0]["proven_max"],
        "seconds": round(statistics.median(result["seconds"] for result in results), 3),
    }


def round_seconds(mode: str, runs: int, players: int = 200, history: int = 5) -> dict:
    ids = list(range(players))
    earlier = []
    for number in range(history):
        # The history comes from the same mode and standings, the hard case for standings: the
        # neighbours in the standings have all met already.
        earlier.append(
            draw_round(
                ids,
                table_size=4,
                fill="mixed",
                mode=mode,
                seed=1000 + number,
                meetings=meeting_counts(earlier),
                standings=ids,
            )
        )
    meetings = meeting_counts(earlier)
    seat_counts = {player: [0, 0, 0, 0] for player in ids}
    for draw in earlier:
        for table in draw.tables:
            for seat, player in enumerate(table):
                seat_counts[player][seat] += 1
    times, repeats = [], []
    for run in range(runs):
        started = time.perf_counter()
        draw = draw_round(
            ids,
            table_size=4,
            fill="mixed",
            mode=mode,
            seed=run,
            meetings=meetings,
            standings=ids,
            seat_counts=seat_counts,
        )
        times.append(time.perf_counter() - started)
        repeats.append(draw.new_repeat_pairs)
    return {
        "mode": mode,
        "players": players,
        "history_rounds": history,
        "new_repeat_pairs": max(repeats),
        "seconds": round(statistics.median(times), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    instances = [
        schedule_instance(players, size, best, args.runs)
        for (players, size), best in sorted(KNOWN_MAXIMA.items(), key=lambda item: item[0][::-1])
    ]
    twelve = schedule_instance(12, 4, 4, args.runs)
    # Not in the table of known maxima: these take the tabu search, the slow path.
    searched = [
        schedule_instance(players, size, rounds, args.runs)
        for players, size, rounds in ((22, 4, 7), (44, 4, 14), (60, 4, 19), (26, 3, 12))
    ]
    rounds = [round_seconds(mode, args.runs) for mode in ("balanced", "standings")]

    goals = {
        "known_maxima_reached": all(
            item["repeat_free_rounds"] >= KNOWN_MAXIMA[tuple(map(int, item["instance"].split("/")))]
            for item in instances
        ),
        "schedules_within_10s": all(
            item["seconds"] <= SCHEDULE_SECONDS for item in [*instances, twelve, *searched]
        ),
        "twelve_at_four_proven_one": twelve["repeat_free_rounds"] == 1
        and twelve["known_max"] == 1
        and twelve["proven_max"],
        "round_of_200_within_2s": all(item["seconds"] <= ROUND_SECONDS for item in rounds),
    }
    print(
        json.dumps(
            {
                "benchmark": "seating",
                "runs": args.runs,
                "schedules": instances,
                "twelve_at_tables_of_four": twelve,
                "searched_schedules": searched,
                "single_round": rounds,
                "goals": goals,
                "goals_met": all(goals.values()),
            }
        )
    )


if __name__ == "__main__":
    main()
