"""Rule-based card play and hand evaluation on bit masks, shared by the heuristic bot and by the
playouts of the strong bot.

`choose_card` is one decision of the card play given what the player may assume about the other
hands (`may_hold`: for the heuristic bot the cards a seat might hold by its observation; inside a
playout of the strong bot, the seat's actual hand in that sampled deal). It plays as a club player
would:

- On lead: declare the most valuable marriage it may declare (leading its queen, keeping the king
  as a later winner); else cash the master card (the highest card of its suit still out, that no
  void opponent can trump) worth most; else lead its cheapest card, keeping marriage halves and
  unguarded tens.
- Following: when the partner (the other defender) already wins the trick safely, throw points
  onto it; else win with the cheapest card that the players still to come cannot beat; when it
  cannot win safely, give the cheapest card it has.

`estimate_points` values a hand as declarer: card points of its sure winners with what the others
drop on them, the marriages it can declare, and a little for length in the likely trump suit.
`talon_bonus` is the expected gain from the face-down talon. The heuristic bot bids, gives and
names its contract from these numbers, and the strong bot uses them to prune its candidates.
"""

from __future__ import annotations

from rules import actions as A
from rules.cards import ABOVE, CARD_POINTS, MARRIAGE_MASK, MARRIAGE_VALUE, SUIT_MASK
from rules.deal import DealState, marriage_leads

_POINTS = CARD_POINTS
# Cards of one suit from the ace down, so "the highest card of suit s in mask m" is one loop.
_DESCENDING = tuple(tuple(6 * s + r for r in range(5, -1, -1)) for s in range(4))


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def beats(card: int, best: int, trump: int) -> bool:
    suit = card // 6
    return (suit == best // 6 and card > best) or (suit == trump and best // 6 != trump)


def can_beat(hand: int, lead_suit: int, best: int, trump: int) -> bool:
    """Whether a player holding (or possibly holding) `hand` could beat `best` in this trick."""
    follow = hand & SUIT_MASK[lead_suit]
    if follow:
        return best // 6 == lead_suit and bool(follow & ABOVE[best])
    if trump >= 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return best // 6 != trump or bool(trumps & ABOVE[best])
    return False


def is_master(card: int, outstanding: int, trump: int, ruffers: int) -> bool:
    """No card still out beats `card` in its suit, and nobody void in the suit can trump it."""
    suit = card // 6
    if outstanding & ABOVE[card]:
        return False
    return not (trump >= 0 and suit != trump and ruffers >> suit & 1)


def _keep_value(card: int, hand: int, outstanding: int, marriage_cards: int) -> int:
    """How much a card is worth keeping (low: throw it first)."""
    value = _POINTS[card] * 2 + card % 6
    if marriage_cards >> card & 1:
        value += 60
    if not outstanding & ABOVE[card] and card % 6 >= 3:
        value += 25  # a master card is a trick later
    if card % 6 == 4 and outstanding & ABOVE[card] and not hand & ABOVE[card]:
        value += 5  # an unguarded ten: keep it rather than throw 10 points away
    return value


def choose_card(
    *,
    seat: int,
    hand: int,
    legal: int,
    trick: tuple[int, ...],
    best: int,
    best_seat: int,
    trump: int,
    partner: int,
    opponents: tuple[int, ...],
    after: tuple[int, ...],
    may_hold: dict[int, int] | list[int],
    outstanding: int,
    can_declare: bool,
) -> int:
    """The action code to play (a card, or a marriage declaration when leading)."""
    marriage_cards = marriage_leads(hand)
    if not trick:
        if can_declare and marriage_cards:
            suit = highest(marriage_cards) // 6
            return A.PLAY_MARRIAGE + 6 * suit + 2
        ruffers = 0
        if trump >= 0:
            for opponent in opponents:
                held = may_hold[opponent]
                if held & SUIT_MASK[trump]:
                    for suit in range(4):
                        if not held & SUIT_MASK[suit]:
                            ruffers |= 1 << suit
        best_card, best_value = -1, -1
        opp_cards = 0
        for opponent in opponents:
            opp_cards |= may_hold[opponent]
        cards = legal
        while cards:
            card = highest(cards)
            cards ^= 1 << card
            if is_master(card, opp_cards, trump, ruffers) and opp_cards & SUIT_MASK[card // 6]:
                value = _POINTS[card] * 4 + (3 if card // 6 == trump else 0)
                if marriage_cards >> card & 1:
                    value -= 30
                if value > best_value:
                    best_card, best_value = card, value
        if best_card >= 0 and best_value >= 0:
            return best_card
        return _cheapest(legal, hand, outstanding, marriage_cards, trump, lead=True)
    lead_suit = trick[0] // 6
    winners = 0
    cards = legal
    while cards:
        card = lowest(cards)
        cards ^= 1 << card
        if beats(card, best, trump):
            winners |= 1 << card
    if partner >= 0 and best_seat == partner:
        threat = any(
            s not in (seat, partner) and can_beat(may_hold[s], lead_suit, best, trump)
            for s in after
        )
        if not threat:
            return _richest(legal, outstanding, trump)
        safe = _safe_winners(winners, after, may_hold, lead_suit, trump, partner)
        if safe:
            return _cheapest_winner(safe, trump)
        return _cheapest(legal, hand, outstanding, marriage_cards, trump)
    if winners:
        safe = _safe_winners(winners, after, may_hold, lead_suit, trump, partner)
        if safe:
            return _cheapest_winner(safe, trump)
        if after and after[0] == partner:
            return _cheapest(legal, hand, outstanding, marriage_cards, trump)
    return _cheapest(legal, hand, outstanding, marriage_cards, trump)


def _safe_winners(
    winners: int,
    after: tuple[int, ...],
    may_hold: dict[int, int] | list[int],
    lead_suit: int,
    trump: int,
    partner: int,
) -> int:
    safe = 0
    cards = winners
    while cards:
        card = lowest(cards)
        cards ^= 1 << card
        if not any(s != partner and can_beat(may_hold[s], lead_suit, card, trump) for s in after):
            safe |= 1 << card
    return safe


def _cheapest_winner(cards: int, trump: int) -> int:
    """The winning card that costs least power: a non-trump before a trump, then the lowest."""
    if trump >= 0:
        plain = cards & ~SUIT_MASK[trump]
        if plain:
            cards = plain
    best_card, best_rank = -1, 99
    while cards:
        card = lowest(cards)
        cards ^= 1 << card
        rank = card % 6
        if rank < best_rank:
            best_card, best_rank = card, rank
    return best_card


def _richest(legal: int, outstanding: int, trump: int) -> int:
    """Points to throw on the partner's trick: the richest card that is not a winner itself."""
    best_card, best_value = -1, -(1 << 30)
    cards = legal
    while cards:
        card = lowest(cards)
        cards ^= 1 << card
        value = _POINTS[card] * 2
        if not outstanding & ABOVE[card] and card % 6 == 5:
            value -= 15  # keep an ace that is master
        if card // 6 == trump:
            value -= 8
        if value > best_value:
            best_card, best_value = card, value
    return best_card


def _cheapest(
    legal: int, hand: int, outstanding: int, marriage_cards: int, trump: int, lead: bool = False
) -> int:
    best_card, best_value = -1, 1 << 30
    cards = legal
    while cards:
        card = lowest(cards)
        cards ^= 1 << card
        value = _keep_value(card, hand, outstanding, marriage_cards)
        if card // 6 == trump:
            value += 12
        if lead:
            # Lead from length: the others run out of a long suit first.
            value -= (hand & SUIT_MASK[card // 6]).bit_count()
        if value < best_value:
            best_card, best_value = card, value
    return best_card


# --------------------------------------------------------------------------- playouts


def playout_code(state: DealState) -> int:
    """The policy's card for the seat to act in a (sampled, fully known) deal."""
    seat = state.to_act
    hands = state.hands
    hand = hands[seat]
    trick = state.trick
    declarer = state.declarer
    active = state.active
    if seat == declarer:
        partner = -1
        opponents = tuple(s for s in active if s != seat)
    else:
        partner = next(s for s in active if s != seat and s != declarer)
        opponents = (declarer,)
    if trick:
        legal = state.legal_play_mask(hand)
        following = state.next_seat[seat]
        after = (following,) if len(trick) == 1 else ()
    else:
        legal = hand
        after = ()
    outstanding = 0
    for s in active:
        if s != seat:
            outstanding |= hands[s]
    return choose_card(
        seat=seat,
        hand=hand,
        legal=legal,
        trick=trick,
        best=state.best,
        best_seat=state.best_seat,
        trump=state.trump,
        partner=partner,
        opponents=opponents,
        after=after,
        may_hold=hands,
        outstanding=outstanding,
        can_declare=bool(state.trick_no or state.rules.marriage_on_first_trick),
    )


# --------------------------------------------------------------------------- hand values


def estimate_points(hand: int, *, declarer: bool = True) -> float:
    """Deal points a hand can expect to take as declarer (who leads the first trick)."""
    total = 0.0
    for suit in range(4):
        cards = hand & SUIT_MASK[suit]
        length = cards.bit_count()
        if not length:
            continue
        run = 0
        for card in _DESCENDING[suit]:
            if cards >> card & 1:
                run += 1
                total += _POINTS[card] + 7  # the card and what the others drop on it
            else:
                break
        if run and length >= 4:
            total += (length - 3) * 6  # long suit: the last cards win once the others are out
        if not run and cards >> (6 * suit + 4) & 1 and length >= 3:
            total += 8  # a guarded ten often wins later
    marriages: float = 0
    count = 0
    for suit in range(3, -1, -1):
        both = MARRIAGE_MASK[suit]
        if hand & both == both:
            marriages += MARRIAGE_VALUE[suit] * (0.95 if count == 0 else 0.8)
            count += 1
            # the king and queen of the trump suit usually win a trick too
            total += 5
    return total + marriages


def talon_bonus(hand: int, unseen: int) -> float:
    """Expected gain from the three face-down talon cards (of the `unseen` cards)."""
    count = unseen.bit_count() or 1
    share = 3 / count
    bonus = 8.0
    for suit in range(4):
        both = MARRIAGE_MASK[suit]
        have = hand & both
        if have and have != both and unseen & both & ~have:
            bonus += share * MARRIAGE_VALUE[suit] * 0.9
    return bonus
