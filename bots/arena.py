"""Bot arena: plays deals between bots and prints one JSON object of scores, contracts and timing.

    python -m bots.arena --bots strong,heuristic,heuristic --deals 600 --seed 1 \
        [--players 3|4] [--duplicate] [--jobs 2] [--rules '{"must_beat": true}']

Bots are names (`random`, `heuristic`, `strong`) or levels (`easy`, `normal`, `hard`), one per
seat, or `oracle`: for measurement only, it sees every card (bots/oracle.py), and with
`--oracle-phase bidding,play` it decides only those phases (`hard` the others), which measures
the headroom by phase. A searching bot's name may carry budget changes for tuning
(`hard+own_points=0`: `strong.Budget` fields). `--no-deadline` turns the searching bots'
safety deadline off, so that their strength does not depend on the machine's load (their times
then show what a decision costs in full). `--players` defaults to the number of bots. Deck i is
shuffled by a generator seeded with (seed, i) and dealt by seat i % players. Every action goes
through the engine's checked `apply`, so an illegal action stops the arena with an error.

With `--duplicate` every deck is played once for each rotation of the bots over the seats (bot j
sits at seat (j + r) % players in rotation r), so every bot gets every hand, every position and
every turn to sit out, and the luck of the deal cancels out. `--deals N` is the number of deals
played in all; with `--duplicate` it is rounded up to a multiple of the number of players.

A name that sits in several seats is aggregated. Its `ci95` is a 95% interval of its mean score per
deal, computed over decks (a deck's deals, all rotations, count as one sample, since they share
the cards). `differences` gives, for each pair of names, the mean of (first - second) per deal over
the same decks, with its interval: the number the goals of the bots are judged by.
`--records FILE` writes every deal played as one JSON line (`deck`, `rotation`, `bots` by seat,
`scores`, and `record`: the deal in RULES.md's record format, the whole deck and every action),
for analyses the summary does not make; `python -m rules replay` reads a record back.
`decision_ms` is the wall time of each `choose()` call, and `phases` breaks it down by the phase of
the deal (bidding, giving, contract, play). `--jobs` plays decks in parallel processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import fields, replace
from itertools import combinations
from typing import Any, NotRequired, TextIO, TypedDict, cast

from rules import DealState, RuleSet
from rules.errors import RuleOptionError
from rules.records import deal_record

from . import BOT_NAMES, make_bot
from .base import Bot
from .oracle import CHOICES as ORACLE_CHOICES
from .oracle import PHASES as ORACLE_PHASES
from .oracle import OracleBot
from .strong import Budget, StrongBot

PHASES = ("bidding", "giving", "contract", "play")
BUDGET_FIELDS = tuple(field.name for field in fields(Budget))


class DealResult(TypedDict):
    """One played deal, by seat; `deck` is the deck's index, added by the job that dealt it."""

    bots: list[str]
    scores: list[int]
    declarer: int
    outcome: str | None
    marriages: list[int]
    times: list[list[tuple[str, float]]]  # per seat: (phase, milliseconds) of each decision
    cuts: list[list[str]]  # per seat: the phase of each decision a safety deadline cut short
    record: dict[str, Any]  # the deal in RULES.md's record format (rules.records.deal_record)
    deck: NotRequired[int]
    rotation: NotRequired[int]


class _Tally(TypedDict):
    bid: int
    made: int
    conceded: int
    marriages: int
    times: defaultdict[str, list[float]]
    cuts: defaultdict[str, int]


# (deck index, bot names by seat, players, rules as a dict, seed, duplicate, oracle phases,
# whether the safety deadline holds)
DeckJob = tuple[int, list[str], int, dict[str, Any], int, bool, tuple[str, ...], bool]
ORACLE = "oracle"


def _seat_bot(name: str, seed: int, oracle_phases: tuple[str, ...], deadline: bool) -> Bot:
    if name == ORACLE:
        bot: Bot = OracleBot(seed=seed, phases=oracle_phases)
    else:
        base, overrides = variant(name)
        bot = make_bot(base, seed=seed)
        if overrides:
            assert isinstance(bot, StrongBot)  # `variant` checked it
            bot.budget = replace(bot.budget, **overrides)
    if not deadline:
        _unhurried(bot.fallback if isinstance(bot, OracleBot) else bot)
    return bot


def variant(name: str) -> tuple[str, dict[str, Any]]:
    """A bot name with changes to a searching bot's budget, for tuning: `hard+give_samples=16+
    exact_defence=1` is `hard` with those `strong.Budget` fields. Returns the base name and the
    fields; raises ValueError for an unknown bot or field, or a value of the wrong kind."""
    base, *changes = name.split("+")
    if base not in BOT_NAMES:
        raise ValueError(f"unknown bot {base!r}; known: {', '.join((*BOT_NAMES, ORACLE))}")
    if not changes:
        return base, {}
    bot = make_bot(base, seed=0)
    if not isinstance(bot, StrongBot):
        raise ValueError(f"{base!r} has no budget to change")
    overrides: dict[str, Any] = {}
    for change in changes:
        field, _, text = change.partition("=")
        current = getattr(bot.budget, field, None) if field in BUDGET_FIELDS else None
        if field not in BUDGET_FIELDS or not text:
            raise ValueError(
                f"{change!r}: a budget field=value, fields: {', '.join(BUDGET_FIELDS)}"
            )
        if isinstance(current, bool):
            overrides[field] = text.lower() in ("1", "true", "yes", "on")
        elif current is None or isinstance(current, int):
            overrides[field] = None if text == "none" else int(text)
        else:
            overrides[field] = float(text)
    return base, overrides


def _unhurried(bot: Bot) -> None:
    """The bot's safety deadline off: its decisions are its whole budget's, however loaded the
    machine."""
    if isinstance(bot, StrongBot):
        bot.budget = replace(bot.budget, deadline=math.inf)


def deck_for(seed: int, index: int) -> list[int]:
    rng = random.Random(seed * 1_000_003 + index)
    deck = list(range(24))
    rng.shuffle(deck)
    return deck


def play_deal(
    deck: Sequence[int],
    seat_bots: Sequence[str],
    *,
    dealer: int,
    rules: RuleSet,
    seed: int,
    oracle_phases: tuple[str, ...] = ORACLE_PHASES,
    deadline: bool = True,
) -> DealResult:
    """Play one deal; the bots are given by name per seat. Returns the per-seat results."""
    players = len(seat_bots)
    bots = [
        _seat_bot(name, seed * 16 + seat, oracle_phases, deadline)
        for seat, name in enumerate(seat_bots)
    ]
    state = DealState.deal(deck, players=players, dealer=dealer, rules=rules)
    times: list[list[tuple[str, float]]] = [[] for _ in range(players)]
    cuts: list[list[str]] = [[] for _ in range(players)]
    while not state.done:
        seat = state.to_act
        observation = state.observation(seat)
        started = time.perf_counter()
        bot = bots[seat]
        action = bot.choose_in(state) if isinstance(bot, OracleBot) else bot.choose(observation)
        elapsed = (time.perf_counter() - started) * 1000
        times[seat].append((observation.phase, elapsed))
        if bots[seat].last_cut:
            cuts[seat].append(observation.phase)
        state.apply(action)
    marriages = [0] * players
    for marriage in state.marriages():
        marriages[marriage.seat] += 1
    return {
        "bots": list(seat_bots),
        "scores": list(cast(tuple[int, ...], state.scores)),  # the deal is done
        "declarer": state.declarer,
        "outcome": state.outcome,
        "marriages": marriages,
        "times": times,
        "cuts": cuts,
        "record": deal_record(state),
    }


def _deck_job(job: DeckJob) -> list[DealResult]:
    index, bots, players, rules_dict, seed, duplicate, oracle_phases, deadline = job
    rules = RuleSet.from_dict(rules_dict)
    deck = deck_for(seed, index)
    dealer = index % players
    rotations = range(players) if duplicate else range(1)
    results = []
    for rotation in rotations:
        seat_bots = [bots[(seat - rotation) % players] for seat in range(players)]
        result = play_deal(
            deck,
            seat_bots,
            dealer=dealer,
            rules=rules,
            seed=seed * 1_000_003 + index * 8 + rotation,
            oracle_phases=oracle_phases,
            deadline=deadline,
        )
        result["deck"] = index
        result["rotation"] = rotation
        results.append(result)
    return results


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    position = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[position]


def mean_ci(samples: list[float]) -> tuple[float, float, float]:
    count = len(samples)
    if not count:
        return 0.0, 0.0, 0.0
    mean = sum(samples) / count
    if count < 2:
        return mean, mean, mean
    variance = sum((x - mean) ** 2 for x in samples) / (count - 1)
    half = 1.96 * math.sqrt(variance / count)
    return mean, mean - half, mean + half


def timing(values: list[float]) -> dict[str, Any]:
    return {
        "p50": round(percentile(values, 0.5), 2),
        "p95": round(percentile(values, 0.95), 2),
        "max": round(max(values), 2) if values else 0.0,
        "count": len(values),
    }


def summarize(results: list[DealResult], names: Sequence[str]) -> dict[str, Any]:
    per_deck: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    stats: dict[str, _Tally] = {
        name: {
            "bid": 0,
            "made": 0,
            "conceded": 0,
            "marriages": 0,
            "times": defaultdict(list),
            "cuts": defaultdict(int),
        }
        for name in names
    }
    for result in results:
        for seat, name in enumerate(result["bots"]):
            entry = stats[name]
            per_deck[name][result["deck"]].append(result["scores"][seat])
            entry["marriages"] += result["marriages"][seat]
            if seat == result["declarer"]:
                entry["bid"] += 1
                entry["made"] += result["outcome"] == "made"
                entry["conceded"] += result["outcome"] == "conceded"
            for phase, elapsed in result["times"][seat]:
                entry["times"][phase].append(elapsed)
            for phase in result["cuts"][seat]:
                entry["cuts"][phase] += 1
    deck_means = {
        name: {deck: sum(v) / len(v) for deck, v in decks.items()}
        for name, decks in per_deck.items()
    }
    bots: dict[str, dict[str, Any]] = {}
    for name in names:
        mean, low, high = mean_ci(list(deck_means[name].values()))
        entry = stats[name]
        everything = [t for phase in PHASES for t in entry["times"][phase]]
        bots[name] = {
            "mean_score": round(mean, 2),
            "ci95": [round(low, 2), round(high, 2)],
            "contracts": {"bid": entry["bid"], "made": entry["made"]},
            "conceded": entry["conceded"],
            "marriages": entry["marriages"],
            "decision_ms": {k: v for k, v in timing(everything).items() if k != "count"},
            "decisions": len(everything),
            # Decisions a safety deadline cut short: their strength is a loaded machine's.
            "deadline_cuts": sum(entry["cuts"].values()),
            "phases": {
                phase: timing(entry["times"][phase]) | {"deadline_cuts": entry["cuts"][phase]}
                for phase in PHASES
            },
        }
    differences: dict[str, dict[str, Any]] = {}
    for first, second in combinations(names, 2):
        decks = sorted(set(deck_means[first]) & set(deck_means[second]))
        diffs = [deck_means[first][d] - deck_means[second][d] for d in decks]
        mean, low, high = mean_ci(diffs)
        differences[f"{first}-{second}"] = {
            "mean": round(mean, 2),
            "ci95": [round(low, 2), round(high, 2)],
        }
    return {"bots": bots, "differences": differences}


def run_arena(
    bots: Sequence[str],
    *,
    deals: int,
    seed: int,
    players: int | None = None,
    duplicate: bool = False,
    jobs: int = 1,
    rules: RuleSet | None = None,
    oracle_phases: tuple[str, ...] = ORACLE_PHASES,
    deadline: bool = True,
    records: TextIO | None = None,
) -> dict[str, Any]:
    """Play the deals and summarize them (the JSON object `main` prints); with `records`, every
    deal is also written to it as one JSON line (`--records`)."""
    players = players or len(bots)
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    rules = rules or RuleSet()
    decks = math.ceil(deals / players) if duplicate else deals
    job_list: list[DeckJob] = [
        (i, list(bots), players, rules.to_dict(), seed, duplicate, tuple(oracle_phases), deadline)
        for i in range(decks)
    ]
    started = time.perf_counter()
    results: list[DealResult] = []
    if jobs > 1 and decks > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for chunk in pool.imap_unordered(_deck_job, job_list, chunksize=1):
                results.extend(chunk)
    else:
        for job in job_list:
            results.extend(_deck_job(job))
    results.sort(key=lambda r: (r["deck"], r.get("rotation", 0)))
    if records is not None:
        for result in results:
            line = {key: result[key] for key in ("deck", "rotation", "bots", "scores", "record")}
            records.write(json.dumps(line) + "\n")
    names = list(dict.fromkeys(bots))
    summary = summarize(results, names)
    return {
        "deals": len(results),
        "decks": decks,
        "players": players,
        "duplicate": duplicate,
        "seed": seed,
        "rules": rules.to_dict(),
        **({"oracle_phases": list(oracle_phases)} if ORACLE in bots else {}),
        "deadline": deadline,
        "seconds": round(time.perf_counter() - started, 1),
        **summary,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bots.arena", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--bots", required=True, help="comma-separated names or levels, per seat")
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, choices=(3, 4))
    parser.add_argument("--duplicate", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="processes; 0: one per core")
    parser.add_argument("--rules", default="{}", help="rule options as JSON, RULES.md names")
    parser.add_argument(
        "--oracle-phase",
        default=",".join(ORACLE_PHASES),
        help="the phases the oracle decides (comma-separated); hard decides the others "
        "(with `talon`, hard bids seeing the face-down talon)",
    )
    parser.add_argument(
        "--no-deadline",
        action="store_true",
        help="the searching bots' safety deadline off (strength independent of the load)",
    )
    parser.add_argument(
        "--records", metavar="FILE", help="write every deal played as one JSON line to FILE"
    )
    args = parser.parse_args(argv)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    for name in bots:
        if name != ORACLE:
            try:
                variant(name)
            except ValueError as error:
                parser.error(str(error))
    oracle_phases = tuple(p.strip() for p in args.oracle_phase.split(",") if p.strip())
    wrong = [phase for phase in oracle_phases if phase not in ORACLE_CHOICES]
    if wrong or not oracle_phases:
        parser.error(f"--oracle-phase: one or more of {', '.join(ORACLE_CHOICES)}")
    players = args.players or len(bots)
    if len(bots) != players:
        parser.error(f"{players} players need {players} bots, got {len(bots)}")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        rules = RuleSet.from_dict(json.loads(args.rules))
    except (ValueError, RuleOptionError) as error:
        parser.error(f"--rules: {error}")
    try:
        records = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    except OSError as error:
        parser.error(f"--records: {error}")
    try:
        report = run_arena(
            bots,
            deals=args.deals,
            seed=args.seed,
            players=players,
            duplicate=args.duplicate,
            jobs=args.jobs if args.jobs > 0 else (os.cpu_count() or 1),
            rules=rules,
            oracle_phases=oracle_phases,
            deadline=not args.no_deadline,
            records=records,
        )
    finally:
        if records is not None:
            records.close()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
