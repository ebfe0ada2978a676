"""The oracle (issue 16): a measuring player that sees every card, only in the arena. It plays
legal actions in every phase (the arena applies them with the engine's checks), plays the card
the exact solver finds best, never fails a contract it names, can decide only some phases, and
can never be asked for by a seat."""

import json
import random

import pytest

from bots import BOT_NAMES, HeuristicBot, StrongBot, make_bot
from bots.arena import main, run_arena
from bots.oracle import OracleBot
from bots.solver import Position, solve
from rules import DealState, RuleSet
from rules.actions import decode
from rules.simulate import random_play_position


@pytest.mark.parametrize(
    ("players", "rules"),
    [(3, RuleSet()), (4, RuleSet(must_beat=True, marriage_on_first_trick=True))],
)
def test_the_oracle_plays_legal_deals_and_makes_every_contract_it_names(players, rules):
    bots = ["oracle", "heuristic", "heuristic"] + ["heuristic"] * (players - 3)
    report = run_arena(bots, deals=players, seed=5, players=players, duplicate=True,
                       rules=rules)  # fmt: skip
    oracle = report["bots"]["oracle"]
    assert report["deals"] == players
    # The defenders play worse than perfectly, so the oracle takes at least what it counted on.
    assert oracle["contracts"]["made"] == oracle["contracts"]["bid"] - oracle["conceded"]
    assert oracle["contracts"]["bid"] >= 1


def test_the_oracle_plays_the_card_the_solver_finds_best():
    oracle = OracleBot(seed=1)
    for seed in range(20):
        state = random_play_position(random.Random(seed), tricks_left=3)
        if state.to_act != state.declarer:
            continue
        action = oracle.choose_in(state)
        position, seats = Position.of(state)
        side = 1 << seats.index(state.declarer)
        before = state.won[state.declarer] + state.marriage_points[state.declarer]
        state.apply(action)
        if state.phase_name != "play":
            continue
        after = state.won[state.declarer] + state.marriage_points[state.declarer]
        new_position, _ = Position.of(state)
        assert after - before + solve(new_position, side) == solve(position, side)


def test_an_oracle_of_some_phases_leaves_the_others_to_its_fallback():
    state = DealState.deal(list(range(24)))
    oracle = OracleBot(seed=4, phases=("play",), fallback="heuristic")
    observation = state.observation(state.to_act)
    assert oracle.choose_in(state) == HeuristicBot(seed=4).choose(observation)
    report = run_arena(["oracle", "heuristic", "heuristic"], deals=3, seed=2, duplicate=True,
                       oracle_phases=("play",))  # fmt: skip
    assert report["oracle_phases"] == ["play"]


def test_the_talon_choice_lets_its_fallback_bid_with_the_true_talon_in_its_samples():
    state = DealState.deal(list(range(24)))
    seat = state.to_act
    oracle = OracleBot(seed=4, phases=("talon",), fallback="normal")
    knowing = StrongBot(seed=4, level="normal").choose_code(
        state.observation(seat), talon=state.talon
    )
    assert oracle.choose_in(state) == decode(knowing, seat)
    # Past the auction the talon is no secret: the fallback decides as it always does.
    while state.phase_name == "bidding":
        state.apply(HeuristicBot(seed=1).choose(state.observation(state.to_act)))
    observation = state.observation(state.to_act)
    oracle.fallback = make_bot("heuristic", seed=4)
    assert oracle.choose_in(state) == HeuristicBot(seed=4).choose(observation)


def test_the_oracle_is_never_a_seat():
    assert "oracle" not in BOT_NAMES
    with pytest.raises(ValueError):
        make_bot("oracle", seed=1)
    state = random_play_position(random.Random(3), tricks_left=2)
    with pytest.raises(TypeError):
        OracleBot(seed=1).choose(state.observation(state.to_act))
    with pytest.raises(ValueError):
        OracleBot(seed=1, phases=("dealing",))


def test_the_arena_refuses_an_unknown_oracle_phase(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--bots", "oracle,heuristic,heuristic", "--deals", "3", "--oracle-phase", "deal"])
    assert exit_.value.code == 2
    assert "--oracle-phase" in capsys.readouterr().err


def test_the_arena_reports_the_oracle_phases_it_ran(capsys):
    main(["--bots", "oracle,heuristic,heuristic", "--deals", "3", "--oracle-phase", "play"])
    report = json.loads(capsys.readouterr().out)
    assert report["oracle_phases"] == ["play"]
