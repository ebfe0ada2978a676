"""Benchmark of the rules engine: random legal deals per second and state copies per second.

Goals (issue 2): at least 10,000 random deals per second and 200,000 state copies per second on
one core. A random legal player concedes now and then (conceding is a legal action), so the deals
that are played out to the eighth trick are measured on their own too (`full_deals_per_second`).
Runs each measurement several times and reports the median; prints one JSON line.

    python bench/engine.py [--deals 20000] [--copies 200000] [--runs 5]
"""

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.actions import CONCEDE  # noqa: E402
from rules.deal import DONE, PLAY, DealState  # noqa: E402
from rules.simulate import random_deal, shuffled_deck  # noqa: E402

GOALS = {"deals_per_second": 10_000, "copies_per_second": 200_000}


def random_deals_per_second(deals: int, seed: int) -> float:
    rng = random.Random(seed)
    started = time.perf_counter()
    for number in range(deals):
        random_deal(rng, players=3 + number % 2, dealer=number % 3)
    return deals / (time.perf_counter() - started)


def full_deals_per_second(deals: int, seed: int) -> float:
    """Random legal deals that never concede, so every deal is played to the eighth trick."""
    rng = random.Random(seed)
    draw = rng.random
    started = time.perf_counter()
    for number in range(deals):
        state = DealState.deal(shuffled_deck(rng), players=3 + number % 2, dealer=number % 3)
        while state.phase != DONE:
            codes = state.legal_codes()
            if codes[-1] == CONCEDE:
                codes = codes[:-1]
            state.step(codes[int(draw() * len(codes))])
    return deals / (time.perf_counter() - started)


def mid_play_state(seed: int) -> DealState:
    """A state in the middle of the card play, where bots clone most."""
    rng = random.Random(seed)
    while True:
        state = DealState.deal(shuffled_deck(rng))
        while not state.done and not (state.phase == PLAY and state.trick_no == 3):
            codes = [c for c in state.legal_codes() if c != CONCEDE]
            state.step(rng.choice(codes))
        if not state.done:
            return state


def copies_per_second(copies: int, seed: int) -> float:
    state = mid_play_state(seed)
    clone = state.clone
    started = time.perf_counter()
    for _ in range(copies):
        clone()
    return copies / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--copies", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    deal_rates = [random_deals_per_second(args.deals, run) for run in range(args.runs)]
    full_rates = [full_deals_per_second(args.deals, run) for run in range(args.runs)]
    copy_rates = [copies_per_second(args.copies, run) for run in range(args.runs)]
    result = {
        "benchmark": "engine",
        "runs": args.runs,
        "deals_per_second": round(statistics.median(deal_rates)),
        "full_deals_per_second": round(statistics.median(full_rates)),
        "copies_per_second": round(statistics.median(copy_rates)),
        "deals_per_second_runs": [round(r) for r in deal_rates],
        "full_deals_per_second_runs": [round(r) for r in full_rates],
        "copies_per_second_runs": [round(r) for r in copy_rates],
        "goals": GOALS,
    }
    result["goals_met"] = all(result[name] >= goal for name, goal in GOALS.items())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
