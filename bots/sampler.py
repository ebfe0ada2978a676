"""Determinization: full deals consistent with what one seat knows, replayed to the present.

`Sampler(knowledge).sample(rng)` deals the cards this seat cannot see to the hidden hands (and to
the talon while it is face down), works out the dealt hands from them, builds the deck with the
engine's canonical dealing (`HAND_POSITIONS`, `TALON_POSITIONS`, as `deck_from_hands` does) and
replays the public action sequence with `step()`. The result is a `DealState` at the present
moment in which this seat's hand and everything public are exactly as observed, and the hidden
cards are one possible layout.

How the hidden cards are dealt:

- The cards this seat has not seen (`pool`) go to the other active seats' hands now, in the sizes
  the observation shows. A card a seat cannot hold (`Knowledge.forbidden`: voids, no trumps,
  must-beat limits) goes to the other hidden hand; a card a seat must hold (`required`) goes to it;
  the rest are shuffled between the two. With two hidden hands this is uniform over the layouts that
  respect those constraints.
- While the talon is face down, the pool is split between the two other hands (7 each) and the
  talon; a seat that bid above 120 under the held-marriages cap first gets the marriages its bid
  needs, chosen at random among those still possible.
- After the talon is shown, a defender does not see the card the declarer gave the other defender.
  The talon cards it has not seen played are in the declarer's hand, except that one of them may
  have been given to the other defender (with the chance a uniform give would have: talon cards
  left / 9). Which card of the other defender's hand is the gift only matters for the dealt hands:
  it is a talon card he holds or played, if any, or else one of his cards drawn at random among
  those that leave both dealt hands consistent with the bids.
- Bids and a contract above 120 (held-marriages cap) require marriages in the dealt hand (or in the
  declarer's hand after giving): every other attempt first places marriages that satisfy them
  (chosen at random among the possible ones), and samples that still miss them are drawn again.

A `judge` may weigh each sample by how likely the other seats were to act as they did in it
(`weight` after each `sample()`); the strong bot's `hard` level uses this to prefer layouts that
explain the bids and the cards played.

Each sample is checked by replaying it with `legal_codes()` (every recorded action must be legal
in the sampled deal); a sample that fails is drawn again, so a returned state is always a legal
deal. About 10,000 samples per second on one core (mid-deal, replay checks included).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules import actions as A
from rules.cards import (
    CARDS,
    FULL_DECK,
    MARRIAGE_MASK,
    MARRIAGE_VALUE,
    marriages_value,
    mask_cards,
)
from rules.deal import HAND_POSITIONS, TALON_POSITIONS, DealState

from .knowledge import UNKNOWN_GIVE, Knowledge

# judge(state, seat, code) -> factor (see Sampler).
Judge = Callable[[DealState, int, int], float]
# (dealt hands by seat, talon cards, card of the hidden give or -1).
Layout = tuple[dict[int, int], list[int], int]


def _forced_marriages(rng: random.Random, need: int, available: int, owned: int) -> int | None:
    """Kings and queens to put in a hand so that it holds marriages worth at least `need`:
    marriages chosen at random among those whose cards are `available` or already `owned`."""
    if not need or marriages_value(owned) >= need:
        return 0
    suits = [s for s in range(4) if MARRIAGE_MASK[s] & ~(available | owned) == 0]
    rng.shuffle(suits)
    forced = 0
    got = 0
    for suit in suits:
        if got >= need:
            break
        forced |= MARRIAGE_MASK[suit] & ~owned
        got += MARRIAGE_VALUE[suit]
    return forced if got >= need else None


class SampleError(RuntimeError):
    """No deal consistent with the observation was found (a bug, or inconsistent input)."""


class Sampler:
    """Draws `DealState`s consistent with one seat's `Knowledge`."""

    def __init__(
        self,
        knowledge: Knowledge,
        *,
        check: bool = True,
        judge: Judge | None = None,
        talon: int = 0,
    ) -> None:
        self.k = knowledge
        self.check = check
        # judge(state, seat, code) -> factor: how likely that seat was to take that recorded
        # action in the sampled deal; the product over the replay is the sample's `weight`.
        self.judge = judge
        self.weight = 1.0
        self.force = True
        k = knowledge
        self.others = k.others()
        known = k.held | k.played_all
        if k.declarer >= 0 and k.seat == k.declarer:
            for card in k.given.values():
                known |= 1 << card
            # A defender does not know where unplayed talon cards are: with the declarer, or
            # given to the other defender. They stay in the pool with a rule of their own.
        # The face-down talon's cards (a mask), given only to measure what knowing them is worth
        # in the auction (the oracle's `talon` phase); a seat's bot never has them.
        self.talon = talon if k.declarer < 0 else 0
        self.pool = FULL_DECK & ~known & ~self.talon
        self.tries = 0

    # ----------------------------------------------------------------- public
    def sample(self, rng: random.Random, *, attempts: int = 200) -> DealState:
        for attempt in range(attempts):
            self.tries += 1
            # Placing the marriages that bids need is a shortcut that can miss (a marriage card
            # may have been given away); every other attempt leaves them to the checks instead.
            self.force = attempt % 2 == 0
            layout = self._layout(rng)
            if layout is None:
                continue
            state = self._replay(*layout)
            if state is not None:
                return state
        raise SampleError("no deal consistent with the observation was found")

    # ----------------------------------------------------------------- layouts
    def _layout(self, rng: random.Random) -> Layout | None:
        """(dealt hands by seat, talon cards, card of the hidden give) or None to try again."""
        k = self.k
        if k.declarer < 0:
            return self._layout_before_talon(rng)
        if k.seat == k.declarer:
            return self._layout_as_declarer(rng)
        return self._layout_as_defender(rng)

    def _layout_before_talon(self, rng: random.Random) -> Layout | None:
        k = self.k
        x, y = self.others
        pool = self.pool
        hands = {x: 0, y: 0}
        for seat in (x, y):
            need = k.min_marriages[seat]
            if need:
                suits = [s for s in range(4) if pool & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]]
                rng.shuffle(suits)
                got = 0
                for suit in suits:
                    if got >= need:
                        break
                    hands[seat] |= MARRIAGE_MASK[suit]
                    pool &= ~MARRIAGE_MASK[suit]
                    got += MARRIAGE_VALUE[suit]
                if got < need:
                    return None
        cards = list(mask_cards(pool))
        rng.shuffle(cards)
        index = 0
        for seat in (x, y):
            missing = 7 - hands[seat].bit_count()
            for card in cards[index : index + missing]:
                hands[seat] |= 1 << card
            index += missing
        talon = list(mask_cards(self.talon)) if self.talon else cards[index:]
        if len(talon) != 3:
            return None
        hands[k.seat] = k.held
        return hands, talon, -1

    def _split(
        self,
        rng: random.Random,
        pool: int,
        x: int,
        y: int,
        nx: int,
        ny: int,
        must_x: int,
        must_y: int,
    ) -> tuple[int, int] | None:
        """Deal `pool` to seats x and y (nx and ny cards) respecting forbidden/required cards."""
        k = self.k
        # Required cards outside the pool (the declarer's own gifts) are placed as they are.
        fixed_x = k.required[x] & ~pool
        fixed_y = k.required[y] & ~pool
        nx -= fixed_x.bit_count()
        ny -= fixed_y.bit_count()
        must_x |= pool & (k.required[x] | k.forbidden[y])
        must_y |= pool & (k.required[y] | k.forbidden[x])
        if must_x & must_y:
            return None
        room_x = nx - must_x.bit_count()
        if room_x < 0 or ny - must_y.bit_count() < 0:
            return None
        free = list(mask_cards(pool & ~must_x & ~must_y))
        if len(free) != room_x + ny - must_y.bit_count():
            return None
        rng.shuffle(free)
        hand_x, hand_y = must_x | fixed_x, must_y | fixed_y
        for card in free[:room_x]:
            hand_x |= 1 << card
        for card in free[room_x:]:
            hand_y |= 1 << card
        return hand_x, hand_y

    def _layout_as_declarer(self, rng: random.Random) -> Layout | None:
        k = self.k
        x, y = self.others
        pool = self.pool
        must = []
        for seat in (x, y):
            need = k.min_marriages[seat] if self.force else 0
            forced = _forced_marriages(rng, need, pool & ~k.forbidden[seat], k.played[seat])
            must.append(forced or 0)
        if must[0] & must[1]:
            return None
        split = self._split(rng, pool, x, y, k.hand_sizes[x], k.hand_sizes[y], *must)
        if split is None:
            return None
        hands = {}
        for seat, now in zip((x, y), split, strict=True):
            dealt = now | k.played[seat]
            gift = k.given.get(seat)
            if gift is not None:
                dealt &= ~(1 << gift)
            if k.min_marriages[seat] and marriages_value(dealt) < k.min_marriages[seat]:
                return None
            hands[seat] = dealt
        hands[k.seat] = k.dealt_hand()
        return hands, list(k.talon_order), -1

    def _layout_as_defender(self, rng: random.Random) -> Layout | None:
        k = self.k
        me, d = k.seat, k.declarer
        b = next(s for s in self.others if s != d)
        pool = self.pool
        talon_left = pool & k.talon
        to_b = 0
        b_received = b in k.gives_done
        if talon_left:
            forced = talon_left & k.forbidden[d]
            if forced:
                to_b = forced
            elif (
                b_received
                and not k.played[b] & k.talon
                and rng.random() * 9 < talon_left.bit_count()
            ):
                options = [c for c in mask_cards(talon_left & ~k.forbidden[b])]
                if options:
                    to_b = 1 << rng.choice(options)
            if to_b.bit_count() > 1 or (to_b and (not b_received or k.played[b] & k.talon)):
                return None
            if to_b & k.forbidden[b]:
                return None
        must_d = talon_left & ~to_b
        need_d = max(k.min_marriages[d], k.contract_marriages) if self.force else 0
        need_b = k.min_marriages[b] if self.force else 0
        owned_d = k.played[d] | must_d
        if k.received >= 0:
            owned_d |= 1 << k.received
        forced_d = _forced_marriages(rng, need_d, pool & ~k.forbidden[d] & ~to_b, owned_d)
        forced_b = _forced_marriages(
            rng, need_b, pool & ~k.forbidden[b] & ~must_d, k.played[b] | to_b
        )
        # A marriage may also have left the hand as a gift; when no marriage can be placed, the
        # checks below decide.
        forced_d = forced_d or 0
        forced_b = forced_b or 0
        if forced_d & (forced_b | to_b) or forced_b & must_d:
            return None
        must_d |= forced_d
        to_b |= forced_b
        split = self._split(rng, pool, d, b, k.hand_sizes[d], k.hand_sizes[b], must_d, to_b)
        if split is None:
            return None
        now_d, now_b = split
        hold_b = now_b | k.played[b]
        after_gives_d = now_d | k.played[d]
        if k.contract_marriages and marriages_value(after_gives_d) < k.contract_marriages:
            return None
        if not b_received:
            gifts = [-1]
        else:
            from_talon = hold_b & k.talon
            if from_talon.bit_count() > 1:
                return None
            # The gift is a talon card the other defender holds or played, if any; else any of
            # his cards that leaves both dealt hands consistent with the bids.
            gifts = list(mask_cards(from_talon or hold_b))
            rng.shuffle(gifts)
        for gift in gifts:
            dealt = self._dealt_as_defender(d, b, hold_b, after_gives_d, gift)
            if dealt is not None:
                dealt_d, dealt_b = dealt
                return {me: k.dealt_hand(), d: dealt_d, b: dealt_b}, list(k.talon_order), gift
        return None

    def _dealt_as_defender(
        self, d: int, b: int, hold_b: int, after_gives_d: int, gift: int
    ) -> tuple[int, int] | None:
        k = self.k
        dealt_b = hold_b & ~(1 << gift) if gift >= 0 else hold_b
        dealt_d = after_gives_d
        talon_kept = k.talon
        if k.received >= 0:
            dealt_d |= 1 << k.received
            talon_kept &= ~(1 << k.received)
        if gift >= 0:
            dealt_d |= 1 << gift
            talon_kept &= ~(1 << gift)
        if after_gives_d & talon_kept != talon_kept:
            return None
        dealt_d &= ~k.talon
        if k.min_marriages[b] and marriages_value(dealt_b) < k.min_marriages[b]:
            return None
        if k.min_marriages[d] and marriages_value(dealt_d) < k.min_marriages[d]:
            return None
        return dealt_d, dealt_b

    # ----------------------------------------------------------------- replay
    def _replay(self, hands: dict[int, int], talon: list[int], gift: int) -> DealState | None:
        k = self.k
        deck = [0] * 24
        for seat, positions in zip(k.active, HAND_POSITIONS, strict=True):
            cards = mask_cards(hands[seat])
            if len(cards) != 7:
                return None
            for position, card in zip(positions, cards, strict=True):
                deck[position] = CARDS[card]
        for position, card in zip(TALON_POSITIONS, talon, strict=True):
            deck[position] = CARDS[card]
        state = DealState.deal(deck, players=k.players, dealer=k.dealer, rules=k.rules)
        check = self.check
        judge = self.judge
        weight = 1.0
        for seat, code in k.codes:
            if code == UNKNOWN_GIVE:
                if gift < 0:
                    return None
                code = A.GIVE + 24 * k.hidden_give_to + gift
            if check and (seat != state.to_act or code not in state.legal_codes()):
                return None
            if judge is not None and seat != k.seat:
                weight *= judge(state, seat, code)
            state.step(code)
        self.weight = weight
        return state
