"""A bot's decision is fixed by its seed and the observation: asked again, by a new instance of the
same bot, or in another order, it answers the same."""

import random
from dataclasses import replace

import pytest

from bots import make_bot, solver
from bots.strong import StrongBot, playout_moves

from .conftest import NO_DEADLINE, random_state


def observations(count: int, seed: int):
    rng = random.Random(seed)
    result = []
    while len(result) < count:
        state = random_state(rng)
        if len(state.legal_codes()) > 1:
            result.append(state.observation(state.to_act))
    return result


def test_random_and_heuristic_bots_are_deterministic():
    views = observations(60, 1)
    for name in ("random", "heuristic"):
        first = [make_bot(name, seed=9).choose(v) for v in views]
        again = [make_bot(name, seed=9).choose(v) for v in reversed(views)]
        assert first == list(reversed(again))


def test_random_bot_depends_on_its_seed():
    views = observations(40, 2)
    a = [make_bot("random", seed=1).choose(v) for v in views]
    b = [make_bot("random", seed=2).choose(v) for v in views]
    assert a != b


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_strong_bot_is_deterministic(level):
    views = observations(8, 3)
    bot = StrongBot(seed=4, budget=NO_DEADLINE[level])
    first = [bot.choose(v) for v in views]
    other = StrongBot(seed=4, budget=NO_DEADLINE[level])
    assert [other.choose(v) for v in reversed(views)] == list(reversed(first))


@pytest.mark.skipif(not solver.COMPILED, reason="hard's exact solves need the compiled core")
def test_hard_s_work_limit_gives_the_same_decision_whatever_came_before():
    # The work of an exact decision is counted in the solver's moves, from a new table: the same
    # decision after other decisions (which leave their tables behind), by a new bot, and the
    # work stays within the limit and a half (a sample past it is dropped, the first one kept).
    limit = 20_000
    budget = replace(NO_DEADLINE["hard"], exact_nodes=limit)
    views = [v for v in observations(30, 5) if v.phase == "play"][:6]
    assert views
    bot = StrongBot(seed=4, budget=budget)
    first, works = decisions_and_work(bot, views, solver.nodes)
    for view, spent in zip(views, works, strict=True):
        assert spent <= 1.5 * limit or first_sample_only(bot, view, budget)
    other = StrongBot(seed=4, budget=budget)
    assert [other.choose(v) for v in reversed(views)] == list(reversed(first))
    # The limit mattered: without it some of these decisions work more than it allows.
    unlimited = StrongBot(seed=4, budget=NO_DEADLINE["hard"])
    assert max(decisions_and_work(unlimited, views, solver.nodes)[1]) > 1.5 * limit


def decisions_and_work(bot: StrongBot, views, counter) -> tuple[list, list[int]]:
    """The bot's decision on each view and the work each took (`counter`'s moves); none may
    have been cut by the deadline."""
    decisions, works = [], []
    for view in views:
        before = counter()
        decisions.append(bot.choose(view))
        works.append(counter() - before)
        assert not bot.last_cut
    return decisions, works


def first_sample_only(bot: StrongBot, view, budget) -> bool:
    """Whether the decision's first sample alone is past the limit (the first is always kept)."""
    one = StrongBot(seed=bot.seed, budget=replace(budget, exact_nodes=0, exact_samples=1))
    before = solver.nodes()
    one.choose(view)
    return solver.nodes() - before > budget.exact_nodes


def test_pimc_s_playouts_are_counted_in_moves_and_stop_at_its_work_limit():
    # `pimc` (the `hard` where the solver's core is not compiled) counts its playouts' moves:
    # the same decision whatever came before, by a new bot, within the limit and a half (and
    # the candidate under way when it was passed), where without the limit it works more.
    limit = 20_000
    budget = replace(NO_DEADLINE["pimc"], playout_work=limit)
    views = [v for v in observations(40, 6) if v.phase == "play"][:6]
    assert views
    first, works = decisions_and_work(StrongBot(seed=4, budget=budget), views, playout_moves)
    assert max(works) <= 2 * limit
    other = StrongBot(seed=4, budget=budget)
    assert [other.choose(v) for v in reversed(views)] == list(reversed(first))
    unlimited = StrongBot(seed=4, budget=replace(budget, playout_work=0))
    assert max(decisions_and_work(unlimited, views, playout_moves)[1]) > 2 * limit
