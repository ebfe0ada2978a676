"""The state machine of one deal of 1001: bidding, talon, giving, contract, eight tricks, scoring.

`DealState` is built for speed: hands are bit masks, actions are integer codes (see `actions`), the
action log is a linked tuple shared between copies, so `clone()` copies a few ints and lists.
`legal_codes()` and `step()` are the unchecked inner loop for bots; `legal_actions()`, `apply()`
and `observation()` are the checked, readable interface.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeAlias, cast

from . import actions as A
from .actions import Action, decode, encode
from .cards import (
    ABOVE,
    CARD_NAMES,
    CARD_POINTS,
    CARDS,
    DECK_SIZE,
    MARRIAGE_MASK,
    MARRIAGE_VALUE,
    NINES_MASK,
    SUIT_MASK,
    SUIT_NAMES,
    Card,
    cards_of,
    marriages_value,
    mask_cards,
    mask_points,
)
from .errors import IllegalActionError
from .options import DEFAULT_RULES, RuleSet

if TYPE_CHECKING:
    from .observation import Observation

BIDDING, GIVING, CONTRACT, PLAY, DONE = range(5)
PHASE_NAMES = ("bidding", "giving", "contract", "play", "done")
TRICKS_PER_DEAL = 8

# Queens of every suit and the K+Q bits of every suit: a hand's marriage leads in two operations.
_QUEENS = sum(1 << (6 * s + 2) for s in range(4))
_KINGS_QUEENS = sum(MARRIAGE_MASK)
_VALUE_CODES: dict[tuple[int, int, int], tuple[int, ...]] = {}
# The action log: (the log before, seat, code), a linked list that copies share.
Log: TypeAlias = "tuple[Log, int, int] | None"


def _value_codes(base: int, low: int, high: int) -> tuple[int, ...]:
    """Codes of the bids (or contracts) from `low` to `high`, by fives; cached."""
    key = (base, low, high)
    codes = _VALUE_CODES.get(key)
    if codes is None:
        codes = _VALUE_CODES[key] = tuple(range(base + low // 5, base + high // 5 + 1))
    return codes


def marriage_leads(hand: int) -> int:
    """Mask of the kings and queens in `hand` whose marriage partner is in `hand` too."""
    both = hand & _KINGS_QUEENS
    queens = both & (both >> 1) & _QUEENS
    return queens | (queens << 1)


def follow_mask(hand: int, lead_suit: int, best: int, trump: int, must_beat: bool) -> int:
    """Cards of `hand` that may follow to a trick led in `lead_suit` whose best card so far is
    `best` (trump: a suit, or -1): the suit led if he has it, else a trump if he has one, else
    any card; under must-beat, of those a card above the best one when he has one."""
    follow = hand & SUIT_MASK[lead_suit]
    if not must_beat:
        if follow:
            return follow
        if trump >= 0:
            trumps = hand & SUIT_MASK[trump]
            if trumps:
                return trumps
        return hand
    if follow:
        if best // 6 == lead_suit:
            return follow & ABOVE[best] or follow
        return follow
    if trump >= 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            if best // 6 == trump:
                return trumps & ABOVE[best] or trumps
            return trumps
    return hand


# Deck positions of the cards of active player k (0, 1, 2) and of the talon (RULES.md section 3).
HAND_POSITIONS = tuple((k, 4 + k, 8 + k, 12 + k, 15 + k, 18 + k, 21 + k) for k in range(3))
TALON_POSITIONS = (3, 7, 11)


def deck_from_hands(hands: Iterable[Iterable[int | str]], talon: Iterable[int | str]) -> list[Card]:
    """The deck order whose canonical deal gives these hands (active players in order) and talon.

    The inverse of dealing: handy for writing down a deal played on paper, and for tests.
    """
    hand_lists = [list(hand) for hand in hands]
    talon_list = list(talon)
    if len(hand_lists) != 3 or any(len(hand) != 7 for hand in hand_lists) or len(talon_list) != 3:
        raise ValueError("three hands of 7 cards and a talon of 3 cards are needed")
    deck: list[Card | None] = [None] * DECK_SIZE
    for positions, cards in zip(
        (*HAND_POSITIONS, TALON_POSITIONS), (*hand_lists, talon_list), strict=True
    ):
        for position, card in zip(positions, cards, strict=True):
            deck[position] = _as_card(card)
    if len(set(deck)) != DECK_SIZE:
        raise ValueError("the hands and the talon must hold each of the 24 cards exactly once")
    # The positions cover the whole deck, so no None is left.
    return cast(list[Card], deck)


class Trick(NamedTuple):
    leader: int
    cards: tuple[Card, ...]
    winner: int | None
    trump: int | None  # the trump suit while the trick was played, None before any marriage


class Marriage(NamedTuple):
    seat: int
    suit: int
    trick: int


class DealState:
    """One deal at a table of 3 or 4; seats are numbered 0..players-1 clockwise."""

    __slots__ = (
        "rules",
        "players",
        "dealer",
        "active",
        "next_seat",
        "deck",
        "hands",
        "talon",
        "phase",
        "to_act",
        "bid",
        "bidder",
        "declarer",
        "forced",
        "passed",
        "pending",
        "contract",
        "trump",
        "trick",
        "leader",
        "best",
        "best_seat",
        "trick_no",
        "won",
        "marriage_points",
        "played",
        "log",
        "scores",
        "outcome",
    )
    # The slots' types, for the type checker only (an annotation without a value makes no class
    # attribute, so it does not clash with __slots__).
    rules: RuleSet
    players: int
    dealer: int
    active: tuple[int, ...]  # the three seats that play, in order from the dealer's left
    next_seat: tuple[int, ...]  # by seat: the active seat that plays after it
    deck: tuple[Card, ...]
    hands: list[int]  # by seat: a card mask
    talon: int
    phase: int
    to_act: int
    bid: int
    bidder: int
    declarer: int
    forced: bool
    passed: int  # a mask of seats
    pending: int  # a mask of seats still to be given a card
    contract: int
    trump: int  # -1 before any marriage
    trick: tuple[int, ...]
    leader: int
    best: int
    best_seat: int
    trick_no: int
    won: list[int]
    marriage_points: list[int]
    played: int
    log: Log
    scores: tuple[int, ...] | None
    outcome: str | None

    # ----------------------------------------------------------------- construction
    @classmethod
    def deal(
        cls,
        deck: Iterable[int | str],
        *,
        players: int = 3,
        dealer: int = 0,
        rules: RuleSet = DEFAULT_RULES,
    ) -> DealState:
        """Deal a deck order (24 cards, ``deck[0]`` dealt first) as RULES.md section 3 says."""
        if players not in (3, 4):
            raise ValueError("a table has 3 or 4 players")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"the dealer must be a seat from 0 to {players - 1}")
        order = tuple(_as_card(card) for card in deck)
        if len(order) != DECK_SIZE or len(set(order)) != DECK_SIZE:
            missing = sorted(set(CARDS) - set(order))
            detail = f"; missing: {' '.join(map(str, missing))}" if missing else ""
            raise ValueError(f"a deck holds each of the 24 cards exactly once{detail}")
        state = cls.__new__(cls)
        state.rules = rules
        state.players = players
        state.dealer = dealer
        state.active = tuple((dealer + k) % players for k in range(1, 4))
        following = [0] * players
        for k, seat in enumerate(state.active):
            following[seat] = state.active[(k + 1) % 3]
        state.next_seat = tuple(following)
        state.deck = order
        hands = [0] * players
        for seat, positions in zip(state.active, HAND_POSITIONS, strict=True):
            for index in positions:
                hands[seat] |= 1 << order[index]
        state.hands = hands
        state.talon = (1 << order[3]) | (1 << order[7]) | (1 << order[11])
        state.phase = BIDDING
        state.to_act = state.active[0]
        state.bid = 0
        state.bidder = -1
        state.declarer = -1
        state.forced = False
        state.passed = 0
        state.pending = 0
        state.contract = 0
        state.trump = -1
        state.trick = ()
        state.leader = -1
        state.best = -1
        state.best_seat = -1
        state.trick_no = 0
        state.won = [0] * players
        state.marriage_points = [0] * players
        state.played = 0
        state.log = None
        state.scores = None
        state.outcome = None
        return state

    def clone(self) -> DealState:
        new = DealState.__new__(DealState)
        new.rules = self.rules
        new.players = self.players
        new.dealer = self.dealer
        new.active = self.active
        new.next_seat = self.next_seat
        new.deck = self.deck
        new.hands = self.hands[:]
        new.talon = self.talon
        new.phase = self.phase
        new.to_act = self.to_act
        new.bid = self.bid
        new.bidder = self.bidder
        new.declarer = self.declarer
        new.forced = self.forced
        new.passed = self.passed
        new.pending = self.pending
        new.contract = self.contract
        new.trump = self.trump
        new.trick = self.trick
        new.leader = self.leader
        new.best = self.best
        new.best_seat = self.best_seat
        new.trick_no = self.trick_no
        new.won = self.won[:]
        new.marriage_points = self.marriage_points[:]
        new.played = self.played
        new.log = self.log
        new.scores = self.scores
        new.outcome = self.outcome
        return new

    __copy__ = clone

    # ----------------------------------------------------------------- inner loop
    def legal_codes(self) -> tuple[int, ...]:
        """Integer codes of the legal actions of the seat to act (empty when the deal is over)."""
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.to_act]
            if self.trick:
                return mask_cards(self.legal_play_mask(hand))
            codes = mask_cards(hand)
            if self.trick_no or self.rules.marriage_on_first_trick:
                leads = marriage_leads(hand)
                if leads:
                    codes += tuple(A.PLAY_MARRIAGE + c for c in mask_cards(leads))
            if not self.trick_no:
                codes += (A.CONCEDE,)
            return codes
        if phase == BIDDING:
            rules = self.rules
            low = self.bid + rules.bid_step if self.bid else rules.min_bid
            high = rules.bid_ceiling(marriages_value(self.hands[self.to_act]))
            if not rules.bid_jumps and high > low:
                high = low
            return (A.PASS,) + _value_codes(A.BID, low, high)
        if phase == GIVING:
            cards = mask_cards(self.hands[self.to_act])
            gives = [A.GIVE + 24 * to + c for to in self._recipients() for c in cards]
            gives.append(A.CONCEDE)
            return tuple(gives)
        if phase == CONTRACT:
            return _value_codes(A.CONTRACT, self.bid, self._contract_ceiling()) + (A.CONCEDE,)
        return ()

    def legal_play_mask(self, hand: int) -> int:
        """Cards of `hand` that may follow to the current trick (the trick has a card in it)."""
        return follow_mask(hand, self.trick[0] // 6, self.best, self.trump, self.rules.must_beat)

    def step(self, code: int) -> None:
        """Apply a legal action code. Unchecked: pass only codes from `legal_codes()`."""
        seat = self.to_act
        self.log = (self.log, seat, code)
        phase = self.phase
        if phase == PLAY and code < A.GIVE:
            if code >= A.PLAY_MARRIAGE:
                card = code - A.PLAY_MARRIAGE
                self.trump = card // 6
                self.marriage_points[seat] += MARRIAGE_VALUE[card // 6]
            else:
                card = code
            bit = 1 << card
            self.hands[seat] ^= bit
            self.played |= bit
            trick = self.trick
            if not trick:
                self.trick = (card,)
                self.leader = seat
                self.best = card
                self.best_seat = seat
                self.to_act = self.next_seat[seat]
                return
            best = self.best
            suit = card // 6
            if (suit == best // 6 and card > best) or (suit == self.trump and best // 6 != suit):
                self.best = card
                self.best_seat = seat
            if len(trick) == 1:
                self.trick = (trick[0], card)
                self.to_act = self.next_seat[seat]
                return
            winner = self.best_seat
            self.won[winner] += CARD_POINTS[trick[0]] + CARD_POINTS[trick[1]] + CARD_POINTS[card]
            self.trick = ()
            self.trick_no += 1
            self.to_act = winner
            if self.trick_no == TRICKS_PER_DEAL:
                self._score_played_deal()
            return
        if code == A.CONCEDE:
            self._score_conceded_deal()
        elif phase == BIDDING:
            if code == A.PASS:
                self.passed |= 1 << seat
                if self.passed.bit_count() == 2:
                    if self.bid:
                        self._open_talon(self.bidder, forced=False)
                    else:
                        self.bid = self.rules.min_bid
                        self._open_talon(self.active[2], forced=True)
                    return
            else:
                self.bid = (code - A.BID) * 5
                self.bidder = seat
            following = self.next_seat[seat]
            # A passed player is out of the auction; with two passes the auction is over, so at
            # most one seat is skipped here.
            if self.passed >> following & 1:
                following = self.next_seat[following]
            self.to_act = following
        elif phase == GIVING:
            to, card = divmod(code - A.GIVE, 24)
            bit = 1 << card
            self.hands[seat] ^= bit
            self.hands[to] |= bit
            self.pending &= ~(1 << to)
            if not self.pending:
                self.phase = CONTRACT
        else:  # CONTRACT
            self.contract = (code - A.CONTRACT) * 5
            self.phase = PLAY

    def _open_talon(self, declarer: int, *, forced: bool) -> None:
        self.declarer = declarer
        self.forced = forced
        self.hands[declarer] |= self.talon
        self.phase = GIVING
        self.to_act = declarer
        self.pending = sum(1 << seat for seat in self.active if seat != declarer)

    def _recipients(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.active if self.pending >> seat & 1)

    def _contract_ceiling(self) -> int:
        ceiling = self.rules.bid_ceiling(marriages_value(self.hands[self.declarer]))
        return ceiling if ceiling > self.bid else self.bid

    def _score_played_deal(self) -> None:
        rules = self.rules
        scores = [0] * self.players
        declarer = self.declarer
        for seat in self.active:
            points = self.won[seat] + self.marriage_points[seat]
            if seat == declarer:
                compared = rules.round_points(points) if rules.round_declarer_points else points
                made = compared >= self.contract
                scores[seat] = self.contract if made else -self.contract
                self.outcome = "made" if made else "failed"
            else:
                scores[seat] = rules.round_points(points)
        self._finish(scores)

    def _score_conceded_deal(self) -> None:
        scores = [0] * self.players
        for seat in self.active:
            if seat != self.declarer:
                scores[seat] = self.rules.concede_bonus
        if not self.forced:
            scores[self.declarer] = -(self.contract or self.bid)
        self.outcome = "conceded"
        self._finish(scores)

    def _finish(self, scores: list[int]) -> None:
        if self.players == 4:
            talon = self.talon
            scores[self.dealer] = (
                100 if talon & NINES_MASK == talon else self.rules.round_points(mask_points(talon))
            )
        self.scores = tuple(scores)
        self.phase = DONE
        self.to_act = -1
        self.trick = ()

    # ----------------------------------------------------------------- readable interface
    @property
    def done(self) -> bool:
        return self.phase == DONE

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def observation(self, seat: int | None) -> Observation:
        """What `seat` may know now (None: a spectator); see `observation.Observation`."""
        from .observation import observe

        return observe(self, seat)

    def legal_actions(self) -> list[Action]:
        seat = self.to_act
        return [decode(code, seat) for code in self.legal_codes()]

    def apply(self, action: Action) -> None:
        """Apply an action, or raise IllegalActionError naming the rule it breaks."""
        code = encode(action)
        turn = action.seat is None or action.seat == self.to_act
        if self.phase != DONE and turn and code in self.legal_codes():
            self.step(code)
            return
        raise IllegalActionError(self.explain_illegal(action))

    def codes(self) -> list[tuple[int, int]]:
        """The (seat, code) pairs applied so far, in order."""
        entries = []
        log = self.log
        while log is not None:
            log, seat, code = log
            entries.append((seat, code))
        entries.reverse()
        return entries

    def history(self) -> list[Action]:
        return [decode(code, seat) for seat, code in self.codes()]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.hands[seat])

    @property
    def talon_cards(self) -> tuple[Card, ...]:
        return tuple(self.deck[i] for i in TALON_POSITIONS)

    @property
    def talon_revealed(self) -> bool:
        return self.declarer >= 0

    def deal_points(self) -> list[int | None]:
        """Card points of tricks won plus marriages declared; None for a sitting-out dealer."""
        return [
            self.won[seat] + self.marriage_points[seat] if seat in self.active else None
            for seat in range(self.players)
        ]

    def tricks(self) -> list[Trick]:
        """Every trick so far, the unfinished one last (with winner None)."""
        return [trick for trick, _ in self.walk_play()]

    def marriages(self) -> list[Marriage]:
        return [marriage for _, marriage in self.walk_play() if marriage]

    def walk_play(self) -> Iterator[tuple[Trick, Marriage | None]]:
        """Replay the card play of the log: each trick with the marriage declared on it."""
        trump = -1
        cards: list[int] = []
        leader = -1
        marriage = None
        number = 0
        best = best_seat = -1
        for seat, code in self.codes():
            if code >= A.GIVE:
                continue
            card = code - A.PLAY_MARRIAGE if code >= A.PLAY_MARRIAGE else code
            if not cards:
                leader, best, best_seat, marriage = seat, card, seat, None
                if code >= A.PLAY_MARRIAGE:
                    trump = card // 6
                    marriage = Marriage(seat, trump, number)
            elif (card // 6 == best // 6 and card > best) or (
                card // 6 == trump and best // 6 != trump
            ):
                best, best_seat = card, seat
            cards.append(card)
            if len(cards) == 3:
                yield (
                    Trick(leader, tuple(CARDS[c] for c in cards), best_seat, _suit(trump)),
                    marriage,
                )
                cards = []
                number += 1
        if cards:
            yield Trick(leader, tuple(CARDS[c] for c in cards), None, _suit(trump)), marriage

    # ----------------------------------------------------------------- explanations
    def explain_illegal(self, action: Action) -> str:
        """Why `action` is not legal now, in words a player understands."""
        seat = action.seat if action.seat is not None else self.to_act
        if self.phase == DONE:
            return "the deal is over"
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return f"there is no seat {seat} at a table of {self.players}"
        if seat not in self.active:
            return f"seat {seat} deals and sits out this deal"
        if seat != self.to_act:
            return f"it is seat {self.to_act}'s turn, not seat {seat}'s"
        kind = action.type
        if kind in ("give", "play") and not (
            isinstance(action.card, int) and 0 <= action.card < 24
        ):
            return f"a {kind} action must name a card"
        if kind in ("bid", "contract") and not isinstance(action.value, int):
            return f"a {kind} action must have a value"
        if kind == "give" and not isinstance(action.to, int):
            return "a give action must name the seat that gets the card"
        if kind not in A.ACTION_TYPES:
            return f"unknown action type {kind!r}"
        explain = {
            BIDDING: self._explain_bidding,
            GIVING: self._explain_giving,
            CONTRACT: self._explain_contract,
            PLAY: self._explain_play,
        }[self.phase]
        reason = explain(seat, action)
        return reason or f"seat {seat} cannot {kind} now"

    def _explain_bidding(self, seat: int, action: Action) -> str | None:
        if action.type not in ("bid", "pass"):
            return f"seat {seat} must bid or pass: the bidding is not over"
        rules = self.rules
        value = action.value
        if value is None or value % 5:
            return "a bid must be a multiple of 5"
        if value < rules.min_bid:
            return f"the lowest bid is {rules.min_bid}"
        if self.bid and value < self.bid + rules.bid_step:
            return f"a bid must be at least {rules.bid_step} above the highest bid ({self.bid})"
        low = self.bid + rules.bid_step if self.bid else rules.min_bid
        if not rules.bid_jumps and value != low:
            return f"a bid may only be {low}: jumps are not allowed (bid_jumps is off)"
        marriages = marriages_value(self.hands[seat])
        ceiling = rules.bid_ceiling(marriages)
        if value > ceiling:
            if rules.bid_cap == "none":
                return f"no deal can score more than {ceiling}"
            if not marriages:
                return f"seat {seat} holds no marriage and may not bid above 120"
            return f"seat {seat} may not bid above {ceiling} (120 plus the marriages held)"
        return None

    def _explain_giving(self, seat: int, action: Action) -> str | None:
        if action.type in ("bid", "pass"):
            return "the bidding is over"
        if action.type in ("contract", "play"):
            return "the declarer must first give one card to each other player"
        if action.type != "give":
            return None
        to = action.to
        if to == seat:
            return "the declarer gives cards to the other players, not to himself"
        if to not in self.active:
            return f"seat {to} does not play this deal"
        if not self.pending >> to & 1:
            return f"seat {to} has already been given a card"
        card = cast(Card, action.card)  # explain_illegal has checked that a give names a card
        if not self.hands[seat] >> card & 1:
            return f"seat {seat} does not hold {CARD_NAMES[card]}"
        return None

    def _explain_contract(self, seat: int, action: Action) -> str | None:
        if action.type in ("bid", "pass"):
            return "the bidding is over"
        if action.type == "give":
            return "every player has already been given a card"
        if action.type == "play":
            return "the declarer must name the contract before the first card"
        if action.type != "contract":
            return None
        value = action.value
        if value is None or value % 5:
            return "the contract must be a multiple of 5"
        if value < self.bid:
            return f"the contract may not be below the bid ({self.bid})"
        ceiling = self._contract_ceiling()
        if value > ceiling:
            if ceiling == self.bid:
                return f"the contract may only be the bid ({self.bid}) with the marriages held now"
            return f"the contract may not exceed {ceiling} (120 plus the marriages held now)"
        return None

    def _explain_play(self, seat: int, action: Action) -> str | None:
        if action.type == "concede":
            if seat != self.declarer:
                return "only the declarer may concede"
            return "the declarer may concede only before the first card is played"
        if action.type in ("bid", "pass"):
            return "the bidding is over"
        if action.type in ("give", "contract"):
            return "the play has already started"
        if action.type != "play":
            return None
        card = cast(Card, action.card)  # explain_illegal has checked that a play names a card
        hand = self.hands[seat]
        if not hand >> card & 1:
            return f"seat {seat} does not hold {CARD_NAMES[card]}"
        if action.marriage:
            if self.trick:
                return "a marriage may be declared only by the player leading to a trick"
            if not self.trick_no and not self.rules.marriage_on_first_trick:
                return "no marriage may be declared on the first trick"
            if card % 6 not in (2, 3):
                return "a marriage is declared by leading its king or queen"
            if not marriage_leads(hand) >> card & 1:
                suit = card // 6
                return f"seat {seat} does not hold the marriage of {SUIT_NAMES[suit]}"
            return None
        if not self.trick:
            return None
        lead_suit = self.trick[0] // 6
        legal = self.legal_play_mask(hand)
        if hand & SUIT_MASK[lead_suit]:
            if card // 6 != lead_suit:
                return f"seat {seat} must follow suit ({SUIT_NAMES[lead_suit]})"
            return f"seat {seat} must beat the winning card {CARD_NAMES[self.best]} (must_beat)"
        trump = self.trump
        if trump >= 0 and hand & SUIT_MASK[trump]:
            if card // 6 != trump:
                lead, trumps = SUIT_NAMES[lead_suit], SUIT_NAMES[trump]
                return f"seat {seat} has no {lead} and must play a trump ({trumps})"
            return f"seat {seat} must beat the winning trump {CARD_NAMES[self.best]} (must_beat)"
        return None if legal >> card & 1 else f"seat {seat} cannot play {CARD_NAMES[card]}"


def _as_card(card: int | str) -> Card:
    if isinstance(card, str):
        return Card.parse(card)
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < DECK_SIZE:
        return CARDS[card]
    raise ValueError(f"{card!r} is not a card")


def _suit(suit: int) -> int | None:
    return None if suit < 0 else suit
