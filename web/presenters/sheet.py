"""What the score-sheet entry shows of a sheet being typed in, on the director's and the player's
page alike: each deal's totals after it and its messages, every message, and the final totals.

The messages are the entry forms' (a field they cannot read, a field a deal needs) and then the
rules engine's (`scoring.services.sheet_check`): a deal the forms refused is reported by them
alone, as the engine's message about it would only say the same again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.services import SheetCheck
from web.forms.sheet import SheetEntry


@dataclass(frozen=True)
class DealCheck:
    """What the form shows under one deal: everyone's total after it and what to fix in it."""

    index: int
    totals: list[tuple[str, int]] | None
    messages: list[str]


@dataclass(frozen=True)
class EntryCheck:
    """A typed sheet judged: `valid` once both the forms and the rules engine accept it."""

    valid: bool
    messages: list[str]
    deals: list[DealCheck]
    finals: list[dict[str, Any]]

    def deal(self, index: int) -> DealCheck | None:
        return self.deals[index] if index < len(self.deals) else None


def refused_entry(message: str) -> EntryCheck:
    """A sheet that cannot be read at all, with the reason."""
    return EntryCheck(valid=False, messages=[message], deals=[], finals=[])


def entry_check(*, entry: SheetEntry, check: SheetCheck, seat_names: list[str]) -> EntryCheck:
    """The forms' messages and the engine's `check` of the sheet `entry` gave, for the page."""
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
    messages = [
        *entry.sheet_messages(),
        *(message for number in sorted(by_row) for message in by_row[number]),
        *extra,
        *check.sheet_messages,
    ]
    valid = entry.form_valid and check.valid
    deals = []
    for index in range(rows):
        running = check.running_totals[index] if index < len(check.running_totals) else None
        totals = list(zip(seat_names, running, strict=True)) if running is not None else None
        deals.append(DealCheck(index=index, totals=totals, messages=by_row.get(index + 1, [])))
    return EntryCheck(
        valid=valid,
        messages=messages,
        deals=deals,
        finals=_final_lines(check, seat_names, valid),
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
