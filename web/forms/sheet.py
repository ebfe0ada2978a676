"""Forms of the player's pages: they read what was typed into a score sheet and judge nothing.

The rules live in `scoring.score_sheet` (through `services.sheet_check` and `result_submit`): a
form turns the typed text into the sheet's JSON form, keeping text that is not a whole number as
it is, so that the validator's own message ("row 3: 'bid' must be a whole number") names it.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

OUTCOME_CHOICES = [
    ("made", pgettext_lazy("deal outcome", "made")),
    ("failed", pgettext_lazy("deal outcome", "failed")),
    ("conceded", pgettext_lazy("deal outcome", "conceded")),
]
MAX_DEALS = 200  # far more than any game to 1001; stops a forged form from growing without end
_WHOLE_NUMBER = re.compile(r"^[+-]?\d{1,9}$")
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # typographic minus, en dash


def _typed_number(text: str) -> int | str | None:
    """A whole number, None for an empty field, or the text itself for the validator to name."""
    text = (text or "").strip().translate(_MINUS_SIGNS).replace(" ", "")
    if not text:
        return None
    return int(text) if _WHOLE_NUMBER.match(text) else text[:20]


class DealRowForm(forms.Form):
    """One deal of the score sheet; the seats' score fields are `score_0`, `score_1`, ..."""

    dealer = forms.CharField(required=False, strip=True)
    declarer = forms.CharField(required=False, strip=True)
    bid = forms.CharField(required=False, strip=True)
    contract = forms.CharField(required=False, strip=True)
    outcome = forms.CharField(required=False, strip=True)
    forced = forms.BooleanField(required=False)

    def __init__(self, *args: Any, seat_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = seat_names
        for seat in range(len(seat_names)):
            self.fields[f"score_{seat}"] = forms.CharField(required=False, strip=True)

    @property
    def score_inputs(self) -> list[tuple[int, str, forms.BoundField]]:
        """(seat, player's name, bound field) of every seat's score, in seat order."""
        return [(seat, name, self[f"score_{seat}"]) for seat, name in enumerate(self.seat_names)]

    def _text(self, name: str) -> str:
        if self.is_bound:
            return str(self.data.get(self.add_prefix(name), "") or "")
        value = self.initial.get(name)
        return "" if value is None else str(value)

    def is_blank(self) -> bool:
        """Nothing typed yet (the dealer and outcome come filled in, so they do not count)."""
        names = [
            "declarer",
            "bid",
            "contract",
            *(f"score_{s}" for s in range(len(self.seat_names))),
        ]
        return not any(self._text(name).strip() for name in names)

    def as_row(self) -> dict[str, Any]:
        """The deal as the sheet's JSON row; an empty required field is left out ("missing")."""
        row: dict[str, Any] = {}
        for name in ("dealer", "declarer", "bid"):
            value = _typed_number(self._text(name))
            if value is not None:
                row[name] = value
        row["contract"] = _typed_number(self._text("contract"))
        outcome = self._text("outcome").strip()
        if outcome:
            row["outcome"] = outcome[:20]
        row["forced"] = bool(
            self.fields["forced"].widget.value_from_datadict(
                self.data, self.files, self.add_prefix("forced")
            )
            if self.is_bound
            else self.initial.get("forced", False)
        )
        row["scores"] = [
            _typed_number(self._text(f"score_{seat}")) for seat in range(len(self.seat_names))
        ]
        return row


class BaseDealRowFormSet(forms.BaseFormSet):
    def sheet(self) -> dict[str, Any]:
        """The deal-by-deal sheet; empty rows at the end (fresh rows not filled in) are left out."""
        forms_ = list(self.forms)
        while forms_ and forms_[-1].is_blank():
            forms_.pop()
        return {"mode": "deals", "rows": [form.as_row() for form in forms_]}


DealRowFormSet = forms.formset_factory(
    DealRowForm,
    formset=BaseDealRowFormSet,
    extra=0,
    max_num=MAX_DEALS,
    absolute_max=MAX_DEALS,
)
DEALS_PREFIX = "rows"


def deal_rows_formset(
    *, seat_names: list[str], data: Any = None, initial: list[dict[str, Any]] | None = None
) -> BaseDealRowFormSet:
    return DealRowFormSet(
        data=data,
        initial=initial,
        prefix=DEALS_PREFIX,
        form_kwargs={"seat_names": seat_names},
    )


def initial_deal_rows(*, players: int, sheet: dict[str, Any] | None, rows: int) -> list[dict]:
    """The form's first rows: a stored sheet to correct, or `rows` empty deals with their dealer.

    The dealer is filled in by rotation (seat 0 deals first, then the deal passes to the left).
    """
    if sheet and sheet.get("mode") == "deals":
        return [
            {
                "dealer": row["dealer"],
                "declarer": row["declarer"],
                "bid": row["bid"],
                "contract": row.get("contract"),
                "outcome": row["outcome"],
                "forced": row.get("forced", False),
                **{f"score_{seat}": score for seat, score in enumerate(row["scores"])},
            }
            for row in sheet.get("rows", [])
        ]
    return [{"dealer": index % players, "outcome": "made"} for index in range(max(rows, 1))]


class SheetSubmitForm(forms.Form):
    """What comes with every sheet: the version the player saw, and how the sheet is entered."""

    # Only compared with the table's current version: any other number is a conflict.
    version = forms.IntegerField(min_value=0)
    mode = forms.ChoiceField(choices=[("deals", "deals"), ("totals", "totals")], required=False)


class TotalsForm(forms.Form):
    """Final totals alone (when the tournament allows it): each seat's total, and the winner."""

    winner = forms.CharField(required=False, strip=True)

    def __init__(self, *args: Any, seat_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = seat_names
        for seat in range(len(seat_names)):
            self.fields[f"total_{seat}"] = forms.CharField(required=False, strip=True)

    @property
    def total_inputs(self) -> list[tuple[int, str, forms.BoundField]]:
        return [(seat, name, self[f"total_{seat}"]) for seat, name in enumerate(self.seat_names)]

    def sheet(self) -> dict[str, Any]:
        data = self.data if self.is_bound else {}
        totals = [
            _typed_number(str(data.get(f"total_{seat}", "") or ""))
            for seat in range(len(self.seat_names))
        ]
        winner = _typed_number(str(data.get("winner", "") or ""))
        return {"mode": "totals", "totals": totals, "winner": winner}


class DisputeForm(forms.Form):
    note = forms.CharField(
        label=_("What is wrong with the sheet?"),
        required=False,  # the service says so when it is empty, in its own words
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 1000}),
    )
