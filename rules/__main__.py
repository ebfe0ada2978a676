"""Command line of the engine: replay a deal or game record, or play random deals.

    python -m rules replay FILE|-
    python -m rules random --deals N --seed S [--players 3|4] [--records FILE]

Errors in a record exit with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from .deal import DealState
from .errors import EngineError
from .records import deal_record, replay, summarize_deal, summarize_game
from .simulate import random_deal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay a deal or game record (JSON)")
    replay_cmd.add_argument("file", help="the record file, or - for standard input")
    random_cmd = commands.add_parser("random", help="play deals with random legal actions")
    random_cmd.add_argument("--deals", type=int, required=True)
    random_cmd.add_argument("--seed", type=int, default=0)
    random_cmd.add_argument("--players", type=int, choices=(3, 4), default=3)
    random_cmd.add_argument("--records", help="write each deal record to this file, one per line")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    if args.deals < 0:
        parser.error("--deals must not be negative")
    return _random(args.deals, args.seed, args.players, args.records)


def _replay(path: str) -> int:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        return _fail(f"cannot read {path}: {error.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{path} is not UTF-8 text")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        return _fail(f"not JSON: {error.msg} at line {error.lineno} column {error.colno}")
    try:
        result = replay(record)
    except EngineError as error:
        return _fail(str(error))
    summary = summarize_deal(result) if isinstance(result, DealState) else summarize_game(result)
    print(json.dumps(summary))
    return 0


def _random(deals: int, seed: int, players: int, records_path: str | None) -> int:
    rng = random.Random(seed)
    try:
        records = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    except OSError as error:
        return _fail(f"cannot write {records_path}: {error.strerror}")
    try:
        started = time.perf_counter()
        for number in range(deals):
            state = random_deal(rng, players=players, dealer=number % players)
            if records:
                records.write(json.dumps(deal_record(state)) + "\n")
        seconds = time.perf_counter() - started
    finally:
        if records:
            records.close()
    print(
        json.dumps(
            {
                "deals": deals,
                "players": players,
                "seed": seed,
                "seconds": round(seconds, 4),
                "deals_per_second": round(deals / seconds) if seconds else None,
            }
        )
    )
    return 0


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
