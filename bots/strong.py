"""The `strong` bot (levels `normal` and `hard`): Perfect Information Monte Carlo search.

Every decision samples deals consistent with the observation (`sampler.Sampler`: own hand, the
public actions, the revealed talon, the cards given and received, voids and must-beat limits,
marriages shown, bids above 120), and evaluates its candidate actions in each sampled deal with
the same samples for every candidate:

- Card play: each legal card (and marriage declaration) is played in each sample and the deal is
  played out by the rule-based policy (`policy.playout_code`); once the hands hold at most
  `EXACT_TRICKS` cards the rest is solved exactly instead (max-n search: each seat picks the card
  best for itself, with perfect information of that sample; `hard` solves from 3 cards left at
  the root). The card with the best mean utility over the samples is played.
- Bidding: in each sample the auction is played on by a model of the others (they bid while the
  heuristic value of their hand allows) for each limit this bot might bid up to; each resulting
  declarer gives and plans his contract by the heuristic and the deal is played out. The limit
  with the best mean utility decides: bid the lowest legal bid if it is within the limit, else
  pass. (Against the model, passing with a hand that scores well in defence is often best: a
  defender keeps all his points and marriages, a declarer at most his contract.)
- Giving: the heuristic's best ways to give two cards (and both ways to hand them out) are played
  out in every sample; the best one is given, first card first.
- Contract: the deal is played out in every sample; each legal contract, and conceding, is scored
  against those outcomes and the best one is named.

With `Budget.exact_samples` set (the arena's `exact`, issue 16) every phase is decided by exact
solves (`bots.solver`, its compiled core) in the sampled deals instead of playouts:

- Card play: each candidate, then the rest solved for the declarer against the two defenders
  playing together, exactly within `EXACT_MARGIN` of his contract; a defender also solves his
  own points with the other two against him (`Budget.own_points`), since each defender scores
  his own.
- Bidding: the auction is played on by the same model of the others; where it makes this seat
  the declarer, its hand with the sampled talon is solved after the heuristic's best `BID_GIVES`
  ways to give, and the bid the auction reached scores as made or failed by those points
  (made within `OWN_BID_MARGIN` of it); made, it scores the contract the declarer would then
  name (`OWN_RAISE_SLACK` below the points) where that is higher than the bid. Where it makes
  another seat the declarer, his points are solved too (`Budget.exact_defence`). `hard` bids
  by a simpler rule instead, the oracle's on its samples (`Budget.make_share`): the lowest bid
  while its own declaring, solved the same way but only as far as whether the points reach
  the bid, makes it in at least that share of the samples. The auction model's picture of the
  others (they bid up to the heuristic's limit) does not foresee how the searching bots bid;
  the rule, which needs none, scored 4 points a deal more against `normal` and as much
  against `pimc` (docs/bots.md).
- Giving: each way to give is solved in every sample; it is worth what the best contract (or
  conceding) would score over the samples with the hand it keeps.
- Contract: the declarer's points are solved in every sample, and the contract (up to
  `CONTRACT_RANGE` above the bid) or conceding that scores best over them is named.

The utility of a seat is its deal score minus half the scores of the other two active players,
so the search cares about beating the others (a defender helps set the declarer), as a
tournament does, and the game becomes zero-sum. The dealer at a table of 4 scores the talon
whatever happens, so he is left out.

The budget is counted in playouts and samples, and in the moves they make (`Budget.playout_work`;
an exact solve's in the solver's moves), not in seconds, so a decision is reproducible for a seed
and an observation. `hard` has about 25 times the budget of `normal`, solves the last three
tricks exactly at the root, and weighs its samples by how well they explain the others' bids and
cards (`_judge`: a card the rule-based policy would not have played in that layout, or a bid or
pass the heuristic's limit would not have made, makes the layout less likely). A safety deadline
(`Budget.deadline`) stops the search early on an overloaded machine: no new sample is started
when one more like the last would end past it, and past 1.5 times the deadline the sample under
way is dropped, so a decision stays well under a second (0.2 s for `normal`, 0.6 s for `hard`).
Only then may a decision depend on the machine's speed.
The bot never sees the deal itself: everything comes from the observation (a test swaps the hidden
cards of the true deal for another layout consistent with the observation and gets the same
decision).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import cast

from rules import Action, Observation, RuleSet
from rules import actions as A
from rules.actions import decode
from rules.cards import marriages_value
from rules.deal import BIDDING, GIVING, PLAY, DealState

from . import solver
from .base import Bot, decision_rng, require_turn
from .heuristic import CONTRACT_MARGIN, HeuristicBot, best_gives, bid_limit
from .knowledge import Knowledge
from .policy import estimate_points, playout_code
from .sampler import SampleError, Sampler

EXACT_TRICKS = 2
# Exact card play: the declarer's points are solved exactly within this many of his contract
# (giving and the contract: this far below the bid).
EXACT_MARGIN = 30
# Exact giving and contract: contracts up to this far above the bid are considered.
CONTRACT_RANGE = 100
# Exact bidding: the declarer's own declaring is valued with this many of the heuristic's best
# ways to give (each both ways round).
BID_GIVES = 2
# Exact bidding: the bid counts as made when the solved points come within this much of it, and
# a bid made scores the contract the declarer would name with those points, OWN_RAISE_SLACK below
# them, when that is higher than the bid. Scored by the bid alone, declaring a strong hand was
# undervalued and a margin of 30 (bolder bidding) measured best; with the raise, the margin is 0.
# `hard` against `pimc` and `normal`, 240 duplicate deals of seed 201, its mean score per deal by
# (margin, slack): (30, none) 42.0; (0, none) 42.8; (0, 10) 52.5; (0, 20) 52.6; (0, 30) 48.6;
# (15, 20) 50.3; (-10, 20) 48.8; (0, 20) solved 40 points higher 50.6 (docs/bots.md).
OWN_BID_MARGIN = 0
OWN_RAISE_SLACK = 10
# How much less likely a sampled deal is for each recorded action that the model of the other
# players would not have taken in it (`_judge`). Mild, since the others need not play like the
# model.
MISFIT = 0.6


@dataclass(frozen=True)
class Budget:
    playouts: int  # card play: playouts per decision, shared by the candidates
    min_samples: int  # card play: at least this many samples
    bid_samples: int
    give_samples: int
    give_candidates: int
    contract_samples: int
    exact_tricks: int  # card play: solve exactly once the hand holds this many cards or fewer
    infer: bool  # weigh samples by how well they explain the others' bids and cards
    deadline: float  # seconds: a safety stop, never reached on a normal machine
    # Nonzero: every phase is decided by exact solves in the sampled deals (bots.solver), the
    # card play with this many samples, bidding, giving and the contract with theirs; 0 for
    # playouts. Only with the solver's compiled core (the pure-Python one is too slow for a seat).
    exact_samples: int = 0
    # The work of one exact decision: the moves its solves may try (bots.solver.nodes). Past it
    # no new sample is taken, and a sample is dropped once half as much again is spent; counted
    # in work, not seconds, the same decision comes out on any machine under any load. Sized so
    # that the deadline, a safety stop, is not reached on an idle machine. 0: no limit.
    exact_nodes: int = 0
    # The same for a decision by playouts (no exact solves): the moves its playouts and their
    # small end searches may make (`playout_moves`). 0: no limit.
    playout_work: int = 0
    # Exact bidding: where the auction model makes another seat the declarer, his points are
    # solved too (after the heuristic's gifts and contract, or his conceding) instead of
    # played out by the rule-based policy, so that declaring and defending are valued alike.
    exact_defence: bool = False
    # Exact bidding: its own bid counts as made when the solved points come this close to it.
    own_bid_margin: int = OWN_BID_MARGIN
    # Exact bidding: where its own bid is made, the contract it would name with those points
    # (this much below them, rounded down) scores instead of the bid, when higher. None: the bid.
    own_raise_slack: int | None = OWN_RAISE_SLACK
    # Exact card play: a defender counts his own points (solved with the other two against him)
    # and his partner's, not only the declarer's (each defender scores his own points).
    own_points: bool = False
    # Exact bidding with `exact_defence`: where another seat declares, this seat's own points as a
    # defender (its marriages included) are solved too, not taken as half the defenders' share.
    # Off: +1.0 per deal [-5.2, +7.1] against `hard` without it (300 duplicate deals, seed 405).
    own_defence: bool = False
    # Exact giving and contract: a contract above the bid counts as made in a sample only where
    # the solved points pass it by this much. Off: 5 and 10 scored +0.9 [-5.8, +7.5] and +3.5
    # [-1.7, +8.8] per deal against `hard` without it (300 duplicate deals of seed 407; made 81%
    # and 87% of their contracts, `hard` 78%): not yet beyond the noise.
    contract_margin: int = 0
    # Inference (`infer`): how much less likely a sampled deal is for each recorded card, and
    # each bid or pass, that the model of the other players would not have played in it. 0.3
    # for either scored +0.4 [-4.1, +4.9] and -0.2 [-4.2, +3.8] per deal against 0.6 (600
    # duplicate deals of seed 414).
    misfit_play: float = MISFIT
    misfit_bid: float = MISFIT
    # Exact bidding by the oracle's rule instead of the auction model: bid the lowest bid while
    # its own declaring makes it (solved, `own_declaring`) in at least this share of the
    # samples (by weight). 0: the auction model, whose model of the others' bids (the
    # heuristic's limit) does not foresee how the searching bots bid (docs/bots.md).
    make_share: float = 0.0


BUDGETS = {
    "normal": Budget(
        playouts=60,
        min_samples=6,
        bid_samples=8,
        give_samples=4,
        give_candidates=3,
        contract_samples=16,
        exact_tricks=2,
        infer=False,
        deadline=0.2,
    ),
    # Today's `hard` before issue 16, by playouts of the rule-based policy: the arena's `pimc`,
    # kept to measure the exact `hard` against, and `hard` where the solver was not compiled.
    "pimc": Budget(
        playouts=1600,
        min_samples=64,
        bid_samples=160,
        give_samples=50,
        give_candidates=10,
        contract_samples=240,
        exact_tricks=3,
        infer=True,
        deadline=0.6,
        # About 0.3 s of playouts on an idle core of this machine: its card play made up to
        # 500,000 moves a decision (the end searches with three cards left), 143,000 at p95.
        playout_work=150_000,
    ),
}
# `hard` (issue 16): every phase by exact solves in fewer sampled deals. Where the solver's core
# was not compiled, `hard` is `pimc`. Its auction model solves the others' declaring too
# (`exact_defence`), so that declaring and defending are valued alike: +10.3 per deal
# [+3.5, +17.0] against `hard` playing the others' declaring out by the policy (300 duplicate
# deals of seed 402, both with `own_points`); it declares far more often (186 deals to 67).
BUDGETS["hard"] = replace(
    BUDGETS["pimc"],
    # Its bidding by the share of samples its own declaring makes (`make_share`), each solved
    # only as far as the bid needs, so twice the samples of the auction model fit the time.
    # The samples and the work limit of every phase 1.5 to 1.8 times those before the tenth
    # round (32, 8, 24, 24; 3 million moves), within the time goals (p95 0.8 s, never 1 s):
    # against two `normal` +25.3 per deal on the 600 duplicate deals of seed 1 (+22.2 before),
    # +19.0 on seed 2 (the same), against two `pimc` +20.8 (+18.6); docs/bots.md, tenth round.
    bid_samples=48,
    give_samples=12,
    give_candidates=3,
    contract_samples=40,
    exact_samples=40,
    # About 0.45 s of solving on an idle core of this machine (12,000 moves a millisecond): its
    # decisions without a limit tried up to 14 million moves (1.2 s), 4 million at p95 in bidding.
    exact_nodes=5_500_000,
    exact_defence=True,
    # +7.3 per deal [+0.5, +14.1] against `hard` without it (300 duplicate deals, seed 401).
    own_points=True,
    # Against two `normal` on the 600 duplicate deals of the goal match (seed 1): +20.2 at
    # 0.5, +20.2 at 0.55, +20.4 at 0.6, +18.0 at 0.7 (16 samples); +21.1 at 0.55 with 32;
    # the auction model +17.2, and +15.5 with the others' limits 20 higher in it (docs/bots.md,
    # eighth round).
    make_share=0.55,
)
FALLBACK = {"hard": "pimc"}


# The scores of a finished deal: the search casts `DealState.scores` (None only while a deal goes
# on) to it where the state is known to be finished.
Scores = tuple[int, ...]


def utility(scores: Scores, seat: int, active: tuple[int, ...]) -> float:
    others = 0
    for s in active:
        if s != seat:
            others += scores[s]
    return scores[seat] - others / 2


class StrongBot(Bot):
    name = "strong"

    def __init__(
        self, *, seed: int = 0, level: str = "normal", budget: Budget | None = None
    ) -> None:
        super().__init__(seed=seed)
        if level not in BUDGETS:
            raise ValueError(f"unknown level {level!r}")
        self.level = level
        # A custom budget is for tests (a small search, or no deadline so that a slow machine
        # cannot change a decision); tournaments use the levels' budgets.
        if budget is None:
            budget = BUDGETS[level]
            if budget.exact_samples and not solver.COMPILED:
                budget = BUDGETS[FALLBACK[level]]
        self.budget = budget

    def __repr__(self) -> str:
        return f"StrongBot(seed={self.seed}, level={self.level!r})"

    def choose(self, observation: Observation) -> Action:
        require_turn(observation)
        return decode(self.choose_code(observation), observation.seat)

    def choose_code(self, observation: Observation, *, talon: int = 0) -> int:
        """The action's code. `talon` (the face-down talon's cards) is for the oracle's
        measurement of what knowing them is worth in the auction; a seat never passes it."""
        legal = tuple(a.code for a in observation.legal)
        self.last_cut = False
        if len(legal) == 1:
            return legal[0]
        knowledge = Knowledge.from_observation(observation)
        budget = self.budget
        judge = (
            partial(_judge, play=budget.misfit_play, bid=budget.misfit_bid)
            if budget.infer
            else None
        )
        sampler = Sampler(knowledge, judge=judge, talon=talon)
        rng = decision_rng(self.seed, observation, self.level)
        search = _Search(knowledge, sampler, rng, budget, legal)
        phase = observation.phase
        exact = search.exact
        try:
            if phase == "bidding":
                return search.bidding()
            if phase == "giving":
                return search.exact_giving() if exact else search.giving()
            if phase == "contract":
                return search.exact_contract() if exact else search.contract()
            return search.play()
        except SampleError:
            # Never seen in testing; if the sampler cannot build a consistent deal, play on by
            # the rules rather than stop a live table.
            return HeuristicBot(seed=self.seed).choose_code(observation)
        finally:
            self.last_cut = search.cut


class _Search:
    def __init__(
        self,
        k: Knowledge,
        sampler: Sampler,
        rng: random.Random,
        budget: Budget,
        legal: tuple[int, ...],
    ) -> None:
        self.k = k
        self.sampler = sampler
        self.rng = rng
        self.budget = budget
        self.legal = legal
        self.seat = k.seat
        self.active = k.active
        self.last = time.perf_counter()
        self.stop_at = self.last + budget.deadline
        # Past this even a sample under way is dropped (a starved process must still answer).
        self.abort_at = self.last + 1.5 * budget.deadline
        # Whether the deadline stopped this search before its budget of work was done.
        self.cut = False
        # Every phase by exact solves (`Budget.exact_samples`), where the compiled core is built.
        self.exact = budget.exact_samples > 0 and solver.COMPILED
        if self.exact:
            # Its solves keep one table; a new one for each decision, so that the work counted
            # (`Budget.exact_nodes`) is this decision's alone, whatever came before it.
            solver.forget()
        self.nodes_at = solver.nodes()
        self.moves_at = playout_moves()
        # The work of this decision, in the moves of its solves or of its playouts.
        self.limit = budget.exact_nodes if self.exact else budget.playout_work

    def out_of_time(self) -> bool:
        """Whether another round like the last one would end past the deadline."""
        now = time.perf_counter()
        spent = now - self.last
        self.last = now
        if now + spent > self.stop_at:
            self.cut = True
        return self.cut

    def worked(self) -> int:
        """The moves this decision's exact solves have tried so far, or its playouts made."""
        if self.exact:
            return solver.nodes() - self.nodes_at
        return playout_moves() - self.moves_at

    def worked_out(self, done: int) -> bool:
        """Whether another sample like the average of the `done` before it would take the
        decision past its work (`Budget.exact_nodes` or `Budget.playout_work`)."""
        if not self.limit:
            return False
        spent = self.worked()
        return spent + spent / done > self.limit

    def samples(self, count: int) -> Iterator[tuple[int, DealState, float]]:
        """Up to `count` sampled deals with their weights, numbered from 0; no more once
        another would take the decision past its work or end past the deadline."""
        for done in range(count):
            if done and (self.worked_out(done) or self.out_of_time()):
                return
            yield done, self.sampler.sample(self.rng), self.sampler.weight

    def overdue(self, done: int) -> bool:
        """Whether to drop the sample under way (never the first one): half as much work again
        as the decision's is spent (the same on every machine), or the deadline is far past."""
        if done == 0:
            return False
        if self.limit and self.worked() > 1.5 * self.limit:
            return True
        if time.perf_counter() > self.abort_at:
            self.cut = True
            return True
        return False

    # ------------------------------------------------------------------ card play
    def play(self) -> int:
        candidates = [c for c in self.legal if c != A.CONCEDE]
        if len(candidates) == 1:
            return candidates[0]
        budget = self.budget
        if self.exact:
            return self.exact_play(candidates)
        samples = max(budget.min_samples, budget.playouts // len(candidates))
        totals = [0.0] * len(candidates)
        seat, active = self.seat, self.active
        exact = self.k.held.bit_count() <= budget.exact_tricks
        for done, state, weight in self.samples(samples):
            values = []
            for code in candidates:
                if self.overdue(done):
                    break
                child = state.clone()
                child.step(code)
                leaf = _maxn(child) if exact else finish(child)
                values.append(utility(cast(Scores, leaf.scores), seat, active))
            if len(values) < len(candidates):
                break
            for i, value in enumerate(values):
                totals[i] += weight * value
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def exact_play(self, candidates: list[int]) -> int:
        """Each candidate in each sampled deal, the rest solved exactly: the declarer's points
        with the defenders playing together against him (bots.solver). The declarer's score
        follows (his contract made or not); the declarer wants it and his points high, a
        defender both low (`_declarer_utility`)."""
        k = self.k
        declarer = k.declarer
        contract = k.contract
        totals = [0.0] * len(candidates)
        for done, state, weight in self.samples(self.budget.exact_samples):
            values = []
            for code in candidates:
                if self.overdue(done):
                    break
                child = state.clone()
                child.step(code)
                points = child.won[declarer] + child.marriage_points[declarer]
                if child.phase == PLAY:
                    # Exact near the contract, where the score turns; beyond a margin only
                    # more or less matters, and the window makes the search much smaller.
                    need = contract - points
                    points += _solve_declarer(child, need - EXACT_MARGIN, need + EXACT_MARGIN)
                marriages = child.marriage_points[declarer] + marriages_value(child.hands[declarer])
                score = contract if _compared(state.rules, points) >= contract else -contract
                value = _declarer_utility(score, points, marriages)
                if self.seat != declarer:
                    if self.budget.own_points:
                        value = _defender_utility(child, self.seat, score, points, marriages)
                    else:
                        # A defender's own marriage is his score (the declarer's solve is
                        # blind to it): declaring one on lead counts for him in full.
                        mine = child.marriage_points[self.seat] - state.marriage_points[self.seat]
                        value = mine - value / 2
                values.append(value)
            if len(values) < len(candidates):
                break
            for i, value in enumerate(values):
                totals[i] += weight * value
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    # ------------------------------------------------------------------ bidding
    def bidding(self) -> int:
        k = self.k
        legal = self.legal
        bids = [c for c in legal if A.BID <= c < A.CONTRACT]
        if not bids:
            return A.PASS
        rules = k.rules
        low = (bids[0] - A.BID) * 5
        if self.exact and self.budget.make_share:
            return bids[0] if self.make_share(low) >= self.budget.make_share else A.PASS
        # Limits this bot might stop at: pass now (0), or go on up to each level.
        ceiling = rules.bid_ceiling(marriages_value(k.held))
        top = min(ceiling, low + 60)
        limits = [0] + list(range(low, top + 1, 5))
        totals = [0.0] * len(limits)
        seat, active = self.seat, self.active
        for done, state, weight in self.samples(self.budget.bid_samples):
            others = {s: bid_limit(state.hands[s]) for s in active if s != seat}
            outcomes: dict[int, tuple[int, tuple[int, ...], int]] = {}
            own: tuple[int, int] | None = None
            defences: dict[int, tuple[int, int, int, int | None]] = {}
            row: list[float] = []
            for limit in limits:
                if self.overdue(done):
                    break
                auction = state.clone()
                _auction(auction, seat, limit, others)
                declarer = auction.declarer
                if self.exact and declarer == seat:
                    # Its own declaring solved exactly: the bid the auction reached, made or
                    # not by the points its hand and this talon take after its best gifts, or
                    # the contract it would name with them (`_own_bid_score`).
                    if own is None:
                        own = self.own_declaring(auction, low, top)
                    points, marriages = own
                    score = _own_bid_score(rules, self.budget, auction.bid, points, marriages)
                    row.append(_declarer_utility(score, points, marriages))
                    continue
                if self.exact and self.budget.exact_defence:
                    solved = defences.get(declarer)
                    if solved is None:
                        defender = seat if self.budget.own_defence else None
                        solved = defences[declarer] = _other_declaring(auction, low, top, defender)
                    points, marriages, planned, mine = solved
                    if mine is None:
                        row.append(-_defended(rules, auction, points, marriages, planned) / 2)
                    else:
                        row.append(
                            _defending(rules, auction, seat, points, marriages, planned, mine)
                        )
                    continue
                played = outcomes.get(declarer)
                if played is None:
                    played = outcomes[declarer] = _declare_and_play(auction)
                points, scores, planned = played
                final = list(scores)
                contract = max(auction.bid, planned)
                final[declarer] = contract if points >= contract else -contract
                row.append(utility(tuple(final), seat, active))
            if len(row) < len(limits):
                break
            for i, value in enumerate(row):
                totals[i] += weight * value
        best = max(range(len(limits)), key=lambda i: (totals[i], -i))
        return bids[0] if limits[best] >= low else A.PASS

    def make_share(self, low: int) -> float:
        """The share of the samples (by weight) where its own declaring at the lowest bid,
        `low`, is made (within `Budget.own_bid_margin`): its points after its best gifts
        (`own_declaring`) solved only as far as that needs (whether they reach it; exact one
        rounding unit below it, for rounded points)."""
        made = total = 0.0
        rules = self.k.rules
        need = low - self.budget.own_bid_margin
        for done, state, weight in self.samples(self.budget.bid_samples):
            if self.overdue(done):
                break
            auction = state.clone()
            _auction(auction, self.seat, low, dict.fromkeys(self.active, 0))
            points, _marriages = self.own_declaring(auction, need - rules.rounding, need)
            total += weight
            if _compared(rules, points) >= need:
                made += weight
        return made / total if total else 0.0

    def own_declaring(self, auction: DealState, low: int, high: int) -> tuple[int, int]:
        """After an auction this seat won (the talon in its hand): the most points it takes with
        perfect play after the heuristic's best `BID_GIVES` ways to give, each solved exactly
        within [low, high], and the marriages of the hand it keeps that way."""
        seat = self.seat
        recipients = [s for s in auction.active if s != seat]
        groups = [group for _, group in best_gives(auction.hands[seat], 0, 2)[:BID_GIVES]]
        best = (-1, 0)
        for plan in _plans(recipients, groups):
            child = auction.clone()
            for to, card in plan:
                child.step(A.GIVE + 24 * to + card)
            marriages = marriages_value(child.hands[seat])
            child.step(A.CONTRACT + child.bid // 5)
            points = _solve_declarer(child, low, high)
            if points > best[0]:
                best = (points, marriages)
        return best

    # ------------------------------------------------------------------ giving
    def give_plans(self) -> list[Plan]:
        """The heuristic's best ways to give (`Budget.give_candidates` of them), each card to
        each recipient both ways round."""
        k = self.k
        recipients = sorted({(c - A.GIVE) // 24 for c in self.legal if A.GIVE <= c < A.BID})
        ranked = best_gives(k.held, k.played_all, len(recipients))
        return _plans(recipients, [group for _, group in ranked[: self.budget.give_candidates]])

    def giving(self) -> int:
        plans = self.give_plans()
        if len(plans) == 1:
            return _first_gift(plans[0])
        totals = [0.0] * len(plans)
        seat, active = self.seat, self.active
        for done, state, weight in self.samples(self.budget.give_samples):
            row = []
            for plan in plans:
                if self.overdue(done):
                    break
                child = state.clone()
                for to, card in plan:
                    child.step(A.GIVE + 24 * to + card)
                child.step(A.CONTRACT + child.bid // 5)
                row.append(utility(cast(Scores, finish(child).scores), seat, active))
            if len(row) < len(plans):
                break
            for i, value in enumerate(row):
                totals[i] += weight * value
        best = max(range(len(plans)), key=lambda i: (totals[i], -i))
        return _first_gift(plans[best])

    # ------------------------------------------------------------------ contract
    def contract(self) -> int:
        k = self.k
        contracts = [c for c in self.legal if A.CONTRACT <= c < A.PASS]
        seat, active = self.seat, self.active
        outcomes: list[tuple[int, Scores, float]] = []
        for _, state, weight in self.samples(self.budget.contract_samples):
            state.step(contracts[0])
            state = finish(state)
            points = state.won[seat] + state.marriage_points[seat]
            outcomes.append((points, cast(Scores, state.scores), weight))
        options = []
        for code in contracts:
            value = (code - A.CONTRACT) * 5
            total = weights = 0.0
            for points, scores, weight in outcomes:
                final = list(scores)
                final[seat] = value if points >= value else -value
                total += weight * utility(tuple(final), seat, active)
                weights += weight
            options.append((total / weights, -code, code))
        if A.CONCEDE in self.legal:
            own = 0 if k.forced else -k.bid
            bonus = k.rules.concede_bonus
            options.append((own - bonus, -A.CONCEDE, A.CONCEDE))
        return max(options)[2]

    def exact_giving(self) -> int:
        """Each way to give in each sampled deal, the declarer's points then solved exactly;
        a way is worth what the best contract (or conceding) scores over the samples with the
        hand it keeps."""
        k = self.k
        plans = self.give_plans()
        if len(plans) == 1:
            return _first_gift(plans[0])
        rules = k.rules
        low, seat = k.bid - EXACT_MARGIN, self.seat
        outcomes: list[list[Outcome]] = [[] for _ in plans]
        tops: list[int] = []
        for plan in plans:
            kept = k.held
            for _, card in plan:
                kept &= ~(1 << card)
            ceiling = max(rules.bid_ceiling(marriages_value(kept)), k.bid)
            tops.append(min(ceiling, k.bid + CONTRACT_RANGE))
        for done, state, weight in self.samples(self.budget.give_samples):
            row = []
            for plan, top in zip(plans, tops, strict=True):
                if self.overdue(done):
                    break
                child = state.clone()
                for to, card in plan:
                    child.step(A.GIVE + 24 * to + card)
                marriages = marriages_value(child.hands[seat])
                child.step(A.CONTRACT + child.bid // 5)
                row.append((_solve_declarer(child, low, top), marriages, weight))
            if len(row) < len(plans):
                break
            for i, outcome in enumerate(row):
                outcomes[i].append(outcome)
        values = [
            _best_contract(
                rules,
                k,
                outcome,
                range(k.bid, top + 1, 5),
                concede=True,
                margin=self.budget.contract_margin,
            )[0]
            for outcome, top in zip(outcomes, tops, strict=True)
        ]
        best = max(range(len(plans)), key=lambda i: (values[i], -i))
        return _first_gift(plans[best])

    def exact_contract(self) -> int:
        """The declarer's points solved exactly in each sampled deal; the contract (or
        conceding) that scores best over them is named."""
        k = self.k
        contracts = [c for c in self.legal if A.CONTRACT <= c < A.PASS]
        named = ((c - A.CONTRACT) * 5 for c in contracts)
        values = [value for value in named if value <= k.bid + CONTRACT_RANGE]
        top = values[-1]
        marriages = marriages_value(k.held)
        outcomes: list[Outcome] = []
        for _, state, weight in self.samples(self.budget.contract_samples):
            state.step(contracts[0])
            outcomes.append((_solve_declarer(state, k.bid - EXACT_MARGIN, top), marriages, weight))
        _, value = _best_contract(
            k.rules,
            k,
            outcomes,
            values,
            concede=A.CONCEDE in self.legal,
            margin=self.budget.contract_margin,
        )
        return A.CONCEDE if value is None else A.CONTRACT + value // 5


# ---------------------------------------------------------------------- helpers


def _judge(state: DealState, seat: int, code: int, *, play: float, bid: float) -> float:
    """Likelihood factor of another seat's recorded action in a sampled deal (see `Budget.infer`):
    its card against the rule-based policy's card, its bid or pass against the heuristic's limit."""
    phase = state.phase
    if phase == PLAY:
        if code >= A.GIVE:
            return 1.0
        if state.trick and state.legal_play_mask(state.hands[seat]).bit_count() < 2:
            return 1.0
        return 1.0 if playout_code(state) == code else play
    if phase == BIDDING:
        limit = bid_limit(state.hands[seat])
        if code == A.PASS:
            low = state.bid + state.rules.bid_step if state.bid else state.rules.min_bid
            return bid if limit >= low + 20 else 1.0
        value = (code - A.BID) * 5
        return 1.0 if value <= limit + 10 else bid
    return 1.0


# The moves this process's playouts and their end searches have made (`finish`, `_maxn`): the
# work a decision by playouts is counted in (`Budget.playout_work`), as the exact solves' is
# in bots.solver.nodes().
_moves = 0


def playout_moves() -> int:
    return _moves


def finish(state: DealState) -> DealState:
    """The end of a deal in the card play: the policy's playout, then the exact solver for the
    last `EXACT_TRICKS` tricks. Returns the finished state (`state` itself may be left behind)."""
    global _moves
    while state.phase == PLAY:
        if not state.trick and state.hands[state.to_act].bit_count() <= EXACT_TRICKS:
            return _maxn(state)
        state.step(playout_code(state))
        _moves += 1
    return state


def _auction(state: DealState, seat: int, limit: int, others: dict[int, int]) -> None:
    """Play the auction on: `seat` bids the lowest bid up to `limit`, the others up to theirs."""
    while state.phase == BIDDING:
        codes = state.legal_codes()
        who = state.to_act
        cap = limit if who == seat else others[who]
        if len(codes) > 1 and (codes[1] - A.BID) * 5 <= cap:
            state.step(codes[1])
        else:
            state.step(A.PASS)


def _declare_and_play(state: DealState) -> tuple[int, Scores, int]:
    """After an auction: the declarer gives and plans his contract by the heuristic, and the deal
    is played out.

    Returns the declarer's deal points, the scores, and the contract he would name if the bid is
    lower (the caller scores the declarer for the bid that the auction reached, or that)."""
    declarer = state.declarer
    state = state.clone()
    planned = 0
    if state.phase == GIVING:
        recipients = [s for s in state.active if s != declarer]
        _, group = best_gives(state.hands[declarer], 0, 2)[0]
        for to, card in zip(recipients, group, strict=True):
            state.step(A.GIVE + 24 * to + card)
        hand = state.hands[declarer]
        ceiling = state.rules.bid_ceiling(marriages_value(hand))
        planned = min(int((estimate_points(hand) - CONTRACT_MARGIN) // 5) * 5, ceiling)
        state.step(A.CONTRACT + state.bid // 5)
    state = finish(state)
    points = state.won[declarer] + state.marriage_points[declarer]
    return points, cast(Scores, state.scores), planned


def _other_declaring(
    state: DealState, low: int, high: int, defender: int | None = None
) -> tuple[int, int, int, int | None]:
    """After an auction another seat won: his points solved exactly (within [low - EXACT_MARGIN,
    high + EXACT_MARGIN]) after the heuristic's gifts, the marriages of the hand he keeps, the
    contract the heuristic would plan with it, and, for a `defender` seat, the points that
    defender takes (his marriages included) with the other two against him (else None)."""
    declarer = state.declarer
    state = state.clone()
    recipients = [s for s in state.active if s != declarer]
    _, group = best_gives(state.hands[declarer], 0, 2)[0]
    for to, card in zip(recipients, group, strict=True):
        state.step(A.GIVE + 24 * to + card)
    hand = state.hands[declarer]
    marriages = marriages_value(hand)
    ceiling = state.rules.bid_ceiling(marriages)
    planned = min(int((estimate_points(hand) - CONTRACT_MARGIN) // 5) * 5, ceiling)
    state.step(A.CONTRACT + state.bid // 5)
    points = _solve_declarer(state, low - EXACT_MARGIN, max(high, planned) + EXACT_MARGIN)
    mine = None
    if defender is not None:
        position, seats = solver.Position.of(state)
        mine = solver.solve(position, 1 << seats.index(defender), keep=True)
    return points, marriages, planned, mine


def _defended(
    rules: RuleSet, auction: DealState, points: int, marriages: int, planned: int
) -> float:
    """The declarer's utility (`_declarer_utility`) when the auction made another seat the
    declarer, from his solved points: the contract he plans (at least the bid reached) made or
    failed, or conceded where that costs him less."""
    bid = auction.bid
    contract = max(bid, planned)
    score = contract if _compared(rules, points) >= contract else -contract
    value = _declarer_utility(score, points, marriages)
    conceded = (0 if auction.forced else -bid) - rules.concede_bonus
    return max(value, float(conceded))


def _defending(
    rules: RuleSet,
    auction: DealState,
    seat: int,
    points: int,
    marriages: int,
    planned: int,
    mine: int,
) -> float:
    """A defender's utility (`utility`) when the auction made another seat the declarer, from
    the declarer's solved points and his own (`_other_declaring`): the declarer's contract made
    or failed, or conceded where that costs him less (`_defended`); the defender scores his own
    points, marriages included, and his partner the card points neither takes."""
    declarer = _defended(rules, auction, points, marriages, planned)
    conceded = (0 if auction.forced else -auction.bid) - rules.concede_bonus
    if declarer == conceded:
        bonus = rules.concede_bonus
        return bonus - bonus / 2 - (conceded + bonus) / 2
    contract = max(auction.bid, planned)
    score = contract if _compared(rules, points) >= contract else -contract
    return _own_utility(mine, 0, score, points, marriages)


def _maxn(state: DealState) -> DealState:
    """The finished deal when every seat plays the rest perfectly for its own utility."""
    global _moves
    _moves += 1
    if state.phase != PLAY:
        return state
    seat = state.to_act
    active = state.active
    best_leaf = state  # stands for "none yet": a seat to play always has a card to try
    best_value = 0.0
    for code in state.legal_codes():
        if code == A.CONCEDE:
            continue
        child = state.clone()
        child.step(code)
        leaf = _maxn(child)
        # A leaf is finished, so it has its scores; no cast here, the solver's innermost loop.
        value = utility(leaf.scores, seat, active)  # type: ignore[arg-type]
        if best_leaf is state or value > best_value:
            best_value, best_leaf = value, leaf
    return best_leaf


# A way to give: (recipient, card) for each gift, the first to make first.
Plan = tuple[tuple[int, int], ...]
# An exact outcome of a sampled deal for the declarer: his points, the marriages of his hand, and
# the sample's weight.
Outcome = tuple[int, int, float]


def _plans(recipients: list[int], groups: list[tuple[int, ...]]) -> list[Plan]:
    """Each group of cards given to the recipients, both ways round when there are two."""
    plans: list[Plan] = []
    for group in groups:
        if len(recipients) == 1:
            plans.append(((recipients[0], group[0]),))
        else:
            first, second = recipients
            plans.append(((first, group[0]), (second, group[1])))
            plans.append(((first, group[1]), (second, group[0])))
    return plans


def _first_gift(plan: Plan) -> int:
    to, card = plan[0]
    return A.GIVE + 24 * to + card


def _solve_declarer(state: DealState, low: int, high: int) -> int:
    """The declarer's points from here to the end of a deal in its card play, the defenders
    playing together against him: exact within [low, high], else low - 1 or high + 1."""
    position, seats = solver.Position.of(state)
    # The table is kept between solves: the samples and candidates of a decision meet the same
    # positions again (after the first trick of each candidate card, say). Clipped to the
    # window, the answer does not depend on what the table held.
    rest = solver.solve(position, 1 << seats.index(state.declarer), low=low, high=high, keep=True)
    return min(max(rest, low - 1), high + 1)


def _own_bid_score(rules: RuleSet, budget: Budget, bid: int, points: int, marriages: int) -> int:
    """The bidding model's score of its own declaring at `bid`, from the points its hand takes
    in a sampled deal (solved) and the marriages it keeps: the bid made when the points come
    within `Budget.own_bid_margin` of it, else failed; made, the contract it would then name
    (`Budget.own_raise_slack` below the points, within what its marriages allow) if higher."""
    compared = _compared(rules, points)
    if compared + budget.own_bid_margin < bid:
        return -bid
    if budget.own_raise_slack is None:
        return bid
    ceiling = min(rules.bid_ceiling(marriages), bid + CONTRACT_RANGE)
    return max(bid, min((compared - budget.own_raise_slack) // 5 * 5, ceiling))


def _defender_utility(
    state: DealState, seat: int, score: int, points: int, marriages: int
) -> float:
    """A defender's utility (`utility`) in a sampled deal's card play, from the declarer's score
    and points (solved against the two defenders together, `_declarer_utility`'s arguments):
    his own points are what he takes with the others both against him (solved), and the other
    defender's the card points neither the declarer nor he takes. The declarer's solve alone
    would leave him indifferent to his partner taking his points: each defender scores his own."""
    own = state.won[seat]
    if state.phase == PLAY:
        position, seats = solver.Position.of(state)
        own += solver.solve(position, 1 << seats.index(seat), keep=True)
    return _own_utility(own, state.marriage_points[seat], score, points, marriages)


def _own_utility(own: int, declared: int, score: int, points: int, marriages: int) -> float:
    """A defender's utility (`utility`) from his points (`own`, and `declared` in marriages
    besides) and the declarer's score and points (`_declarer_utility`'s arguments): his partner
    scores the card points neither takes."""
    cards = min(max(points - marriages, 0), 120)
    partner = max(120 - cards - own, 0)
    return own + declared - partner / 2 - score / 2


def _compared(rules: RuleSet, points: int) -> int:
    """The declarer's points as his contract is compared with them."""
    return rules.round_points(points) if rules.round_declarer_points else points


def _declarer_utility(score: int, points: int, marriages: int) -> float:
    """The declarer's utility (`utility`) from his score and points: the defenders share the card
    points he does not take (their own marriages, unknown here, left out); `marriages` is the
    part of his points he may have from marriages."""
    cards = min(max(points - marriages, 0), 120)
    return score - (120 - cards) / 2


def _best_contract(
    rules: RuleSet,
    k: Knowledge,
    outcomes: list[Outcome],
    values: Iterable[int],
    *,
    concede: bool,
    margin: int = 0,
) -> tuple[float, int | None]:
    """The best contract over exact outcomes, or None for conceding, with its mean utility; a
    contract above the bid counts as made where the points pass it by `margin`."""
    weights = sum(weight for _, _, weight in outcomes) or 1.0
    best: tuple[float, int | None] = (-float("inf"), None)
    for value in values:
        total = 0.0
        need = value + margin if value > k.bid else value
        for points, marriages, weight in outcomes:
            score = value if _compared(rules, points) >= need else -value
            total += weight * _declarer_utility(score, points, marriages)
        if total / weights > best[0]:
            best = (total / weights, value)
    if concede:
        own = 0 if k.forced else -k.bid
        if own - rules.concede_bonus > best[0]:
            best = (own - rules.concede_bonus, None)
    return best
