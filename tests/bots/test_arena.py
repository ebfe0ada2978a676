"""The arena's command line prints one JSON object of the documented shape."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.records import replay_deal

ROOT = Path(__file__).resolve().parents[2]


def arena(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "bots.arena", *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def check_bot(entry: dict) -> None:
    assert set(entry) >= {"mean_score", "ci95", "contracts", "marriages", "decision_ms", "phases"}
    low, high = entry["ci95"]
    assert low <= entry["mean_score"] <= high
    assert set(entry["contracts"]) == {"bid", "made"}
    assert entry["contracts"]["made"] <= entry["contracts"]["bid"]
    assert set(entry["decision_ms"]) == {"p50", "p95", "max"}
    assert set(entry["phases"]) == {"bidding", "giving", "contract", "play"}
    for timing in entry["phases"].values():
        assert set(timing) >= {"p50", "p95", "max", "deadline_cuts"}
    assert entry["deadline_cuts"] == sum(t["deadline_cuts"] for t in entry["phases"].values())


def test_duplicate_run_of_three():
    report = arena(
        "--bots", "heuristic,random,random", "--deals", "6", "--seed", "3", "--duplicate"
    )
    assert report["deals"] == 6
    assert set(report["bots"]) == {"heuristic", "random"}
    for entry in report["bots"].values():
        check_bot(entry)
    # Every bot sat in every seat of every deck: 6 deals, heuristic in one seat of each.
    assert report["bots"]["heuristic"]["decisions"] > 0
    assert "heuristic-random" in report["differences"]


def test_four_players_in_parallel_with_the_strong_bot():
    report = arena(
        "--bots",
        "normal,easy,random,random",
        "--players",
        "4",
        "--deals",
        "4",
        "--seed",
        "1",
        "--duplicate",
        "--jobs",
        "2",
    )
    assert report["deals"] == 4 and report["players"] == 4
    assert set(report["bots"]) == {"normal", "easy", "random"}
    for entry in report["bots"].values():
        check_bot(entry)


def test_bad_arguments_are_refused():
    result = subprocess.run(
        [sys.executable, "-m", "bots.arena", "--bots", "a,b,c", "--deals", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 2 and "unknown bot" in result.stderr


def test_the_arena_counts_the_decisions_a_safety_deadline_cut(monkeypatch):
    """A bot whose deadline is past before it starts is cut on every searched decision, and the
    report says how many, by phase; with no deadline in reach, none is."""
    import dataclasses

    from bots import arena as arena_module
    from bots import strong

    def report_with(deadline: float) -> dict:
        budgets = {
            level: dataclasses.replace(budget, deadline=deadline)
            for level, budget in strong.BUDGETS.items()
        }
        monkeypatch.setattr(strong, "BUDGETS", budgets)
        return arena_module.run_arena(["normal", "heuristic", "heuristic"], deals=3, seed=5)

    cut = report_with(0.0)["bots"]["normal"]
    assert cut["deadline_cuts"] > 0
    assert cut["deadline_cuts"] == sum(p["deadline_cuts"] for p in cut["phases"].values())
    assert cut["deadline_cuts"] <= cut["decisions"]
    assert report_with(3600.0)["bots"]["normal"]["deadline_cuts"] == 0
    assert report_with(0.0)["bots"]["heuristic"]["deadline_cuts"] == 0

    # --no-deadline: the same past deadline never cuts, for a seat or the oracle's fallback.
    budgets = {
        level: dataclasses.replace(budget, deadline=0.0) for level, budget in strong.BUDGETS.items()
    }
    monkeypatch.setattr(strong, "BUDGETS", budgets)
    unhurried = arena_module.run_arena(
        ["normal", "oracle", "heuristic"],
        deals=3,
        seed=5,
        oracle_phases=("play",),
        deadline=False,
    )
    assert unhurried["deadline"] is False
    assert unhurried["bots"]["normal"]["deadline_cuts"] == 0
    assert unhurried["bots"]["oracle"]["deadline_cuts"] == 0


def test_a_variant_changes_a_searching_bots_budget_and_is_reported_by_its_name():
    """`normal+give_samples=2+infer=1` is `normal` with those budget fields, for tuning; it plays
    beside `normal` as a separate name. Unknown fields, values or bots are refused."""
    from bots.arena import _seat_bot, variant

    assert variant("normal") == ("normal", {})
    assert variant("hard+give_samples=16+exact_defence=1+deadline=0.5+own_raise_slack=none") == (
        "hard",
        {"give_samples": 16, "exact_defence": True, "deadline": 0.5, "own_raise_slack": None},
    )
    bot = _seat_bot("normal+give_samples=2+infer=1", 3, (), True)
    assert bot.budget.give_samples == 2 and bot.budget.infer is True
    assert bot.budget.bid_samples == _seat_bot("normal", 3, (), True).budget.bid_samples

    report = arena("--bots", "normal,normal+bid_samples=2,heuristic", "--deals", "3", "--duplicate")
    assert set(report["bots"]) == {"normal", "normal+bid_samples=2", "heuristic"}
    assert "normal-normal+bid_samples=2" in report["differences"]

    for wrong, message in (
        ("normal+speed=3", "budget field"),
        ("heuristic+give_samples=2", "no budget"),
        ("normal+give_samples=", "budget field"),
        ("nobody+give_samples=2", "unknown bot"),
    ):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "bots.arena",
                "--bots",
                f"{wrong},random,random",
                "--deals",
                "1",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert result.returncode == 2 and message in result.stderr, wrong


def test_records_hold_every_deal_played_and_replay_to_its_scores(tmp_path):
    path = tmp_path / "deals.jsonl"
    report = arena(
        "--bots",
        "heuristic,random,random",
        "--deals",
        "6",
        "--seed",
        "5",
        "--duplicate",
        "--jobs",
        "2",
        "--records",
        str(path),
    )
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == report["deals"] == 6
    # Two decks, each in its three rotations, in order; the same deck in each rotation.
    assert [(line["deck"], line["rotation"]) for line in lines] == [
        (deck, rotation) for deck in range(2) for rotation in range(3)
    ]
    for line in lines:
        assert line["bots"].count("heuristic") == 1
        assert line["record"]["deck"] == lines[3 * line["deck"]]["record"]["deck"]
        state = replay_deal(line["record"])
        assert state.done
        assert list(state.scores) == line["scores"]
    # The heuristic's mean score per deal is the mean of its seats' scores in the records.
    mine = [line["scores"][line["bots"].index("heuristic")] for line in lines]
    assert sum(mine) / len(mine) == pytest.approx(
        report["bots"]["heuristic"]["mean_score"], abs=0.01
    )


def test_a_records_file_that_cannot_be_written_is_refused(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bots.arena",
            "--bots",
            "random,random,random",
            "--deals",
            "1",
            "--records",
            str(tmp_path / "missing" / "deals.jsonl"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "--records" in result.stderr
