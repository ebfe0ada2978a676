"""What the score-sheet entry shows of a sheet being typed in, on the director's and the player's
page alike: each deal's totals after it and its messages, every message, and the final totals.

The messages are the entry forms' (a field they cannot read, a field a deal needs) and then the
rules engine's (`scoring.services.sheet_check`): a deal the forms refused is reported by them
alone, as the engine's message about it would only say the same again. A sheet whose game is
not over yet breaks no rule by it: that is said apart (`unfinished`), not among the problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.services import SheetCheck
from web.forms.sheet import OUTCOME_CHOICES, DealRowForm, SheetEntry


@dataclass(frozen=True)
class DealLine:
    """A deal in one line, as a deal already entered is shown folded: who dealt, who declared
    what, how it went, and everyone's score in it (None for a score not typed, or not a number).
    A deal not typed in yet (`blank`) has only its dealer."""

    dealer: str
    blank: bool
    declarer: str = ""
    contract: Any = None
    outcome: str = ""
    forced: bool = False
    scores: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class DealCheck:
    """What the form shows under one deal: everyone's total after it and what to fix in it.

    `done` once the deal is complete and breaks no rule (the page folds it into its line);
    `fills` are the scores the deal gives (seat, score), filled in for the person."""

    index: int
    totals: list[tuple[str, int]] | None
    messages: list[str]
    done: bool = False
    fills: list[tuple[int, int]] = field(default_factory=list)
    line: DealLine | None = None


@dataclass(frozen=True)
class EntryCheck:
    """A typed sheet judged: `valid` once both the forms and the rules engine accept it.

    `messages` are all that keeps it from being submitted; of them, `unfinished` only say that
    the game is not over yet, and `problems` are the others (a rule broken, a field to fix).
    `standing` is everyone's (seat, name, total) after the last deal whose scores are known,
    `standing_after` that deal's number (0 before the first)."""

    valid: bool
    messages: list[str]
    deals: list[DealCheck]
    finals: list[dict[str, Any]]
    unfinished: list[str] = field(default_factory=list)
    standing: list[tuple[int, str, int]] = field(default_factory=list)
    standing_after: int = 0
    # What the page says of the draft it shows (another phone saved it meanwhile), if anything.
    notice: str = ""

    def deal(self, index: int) -> DealCheck | None:
        return self.deals[index] if index < len(self.deals) else None

    @property
    def problems(self) -> list[str]:
        return [message for message in self.messages if message not in self.unfinished]

    @property
    def all_done(self) -> bool:
        """Every deal typed in so far is complete and breaks no rule."""
        return not self.problems


def refused_entry(message: str) -> EntryCheck:
    """A sheet that cannot be read at all, with the reason."""
    return EntryCheck(valid=False, messages=[message], deals=[], finals=[])


def _deal_line(form: DealRowForm) -> DealLine:
    if form.is_blank():
        return DealLine(dealer=form.seat_name("dealer"), blank=True)
    outcome = form.typed("outcome")
    return DealLine(
        dealer=form.seat_name("dealer"),
        blank=False,
        declarer=form.seat_name("declarer"),
        contract=form.typed("contract")
        if form.typed("contract") is not None
        else form.typed("bid"),
        outcome=str(dict(OUTCOME_CHOICES).get(str(outcome), "")),
        forced=bool(form.typed("forced")),
        scores=[form.typed(f"score_{seat}") for seat in range(len(form.seat_names))],
    )


def entry_check(
    *,
    entry: SheetEntry,
    check: SheetCheck,
    seat_names: list[str],
    following: list[dict[int, int]] | None = None,
) -> EntryCheck:
    """The forms' messages and the engine's `check` of the sheet `entry` gave, for the page;
    `following` the scores each deal gives (scoring.services.sheet_following_scores)."""
    form_rows = entry.row_messages()
    rows = len(entry.formset.forms) if entry.formset is not None else 0
    by_row = {
        number: form_rows.get(number) or check.row_messages.get(number, [])
        for number in range(1, rows + 1)
    }
    # The engine's messages about rows beyond the form's (it never has them) stay too.
    extra = [
        message
        for number, messages in sorted(check.row_messages.items())
        if number > rows
        for message in messages
    ]
    # Final totals a field of which the form could not read are reported by the form alone: the
    # engine's message about the sheet it gave ("'totals' must list 4 whole numbers") would only
    # say the same again, in the words of the API.
    form_sheet_messages = entry.sheet_messages()
    unread_totals = entry.formset is None and bool(form_sheet_messages)
    messages = [
        *form_sheet_messages,
        *(message for number in sorted(by_row) for message in by_row[number]),
        *extra,
        *([] if unread_totals else check.sheet_messages),
    ]
    valid = entry.form_valid and check.valid
    forms_ = list(entry.formset.forms) if entry.formset is not None else []
    following = following or []
    deals = []
    for index in range(rows):
        running = check.running_totals[index] if index < len(check.running_totals) else None
        totals = list(zip(seat_names, running, strict=True)) if running is not None else None
        form = forms_[index]
        deal_messages = by_row.get(index + 1, [])
        fills = following[index] if index < len(following) else {}
        deals.append(
            DealCheck(
                index=index,
                totals=totals,
                messages=deal_messages,
                done=totals is not None and not deal_messages and not form.is_blank(),
                fills=sorted(fills.items()),
                line=_deal_line(form),
            )
        )
    known = 0
    while known < len(check.running_totals) and check.running_totals[known] is not None:
        known += 1
    last = check.running_totals[known - 1] if known else (0,) * len(seat_names)
    unfinished = [message for message in check.unfinished_messages if message in messages]
    return EntryCheck(
        valid=valid,
        messages=messages,
        deals=deals,
        finals=_final_lines(check, seat_names, valid),
        unfinished=unfinished,
        standing=[
            (seat, name, total)
            for seat, (name, total) in enumerate(zip(seat_names, last or (), strict=False))
        ],
        standing_after=known,
    )


def _final_lines(check: SheetCheck, names: list[str], valid: bool) -> list[dict[str, Any]]:
    """Each seat's total (and place, once the sheet is valid), for the summary under the form."""
    if valid and check.validated is not None:
        validated = check.validated
        return [
            {
                "seat": seat,
                "name": name,
                "total": validated.totals[seat],
                "place": validated.placements[seat],
                "winner": validated.winner == seat,
            }
            for seat, name in enumerate(names)
        ]
    known = [totals for totals in check.running_totals if totals is not None]
    if not known or len(known) != len(check.running_totals):
        return []
    return [
        {"seat": seat, "name": name, "total": known[-1][seat], "place": None, "winner": False}
        for seat, name in enumerate(names)
    ]
