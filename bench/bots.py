"""Benchmark of the bots: the goal matches of the arena, with decision times per level.

Goals (bots issue), each measured with at least 600 duplicate deals (every deck played once for each
rotation of the bots over the seats); a difference goal counts as met when the mean difference
reaches it and its 95% interval lies above zero:
- `heuristic` beats `random` by at least 20 points per deal;
- `strong` (level `normal`) beats `heuristic` by at least 10 points per deal, 95% interval above 0;
- `hard` beats `normal` by at least 25 points per deal, and `pimc` (the `hard` before issue 16) by
  at least 20 (issue 16);
- a decision never takes more than 1 s; p95 per decision under 250 ms (`normal`), 800 ms (`hard`).

The headroom (issue 16): `oracle` (bots/oracle.py: sees every card, decides by the exact solver)
against `hard`, overall and deciding one phase only (`oracle[play]`: the oracle plays the cards,
`hard` decides the rest), with the goal that the difference is at most +20 per deal; `hard`
bidding with the true talon in its samples against `hard` (`oracle[talon]`, no goal: what the
face-down talon alone is worth in the auction); and `hard` against `heuristic`.

Decision times are measured while the matches run in `--jobs` processes (2 on the 2-core
development machine), as the arena plays them. Prints one JSON line; the README's table is made
from it.

    python bench/bots.py [--deals N] [--seed 1] [--jobs 2] [--no-deadline] [--only hard-pimc,...]
"""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.arena import run_arena  # noqa: E402

# name: (bots by seat, first, second, goal for first - second per deal, deals played, the
# phases an oracle decides). A goal is a floor (the difference at least that, its interval above
# 0), or for the oracle's matches a ceiling (the difference at most that); None: a measurement
# only. `pimc` is the `hard` before issue 16 (playouts), against which the exact `hard` is
# measured; pimc and normal are close, so their match plays 1,200 deals to narrow the interval.
ALL = ("bidding", "giving", "contract", "play")
MATCHES = {
    "heuristic-random": (("heuristic", "random", "random"), "heuristic", "random", 20.0, 600, ALL),
    "normal-heuristic": (
        ("normal", "heuristic", "heuristic"), "normal", "heuristic", 10.0, 600, ALL
    ),
    "hard-normal": (("hard", "normal", "normal"), "hard", "normal", 25.0, 600, ALL),
    "hard-pimc": (("hard", "pimc", "pimc"), "hard", "pimc", 20.0, 600, ALL),
    "hard-heuristic": (("hard", "heuristic", "heuristic"), "hard", "heuristic", 10.0, 600, ALL),
    "pimc-normal": (("pimc", "normal", "normal"), "pimc", "normal", 0.0, 1200, ALL),
    "oracle-hard": (("oracle", "hard", "hard"), "oracle", "hard", 20.0, 600, ALL),
    **{
        f"oracle[{phase}]-hard": (("oracle", "hard", "hard"), "oracle", "hard", 20.0, 600, (phase,))
        for phase in ALL
    },
    "oracle[talon]-hard": (("oracle", "hard", "hard"), "oracle", "hard", None, 600, ("talon",)),
}  # fmt: skip
DEFAULT = ("heuristic-random", "normal-heuristic", "hard-normal", "hard-pimc")
P95_GOALS_MS = {"normal": 250.0, "hard": 800.0}
MAX_MS = 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--deals", type=int, help="deals per match (default: 600; pimc-normal 1200)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--no-deadline",
        action="store_true",
        help="the bots' safety deadline off: strength independent of the machine's load",
    )
    parser.add_argument(
        "--only",
        default=",".join(DEFAULT),
        help=f"comma-separated match names, of {', '.join(MATCHES)}",
    )
    args = parser.parse_args()
    result = {
        "benchmark": "bots",
        "seed": args.seed,
        "jobs": args.jobs,
        "deadline": not args.no_deadline,
        "matches": {},
    }
    timings: dict[str, dict[str, Any]] = {}
    goals_met = True
    for name in args.only.split(","):
        bots, first, second, goal, deals, phases = MATCHES[name]
        deals = args.deals or deals
        report = run_arena(
            bots,
            deals=deals,
            seed=args.seed,
            duplicate=True,
            jobs=args.jobs,
            oracle_phases=phases,
            deadline=not args.no_deadline,
        )
        difference = report["differences"][f"{first}-{second}"]
        if goal is None:
            met = None
        elif first == "oracle":
            met = difference["mean"] <= goal
        else:
            met = difference["mean"] >= goal and difference["ci95"][0] > 0
        goals_met &= met is not False
        result["matches"][name] = {
            "bots": list(bots),
            **({"oracle_phases": list(phases)} if first == "oracle" else {}),
            "deals": report["deals"],
            "seconds": report["seconds"],
            "difference": difference,
            "goal": goal,
            "goal_met": met,
            "scores": {
                bot: {"mean_score": e["mean_score"], "ci95": e["ci95"], "contracts": e["contracts"]}
                for bot, e in report["bots"].items()
            },
        }
        for bot, entry in report["bots"].items():
            if bot == "oracle":
                continue  # a measuring stick, not a level with time goals
            # Each level's times come from the match that plays it most (its first appearance).
            timings.setdefault(
                bot,
                {
                    **entry["decision_ms"],
                    "deadline_cuts": entry["deadline_cuts"],
                    "phases": entry["phases"],
                },
            )
    for level, goal in P95_GOALS_MS.items():
        if level in timings:
            goals_met &= timings[level]["p95"] < goal and timings[level]["max"] <= MAX_MS
    result["decision_ms"] = timings
    result["goals"] = {
        "differences": {name: match[3] for name, match in MATCHES.items()},
        "oracle_differences_at_most": True,
        "p95_ms": P95_GOALS_MS,
        "max_ms": MAX_MS,
    }
    result["goals_met"] = goals_met
    print(json.dumps(result))


if __name__ == "__main__":
    main()
