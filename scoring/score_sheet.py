"""Validation of a table's score sheet (deal by deal, or final totals) by the rules of 1001.

A sheet is JSON-like, as a form or the API sends it:

    {"mode": "deals", "rows": [{"dealer": 0, "declarer": 1, "bid": 100, "contract": 110,
                                "outcome": "made", "forced": false, "scores": [10, 110, 5]}]}
    {"mode": "totals", "totals": [1005, 420, -35], "winner": 0}

`validate_score_sheet` checks every row against RULES.md sections 2, 4, 5, 7 and 8 and returns a
`ValidatedSheet` (totals, placements, winner, running totals), or raises `ScoreSheetError` listing
the first broken rule of every bad row, so that a person can fix the whole sheet in one go. Live
tables submit through `sheet_from_game`, so both paths are judged by the same code.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gameplay.engine.cards import CARD_POINTS, DECK_SIZE, MARRIAGE_VALUE
from gameplay.engine.deal import DealState
from gameplay.engine.game import Game
from gameplay.engine.rules import ABSOLUTE_MAX_BID, RuleSet

from .standings import TableResult

OUTCOMES = ("made", "failed", "conceded")
DECK_CARD_POINTS = 120
# Seven cards hold at most three marriages, so under the held_marriages cap no bid can exceed
# 120 plus the three most valuable ones. The contract is named on eight cards, which can hold all
# four, and that is also the engine's absolute ceiling.
MAX_HELD_BID = DECK_CARD_POINTS + sum(sorted(MARRIAGE_VALUE)[1:])
MAX_CONTRACT = ABSOLUTE_MAX_BID
MAX_DEFENDER_POINTS = DECK_CARD_POINTS + sum(MARRIAGE_VALUE)

_ROW_FIELDS = frozenset({"dealer", "declarer", "bid", "contract", "outcome", "forced", "scores"})
_REQUIRED_ROW_FIELDS = ("dealer", "declarer", "bid", "outcome", "scores")
_SHEET_FIELDS = {
    "deals": frozenset({"mode", "rows"}),
    "totals": frozenset({"mode", "totals", "winner"}),
}

# Every way the four marriages can be shared between the declarer and the two defenders (or stay
# undeclared): each suit's king and queen exist once, so a marriage is declared at most once a deal.
_MARRIAGE_SHARES = tuple(
    sorted(
        {
            tuple(
                sum(value for value, who in zip(MARRIAGE_VALUE, owners, strict=True) if who == k)
                for k in (1, 2, 3)
            )
            for owners in itertools.product(range(4), repeat=4)
        }
    )
)


class ScoreSheetError(ValueError):
    """A score sheet that breaks the rules; `messages` names each bad row and the rule it breaks."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal of a score sheet; `contract` is None when the declarer conceded before naming it."""

    dealer: int
    declarer: int
    bid: int
    contract: int | None
    outcome: str
    forced: bool
    scores: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "declarer": self.declarer,
            "bid": self.bid,
            "contract": self.contract,
            "outcome": self.outcome,
            "forced": self.forced,
            "scores": list(self.scores),
        }


@dataclass(frozen=True, slots=True)
class ValidatedSheet:
    """A score sheet that follows the rules, with the table's result derived from it.

    `placements` are per seat, 1 the best: the winner first, then by total; equal totals share the
    better place (1, 2, 2, 4). `deals` is None for final totals outside a fixed-deal game, where the
    number of deals is unknown; `rows` and `running_totals` are empty for final totals.
    """

    mode: str
    players: int
    totals: tuple[int, ...]
    placements: tuple[int, ...]
    winner: int | None
    deals: int | None
    rows: tuple[SheetRow, ...]
    running_totals: tuple[tuple[int, ...], ...]

    def as_sheet(self) -> dict[str, Any]:
        """The sheet in its normalized JSON form, fit to be stored and validated again."""
        if self.mode == "totals":
            return {"mode": "totals", "totals": list(self.totals), "winner": self.winner}
        return {"mode": "deals", "rows": [row.as_dict() for row in self.rows]}

    def table_result(
        self, *, round_number: int, table_number: int, players: Sequence[Any]
    ) -> TableResult:
        """The standings' view of this table: `players` are the seats' player ids (None: a bot)."""
        if len(players) != self.players:
            raise ValueError(f"a table of {self.players} needs {self.players} seats' players")
        return TableResult(
            round_number=round_number,
            table_number=table_number,
            players=tuple(players),
            totals=self.totals,
            placements=self.placements,
            winner=None if self.winner is None else players[self.winner],
        )


def validate_score_sheet(
    sheet: Any,
    *,
    players: int,
    first_dealer: int,
    rules: RuleSet,
    fixed_deals: int | None = None,
    quick_allowed: bool = False,
) -> ValidatedSheet:
    """Check a score sheet of one table; raise ScoreSheetError with every problem found.

    `players`, `first_dealer`, `rules` and `fixed_deals` describe the table (a wrong one is the
    caller's mistake and raises a plain ValueError); `quick_allowed` lets the tournament accept
    final totals instead of the deals.
    """
    if players not in (3, 4) or isinstance(players, bool):
        raise ValueError("a table has 3 or 4 players")
    if not _is_whole(first_dealer) or not 0 <= first_dealer < players:
        raise ValueError(f"the first dealer must be a seat from 0 to {players - 1}")
    if fixed_deals is not None and (
        not _is_whole(fixed_deals) or fixed_deals <= 0 or fixed_deals % players
    ):
        raise ValueError(f"a fixed number of deals must be a positive multiple of {players}")
    if not isinstance(rules, RuleSet):
        raise TypeError("rules must be a RuleSet")

    if not isinstance(sheet, Mapping):
        raise ScoreSheetError(
            ["a score sheet must be an object with 'mode' and its rows or totals"]
        )
    mode = sheet.get("mode")
    if not isinstance(mode, str) or mode not in _SHEET_FIELDS:
        raise ScoreSheetError(["the sheet's 'mode' must be 'deals' or 'totals'"])
    unknown = sorted(str(name) for name in sheet if name not in _SHEET_FIELDS[mode])
    if unknown:
        raise ScoreSheetError([f"the sheet has no field {unknown[0]!r}"])
    if mode == "totals":
        if not quick_allowed:
            raise ScoreSheetError(
                [
                    "this tournament does not accept final totals only; "
                    "enter the score sheet deal by deal"
                ]
            )
        return _validate_totals(sheet, players=players, rules=rules, fixed_deals=fixed_deals)
    return _validate_deals(
        sheet.get("rows"),
        players=players,
        first_dealer=first_dealer,
        rules=rules,
        fixed_deals=fixed_deals,
    )


def sheet_from_deals(deals: Iterable[DealState]) -> dict[str, Any]:
    """The score sheet of finished engine deals, in order: what a live table submits."""
    rows = []
    for number, deal in enumerate(deals, start=1):
        if not deal.done:
            raise ValueError(f"deal {number} is not finished")
        rows.append(
            {
                "dealer": deal.dealer,
                "declarer": deal.declarer,
                "bid": deal.bid,
                "contract": deal.contract or None,
                "outcome": deal.outcome,
                "forced": deal.forced,
                "scores": list(deal.scores),
            }
        )
    return {"mode": "deals", "rows": rows}


def sheet_from_game(game: Game) -> dict[str, Any]:
    """The score sheet of an engine game; validate it with the game's players, dealer and rules."""
    return sheet_from_deals(game.deals)


# --------------------------------------------------------------------------- deal by deal
def _validate_deals(
    rows: Any, *, players: int, first_dealer: int, rules: RuleSet, fixed_deals: int | None
) -> ValidatedSheet:
    if not isinstance(rows, list):
        raise ScoreSheetError(["'rows' must be a list with one row per deal"])
    if not rows:
        raise ScoreSheetError(["the sheet has no rows"])
    errors: list[str] = []
    parsed: list[SheetRow] = []
    running: list[tuple[int, ...]] = []
    totals = [0] * players
    # Once a row's scores cannot be read the running totals are unknown, and so is the game's end.
    totals_known = True
    ended_after: int | None = None
    winner: int | None = None
    for index, raw in enumerate(rows):
        number = index + 1
        if fixed_deals is not None and index >= fixed_deals:
            errors.append(
                f"row {number}: this table plays {fixed_deals} deals, "
                f"so the sheet has {fixed_deals} rows, not {len(rows)}"
            )
            break
        if ended_after is not None:
            errors.append(
                f"row {number}: the game ended after row {ended_after} (seat {winner} won); "
                "the sheet stops at the deal that ends the game"
            )
            break
        row, error = _read_row(raw, number, players)
        if row is None:
            errors.append(error)
            totals_known = False
            continue
        dealer = (first_dealer + index) % players
        error = _row_rule_error(row, number, dealer, players, rules)
        if error:
            errors.append(error)
        else:
            parsed.append(row)
        for seat, score in enumerate(row.scores):
            totals[seat] += score
        running.append(tuple(totals))
        if totals_known and fixed_deals is None and 0 <= row.declarer < players:
            winner = _target_winner(totals, row.declarer, rules.target)
            if winner is not None:
                ended_after = number

    if totals_known:
        if fixed_deals is not None:
            if len(rows) < fixed_deals:
                errors.append(
                    f"this table plays {fixed_deals} deals, but the sheet has only {len(rows)} rows"
                )
            else:
                winner = _sole_leader(totals)
        elif ended_after is None:
            errors.append(_not_over_message(totals, len(rows), rules.target))
    if errors:
        raise ScoreSheetError(errors)
    final = tuple(totals)
    return ValidatedSheet(
        mode="deals",
        players=players,
        totals=final,
        placements=_placements(final, winner),
        winner=winner,
        deals=len(parsed),
        rows=tuple(parsed),
        running_totals=tuple(running),
    )


def _read_row(raw: Any, number: int, players: int) -> tuple[SheetRow | None, str]:
    """The row's fields with the right types, or the first field that is missing or malformed."""
    where = f"row {number}"
    if not isinstance(raw, Mapping):
        return None, (
            f"{where}: a row must be an object with dealer, declarer, bid, contract, outcome "
            "and scores"
        )
    for name in _REQUIRED_ROW_FIELDS:
        if name not in raw:
            return None, f"{where}: '{name}' is missing"
    unknown = sorted(str(name) for name in raw if name not in _ROW_FIELDS)
    if unknown:
        return None, f"{where}: unknown field {unknown[0]!r}"
    for name in ("dealer", "declarer", "bid"):
        if not _is_whole(raw[name]):
            return None, f"{where}: '{name}' must be a whole number"
    contract = raw.get("contract")
    if contract is not None and not _is_whole(contract):
        return None, f"{where}: 'contract' must be a whole number (or null if none was named)"
    forced = raw.get("forced", False)
    if not isinstance(forced, bool):
        return None, f"{where}: 'forced' must be true or false"
    scores = raw["scores"]
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != players
        or not all(_is_whole(score) for score in scores)
    ):
        return None, f"{where}: 'scores' must list {players} whole numbers, one per seat"
    row = SheetRow(
        dealer=raw["dealer"],
        declarer=raw["declarer"],
        bid=raw["bid"],
        contract=contract,
        outcome=raw["outcome"],
        forced=forced,
        scores=tuple(scores),
    )
    return row, ""


def _row_rule_error(
    row: SheetRow, number: int, dealer: int, players: int, rules: RuleSet
) -> str | None:
    """The first rule of RULES.md the row breaks, as a message naming the row; None if none."""
    where = f"row {number}"
    if row.dealer != dealer:
        return (
            f"{where}: the dealer must be seat {dealer}, not seat {row.dealer} "
            "(the deal passes to the left after every deal)"
        )
    declarer = row.declarer
    if not 0 <= declarer < players:
        return f"{where}: the declarer must be a seat from 0 to {players - 1}"
    active = tuple((dealer + k) % players for k in (1, 2, 3))
    if declarer not in active:
        return f"{where}: the declarer cannot be seat {declarer}: the dealer sits out the deal"
    bid = row.bid
    if row.forced:
        if declarer != active[2]:
            return (
                f"{where}: a forced declarer is the third active player, seat {active[2]}, "
                "after the first two pass without a bid"
            )
        if bid != rules.min_bid:
            return (
                f"{where}: a forced declarer plays for the lowest bid, {rules.min_bid}, not {bid}"
            )
    if bid % 5:
        return f"{where}: the bid must be a multiple of 5, not {bid}"
    if bid < rules.min_bid:
        return f"{where}: the bid must be at least {rules.min_bid}, not {bid}"
    if not rules.bid_jumps and (bid - rules.min_bid) % rules.bid_step:
        return (
            f"{where}: without jumps (bid_jumps off) every bid is {rules.min_bid} plus steps of "
            f"{rules.bid_step}, so {bid} cannot be bid"
        )
    if rules.bid_cap == "held_marriages" and bid > MAX_HELD_BID:
        return (
            f"{where}: the bid may not exceed {MAX_HELD_BID} "
            "(120 plus the three marriages a hand of 7 cards can hold)"
        )
    if bid > ABSOLUTE_MAX_BID:
        return f"{where}: the bid may not exceed {ABSOLUTE_MAX_BID}: no deal can score more"
    outcome = row.outcome
    if outcome not in OUTCOMES:
        return f"{where}: the outcome must be 'made', 'failed' or 'conceded', not {outcome!r}"
    contract = row.contract
    if contract is None:
        if outcome != "conceded":
            return f"{where}: a played deal needs its contract"
    else:
        if contract % 5:
            return f"{where}: the contract must be a multiple of 5, not {contract}"
        if contract < bid:
            return f"{where}: the contract ({contract}) may not be below the bid ({bid})"
        if contract > MAX_CONTRACT:
            return (
                f"{where}: the contract may not exceed {MAX_CONTRACT} "
                "(120 card points plus all four marriages)"
            )

    scores = row.scores
    error = _declarer_score_error(row, where)
    if error:
        return error
    defenders = tuple(seat for seat in active if seat != declarer)
    if outcome == "conceded":
        bonus = rules.concede_bonus
        for seat in defenders:
            if scores[seat] != bonus:
                return (
                    f"{where}: seat {seat} scores +{bonus} when the declarer concedes "
                    f"(concede_bonus), not {scores[seat]}"
                )
    else:
        for seat in defenders:
            error = _defender_score_error(scores[seat], seat, where, rules)
            if error:
                return error
        low_seat, high_seat = sorted(defenders)
        first, second = scores[low_seat], scores[high_seat]
        conflict = _defence_conflict(first, second, contract, outcome == "made", rules)
        defence = f"the defenders (seats {low_seat} and {high_seat}) score"
        if conflict == "total":
            return (
                f"{where}: {defence} {first} and {second}, more than one deal holds "
                "(120 card points, and each marriage is declared at most once)"
            )
        if conflict == "made":
            return (
                f"{where}: the declarer cannot have made {contract} when {defence} {first} and "
                f"{second}: too few card points and marriages are left for him"
            )
        if conflict == "failed":
            return (
                f"{where}: the declarer cannot have failed {contract} when {defence} only {first} "
                f"and {second}: the card points they did not take are enough"
            )
    if players == 4 and scores[dealer] not in _talon_scores(rules):
        return (
            f"{where}: the dealer (seat {dealer}) scores the talon: 100 for three nines, "
            f"otherwise its card points rounded to {rules.rounding}; {scores[dealer]} is not "
            "possible"
        )
    return None


def _declarer_score_error(row: SheetRow, where: str) -> str | None:
    seat, contract, score = row.declarer, row.contract, row.scores[row.declarer]
    who = f"{where}: the declarer (seat {seat})"
    if row.outcome == "made" and score != contract:
        return f"{who} made the contract {contract} and scores +{contract}, not {score}"
    if row.outcome == "failed" and score != -contract:
        return f"{who} failed the contract {contract} and scores -{contract}, not {score}"
    if row.outcome == "conceded":
        if row.forced:
            if score:
                return (
                    f"{where}: the forced declarer (seat {seat}) conceded and scores 0, not {score}"
                )
        elif contract is None and score != -row.bid:
            return (
                f"{who} conceded before naming a contract and scores minus the bid, -{row.bid}, "
                f"not {score}"
            )
        elif contract is not None and score != -contract:
            return f"{who} conceded the contract {contract} and scores -{contract}, not {score}"
    return None


def _defender_score_error(score: int, seat: int, where: str, rules: RuleSet) -> str | None:
    unit = rules.rounding
    if score < 0:
        return f"{where}: seat {seat} defends and cannot score below 0, not {score}"
    if score % unit:
        return (
            f"{where}: seat {seat} defends and scores his deal points rounded to {unit}; "
            f"{score} is not a multiple of {unit}"
        )
    most = rules.round_points(MAX_DEFENDER_POINTS)
    if score > most:
        return (
            f"{where}: seat {seat} defends and can score at most {most} "
            f"(120 card points plus all four marriages), not {score}"
        )
    return None


def _defence_conflict(
    first: int, second: int, contract: int, made: bool, rules: RuleSet
) -> str | None:
    """Whether one deal can give the defenders these scores and the declarer this outcome.

    Deal points are card points (120 in the deck, shared by the three active players) plus the
    marriages a player declared. The check is an interval argument, so it never rejects a deal that
    can happen, though it lets through a few that cannot (say, a defender with 1 card point).
    Returns None, "total" (no deal gives both scores), or the outcome that cannot be.
    """
    first_low, first_high = _points_rounding_to(first, rules)
    second_low, second_high = _points_rounding_to(second, rules)
    threshold = _made_threshold(contract, rules)
    any_share = False
    for declarer_marriages, first_marriages, second_marriages in _MARRIAGE_SHARES:
        a_low = max(0, first_low - first_marriages)
        a_high = min(DECK_CARD_POINTS, first_high - first_marriages)
        b_low = max(0, second_low - second_marriages)
        b_high = min(DECK_CARD_POINTS, second_high - second_marriages)
        if a_low > a_high or b_low > b_high or a_low + b_low > DECK_CARD_POINTS:
            continue
        any_share = True
        # The declarer holds the card points the defenders did not take.
        most = DECK_CARD_POINTS - a_low - b_low + declarer_marriages
        least = max(0, DECK_CARD_POINTS - a_high - b_high) + declarer_marriages
        if (made and most >= threshold) or (not made and least < threshold):
            return None
    if not any_share:
        return "total"
    return "made" if made else "failed"


@lru_cache(maxsize=4096)
def _points_rounding_to(score: int, rules: RuleSet) -> tuple[int, int]:
    """The lowest and highest unrounded deal points that round to `score` (a valid score)."""
    points = [
        p
        for p in range(max(0, score - rules.rounding), score + rules.rounding + 1)
        if rules.round_points(p) == score
    ]
    return points[0], points[-1]


def _made_threshold(contract: int, rules: RuleSet) -> int:
    """The fewest deal points with which the declarer makes `contract`."""
    if not rules.round_declarer_points:
        return contract
    points = max(0, contract - rules.rounding)
    while rules.round_points(points) < contract:
        points += 1
    return points


@lru_cache(maxsize=16)
def _talon_scores(rules: RuleSet) -> frozenset[int]:
    """Every score a sitting-out dealer can get for a talon of three of the 24 cards."""
    scores = set()
    for cards in itertools.combinations(range(DECK_SIZE), 3):
        if all(card % 6 == 0 for card in cards):  # three nines
            scores.add(100)
        else:
            scores.add(rules.round_points(sum(CARD_POINTS[card] for card in cards)))
    return frozenset(scores)


# --------------------------------------------------------------------------- final totals only
def _validate_totals(
    sheet: Mapping[str, Any], *, players: int, rules: RuleSet, fixed_deals: int | None
) -> ValidatedSheet:
    totals = sheet.get("totals")
    if (
        not isinstance(totals, list | tuple)
        or len(totals) != players
        or not all(_is_whole(total) for total in totals)
    ):
        raise ScoreSheetError([f"'totals' must list {players} whole numbers, one per seat"])
    totals = tuple(totals)
    errors = [
        f"seat {seat}'s total {total} must be a multiple of 5: every deal scores multiples of 5"
        for seat, total in enumerate(totals)
        if total % 5
    ]
    winner = sheet.get("winner")
    if winner is not None and (not _is_whole(winner) or not 0 <= winner < players):
        errors.append(f"the winner must be a seat from 0 to {players - 1}")
    if errors:
        raise ScoreSheetError(errors)
    target = rules.target
    leader = _sole_leader(totals)
    if fixed_deals is not None:
        # A fixed-deal game is ranked by total alone: the winner, if any, is the sole leader.
        if winner is not None and winner != leader:
            raise ScoreSheetError(
                [
                    f"seat {winner} cannot have won: a game of {fixed_deals} deals is won by "
                    "the highest total alone"
                ]
            )
        winner = leader
    elif max(totals) < target:
        raise ScoreSheetError([f"no total reaches {target}, so the game is not over"])
    elif winner is None:
        if leader is None:
            raise ScoreSheetError(
                [
                    f"seats {_seat_list(totals, max(totals))} tie for the lead: name the winner "
                    f"(the declarer who reached {target} in the last deal)"
                ]
            )
        winner = leader
    elif totals[winner] < target:
        raise ScoreSheetError(
            [f"seat {winner} cannot have won with {totals[winner]}: the winner reaches {target}"]
        )
    return ValidatedSheet(
        mode="totals",
        players=players,
        totals=totals,
        placements=_placements(totals, winner),
        winner=winner,
        deals=fixed_deals,
        rows=(),
        running_totals=(),
    )


# --------------------------------------------------------------------------- the game's end
def _target_winner(totals: Sequence[int], declarer: int, target: int) -> int | None:
    """The winner after a deal by RULES.md section 8, or None while the game goes on."""
    if max(totals) < target:
        return None
    if totals[declarer] >= target:
        return declarer
    return _sole_leader(totals)  # a tie for the lead is settled by one more deal


def _sole_leader(totals: Sequence[int]) -> int | None:
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


def _not_over_message(totals: Sequence[int], rows: int, target: int) -> str:
    best = max(totals)
    if best < target:
        return f"the game is not over after the last row ({rows}): no total has reached {target}"
    return (
        f"the game is not over after the last row ({rows}): seats {_seat_list(totals, best)} "
        f"tie for the lead at {best}, so one more deal is played"
    )


def _seat_list(totals: Sequence[int], value: int) -> str:
    seats = [str(seat) for seat, total in enumerate(totals) if total == value]
    return ", ".join(seats[:-1]) + " and " + seats[-1]


def _placements(totals: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """Places at the table: the winner first, the others by total; equal totals share a place."""
    places = [0] * len(totals)
    others = [seat for seat in range(len(totals)) if seat != winner]
    first = 1
    if winner is not None:
        places[winner] = 1
        first = 2
    others.sort(key=lambda seat: -totals[seat])
    for position, seat in enumerate(others):
        earlier = others[position - 1] if position else None
        if earlier is not None and totals[earlier] == totals[seat]:
            places[seat] = places[earlier]
        else:
            places[seat] = first + position
    return tuple(places)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
