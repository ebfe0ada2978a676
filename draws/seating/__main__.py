"""Command line seat draw: `python -m draws.seating --players 24 --table-size 4 --rounds 7
--mode schedule --seed 1` prints one JSON object (players 0..N-1, bot seats as null)."""

from __future__ import annotations

import argparse
import json
import random
import sys

from .tables import SeatingError
from .tournament import draw_tournament


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # One line on stderr and exit status 2, as for a SeatingError.
        self.exit(2, f"error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _OneLineParser(prog="python -m draws.seating", description=__doc__)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument(
        "--table-size", choices=["3", "4", "mixed"], default="4", help="seats per table"
    )
    fill = parser.add_mutually_exclusive_group()
    fill.add_argument(
        "--mixed",
        action="store_const",
        dest="fill",
        const="mixed",
        help="tables of 3 and 4 when the count does not divide (the default)",
    )
    fill.add_argument(
        "--bots", action="store_const", dest="fill", const="bots", help="bots fill empty seats"
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--mode", choices=["balanced", "standings", "schedule"], default="balanced")
    parser.add_argument("--seed", type=int, help="default: a new random seed, printed")
    args = parser.parse_args(argv)
    table_size = args.table_size if args.table_size == "mixed" else int(args.table_size)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        result = draw_tournament(
            args.players,
            table_size=table_size,
            fill=args.fill or "mixed",
            rounds=args.rounds,
            mode=args.mode,
            seed=seed,
        )
    except SeatingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
