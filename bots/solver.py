"""Exact double-dummy solver of a 1001 deal's card play: with every hand known, the most card
points and marriages a side (one seat, or a coalition of seats) takes from a position to the end
of the deal, all three players playing perfectly (the side for itself, the others against it).

A position is any moment of the play (the first trick on, a trick half played included) under
the rule options that matter for play: must-beat, marriages declared on lead (the suit becomes
trump and the declarer of the marriage scores it), and whether a marriage may be declared on the
first trick. Seats are the three active players in their playing order (0, 1, 2, then 0 again),
so a table of 4 maps its active seats to them (`Position.of`).

The search is alpha-beta over the moves, the most promising first (`_Search.moves`), with a
transposition table at the start of each trick (what is left to take depends on the hands, the
trump and who leads, never on how the points so far were taken), and a threshold form ("can
the side take `target` more points?") that searches with a null window. The compiled core
(`bots/_solver.c`, built by `pip install -e .` where a C compiler is present) runs the same
algorithm about a hundred times faster; this module is its reference (the tests check both
give the same value on thousands of random positions) and the fallback where it was not built.
`COMPILED` says which one runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, cast

from rules.cards import CARD_POINTS, MARRIAGE_VALUE
from rules.deal import PLAY, DealState, follow_mask, marriage_leads

try:  # the compiled core, when `pip install -e .` could build it
    from bots import _solver  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - where no C compiler was present
    _solver = None

COMPILED = _solver is not None

# A move is a card (0..23), or a card led as a marriage plus MARRIAGE (the engine's codes
# differ: `Position.code` translates).
MARRIAGE = 32
# The most points a deal can still hold: 120 in the cards and 280 in the four marriages.
MOST_POINTS = 400


@dataclass(frozen=True)
class Position:
    """hands: the card masks of seats 0, 1, 2 (in playing order); trick: the cards played to
    the current trick so far, by `leader` and the seats after him; trump: a suit, or -1 before
    any marriage; first_trick: whether this is the deal's first trick (no marriage may be
    declared on it unless `marriage_on_first_trick`)."""

    hands: tuple[int, int, int]
    trick: tuple[int, ...] = ()
    leader: int = 0
    trump: int = -1
    first_trick: bool = False
    must_beat: bool = False
    marriage_on_first_trick: bool = False

    @classmethod
    def of(cls, state: DealState) -> tuple[Position, tuple[int, ...]]:
        """The position of a deal in play, and the engine's seats in playing order (seat i of
        the position is the engine's seats[i])."""
        if state.phase != PLAY:
            raise ValueError("the deal is not in its card play")
        seats = _playing_order(state)
        hands = tuple(state.hands[seat] for seat in seats)
        leader = seats.index(state.leader) if state.trick else seats.index(state.to_act)
        position = cls(
            hands=(hands[0], hands[1], hands[2]),
            trick=tuple(state.trick),
            leader=leader,
            trump=state.trump,
            first_trick=state.trick_no == 0,
            must_beat=state.rules.must_beat,
            marriage_on_first_trick=state.rules.marriage_on_first_trick,
        )
        return position, seats

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 3


def _playing_order(state: DealState) -> tuple[int, ...]:
    first = state.active[0]
    return (first, state.next_seat[first], state.next_seat[state.next_seat[first]])


def engine_code(move: int) -> int:
    """The engine's action code of a move (`rules.actions`: a card, or a marriage lead)."""
    from rules import actions as A

    return A.PLAY_MARRIAGE + (move - MARRIAGE) if move >= MARRIAGE else move


def solve(
    position: Position, side: int, *, low: int = 0, high: int = MOST_POINTS, keep: bool = False
) -> int:
    """The points (cards won and marriages declared from now on) the side takes with perfect
    play; `side` is a mask of the seats (1 << seat) that play for it. A narrower window
    [low, high] searches less: the value is exact when it lies in the window, else the answer
    is below `low` (the value no more than it) or above `high` (the value no less).

    `keep`: go on with the transposition table of the solves before this one if they kept it
    too and were for the same rule options (an entry's key is the whole position and the side,
    so it holds in any deal): positions met again, as after each candidate card of one deal, are
    not searched twice. The value in the window is the same; a bound outside it may differ
    (it is still a true bound)."""
    return _core().solve(*_arguments(position, side), low - 1, high + 1, keep)


def nodes() -> int:
    """The moves tried by every solve of this process so far: the work a bot's budget counts
    (bots/strong.py), the same on any machine for the same solves from the same table."""
    return _core().nodes()


def forget() -> None:
    """The next solve starts with a new transposition table, even one asked to keep it: the
    work of a bot's decision then does not depend on the decisions before it."""
    _core().forget()


def reaches(position: Position, side: int, target: int) -> bool:
    """Whether the side can take at least `target` points from here whatever the others do."""
    if target <= 0:
        return True
    return _core().solve(*_arguments(position, side), target - 1, target) >= target


def best_move(position: Position, side: int) -> tuple[int, int]:
    """The move of the seat to act that is best for the side if the seat plays for it (worst,
    if it plays against it), and the side's points with perfect play after it."""
    return _core().best(*_arguments(position, side))


def _check(position: Position) -> None:
    """A position of a real deal: no card twice, the hands of the seats who played to the trick
    one card shorter than the others'."""
    hands, trick = position.hands, position.trick
    seen = 0
    for mask in (*hands, *(1 << card for card in trick)):
        if mask >> 24 or seen & mask:
            raise ValueError("a card is held or played twice, or is not a card")
        seen |= mask
    if len(trick) > 2 or not 0 <= position.leader <= 2 or not -1 <= position.trump <= 3:
        raise ValueError("not a position of the card play")
    played = {(position.leader + k) % 3 for k in range(len(trick))}
    sizes = {hands[seat].bit_count() + (seat in played) for seat in range(3)}
    if len(sizes) != 1 or sizes == {0} and trick:
        raise ValueError("the hands do not fit the trick")


# hands 0, 1, 2, the trick, the leader, the trump, first trick, must-beat, marriage on the first
# trick, the side: what the compiled core and the reference take.
Arguments = tuple[int, int, int, tuple[int, ...], int, int, bool, bool, bool, int]


class _Core(Protocol):
    def solve(self, *arguments: object) -> int: ...

    def best(self, *arguments: object) -> tuple[int, int]: ...

    def nodes(self) -> int: ...

    def forget(self) -> None: ...


def _arguments(position: Position, side: int) -> Arguments:
    _check(position)
    if not 0 <= side <= 7:
        raise ValueError("the side is a mask of seats 0, 1 and 2")
    return (
        position.hands[0],
        position.hands[1],
        position.hands[2],
        position.trick,
        position.leader,
        position.trump,
        position.first_trick,
        position.must_beat,
        position.marriage_on_first_trick,
        side,
    )


def _core() -> _Core:
    return cast(_Core, _solver if _solver is not None else _Reference)


# (hands, trump, leader, side) at the start of a trick -> (lower, upper) bounds of the value: the
# side is in the key, so that the solves of a decision for different sides share one table.
# A kept table starts anew past this many entries (the compiled core's has a fixed size).
KEPT_ENTRIES = 1 << 18
Table = dict[tuple[int, int, int, int, int, int], tuple[int, int]]


class _Reference:
    """The pure-Python solver: the compiled core's algorithm, move for move."""

    # The table the last solves kept, and the rule options it was found for.
    kept: tuple[tuple[bool, bool], Table] | None = None
    # The moves tried by its searches (the compiled core counts alike; its table is smaller, so
    # the two counts differ where its entries were replaced).
    tried = 0

    @classmethod
    def nodes(cls) -> int:
        return cls.tried

    @classmethod
    def forget(cls) -> None:
        cls.kept = None

    @classmethod
    def solve(cls, *arguments: object) -> int:
        (h0, h1, h2, trick, leader, trump, first, must_beat, mofirst, side, alpha, beta) = cast(
            "tuple[int, int, int, tuple[int, ...], int, int, bool, bool, bool, int, int, int]",
            arguments[:12],
        )
        keep = len(arguments) > 12 and bool(arguments[12])
        search = _Search([h0, h1, h2], must_beat, mofirst, side)
        context = (bool(must_beat), bool(mofirst))
        kept = cls.kept
        if keep and kept is not None and kept[0] == context and len(kept[1]) < KEPT_ENTRIES:
            search.table = kept[1]
        cls.kept = (context, search.table) if keep else None
        return search.value(list(trick), leader, trump, first, alpha, beta)

    @classmethod
    def best(cls, *arguments: object) -> tuple[int, int]:
        (h0, h1, h2, trick, leader, trump, first, must_beat, mofirst, side) = cast(
            Arguments, arguments
        )
        cls.kept = None  # as the compiled core, which starts a new table
        search = _Search([h0, h1, h2], must_beat, mofirst, side)
        return search.best(list(trick), leader, trump, first)


class _Search:
    def __init__(self, hands: list[int], must_beat: bool, mofirst: bool, side: int) -> None:
        self.hands = hands
        self.must_beat, self.mofirst, self.side = must_beat, mofirst, side
        self.table: Table = {}

    def moves(self, trick: list[int], seat: int, trump: int, first: bool) -> list[int]:
        """The legal moves of `seat`, the most promising first: on lead marriages, then high
        cards; following a partner who takes the trick so far, points on it first; following an
        opponent who takes it, the cards that beat his (the cheapest first when this seat plays
        last), then the others, the cheapest first."""
        hand = self.hands[seat]
        if not trick:
            cards = _cards_high_first(hand)
            if first and not self.mofirst:
                return cards
            leads = marriage_leads(hand)
            marriages = [MARRIAGE + card for card in _cards_high_first(leads)]
            return marriages + cards
        index = _winning_index(tuple(trick), trump)
        top = trick[index]
        legal = follow_mask(hand, trick[0] // 6, top, trump, self.must_beat)
        winner = (seat - len(trick) + index) % 3
        if (self.side >> winner & 1) == (self.side >> seat & 1):
            return _cards_high_first(legal)
        suit = top // 6
        beating = legal & _SUIT_MASK[suit] & ~((2 << top) - 1)
        if 0 <= trump != suit:
            beating |= legal & _SUIT_MASK[trump]
        winning = _cards_high_first(beating)
        if len(trick) == 2:
            winning.reverse()
        return winning + _cards_high_first(legal & ~beating)[::-1]

    def value(
        self, trick: list[int], leader: int, trump: int, first: bool, alpha: int, beta: int
    ) -> int:
        hands = self.hands
        if not trick:
            if not (hands[0] | hands[1] | hands[2]):
                return 0
            key = (hands[0], hands[1], hands[2], trump, leader, self.side)
            bounds = self.table.get(key)
            if bounds is not None:
                lower, upper = bounds
                # Known exactly, or beyond the window: no search. Otherwise the window narrows
                # and stays open (lower < upper): an empty window would cut after one move.
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
            found = self._search(trick, leader, trump, first, alpha, beta)
            lower, upper = bounds if bounds is not None else (0, MOST_POINTS)
            if found <= alpha:
                upper = min(upper, found)
            elif found >= beta:
                lower = max(lower, found)
            else:
                lower = upper = found
            self.table[key] = (lower, upper)
            return found
        return self._search(trick, leader, trump, first, alpha, beta)

    def _search(
        self, trick: list[int], leader: int, trump: int, first: bool, alpha: int, beta: int
    ) -> int:
        seat = (leader + len(trick)) % 3
        ours = self.side >> seat & 1
        best = -1 if ours else MOST_POINTS + 1
        for move in self.moves(trick, seat, trump, first):
            value = self._child(move, trick, leader, trump, first, seat, alpha, beta)
            if ours:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _child(
        self,
        move: int,
        trick: list[int],
        leader: int,
        trump: int,
        first: bool,
        seat: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The side's points from here if `seat` makes `move`."""
        _Reference.tried += 1
        gained = 0
        card = move
        if move >= MARRIAGE:
            card = move - MARRIAGE
            trump = card // 6
            if self.side >> seat & 1:
                gained = MARRIAGE_VALUE[trump]
        bit = 1 << card
        self.hands[seat] ^= bit
        try:
            if len(trick) < 2:
                trick.append(card)
                try:
                    return gained + self.value(
                        trick, leader, trump, first, alpha - gained, beta - gained
                    )
                finally:
                    trick.pop()
            cards = (trick[0], trick[1], card)
            winner = (leader + _winning_index(cards, trump)) % 3
            if self.side >> winner & 1:
                gained += CARD_POINTS[cards[0]] + CARD_POINTS[cards[1]] + CARD_POINTS[card]
            return gained + self.value([], winner, trump, False, alpha - gained, beta - gained)
        finally:
            self.hands[seat] ^= bit

    def best(self, trick: list[int], leader: int, trump: int, first: bool) -> tuple[int, int]:
        seat = (leader + len(trick)) % 3
        ours = self.side >> seat & 1
        chosen, chosen_value = -1, -1
        for move in self.moves(trick, seat, trump, first):
            value = self._child(move, trick, leader, trump, first, seat, 0, MOST_POINTS + 1)
            if chosen < 0 or (value > chosen_value if ours else value < chosen_value):
                chosen, chosen_value = move, value
        if chosen < 0:
            raise ValueError("the seat to act has no card")
        return chosen, chosen_value


_SUIT_MASK = tuple(0x3F << 6 * suit for suit in range(4))


def _cards_high_first(mask: int) -> list[int]:
    """The cards of `mask`, aces first, then tens, and so on; spades before clubs at a rank."""
    return [
        card for rank in range(5, -1, -1) for s in range(4) if mask >> (card := 6 * s + rank) & 1
    ]


def _winning_index(cards: tuple[int, ...], trump: int) -> int:
    """Which of the cards played to a trick (the first led) takes it so far."""
    best = 0
    for index in range(1, len(cards)):
        card, top = cards[index], cards[best]
        if (card // 6 == top // 6 and card > top) or (card // 6 == trump != top // 6):
            best = index
    return best
