"""Benchmark of the exact solver of the card play (bots/solver.py): the compiled core against the
pure-Python reference on the same positions, whole deals from the first trick and endgames.

Positions come from random deals (lowest bids, random gives, no conceding) at 8, 6 and 4 tricks
from the end; each is solved for the declarer (exact value) and by the threshold search ("can he
make his contract?"). Prints one JSON line: per depth the median and largest seconds of each
solver, and how many times faster the compiled core is (the median of the ratios).

    python bench/solver.py [--positions 20] [--python-positions 5]
"""

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import solver  # noqa: E402
from bots.solver import Position  # noqa: E402
from rules.options import RuleSet  # noqa: E402
from rules.simulate import random_play_position  # noqa: E402


def timed(function: Callable[..., int], *arguments: object) -> tuple[float, int]:
    started = time.perf_counter()
    result = function(*arguments)
    return time.perf_counter() - started, result


def depth(tricks: int, positions: int, python_positions: int) -> dict[str, Any]:
    compiled: list[float] = []
    python: list[float] = []
    ratios: list[float] = []
    thresholds: list[float] = []
    # The compiled core when it was built (solver._core() falls back to the reference).
    core = solver._core() if solver.COMPILED else None
    for seed in range(positions):
        state = random_play_position(random.Random(seed), tricks_left=tricks, rules=RuleSet())
        # No card of the trick played: a whole trick's decision.
        while state.trick:
            state.step(state.legal_codes()[0])
        position, seats = Position.of(state)
        side = 1 << seats.index(state.declarer)
        arguments = solver._arguments(position, side)
        value = None
        if core is not None:
            seconds, value = timed(core.solve, *arguments, 0, solver.MOST_POINTS + 1)
            compiled.append(seconds)
            target = max(0, state.contract - state.won[state.declarer])
            thresholds.append(timed(core.solve, *arguments, target - 1, target)[0])
        if seed < python_positions:
            reference = solver._Reference.solve
            seconds, exact = timed(reference, *arguments, 0, solver.MOST_POINTS + 1)
            python.append(seconds)
            if value is not None:
                assert exact == value, (seed, exact, value)
                ratios.append(seconds / max(compiled[-1], 1e-9))
    return {
        "tricks": tricks,
        "compiled_median_s": round(statistics.median(compiled), 5) if compiled else None,
        "compiled_max_s": round(max(compiled), 5) if compiled else None,
        "threshold_median_s": round(statistics.median(thresholds), 5) if thresholds else None,
        "python_median_s": round(statistics.median(python), 4) if python else None,
        "python_max_s": round(max(python), 4) if python else None,
        "times_faster": round(statistics.median(ratios), 1) if ratios else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--python-positions", type=int, default=5)
    args = parser.parse_args()
    rows = [depth(tricks, args.positions, args.python_positions) for tricks in (4, 6, 8)]
    print(
        json.dumps(
            {"benchmark": "solver", "compiled": solver.COMPILED, "depths": rows},
        )
    )


if __name__ == "__main__":
    main()
