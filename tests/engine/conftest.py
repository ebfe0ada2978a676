"""Helpers of the per-rule tests: every deal is written as a RULES.md section 9 deal record.

A deal is given by the hands of the three active players in the order they are dealt (the first
active seat left of the dealer first), the talon, and a list of compact moves:

    "1 bid 100"   "2 pass"   "1 give QH 2"   "1 contract 100"   "1 concede"   "1 play AS"
    "1 play KS marriage"                    one play that declares the marriage of the card led
    "1:AS 2:JS 0:KS"                        several plays; "1:KS*" declares the marriage

`record()` builds the JSON record, `replay()` replays it with the engine's `replay_deal`, and
`refusal()` replays a record that must be rejected and returns the engine's message.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import DealState, RecordError, deck_from_hands
from rules.records import replay_deal

DEAL_FORMAT = "1001-deal/1"
GAME_FORMAT = "1001-game/1"
# Every card once, low to high within spades, clubs, diamonds, hearts: 9S JS QS ... TH AH.
CARD_ORDER = [rank + suit for suit in "SCDH" for rank in "9JQKTA"]


# ----------------------------------------------------------------------------- records


def move(text: str) -> dict[str, Any]:
    """One compact move as a record action: "1 give QH 2" -> {"seat": 1, "type": "give", ...}."""
    seat, kind, *rest = text.split()
    action: dict[str, Any] = {"seat": int(seat), "type": kind}
    if kind in ("bid", "contract"):
        (value,) = rest
        action["value"] = int(value)
    elif kind == "give":
        card, to = rest
        action["card"] = card
        action["to"] = int(to)
    elif kind == "play":
        action["card"] = rest[0]
        if rest[1:] == ["marriage"]:
            action["marriage"] = True
        else:
            assert not rest[1:], text
    else:
        assert not rest, text
    return action


def moves(items) -> list[dict[str, Any]]:
    """Expand compact moves; an item with ':' is a run of plays like "1:AS 2:JS 0:KS*"."""
    actions = []
    for item in items:
        if ":" not in item:
            actions.append(move(item))
            continue
        for play in item.split():
            seat, card = play.split(":")
            action = {"seat": int(seat), "type": "play", "card": card.rstrip("*")}
            if card.endswith("*"):
                action["marriage"] = True
            actions.append(action)
    return actions


def deck(hands, talon) -> list[str]:
    """The deck order that deals `hands` (active players in order, 7 cards each) and `talon`."""
    return [str(card) for card in deck_from_hands([h.split() for h in hands], talon.split())]


def record(hands, talon, items=(), *, players=3, dealer=0, rules=None) -> dict[str, Any]:
    return {
        "format": DEAL_FORMAT,
        "players": players,
        "dealer": dealer,
        "rules": dict(rules or {}),
        "deck": deck(hands, talon),
        "actions": moves(items),
    }


def replay(hands, talon, items=(), **options) -> DealState:
    return replay_deal(record(hands, talon, items, **options))


def refusal(hands, talon, items, **options) -> str:
    """The message of the RecordError that replaying this deal must raise."""
    return rejected(record(hands, talon, items, **options))


def rejected(deal: Any) -> str:
    with pytest.raises(RecordError) as caught:
        replay_deal(deal)
    return str(caught.value)


# ----------------------------------------------------------------------------- what players see


def offered(state: DealState) -> set[str]:
    """The legal actions of the seat to act, compact and without the seat: {"play AS", ...}."""
    names = set()
    for action in state.legal_actions():
        if action.type in ("bid", "contract"):
            names.add(f"{action.type} {action.value}")
        elif action.type == "give":
            names.add(f"give {action.card} {action.to}")
        elif action.type == "play":
            names.add(f"play {action.card}" + ("*" if action.marriage else ""))
        else:
            names.add(action.type)
    return names


def plays_of(cards: str) -> set[str]:
    return {f"play {card}" for card in cards.split()}


def hand(state: DealState, seat: int) -> set[str]:
    """The cards `seat` sees in his own hand."""
    return {str(card) for card in state.observation(seat).hand}


def scores(state: DealState) -> dict[int, int]:
    assert state.done, "the deal is not over"
    return dict(enumerate(state.scores))


def seats_of(players: int, dealer: int) -> tuple[int, int, int]:
    """The active seats of a deal, in order (RULES.md section 2)."""
    return tuple((dealer + k) % players for k in (1, 2, 3))


def auction(active, declarer: int, bid: int, *, forced: bool = False) -> list[str]:
    """A short auction that makes `declarer` the declarer at `bid` (the others pass)."""
    first, second, third = active
    if forced:
        assert declarer == third
        return [f"{first} pass", f"{second} pass"]
    if declarer == first:
        return [f"{first} bid {bid}", f"{second} pass", f"{third} pass"]
    if declarer == second:
        return [f"{first} pass", f"{second} bid {bid}", f"{third} pass"]
    assert bid > 40
    return [f"{first} bid 40", f"{second} pass", f"{third} bid {bid}", f"{first} pass"]


# ----------------------------------------------------------------------------- the worked deal
# A deal with no marriage in which the declarer, leading first, takes 104 card points, the next
# defender ("A") 12 and the last ("B") 4: the worked example of RULES.md section 10.
# Roles: the declarer D gives QH (a talon card) to A and TH (a talon card) to B.

WORKED_DECLARER = "AS TS AC TC AD AH 9H"
WORKED_A = "TD 9D QD JS QS 9C QC"
WORKED_B = "KS JC KC JD KD JH KH"
WORKED_TALON = "TH 9S QH"


def worked_giving(d: int, a: int, b: int) -> list[str]:
    return [f"{d} give QH {a}", f"{d} give TH {b}"]


def worked_play(d: int, a: int, b: int) -> list[str]:
    """The eight tricks: D wins six (104 points with them), B the 7th (4), A the last (12)."""
    return [
        f"{d}:AS {a}:JS {b}:KS",
        f"{d}:TS {a}:QS {b}:JH",
        f"{d}:AC {a}:QC {b}:JC",
        f"{d}:TC {a}:9C {b}:KC",
        f"{d}:AD {a}:QD {b}:KD",
        f"{d}:AH {a}:QH {b}:TH",
        f"{d}:9H {a}:9D {b}:KH",
        f"{b}:JD {d}:9S {a}:TD",
    ]


def worked_roles(players: int, dealer: int, declarer: int | None) -> tuple[int, int, int]:
    """(D, A, B): the declarer and the defenders who play after him, in playing order."""
    active = seats_of(players, dealer)
    d = active[0] if declarer is None else declarer
    k = active.index(d)
    return d, active[(k + 1) % 3], active[(k + 2) % 3]


def worked_hands(players: int, dealer: int, declarer: int | None) -> list[str]:
    d, a, b = worked_roles(players, dealer, declarer)
    by_seat = {d: WORKED_DECLARER, a: WORKED_A, b: WORKED_B}
    return [by_seat[seat] for seat in seats_of(players, dealer)]


def worked_record(
    *,
    players: int = 3,
    dealer: int = 0,
    declarer: int | None = None,
    bid: int = 100,
    contract: int | None = None,
    forced: bool = False,
    rules=None,
    play=None,
) -> dict[str, Any]:
    """The worked deal with the seats arranged around `dealer`, played to the end.

    `play` replaces the card play (a function of the seats D, A, B); contract None is the bid.
    """
    if forced and declarer is None:
        declarer = seats_of(players, dealer)[2]
    d, a, b = worked_roles(players, dealer, declarer)
    bid = 40 if forced else bid
    items = [
        *auction(seats_of(players, dealer), d, bid, forced=forced),
        *worked_giving(d, a, b),
        f"{d} contract {bid if contract is None else contract}",
        *(play or worked_play)(d, a, b),
    ]
    hands = worked_hands(players, dealer, d)
    return record(hands, WORKED_TALON, items, players=players, dealer=dealer, rules=rules)


def conceded_record(
    *,
    players: int = 3,
    dealer: int = 0,
    declarer: int,
    bid: int = 40,
    forced: bool = False,
    rules=None,
) -> dict[str, Any]:
    """A deal on the worked hands in which `declarer` wins the auction and concedes at once."""
    active = seats_of(players, dealer)
    items = [*auction(active, declarer, bid, forced=forced), f"{declarer} concede"]
    hands = worked_hands(players, dealer, None)
    return record(hands, WORKED_TALON, items, players=players, dealer=dealer, rules=rules)


# ----------------------------------------------------------------------------- the marriage deal
# Dealer 0, declarer seat 1 (D), then seat 2 (A) and seat 0 (B). D holds the spade marriage and
# declares it on trick 2; A trumps trick 3 with JS (13 card points), then declares the club
# marriage on trick 4, which makes clubs trump at once: D's QS no longer wins and B's AC takes the
# trick. Card points D 66 + 40 = 106 (contract 100 made), A 13 + 60 = 73 -> 75, B 41 -> 40.

MARRIAGE_HANDS = ["KS QS AS TS AD KD KH", "9S JS KC QC AH QH 9C", "AC 9D QD TC JH JC JD"]
MARRIAGE_TALON = "9H TH TD"
MARRIAGE_BIDDING = ["1 bid 100", "2 pass", "0 pass", "1 give 9H 2", "1 give TH 0"]
MARRIAGE_TRICKS = [
    "1:KD 2:9C 0:JD",
    "1:KS* 2:9S 0:JC",
    "1:AD 2:JS 0:9D",
    "2:KC* 0:AC 1:QS",
    "0:TC 1:TS 2:QC",
    "0:QD 1:TD 2:9H",
    "1:AS 2:AH 0:TH",
    "1:KH 2:QH 0:JH",
]


def marriage_deal(items=(), *, contract: int = 100, rules=None) -> DealState:
    """The marriage deal after the contract, then `items`."""
    moves_ = [*MARRIAGE_BIDDING, f"1 contract {contract}", *items]
    return replay(MARRIAGE_HANDS, MARRIAGE_TALON, moves_, rules=rules)


# ----------------------------------------------------------------------------- the must-beat deal
# Dealer 0, declarer seat 1, no marriage for him; seat 0 gets QD from the declarer and declares
# the diamond marriage on trick 3. The four tricks are legal with must_beat on and off; on trick 5
# (seat 1 leads TC, seat 2 trumps with JD) seat 0 holds 9D and KD and must overtrump.

MUST_BEAT_HANDS = ["QS AC TC 9S QD QH KC", "JD JH TH JS QC 9H AD", "KH KS AH KD 9C 9D AS"]
MUST_BEAT_TALON = "TS TD JC"
MUST_BEAT_START = ["1 bid 100", "2 pass", "0 pass", "1 give QS 2", "1 give QD 0", "1 contract 100"]
MUST_BEAT_TRICKS = [
    "1:KC 2:QC 0:9C",
    "1:QH 2:TH 0:AH",
    "0:QD* 1:TD 2:AD",
    "2:QS 0:KS 1:TS",
]


def must_beat_deal(items=(), *, must_beat: bool = True) -> DealState:
    rules = {"must_beat": True} if must_beat else {}
    return replay(MUST_BEAT_HANDS, MUST_BEAT_TALON, [*MUST_BEAT_START, *items], rules=rules)
