"""What one seat knows about a deal, read from its `Observation`: the public action sequence and
the constraints every hidden card must respect.

A bot never sees the `DealState`, only an observation. `Knowledge.from_observation` rebuilds from
it, in the engine's integer form:

- `codes`: the whole action sequence as (seat, code) pairs, in the order the engine applied them
  (bids, the declarer's gives in the order they were made, the contract, the card plays with the
  marriage declarations). A give whose card this seat cannot see has the code `UNKNOWN_GIVE`, its
  recipient in `hidden_give_to`; the sampler fills it in.
- `played[seat]`: the cards each seat has played; `held`: this seat's cards now.
- `forbidden[seat]`: cards a seat cannot hold now, inferred from the play: failing to follow suit
  (void in the suit led), failing to trump (no trump), and, with `must_beat`, following or trumping
  below the winning card (nothing above it in that suit).
- `required[seat]`: cards a seat must hold now: the partner of a marriage it declared and has not
  played, and, for the declarer, the cards he gave that their recipient has not played.
- `min_marriages[seat]`: the least marriage value its dealt hand held, from bids above 120 under
  the held-marriages cap; `contract_marriages`: the same for the declarer's hand after giving,
  from a contract above 120.

Everything here is public or this seat's own: the observation never holds another seat's hidden
cards, so nothing built from it can.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import actions as A
from rules.cards import ABOVE, SUIT_MASK
from rules.observation import Observation
from rules.options import RuleSet

UNKNOWN_GIVE = -1


@dataclass(slots=True)
class Knowledge:
    seat: int
    players: int
    dealer: int
    active: tuple[int, ...]
    rules: RuleSet
    phase: str
    declarer: int  # -1 while the auction goes on
    forced: bool
    bid: int
    contract: int
    talon: int  # mask, 0 while hidden
    talon_order: tuple[int, ...]
    held: int  # this seat's cards now
    hand_sizes: tuple[int, ...]
    codes: list[tuple[int, int]]
    hidden_give_to: int  # the seat whose gift this seat cannot see, -1 if none (yet)
    received: int  # the card this seat was given, -1 if none
    given: dict[int, int]  # this seat's own gifts (as declarer): to seat -> card
    gives_done: tuple[int, ...]
    played: list[int]
    forbidden: list[int]
    required: list[int]
    min_marriages: list[int]
    contract_marriages: int
    trump: int
    trick_no: int
    trick: tuple[int, ...]
    trick_leader: int
    marriages_declared: list[int] = field(default_factory=list)  # per seat, value declared

    @property
    def played_all(self) -> int:
        total = 0
        for mask in self.played:
            total |= mask
        return total

    def others(self) -> tuple[int, ...]:
        return tuple(s for s in self.active if s != self.seat)

    def dealt_hand(self) -> int:
        """This seat's hand as dealt (7 cards)."""
        hand = self.held | self.played[self.seat]
        if self.seat == self.declarer:
            for card in self.given.values():
                hand |= 1 << card
            hand &= ~self.talon
        elif self.received >= 0:
            hand &= ~(1 << self.received)
        return hand

    @classmethod
    def from_observation(cls, obs: Observation) -> Knowledge:
        if obs.seat is None:
            raise ValueError("a spectator's observation has no seat to play for")
        seat = obs.seat
        players = obs.players
        rules = obs.rules
        active = obs.active
        following = {active[k]: active[(k + 1) % 3] for k in range(3)}
        codes: list[tuple[int, int]] = []
        min_marriages = [0] * players
        capped = rules.bid_cap == "held_marriages"
        for who, value in obs.bids:
            if value is None:
                codes.append((who, A.PASS))
            else:
                codes.append((who, A.BID + value // 5))
                if capped and value > 120:
                    min_marriages[who] = max(min_marriages[who], value - 120)
        declarer = -1 if obs.declarer is None else obs.declarer
        given = {to: int(card) for to, card in obs.given}
        received = -1 if obs.received is None else int(obs.received)
        hidden_give_to = -1
        for to in obs.gives_done:
            if seat == declarer:
                card = given[to]
            elif to == seat:
                card = received
            else:
                card = UNKNOWN_GIVE
                hidden_give_to = to
            code = A.GIVE + 24 * to + card if card >= 0 else UNKNOWN_GIVE
            codes.append((declarer, code))
        contract = obs.contract or 0
        contract_marriages = 0
        if obs.contract is not None:
            codes.append((declarer, A.CONTRACT + contract // 5))
            # Naming the bid itself is always allowed; only a raise above 120 needs marriages.
            if capped and contract > 120 and contract > (obs.bid or 0):
                contract_marriages = contract - 120
        played = [0] * players
        forbidden = [0] * players
        marriage_at = {m.trick: m for m in obs.marriages}
        declared = [0] * players
        marriage_partner = []  # (seat, partner card)
        trump = -1
        for number, trick in enumerate(obs.tricks):
            who = trick.leader
            best = -1
            lead_suit = trick.cards[0] // 6 if trick.cards else -1
            marriage = marriage_at.get(number)
            for position, card in enumerate(trick.cards):
                card = int(card)
                suit = card // 6
                if position == 0:
                    if marriage is not None:
                        trump = marriage.suit
                        declared[who] += (40, 60, 80, 100)[trump]
                        partner = card + 1 if card % 6 == 2 else card - 1
                        marriage_partner.append((who, partner))
                        codes.append((who, A.PLAY_MARRIAGE + card))
                    else:
                        codes.append((who, card))
                    best = card
                else:
                    codes.append((who, card))
                    if suit != lead_suit:
                        forbidden[who] |= SUIT_MASK[lead_suit]
                        if trump >= 0 and suit != trump:
                            forbidden[who] |= SUIT_MASK[trump]
                        elif rules.must_beat and trump >= 0 and best // 6 == trump and card < best:
                            forbidden[who] |= ABOVE[best]
                    elif rules.must_beat and best // 6 == lead_suit and card < best:
                        forbidden[who] |= ABOVE[best]
                    if (suit == best // 6 and card > best) or (
                        suit == trump and best // 6 != trump
                    ):
                        best = card
                played[who] |= 1 << card
                who = following[who]
        held = 0
        for card in obs.hand:
            held |= 1 << int(card)
        all_played = 0
        for mask in played:
            all_played |= mask
        required = [0] * players
        for who, partner in marriage_partner:
            if not all_played >> partner & 1:
                required[who] |= 1 << partner
        if seat == declarer:
            for to, card in given.items():
                if not played[to] >> card & 1:
                    required[to] |= 1 << card
        talon = 0
        talon_order: tuple[int, ...] = ()
        if obs.talon is not None:
            talon_order = tuple(int(c) for c in obs.talon)
            for card in talon_order:
                talon |= 1 << card
        last = obs.tricks[-1] if obs.tricks else None
        current: tuple[int, ...]
        if last is not None and last.winner is None:
            current = tuple(int(c) for c in last.cards)
            trick_leader = last.leader
            trick_no = len(obs.tricks) - 1
        else:
            current, trick_leader, trick_no = (), -1, len(obs.tricks)
        return cls(
            seat=seat,
            players=players,
            dealer=obs.dealer,
            active=active,
            rules=rules,
            phase=obs.phase,
            declarer=declarer,
            forced=obs.forced,
            bid=obs.bid or 0,
            contract=contract,
            talon=talon,
            talon_order=talon_order,
            held=held,
            hand_sizes=obs.hand_sizes,
            codes=codes,
            hidden_give_to=hidden_give_to,
            received=received,
            given=given,
            gives_done=tuple(obs.gives_done),
            played=played,
            forbidden=forbidden,
            required=required,
            min_marriages=min_marriages,
            contract_marriages=contract_marriages,
            trump=trump if obs.trump is None else obs.trump,
            trick_no=trick_no,
            trick=current,
            trick_leader=trick_leader,
            marriages_declared=declared,
        )
