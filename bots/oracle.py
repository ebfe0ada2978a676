"""The oracle: a player that sees every card, for measuring how far the bots are from the limit.

Never a seat at a table (it is not in `BOT_NAMES`, so no page or API can ask for it): only the
arena seats it (`python -m bots.arena --bots oracle,hard,hard`), and it reads the true deal
instead of an observation. Every phase by the exact solver (`bots.solver`) on the true deal:

- play: the card best for its side, with perfect play after it (the declarer alone; the two
  defenders as one side, taking as much as they can together);
- giving: the two gifts whose kept hand takes the most points with perfect play;
- contract: the highest contract those points make, or conceding when even the bid fails;
- bidding: it bids (the lowest bid, so the auction goes on as it would) while that bid is no more
  than what it would make as the declarer (the talon taken, the best gifts given), else passes.

`phases` limits the oracle to some phases and lets a fallback bot (by default `hard`, which
sees only its observation) decide the others, so the arena measures the headroom by phase
(`--oracle-phase`). One more choice, `talon`, measures what the face-down talon alone is worth
in the auction: the fallback bids as it does, but with the true talon in every deal it samples
(the others' hands still unseen); with `bidding` it has no effect (the oracle bids itself).
"""

from __future__ import annotations

from itertools import permutations

from rules import Action, DealState, Observation
from rules import actions as A
from rules.actions import decode
from rules.deal import PLAY

from .base import Bot
from .solver import Position, best_move, engine_code, solve
from .strong import StrongBot

PHASES = ("bidding", "giving", "contract", "play")
TALON = "talon"
CHOICES = (*PHASES, TALON)


class OracleBot(Bot):
    name = "oracle"

    def __init__(
        self, *, seed: int = 0, phases: tuple[str, ...] = PHASES, fallback: str = "hard"
    ) -> None:
        from . import make_bot

        super().__init__(seed=seed)
        unknown = set(phases) - set(CHOICES)
        if unknown:
            raise ValueError(f"unknown phase {sorted(unknown)[0]!r}; known: {', '.join(CHOICES)}")
        self.phases = tuple(phases)
        self.fallback = make_bot(fallback, seed=seed)
        # (deck, declarer) -> (points he takes as the declarer, his best gifts as codes).
        self._as_declarer: dict[tuple[tuple[int, ...], int], tuple[int, tuple[int, ...]]] = {}

    def choose(self, observation: Observation) -> Action:
        raise TypeError("the oracle reads the whole deal: call choose_in(state)")

    def choose_in(self, state: DealState) -> Action:
        """The action of the seat to act, seeing every card of `state`."""
        seat = state.to_act
        phase = state.phase_name
        self.last_cut = False
        if phase not in self.phases:
            fallback = self.fallback
            if phase == "bidding" and TALON in self.phases and isinstance(fallback, StrongBot):
                code = fallback.choose_code(state.observation(seat), talon=state.talon)
                action = decode(code, seat)
            else:
                action = fallback.choose(state.observation(seat))
            self.last_cut = fallback.last_cut
            return action
        if phase == "play":
            code = self._play(state)
        elif phase == "giving":
            code = self._giving(state)
        elif phase == "contract":
            code = self._contract(state)
        else:
            code = self._bidding(state)
        return decode(code, seat)

    # ------------------------------------------------------------------ phases
    def _play(self, state: DealState) -> int:
        position, seats = Position.of(state)
        declarer = seats.index(state.declarer)
        side = 1 << declarer if state.to_act == state.declarer else 0b111 ^ (1 << declarer)
        move, _ = best_move(position, side)
        return engine_code(move)

    def _giving(self, state: DealState) -> int:
        return self._declarer_plan(state, state.to_act)[1][0]

    def _contract(self, state: DealState) -> int:
        points = _points_made(state, _solve_at_play(state, state.declarer))
        contracts = [code for code in state.legal_codes() if A.CONTRACT <= code < A.CONCEDE]
        making = [code for code in contracts if (code - A.CONTRACT) * 5 <= points]
        if making:
            return max(making)
        return A.CONCEDE

    def _bidding(self, state: DealState) -> int:
        legal = state.legal_codes()
        bids = [code for code in legal if A.BID <= code < A.CONTRACT]
        if not bids:
            return A.PASS
        as_declarer = state.clone()
        # What it would make as the declarer: the talon taken, the best gifts given.
        as_declarer.hands[state.to_act] |= as_declarer.talon
        points = self._declarer_plan(as_declarer, state.to_act, opened=True)[0]
        lowest = min(bids)
        return lowest if (lowest - A.BID) * 5 <= _points_made(state, points) else A.PASS

    # ------------------------------------------------------------------ solving
    def _declarer_plan(
        self, state: DealState, declarer: int, *, opened: bool = False
    ) -> tuple[int, tuple[int, ...]]:
        """The most points `declarer` takes with perfect play after the best gifts from his
        hand in `state` (the talon in it), and those gifts' codes still to make."""
        key = (tuple(state.hands), declarer)
        if key in self._as_declarer:
            return self._as_declarer[key]
        recipients = [seat for seat in state.active if seat != declarer]
        if not opened:
            recipients = [seat for seat in recipients if state.pending >> seat & 1]
        cards = [card for card in range(24) if state.hands[declarer] >> card & 1]
        best: tuple[int, tuple[int, ...]] = (-1, ())
        for gifts in permutations(cards, len(recipients)):
            trial = state.clone()
            for to, card in zip(recipients, gifts, strict=True):
                trial.hands[declarer] ^= 1 << card
                trial.hands[to] |= 1 << card
            points = _solve_at_play(trial, declarer)
            if points > best[0]:
                codes = tuple(
                    A.GIVE + 24 * to + card for to, card in zip(recipients, gifts, strict=True)
                )
                best = (points, codes)
        self._as_declarer[key] = best
        return best


def _solve_at_play(state: DealState, declarer: int) -> int:
    """The points `declarer` takes from the first trick on, his hand and the others' as in
    `state` (gifts made), with perfect play."""
    trial = state.clone()
    trial.phase = PLAY
    trial.declarer = declarer
    trial.to_act = declarer
    trial.trick = ()
    trial.trick_no = 0
    position, seats = Position.of(trial)
    return solve(position, 1 << seats.index(declarer))


def _points_made(state: DealState, points: int) -> int:
    """Points as the contract compares them (rounded under the round-declarer-points option)."""
    rules = state.rules
    return rules.round_points(points) if rules.round_declarer_points else points


__all__ = ["CHOICES", "PHASES", "TALON", "OracleBot"]
