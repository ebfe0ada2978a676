"""The engine's command line: `python -m rules replay|random`."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.records import replay_deal

from .conftest import (
    GAME_FORMAT,
    MARRIAGE_BIDDING,
    MARRIAGE_HANDS,
    MARRIAGE_TALON,
    MARRIAGE_TRICKS,
    conceded_record,
    record,
    worked_record,
)

ROOT = Path(__file__).resolve().parents[2]
DEAL_KEYS = {
    "complete",
    "phase",
    "dealer",
    "declarer",
    "bid",
    "forced",
    "contract",
    "outcome",
    "talon",
    "tricks",
    "marriages",
    "points",
    "scores",
}


def engine(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "rules", *map(str, args)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replayed(tmp_path, data):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = engine("replay", path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def assert_fails(done, message):
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.endswith("\n") and done.stderr.count("\n") == 1
    assert done.stderr.strip() == message or done.stderr.startswith(message)


def test_replay_a_finished_deal(tmp_path):
    summary = replayed(tmp_path, worked_record())
    assert set(summary) == DEAL_KEYS
    assert summary["complete"] is True
    assert summary["phase"] == "done"
    assert (summary["dealer"], summary["declarer"], summary["bid"]) == (0, 1, 100)
    assert (summary["forced"], summary["contract"], summary["outcome"]) == (False, 100, "made")
    assert summary["talon"] == ["TH", "9S", "QH"]
    assert len(summary["tricks"]) == 8
    first = {"leader": 1, "cards": ["AS", "JS", "KS"], "winner": 1, "trump": None}
    last = {"leader": 0, "cards": ["JD", "9S", "TD"], "winner": 2, "trump": None}
    assert (summary["tricks"][0], summary["tricks"][7]) == (first, last)
    assert summary["marriages"] == []
    assert summary["points"] == [4, 104, 12]
    assert summary["scores"] == [5, 100, 10]


def test_replay_shows_marriages_and_trumps(tmp_path):
    items = [*MARRIAGE_BIDDING, "1 contract 100", *MARRIAGE_TRICKS]
    summary = replayed(tmp_path, record(MARRIAGE_HANDS, MARRIAGE_TALON, items))
    assert summary["marriages"] == [{"seat": 1, "suit": "S"}, {"seat": 2, "suit": "C"}]
    trumps = [trick["trump"] for trick in summary["tricks"]]
    assert trumps == [None, "S", "S", "C", "C", "C", "C", "C"]
    assert summary["points"] == [41, 106, 73]
    assert summary["scores"] == [40, 100, 75]


def test_replay_a_forced_concession(tmp_path):
    summary = replayed(tmp_path, conceded_record(declarer=0, forced=True))
    assert (summary["declarer"], summary["bid"], summary["forced"]) == (0, 40, True)
    assert (summary["contract"], summary["outcome"]) == (None, "conceded")
    assert summary["tricks"] == []
    assert summary["scores"] == [0, 50, 50]


def test_replay_an_unfinished_deal_from_stdin():
    deal = worked_record()
    deal["actions"] = deal["actions"][:3]  # the auction only
    done = engine("replay", "-", stdin=json.dumps(deal))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert set(summary) == DEAL_KEYS | {"to_act", "legal"}
    assert summary["complete"] is False
    assert summary["phase"] == "giving"
    assert summary["to_act"] == 1
    assert {"seat": 1, "type": "give", "card": "QH", "to": 2} in summary["legal"]
    assert {"seat": 1, "type": "concede"} in summary["legal"]
    assert len(summary["legal"]) == 2 * 10 + 1
    assert summary["scores"] is None


def test_replay_a_game_record(tmp_path):
    rules = {"target": 100}
    deals = [
        conceded_record(dealer=0, declarer=0, forced=True, rules=rules),
        worked_record(dealer=1, declarer=2, bid=45, rules=rules),
        worked_record(dealer=2, declarer=1, bid=45, rules=rules),
    ]
    game = {"format": GAME_FORMAT, "players": 3, "first_dealer": 0, "rules": rules, "deals": deals}
    summary = replayed(tmp_path, game)
    assert summary["complete"] is True
    assert summary["totals"] == [15, 100, 105]
    assert summary["winner"] == 1
    assert [deal["scores"] for deal in summary["deals"]] == [[0, 50, 50], [10, 5, 45], [5, 45, 10]]
    assert [deal["dealer"] for deal in summary["deals"]] == [0, 1, 2]
    assert [deal["outcome"] for deal in summary["deals"]] == ["conceded", "made", "made"]


def test_replay_a_four_player_deal(tmp_path):
    summary = replayed(tmp_path, worked_record(players=4, dealer=0))
    assert summary["points"] == [None, 104, 12, 4]
    assert summary["scores"] == [15, 100, 10, 5]


def test_an_illegal_action_in_a_game_names_the_deal(tmp_path):
    deal = worked_record(dealer=1)
    deal["actions"][0] = {"seat": 0, "type": "bid", "value": 40}  # seat 2 bids first
    game = {"format": GAME_FORMAT, "players": 3, "first_dealer": 0, "rules": {}}
    game["deals"] = [worked_record(dealer=0), deal]
    done = engine("replay", "-", stdin=json.dumps(game))
    assert_fails(done, "deal 1: action 0: it is seat 2's turn, not seat 0's")


def test_an_illegal_action_exits_2_with_one_line(tmp_path):
    deal = worked_record()
    deal["actions"][14] = {"seat": 0, "type": "play", "card": "KH"}
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(deal), encoding="utf-8")
    done = engine("replay", path)
    assert_fails(done, "action 14: seat 0 must follow suit (clubs)")
    assert done.stderr == "action 14: seat 0 must follow suit (clubs)\n"


def test_malformed_json_exits_2_with_one_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "1001-deal/1", ', encoding="utf-8")
    assert_fails(engine("replay", path), "not JSON:")
    assert_fails(engine("replay", "-", stdin="[1, 2"), "not JSON:")


def test_a_malformed_record_exits_2_with_one_line():
    deal = worked_record()
    deal["deck"][0] = "XX"
    assert_fails(engine("replay", "-", stdin=json.dumps(deal)), "deck: 'XX' is not a card")
    deal = worked_record(rules={"must_bet": True})
    assert_fails(engine("replay", "-", stdin=json.dumps(deal)), "rules: unknown rule option")


def test_a_missing_file_exits_2_with_one_line(tmp_path):
    missing = tmp_path / "nowhere.json"
    assert_fails(engine("replay", missing), f"cannot read {missing}")


@pytest.mark.parametrize("players", [3, 4])
def test_random_deals_write_records_that_replay(tmp_path, players):
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    arguments = ["random", "--deals", 6, "--seed", 11, "--players", players, "--records"]
    done = engine(*arguments, first)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["deals"], report["players"], report["seed"]) == (6, players, 11)
    lines = first.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    for number, line in enumerate(lines):
        deal = json.loads(line)
        assert deal["players"] == players
        assert deal["dealer"] == number % players
        state = replay_deal(deal)
        assert state.done
        assert len(state.scores) == players
    # The same seed plays the same deals.
    assert engine(*arguments, second).returncode == 0
    assert second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")
    third = tmp_path / "third.jsonl"
    engine("random", "--deals", 6, "--seed", 12, "--players", players, "--records", third)
    assert third.read_text(encoding="utf-8") != first.read_text(encoding="utf-8")


def test_random_reports_an_unwritable_records_file_in_one_line(tmp_path):
    target = tmp_path / "missing" / "deals.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules",
            "random",
            "--deals",
            "1",
            "--records",
            str(target),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("cannot write")
    assert "Traceback" not in result.stderr
