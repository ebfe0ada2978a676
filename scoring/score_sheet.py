"""Validation of a table's score sheet (deal by deal, or final totals) by the rules of 1001.

A sheet is JSON-like, as a form or the API sends it:

    {"mode": "deals", "rows": [{"dealer": 0, "declarer": 1, "bid": 100, "contract": 110,
                                "outcome": "made", "forced": false, "scores": [10, 110, 5]}]}
    {"mode": "totals", "totals": [1005, 420, -35], "winner": 0}

`validate_score_sheet` checks every row against RULES.md sections 2, 4, 5, 7 and 8 and returns a
`ValidatedSheet` (totals, placements, winner, running totals), or raises `ScoreSheetError` listing
the first broken rule of every bad row, so that a person can fix the whole sheet in one go. Live
tables submit through `sheet_from_game`, so both paths are judged by the same code.

Seats are indexes from 0 in the sheet, as in every record; the messages are for people and count
them from 1, as the pages do. Each message is a `Message`: its text is English, and it carries the
template and values with which a page shows it in its own language.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard, cast

from rules.cards import CARD_POINTS, DECK_SIZE, MARRIAGE_VALUE
from rules.deal import DealState
from rules.game import Game
from rules.messages import Message, _, ngettext, pgettext
from rules.options import ABSOLUTE_MAX_BID, RuleSet
from standings.ranking import TableResult

OUTCOMES = ("made", "failed", "conceded")
DECK_CARD_POINTS = 120
# Seven cards hold at most three marriages, so under the held_marriages cap no bid can exceed
# 120 plus the three most valuable ones. The contract is named on eight cards, which can hold all
# four, and that is also the engine's absolute ceiling.
MAX_HELD_BID = DECK_CARD_POINTS + sum(sorted(MARRIAGE_VALUE)[1:])
MAX_CONTRACT = ABSOLUTE_MAX_BID
MAX_DEFENDER_POINTS = DECK_CARD_POINTS + sum(MARRIAGE_VALUE)
# No game's total comes near a million (the highest target is 100,000), so a total beyond it is
# a typing mistake or a forgery. The entry forms bound every number typed into a sheet by it too.
MAX_TOTAL = 1_000_000

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


# The fields of a row as a person knows them from the entry form.
_FIELD_NAMES = {
    "dealer": pgettext("score sheet field", "dealer"),
    "declarer": pgettext("score sheet field", "declarer"),
    "bid": pgettext("score sheet field", "bid"),
    "outcome": pgettext("score sheet field", "outcome"),
    "scores": pgettext("score sheet field", "scores"),
}


class ScoreSheetError(ValueError):
    """A score sheet that breaks the rules; `messages` names each bad row and the rule it breaks.

    The messages are `Message`s: English text, with what a page needs to show them in its own
    language. A message about one row has the row's number (from 1) as its parameter `row`.
    `unfinished` are those of the messages that only say the game is not over yet (no total has
    reached the target, fewer rows than the table's fixed deals): a sheet being entered as the
    table plays has them until its last deal, and breaks no rule by it.
    """

    def __init__(self, messages: Sequence[Message], *, unfinished: Sequence[Message] = ()) -> None:
        self.messages = list(messages)
        self.unfinished = list(unfinished)
        super().__init__("\n".join(self.messages))


def _at_row(number: int, problem: Message) -> Message:
    return Message(_("row %(row)s: %(problem)s"), row=number, problem=problem)


def _seat(index: int) -> int:
    """A seat as people count it: from 1."""
    return index + 1


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
            [Message(_("a score sheet must be an object with 'mode' and its rows or totals"))]
        )
    mode = sheet.get("mode")
    if not isinstance(mode, str) or mode not in _SHEET_FIELDS:
        raise ScoreSheetError([Message(_("the sheet's 'mode' must be 'deals' or 'totals'"))])
    unknown = sorted(str(name) for name in sheet if name not in _SHEET_FIELDS[mode])
    if unknown:
        raise ScoreSheetError(
            [Message(_("the sheet has no field %(field)s"), field=repr(unknown[0]))]
        )
    if mode == "totals":
        if not quick_allowed:
            raise ScoreSheetError(
                [
                    Message(
                        _(
                            "this tournament does not accept final totals only; "
                            "enter the score sheet deal by deal"
                        )
                    )
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


def declarer_score(*, bid: int, contract: int | None, outcome: str, forced: bool) -> int | None:
    """What the declarer of a deal scores (RULES.md 5.4 and 7): +contract made, -contract failed;
    conceded, 0 for a forced declarer, else minus the contract, or minus the bid before naming
    one. None for a played deal without its contract or an unknown outcome."""
    if outcome == "conceded":
        if forced:
            return 0
        return -bid if contract is None else -contract
    if contract is None or outcome not in ("made", "failed"):
        return None
    return contract if outcome == "made" else -contract


def following_scores(
    sheet: Any, *, players: int, first_dealer: int, rules: RuleSet
) -> list[dict[int, int]]:
    """For each row of a deal-by-deal sheet being typed in, the seats' scores that follow from
    the deal itself, so that nobody types them: the declarer's always (`declarer_score`), and in
    a conceded deal the other active players' (`concede_bonus` each, RULES.md 5.4). The dealer is
    the row's by the rotation; a row whose declarer, bid, contract or outcome cannot be read (or
    whose declarer sits out) gives what it can, often nothing. The validator still judges every
    score, these too."""
    rows = sheet.get("rows") if isinstance(sheet, Mapping) else None
    if not isinstance(rows, list):
        return []
    found: list[dict[int, int]] = []
    for index, raw in enumerate(rows):
        found.append(_following_row(raw, (first_dealer + index) % players, players, rules))
    return found


def _following_row(raw: Any, dealer: int, players: int, rules: RuleSet) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        return {}
    declarer, bid, contract = raw.get("declarer"), raw.get("bid"), raw.get("contract")
    outcome, forced = raw.get("outcome"), raw.get("forced", False)
    if (
        not _is_whole(declarer)
        or not 0 <= declarer < players
        or not _is_whole(bid)
        or not (contract is None or _is_whole(contract))
        or not isinstance(outcome, str)
        or not isinstance(forced, bool)
    ):
        return {}
    scores: dict[int, int] = {}
    score = declarer_score(bid=bid, contract=contract, outcome=outcome, forced=forced)
    if score is not None:
        scores[declarer] = score
    active = [(dealer + k) % players for k in (1, 2, 3)]
    if outcome == "conceded" and declarer in active:
        for seat in active:
            if seat != declarer:
                scores[seat] = rules.concede_bonus
    return scores


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
                "scores": list(cast(tuple[int, ...], deal.scores)),  # done: it has scores
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
        raise ScoreSheetError([Message(_("'rows' must be a list with one row per deal"))])
    if not rows:
        empty = Message(_("the sheet has no rows"))
        raise ScoreSheetError([empty], unfinished=[empty])
    errors: list[Message] = []
    parsed: list[SheetRow] = []
    running: list[tuple[int, ...]] = []
    totals = [0] * players
    # Once a row's scores cannot be read the running totals are unknown, and so is the game's end.
    totals_known = True
    ended_after: int | None = None
    winner: int | None = None
    problem: Message | None
    for index, raw in enumerate(rows):
        number = index + 1
        if fixed_deals is not None and index >= fixed_deals:
            problem = ngettext(
                "this table plays %(count)s deal, so the sheet has %(count)s row, not %(rows)s",
                "this table plays %(count)s deals, so the sheet has %(count)s rows, not %(rows)s",
                fixed_deals,
                rows=len(rows),
            )
            errors.append(_at_row(number, problem))
            break
        if ended_after is not None:
            problem = Message(
                _(
                    "the game ended after row %(last)s (seat %(seat)s won); "
                    "the sheet stops at the deal that ends the game"
                ),
                last=ended_after,
                seat=_seat(cast(int, winner)),  # the game ended: it has its winner
            )
            errors.append(_at_row(number, problem))
            break
        row, problem = _read_row(raw, players)
        if row is None:
            errors.append(_at_row(number, cast(Message, problem)))  # a row not read says why
            totals_known = False
            continue
        dealer = (first_dealer + index) % players
        problem = _row_rule_error(row, dealer, players, rules)
        if problem:
            errors.append(_at_row(number, problem))
        else:
            parsed.append(row)
        for seat, score in enumerate(row.scores):
            totals[seat] += score
        running.append(tuple(totals))
        if totals_known and fixed_deals is None and 0 <= row.declarer < players:
            winner = _target_winner(totals, row.declarer, rules.target)
            if winner is not None:
                ended_after = number

    unfinished: list[Message] = []
    if totals_known:
        if fixed_deals is not None:
            if len(rows) < fixed_deals:
                unfinished.append(
                    ngettext(
                        "this table plays %(count)s deal, but the sheet has only %(rows)s rows",
                        "this table plays %(count)s deals, but the sheet has only %(rows)s rows",
                        fixed_deals,
                        rows=len(rows),
                    )
                )
            else:
                winner = _sole_leader(totals)
        elif ended_after is None:
            unfinished.append(_not_over_message(totals, len(rows), rules.target))
    errors += unfinished
    if errors:
        raise ScoreSheetError(errors, unfinished=unfinished)
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


def _read_row(raw: Any, players: int) -> tuple[SheetRow | None, Message | None]:
    """The row's fields with the right types, or the first field that is missing or malformed."""
    if not isinstance(raw, Mapping):
        return None, Message(
            _("a row must be an object with dealer, declarer, bid, contract, outcome and scores")
        )
    for name in _REQUIRED_ROW_FIELDS:
        if name not in raw:
            return None, Message(_("'%(field)s' is missing"), field=_FIELD_NAMES[name])
    unknown = sorted(str(name) for name in raw if name not in _ROW_FIELDS)
    if unknown:
        return None, Message(_("unknown field %(field)s"), field=repr(unknown[0]))
    for name in ("dealer", "declarer", "bid"):
        if not _is_whole(raw[name]):
            return None, Message(_("'%(field)s' must be a whole number"), field=_FIELD_NAMES[name])
    contract = raw.get("contract")
    if contract is not None and not _is_whole(contract):
        return None, Message(_("'contract' must be a whole number (or empty if none was named)"))
    forced = raw.get("forced", False)
    if not isinstance(forced, bool):
        return None, Message(_("'forced' must be true or false"))
    scores = raw["scores"]
    if (
        not isinstance(scores, list | tuple)
        or len(scores) != players
        or not all(_is_whole(score) for score in scores)
    ):
        return None, ngettext(
            "'scores' must list %(count)s whole number, one per seat",
            "'scores' must list %(count)s whole numbers, one per seat",
            players,
        )
    row = SheetRow(
        dealer=raw["dealer"],
        declarer=raw["declarer"],
        bid=raw["bid"],
        contract=contract,
        outcome=raw["outcome"],
        forced=forced,
        scores=tuple(scores),
    )
    return row, None


def _row_rule_error(row: SheetRow, dealer: int, players: int, rules: RuleSet) -> Message | None:
    """The first rule of RULES.md the row breaks (the row's number is added by the caller)."""
    if row.dealer != dealer:
        return Message(
            _(
                "the dealer must be seat %(dealer)s, not seat %(seat)s "
                "(the deal passes to the left after every deal)"
            ),
            dealer=_seat(dealer),
            seat=_seat(row.dealer),
        )
    declarer = row.declarer
    if not 0 <= declarer < players:
        return Message(_("the declarer must be a seat from 1 to %(players)s"), players=players)
    active = tuple((dealer + k) % players for k in (1, 2, 3))
    if declarer not in active:
        return Message(
            _("the declarer cannot be seat %(seat)s: the dealer sits out the deal"),
            seat=_seat(declarer),
        )
    bid = row.bid
    if row.forced:
        if declarer != active[2]:
            return Message(
                _(
                    "a forced declarer is the third active player, seat %(seat)s, "
                    "after the first two pass without a bid"
                ),
                seat=_seat(active[2]),
            )
        if bid != rules.min_bid:
            return Message(
                _("a forced declarer plays for the lowest bid, %(lowest)s, not %(bid)s"),
                lowest=rules.min_bid,
                bid=bid,
            )
    if bid % 5:
        return Message(_("the bid must be a multiple of 5, not %(bid)s"), bid=bid)
    if bid < rules.min_bid:
        return Message(
            _("the bid must be at least %(lowest)s, not %(bid)s"), lowest=rules.min_bid, bid=bid
        )
    if not rules.bid_jumps and (bid - rules.min_bid) % rules.bid_step:
        return Message(
            _(
                "without jumps (bid_jumps off) every bid is %(lowest)s plus steps of %(step)s, "
                "so %(bid)s cannot be bid"
            ),
            lowest=rules.min_bid,
            step=rules.bid_step,
            bid=bid,
        )
    if rules.bid_cap == "held_marriages" and bid > MAX_HELD_BID:
        return Message(
            _(
                "the bid may not exceed %(most)s "
                "(120 plus the three marriages a hand of 7 cards can hold)"
            ),
            most=MAX_HELD_BID,
        )
    if bid > ABSOLUTE_MAX_BID:
        return Message(
            _("the bid may not exceed %(most)s: no deal can score more"), most=ABSOLUTE_MAX_BID
        )
    outcome = row.outcome
    if outcome not in OUTCOMES:
        return Message(
            _("the outcome must be 'made', 'failed' or 'conceded', not %(outcome)s"),
            outcome=repr(outcome),
        )
    contract = row.contract
    if contract is None:
        if outcome != "conceded":
            return Message(_("a played deal needs its contract"))
    else:
        if contract % 5:
            return Message(
                _("the contract must be a multiple of 5, not %(contract)s"), contract=contract
            )
        if contract < bid:
            return Message(
                _("the contract (%(contract)s) may not be below the bid (%(bid)s)"),
                contract=contract,
                bid=bid,
            )
        if contract > MAX_CONTRACT:
            return Message(
                _("the contract may not exceed %(most)s (120 card points plus all four marriages)"),
                most=MAX_CONTRACT,
            )

    scores = row.scores
    problem = _declarer_score_error(row)
    if problem:
        return problem
    defenders = tuple(seat for seat in active if seat != declarer)
    if outcome == "conceded":
        bonus = rules.concede_bonus
        for seat in defenders:
            if scores[seat] != bonus:
                return Message(
                    _(
                        "seat %(seat)s scores +%(bonus)s when the declarer concedes "
                        "(concede_bonus), not %(score)s"
                    ),
                    seat=_seat(seat),
                    bonus=bonus,
                    score=scores[seat],
                )
    else:
        for seat in defenders:
            problem = _defender_score_error(scores[seat], seat, rules)
            if problem:
                return problem
        low_seat, high_seat = sorted(defenders)
        first, second = scores[low_seat], scores[high_seat]
        # Only a conceded deal may lack its contract (checked above).
        conflict = _defence_conflict(first, second, cast(int, contract), outcome == "made", rules)
        defence = {
            "first": _seat(low_seat),
            "second": _seat(high_seat),
            "first_score": first,
            "second_score": second,
        }
        if conflict == "total":
            return Message(
                _(
                    "the defenders (seats %(first)s and %(second)s) score %(first_score)s and "
                    "%(second_score)s, more than one deal holds "
                    "(120 card points, and each marriage is declared at most once)"
                ),
                **defence,
            )
        if conflict == "made":
            return Message(
                _(
                    "the declarer cannot have made %(contract)s when the defenders "
                    "(seats %(first)s and %(second)s) score %(first_score)s and %(second_score)s: "
                    "too few card points and marriages are left for him"
                ),
                contract=contract,
                **defence,
            )
        if conflict == "failed":
            return Message(
                _(
                    "the declarer cannot have failed %(contract)s when the defenders "
                    "(seats %(first)s and %(second)s) score only %(first_score)s and "
                    "%(second_score)s: the card points they did not take are enough"
                ),
                contract=contract,
                **defence,
            )
    if players == 4 and scores[dealer] not in _talon_scores(rules):
        return Message(
            _(
                "the dealer (seat %(seat)s) scores the talon: 100 for three nines, "
                "otherwise its card points rounded to %(unit)s; %(score)s is not possible"
            ),
            seat=_seat(dealer),
            unit=rules.rounding,
            score=scores[dealer],
        )
    return None


def _declarer_score_error(row: SheetRow) -> Message | None:
    seat, contract, score = row.declarer, row.contract, row.scores[row.declarer]
    if score == declarer_score(
        bid=row.bid, contract=contract, outcome=row.outcome, forced=row.forced
    ):
        return None
    values = {"seat": _seat(seat), "contract": contract, "score": score}
    if row.outcome == "made" and score != contract:
        return Message(
            _(
                "the declarer (seat %(seat)s) made the contract %(contract)s and scores "
                "+%(contract)s, not %(score)s"
            ),
            **values,
        )
    # A failed deal has its contract (_row_rule_error checks it first).
    if row.outcome == "failed" and score != -cast(int, contract):
        return Message(
            _(
                "the declarer (seat %(seat)s) failed the contract %(contract)s and scores "
                "-%(contract)s, not %(score)s"
            ),
            **values,
        )
    if row.outcome == "conceded":
        if row.forced:
            if score:
                return Message(
                    _("the forced declarer (seat %(seat)s) conceded and scores 0, not %(score)s"),
                    seat=_seat(seat),
                    score=score,
                )
        elif contract is None and score != -row.bid:
            return Message(
                _(
                    "the declarer (seat %(seat)s) conceded before naming a contract and scores "
                    "minus the bid, -%(bid)s, not %(score)s"
                ),
                seat=_seat(seat),
                bid=row.bid,
                score=score,
            )
        elif contract is not None and score != -contract:
            return Message(
                _(
                    "the declarer (seat %(seat)s) conceded the contract %(contract)s and scores "
                    "-%(contract)s, not %(score)s"
                ),
                **values,
            )
    return None


def _defender_score_error(score: int, seat: int, rules: RuleSet) -> Message | None:
    unit = rules.rounding
    if score < 0:
        return Message(
            _("seat %(seat)s defends and cannot score below 0, not %(score)s"),
            seat=_seat(seat),
            score=score,
        )
    if score % unit:
        return Message(
            _(
                "seat %(seat)s defends and scores his deal points rounded to %(unit)s; "
                "%(score)s is not a multiple of %(unit)s"
            ),
            seat=_seat(seat),
            unit=unit,
            score=score,
        )
    most = rules.round_points(MAX_DEFENDER_POINTS)
    if score > most:
        return Message(
            _(
                "seat %(seat)s defends and can score at most %(most)s "
                "(120 card points plus all four marriages), not %(score)s"
            ),
            seat=_seat(seat),
            most=most,
            score=score,
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
        raise ScoreSheetError(
            [
                ngettext(
                    "'totals' must list %(count)s whole number, one per seat",
                    "'totals' must list %(count)s whole numbers, one per seat",
                    players,
                )
            ]
        )
    totals = tuple(totals)
    errors = [
        Message(
            _("seat %(seat)s's total must be from %(least)s to %(most)s"),
            seat=_seat(seat),
            least=-MAX_TOTAL,
            most=MAX_TOTAL,
        )
        if abs(total) > MAX_TOTAL
        else Message(
            _(
                "seat %(seat)s's total %(total)s must be a multiple of 5: "
                "every deal scores multiples of 5"
            ),
            seat=_seat(seat),
            total=total,
        )
        for seat, total in enumerate(totals)
        if abs(total) > MAX_TOTAL or total % 5
    ]
    winner = sheet.get("winner")
    if winner is not None and (not _is_whole(winner) or not 0 <= winner < players):
        errors.append(
            Message(_("the winner must be a seat from 1 to %(players)s"), players=players)
        )
    if errors:
        raise ScoreSheetError(errors)
    target = rules.target
    leader = _sole_leader(totals)
    if fixed_deals is not None:
        # A fixed-deal game is ranked by total alone: the winner, if any, is the sole leader.
        if winner is not None and winner != leader:
            raise ScoreSheetError(
                [
                    ngettext(
                        "seat %(seat)s cannot have won: a game of %(count)s deal is won by "
                        "the highest total alone",
                        "seat %(seat)s cannot have won: a game of %(count)s deals is won by "
                        "the highest total alone",
                        fixed_deals,
                        seat=_seat(winner),
                    )
                ]
            )
        winner = leader
    elif max(totals) < target:
        raise ScoreSheetError(
            [Message(_("no total reaches %(target)s, so the game is not over"), target=target)]
        )
    elif winner is None:
        if leader is None:
            raise ScoreSheetError(
                [
                    Message(
                        _(
                            "seats %(seats)s tie for the lead: name the winner "
                            "(the declarer who reached %(target)s in the last deal)"
                        ),
                        seats=_seat_list(totals, max(totals)),
                        target=target,
                    )
                ]
            )
        winner = leader
    elif totals[winner] < target:
        raise ScoreSheetError(
            [
                Message(
                    _(
                        "seat %(seat)s cannot have won with %(total)s: "
                        "the winner reaches %(target)s"
                    ),
                    seat=_seat(winner),
                    total=totals[winner],
                    target=target,
                )
            ]
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


def _not_over_message(totals: Sequence[int], rows: int, target: int) -> Message:
    best = max(totals)
    if best < target:
        return Message(
            _(
                "the game is not over after the last row (%(rows)s): "
                "no total has reached %(target)s"
            ),
            rows=rows,
            target=target,
        )
    return Message(
        _(
            "the game is not over after the last row (%(rows)s): seats %(seats)s tie for the "
            "lead at %(total)s, so one more deal is played"
        ),
        rows=rows,
        seats=_seat_list(totals, best),
        total=best,
    )


def _seat_list(totals: Sequence[int], value: int) -> Message:
    """The seats (from 1) whose total is `value`: "1 and 3", "1, 2 and 3"."""
    seats = [str(_seat(seat)) for seat, total in enumerate(totals) if total == value]
    return Message(_("%(seats)s and %(last)s"), seats=", ".join(seats[:-1]), last=seats[-1])


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


def _is_whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
