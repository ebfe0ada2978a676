"""The `heuristic` bot (level `easy`): sound rule-based play from the observation alone.

- Bidding: values its hand as declarer (`policy.estimate_points`: sure winners with what falls on
  them, marriages, long suits) plus the talon's expected value (`policy.talon_bonus`: some card
  points and the chance of completing a marriage), and bids the lowest legal bid while it stays
  below that value less a safety margin; otherwise passes.
- Giving: of the 45 ways to give two of its ten cards it keeps the eight that value highest, with
  a penalty for giving a king or queen whose partner is out (the defender may complete a marriage)
  and for giving points away.
- Contract: the bid, raised to what the kept hand is worth less a margin; it concedes a hopeless
  deal (forced to take the talon with a hand unlikely to make the minimum, or a hand so weak that
  the defenders would score more than the concession bonus).
- Play: `policy.choose_card` with what it may assume of the other hands: the cards it has not seen,
  less those a seat cannot hold (voids and no-trumps shown, must-beat limits), plus those it must
  hold (a declared marriage's partner, a card the bot gave it). It declares marriages, cashes
  masters, wins cheaply, throws points on its partner's tricks and counts trumps through the
  cards played.
"""

from __future__ import annotations

from itertools import combinations

from rules import Action, Observation
from rules import actions as A
from rules.actions import decode
from rules.cards import FULL_DECK, MARRIAGE_VALUE, mask_cards

from .base import Bot, require_turn
from .knowledge import Knowledge
from .policy import choose_card, estimate_points, talon_bonus

BID_MARGIN = 12
CONTRACT_MARGIN = 18


def floor5(value: float) -> int:
    return int(value // 5) * 5


def bid_limit(hand: int) -> int:
    """The highest bid the heuristic makes with this dealt hand."""
    unseen = FULL_DECK & ~hand
    value = estimate_points(hand) + talon_bonus(hand, unseen)
    return floor5(value - BID_MARGIN)


def give_penalty(card: int, hand: int, known: int) -> float:
    """What giving `card` may cost besides its own value: a marriage completed for a defender."""
    rank = card % 6
    penalty = 0.3 * (0, 2, 3, 4, 10, 11)[rank]
    if rank in (2, 3):
        partner = card + 1 if rank == 2 else card - 1
        if not (hand | known) >> partner & 1:
            penalty += 0.35 * MARRIAGE_VALUE[card // 6]
    return penalty


def best_gives(hand: int, known: int, count: int) -> list[tuple[float, tuple[int, ...]]]:
    """Ways to give `count` cards of `hand`, best first, by the value of what is kept."""
    scored = []
    cards = mask_cards(hand)
    for group in combinations(cards, count):
        kept = hand
        for card in group:
            kept &= ~(1 << card)
        score = estimate_points(kept) - sum(give_penalty(c, hand, known) for c in group)
        scored.append((score, group))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


def contract_choice(k: Knowledge, legal_codes: tuple[int, ...]) -> int:
    value = estimate_points(k.held)
    if A.CONCEDE in legal_codes:
        if k.forced and value < 30:
            return A.CONCEDE
        if not k.forced and value < 20:
            return A.CONCEDE
    target = max(k.bid, floor5(value - CONTRACT_MARGIN))
    contracts = [c for c in legal_codes if A.CONTRACT <= c < A.PASS]
    wanted = A.CONTRACT + target // 5
    return max((c for c in contracts if c <= wanted), default=contracts[0])


def may_hold(k: Knowledge) -> list[int]:
    """For each seat, the cards it might hold now, by what this seat knows."""
    unseen = FULL_DECK & ~k.held & ~k.played_all
    for card in k.given.values():
        unseen &= ~(1 << card)
    result = [0] * k.players
    for seat in k.others():
        result[seat] = (unseen & ~k.forbidden[seat]) | (k.required[seat] & ~k.played_all)
    if k.declarer >= 0 and k.seat != k.declarer:
        # Unplayed talon cards are with the declarer (unless one was given to the other defender).
        result[k.declarer] |= k.talon & unseen
    result[k.seat] = k.held
    return result


def play_choice(k: Knowledge, legal_codes: tuple[int, ...]) -> int:
    legal = 0
    for code in legal_codes:
        if code < A.PLAY_MARRIAGE:
            legal |= 1 << code
    held = may_hold(k)
    seat = k.seat
    active = k.active
    following = {active[i]: active[(i + 1) % 3] for i in range(3)}
    if seat == k.declarer:
        partner = -1
        opponents = k.others()
    else:
        partner = next(s for s in k.others() if s != k.declarer)
        opponents = (k.declarer,)
    trick = k.trick
    best, best_seat = -1, -1
    if trick:
        who = k.trick_leader
        best, best_seat = trick[0], who
        for card in trick[1:]:
            who = following[who]
            if (card // 6 == best // 6 and card > best) or (
                card // 6 == k.trump and best // 6 != k.trump
            ):
                best, best_seat = card, who
    after = (following[seat],) if len(trick) == 1 else ()
    outstanding = 0
    for s in k.others():
        outstanding |= held[s]
    code = choose_card(
        seat=seat,
        hand=k.held,
        legal=legal,
        trick=trick,
        best=best,
        best_seat=best_seat,
        trump=k.trump,
        partner=partner,
        opponents=opponents,
        after=after,
        may_hold=held,
        outstanding=outstanding,
        can_declare=any(c >= A.PLAY_MARRIAGE for c in legal_codes if c < A.GIVE),
    )
    return code if code in legal_codes else legal_codes[0]


def bidding_choice(k: Knowledge, legal_codes: tuple[int, ...]) -> int:
    bids = [c for c in legal_codes if A.BID <= c < A.CONTRACT]
    if not bids:
        return A.PASS
    limit = bid_limit(k.held)
    lowest = bids[0]
    return lowest if (lowest - A.BID) * 5 <= limit else A.PASS


def giving_choice(k: Knowledge, legal_codes: tuple[int, ...]) -> int:
    recipients = sorted({(c - A.GIVE) // 24 for c in legal_codes if A.GIVE <= c < A.BID})
    known = k.played_all
    ranked = best_gives(k.held, known, len(recipients))
    _, group = ranked[0]
    # The cheaper card goes to the first seat to receive; order does not change the value.
    card = min(group, key=lambda c: ((0, 2, 3, 4, 10, 11)[c % 6], c))
    return A.GIVE + 24 * recipients[0] + card


class HeuristicBot(Bot):
    name = "heuristic"

    def choose(self, observation: Observation) -> Action:
        require_turn(observation)
        return decode(self.choose_code(observation), observation.seat)

    def choose_code(self, observation: Observation) -> int:
        k = Knowledge.from_observation(observation)
        legal_codes = tuple(a.code for a in observation.legal)
        phase = observation.phase
        if phase == "bidding":
            return bidding_choice(k, legal_codes)
        if phase == "giving":
            return giving_choice(k, legal_codes)
        if phase == "contract":
            return contract_choice(k, legal_codes)
        return play_choice(k, legal_codes)
