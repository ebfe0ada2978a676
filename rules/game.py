"""A game (match) of 1001: deals in turn, dealer rotation, running totals and the winner rule."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from .actions import Action
from .deal import DealState
from .errors import IllegalActionError
from .options import DEFAULT_RULES, RuleSet


class Game:
    """Deals played one after another at one table until the target or a fixed number of deals.

    The caller supplies each deck order (a live table shuffles it securely, a record replays it).
    """

    def __init__(
        self,
        *,
        players: int = 3,
        first_dealer: int = 0,
        rules: RuleSet = DEFAULT_RULES,
        fixed_deals: int | None = None,
    ) -> None:
        if players not in (3, 4):
            raise ValueError("a table has 3 or 4 players")
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
            raise ValueError(f"the first dealer must be a seat from 0 to {players - 1}")
        if fixed_deals is not None and (
            not isinstance(fixed_deals, int) or fixed_deals <= 0 or fixed_deals % players
        ):
            raise ValueError(
                f"a fixed number of deals must be a positive multiple of {players}, "
                "so that everyone deals equally"
            )
        self.players = players
        self.first_dealer = first_dealer
        self.rules = rules
        self.fixed_deals = fixed_deals
        self.deals: list[DealState] = []
        self.totals = [0] * players
        self.over = False
        self.winner: int | None = None

    @property
    def current(self) -> DealState | None:
        """The deal in progress, or None between deals."""
        if self.deals and not self.deals[-1].done:
            return self.deals[-1]
        return None

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % self.players

    def start_deal(self, deck: Iterable[int | str]) -> DealState:
        if self.over:
            raise IllegalActionError("the game is over")
        if self.current is not None:
            raise IllegalActionError("the current deal is not finished")
        deal = DealState.deal(deck, players=self.players, dealer=self.next_dealer, rules=self.rules)
        self.deals.append(deal)
        return deal

    def apply(self, action: Action) -> None:
        deal = self.current
        if deal is None:
            raise IllegalActionError("the game is over" if self.over else "no deal is in progress")
        deal.apply(action)
        if deal.done:
            self.close_deal(deal)

    def close_deal(self, deal: DealState) -> None:
        """Add a finished deal's scores to the totals and decide whether the game has ended."""
        # A finished deal has its scores.
        for seat, score in enumerate(cast(tuple[int, ...], deal.scores)):
            self.totals[seat] += score
        if self.fixed_deals is not None:
            if len(self.deals) >= self.fixed_deals:
                self.over = True
                self.winner = self._sole_leader()
            return
        target = self.rules.target
        if max(self.totals) < target:
            return
        if deal.declarer >= 0 and self.totals[deal.declarer] >= target:
            self.over, self.winner = True, deal.declarer
            return
        leader = self._sole_leader()
        if leader is not None:  # a tie for the lead is settled by one more deal
            self.over, self.winner = True, leader

    def _sole_leader(self) -> int | None:
        best = max(self.totals)
        leaders = [seat for seat, total in enumerate(self.totals) if total == best]
        return leaders[0] if len(leaders) == 1 else None

    def ranking(self) -> list[int]:
        """Seats from the highest total down; the winner first when there is one."""
        order = sorted(range(self.players), key=lambda seat: -self.totals[seat])
        if self.winner is not None:
            order.remove(self.winner)
            order.insert(0, self.winner)
        return order
