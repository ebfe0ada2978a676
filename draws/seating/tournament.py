"""A whole tournament's seating drawn as the command line and the benchmark see it."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable
from typing import Any

from .quality import evaluate, meeting_counts
from .rounds import MODES, Draw, draw_round, make_rng
from .schedule import draw_schedule
from .tables import SeatingError, bad_mode, bad_player_count, bad_rounds


def draw_tournament(
    n_players: int,
    *,
    table_size: int | str,
    fill: str,
    rounds: int,
    mode: str,
    seed: int | str,
) -> dict[str, Any]:
    """Players 0..n_players-1 for `rounds` rounds. Modes balanced and standings draw round by
    round with the history so far; standings there are simulated (random results from the seed),
    since no games are played. Returns the JSON-ready result of `python -m draws.seating`."""
    if mode not in MODES:
        raise SeatingError(bad_mode(mode))
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(bad_rounds(rounds))
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise SeatingError(bad_player_count(n_players))
    players = list(range(n_players))
    started = time.perf_counter()
    result: dict[str, Any] = {}
    if mode == "schedule":
        schedule = draw_schedule(
            players, rounds=rounds, table_size=table_size, fill=fill, seed=seed
        )
        draws = list(schedule.rounds)
        result = {
            "known_max": schedule.known_max,
            "proven_max": schedule.proven_max,
            "summary": schedule.summary,
        }
    else:
        draws = _draw_each_round(players, table_size, fill, rounds, mode, seed)
    seconds = time.perf_counter() - started
    quality = evaluate(draws)
    return {
        "rounds": [[list(table) for table in draw.tables] for draw in draws],
        "repeat_free_rounds": quality["repeat_free_rounds"],
        "max_meetings": quality["max_meetings"],
        "repeated_pairs": quality["repeated_pairs"],
        "seconds": round(seconds, 4),
        "seed": seed,
        "mode": mode,
        **result,
    }


def _draw_each_round(
    players: list[int], table_size: int | str, fill: str, rounds: int, mode: str, seed: int | str
) -> list[Draw]:
    results = make_rng(seed, "simulated results")
    # Keyed as the draws name the players (Hashable ids), which are these ints.
    points: Counter[Hashable] = Counter()
    seat_counts: dict[Hashable, list[int]] = {player: [0, 0, 0, 0] for player in players}
    bot_counts: Counter[Hashable] = Counter()
    draws: list[Draw] = []
    for number in range(rounds):
        standings = sorted(players, key=lambda player: (-points[player], player))
        draw = draw_round(
            players,
            table_size=table_size,
            fill=fill,
            mode=mode,
            seed=f"{seed}/{number}",
            meetings=meeting_counts(draws),
            standings=standings,
            seat_counts=seat_counts,
            bot_counts=bot_counts,
        )
        draws.append(draw)
        for table in draw.tables:
            has_bot = None in table
            for seat, player in enumerate(table):
                if player is not None:
                    seat_counts[player][seat] += 1
                    bot_counts[player] += has_bot
                    points[player] += results.randrange(1002)
    return draws
