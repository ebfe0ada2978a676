"""The score-sheet entry of both pages, the director's result page and the player's sheet page.

One form reads a deal (`DealRowForm`, in a formset of at most MAX_DEALS), one form the final
totals (`TotalsForm`), and `SheetSubmitForm` what comes with every sheet; the director's
`DirectorSheetSubmitForm` only adds that his sheet is confirmed at once, with a note. The forms
hold the entry's own rules (the numbers' bound, the fields a deal needs, the row limit) and judge
nothing of the game: the rules engine does, through `scoring.services.sheet_check` and
`result_submit`. So that the engine can still name what a form refused, `sheet()` keeps a field
the form could not read as it was typed.

The scores that follow from a deal (the declarer's, the defenders' of a conceded deal) are not
typed: the engine names them (`scoring.services.sheet_following_scores`) and `with_following`
fills them into the fields left empty and shows them as filled in. A sheet entered as the table
plays is kept as a draft on the server; `deal_rows_data` gives a draft's deals back to the form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.utils import ErrorDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring.score_sheet import MAX_TOTAL

OUTCOME_CHOICES = [
    ("made", pgettext_lazy("deal outcome", "made")),
    ("failed", pgettext_lazy("deal outcome", "failed")),
    ("conceded", pgettext_lazy("deal outcome", "conceded")),
]
# The largest honest sheet (config/settings.py sizes DATA_UPLOAD_MAX_NUMBER_FIELDS for it): far
# more deals than any game to 1001, and a forged row count builds no more forms than this.
MAX_DEALS = 300
# The deals' fields are named "rows-0-bid", "rows-1-bid", ...
SHEET_PREFIX = "rows"
# The fresh deals one press of "Add rows" gives a browser without scripts.
ADDED_DEALS = 10
_WHOLE_NUMBER = re.compile(r"^[+-]?\d{1,9}$")
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # typographic minus, en dash


def _typed_number(text: Any) -> int | str | None:
    """A whole number, None for an empty field, or the text itself for the engine to name."""
    text = str(text or "").strip().translate(_MINUS_SIGNS).replace(" ", "")
    if not text:
        return None
    return int(text) if _WHOLE_NUMBER.match(text) else text[:20]


def _sheet_number(label: Any, *, required: bool = False, **attrs: Any) -> forms.IntegerField:
    """A number typed into a score sheet: every one within MAX_TOTAL, then judged by the rules."""
    widget = forms.NumberInput(
        attrs={"step": 5, "enterkeyhint": "next", "autocomplete": "off", **attrs}
    )
    return forms.IntegerField(
        label=label, required=required, min_value=-MAX_TOTAL, max_value=MAX_TOTAL, widget=widget
    )


def _seat_choices(seat_names: list[str]) -> list[tuple[int, str]]:
    # The values are the records' 0-based positions; people count the seats from 1.
    return [(seat, f"{seat + 1} · {name}") for seat, name in enumerate(seat_names)]


def _seat_label(seat: int, name: str) -> str:
    return _("Seat %(seat)d (%(name)s)") % {"seat": seat + 1, "name": name}


class SheetBoundField(forms.BoundField):
    """A field of the sheet; one with errors is described by the check that lists them (under
    its deal, or the sheet's summary), not by an error list of its own."""

    def build_widget_attrs(self, attrs: dict[str, Any], widget: Any = None) -> dict[str, Any]:
        attrs = super().build_widget_attrs(attrs, widget)
        described = str(attrs.get("aria-describedby", "")).split()
        own = f"{self.id_for_label}_error"
        if own in described:
            described[described.index(own)] = self.form.check_id
            attrs["aria-describedby"] = " ".join(described)
        return attrs


class SheetForm(forms.Form):
    """A form of the sheet: it reads what was typed, falling back on the text it could not read."""

    bound_field_class = SheetBoundField
    check_id = "sheet-check"  # where the page lists this form's errors

    def typed(self, name: str) -> Any:
        """The field as the form read it, or, when it could not, as it was typed."""
        cleaned = getattr(self, "cleaned_data", {})
        if name in cleaned:
            value = cleaned[name]
            return None if value == "" else value
        if not self.is_bound:
            return self.initial.get(name)
        return _typed_number(self.data.get(self.add_prefix(name)))

    def messages(self) -> list[str]:
        """Every error of the form, each with the field it is about."""
        found = [str(error) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name != NON_FIELD_ERRORS:
                found += [self.field_message(self[name], str(error)) for error in errors]
        return found

    def field_message(self, field: forms.BoundField, error: str) -> str:
        return f"{field.label}: {error}"


class DealRowForm(SheetForm):
    """One deal of the score sheet; the seats' score fields are `score_0`, `score_1`, ..."""

    dealer = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Dealer"))
    declarer = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, label=gettext_lazy("Declarer")
    )
    bid = _sheet_number(gettext_lazy("Bid"), inputmode="numeric")
    contract = _sheet_number(
        gettext_lazy("Contract"), inputmode="numeric", **{"aria-describedby": "contract-help"}
    )
    outcome = forms.ChoiceField(
        choices=OUTCOME_CHOICES, required=False, label=gettext_lazy("Outcome")
    )
    forced = forms.BooleanField(required=False, label=gettext_lazy("Forced (both passed)"))

    # Set by the formset on the fresh rows after the last deal typed in: not part of the sheet.
    unused = False

    def __init__(self, *args: Any, seat_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = seat_names
        # The seats whose score the deal gives (with_following), shown filled in, not typed.
        self.following: dict[int, int] = {}
        seats = _seat_choices(seat_names)
        self.fields["dealer"].choices = seats
        # The script fills in each deal's dealer by rotation; it finds the field by this mark.
        self.fields["dealer"].widget.attrs["data-dealer"] = ""
        self.fields["declarer"].choices = [("", _("— choose —")), *seats]
        for seat, name in enumerate(seat_names):
            self.fields[f"score_{seat}"] = _sheet_number(_seat_label(seat, name))

    @property
    def check_id(self) -> str:
        """The deal's line of the check (sheet/_deal_check.html), which lists its errors."""
        return f"deal-check-{self.prefix.rsplit('-', 1)[-1]}"

    @property
    def deal_fields(self) -> list[forms.BoundField]:
        """The deal's own fields, in the order they are typed (the forced mark apart)."""
        return [self[name] for name in ("dealer", "declarer", "bid", "contract", "outcome")]

    @property
    def score_inputs(self) -> list[tuple[int, str, forms.BoundField]]:
        """(seat, player's name, bound field) of every seat's score, in seat order."""
        return [(seat, name, self[f"score_{seat}"]) for seat, name in enumerate(self.seat_names)]

    @property
    def dealer_seat(self) -> int | None:
        """The deal's dealer as typed (a seat from 0), None when it cannot be read."""
        seat = self.typed("dealer")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    @property
    def number(self) -> int:
        """The deal's number, from 1."""
        return int(self.prefix.rsplit("-", 1)[-1]) + 1

    def seat_name(self, name: str) -> str:
        """The player in the seat the field `name` holds, or "" when it holds none."""
        seat = self.typed(name)
        if (
            isinstance(seat, int)
            and not isinstance(seat, bool)
            and 0 <= seat < len(self.seat_names)
        ):
            return self.seat_names[seat]
        return ""

    def follow(self, scores: dict[int, int]) -> None:
        """Show the scores the deal gives as filled in (the page does not ask for them): those
        seats' fields that hold them, or nothing yet. A different number typed there stays, to
        be corrected (the rules engine names it)."""
        self.following = {}
        for seat, score in scores.items():
            if not 0 <= seat < len(self.seat_names):
                continue
            text = self._text(f"score_{seat}").strip()
            if text not in ("", str(score)):
                continue
            self.following[seat] = score
            # Not sent back: the server fills it in again from the deal as it is then.
            widget = self.fields[f"score_{seat}"].widget
            widget.attrs.update({"disabled": True, "data-auto": ""})

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

    def full_clean(self) -> None:
        if self.unused:
            self._errors = ErrorDict()
            self.cleaned_data = {}
            return
        super().full_clean()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name, message in (
            ("declarer", _("Choose the declarer's seat.")),
            ("bid", _("Enter the bid.")),
            ("outcome", _("Choose made, failed or conceded.")),
        ):
            if data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, message)
        if (
            data.get("outcome") in ("made", "failed")
            and data.get("contract") is None
            and "contract" not in self.errors
        ):
            self.add_error("contract", _("Enter the contract: the declarer scores it."))
        declarer = data.get("declarer")
        for seat in range(len(self.seat_names)):
            name = f"score_{seat}"
            if seat == declarer:
                continue  # filled in from the contract and the outcome (with_following)
            if data.get(name) is None and name not in self.errors:
                self.add_error(
                    name, _("Enter seat %(seat)d's score (0 if none).") % {"seat": seat + 1}
                )
        return data

    def field_message(self, field: forms.BoundField, error: str) -> str:
        return _("Row %(n)s, %(label)s: %(error)s") % {
            "n": self.number,
            "label": field.label,
            "error": error,
        }

    def as_row(self) -> dict[str, Any]:
        """The deal as the sheet's JSON row; an empty required field is left out ("missing")."""
        row: dict[str, Any] = {}
        for name in ("dealer", "declarer", "bid"):
            value = self.typed(name)
            if value is not None:
                row[name] = value
        row["contract"] = self.typed("contract")
        outcome = self.typed("outcome")
        if outcome is not None:
            row["outcome"] = str(outcome)
        row["forced"] = bool(self.typed("forced"))
        row["scores"] = [self.typed(f"score_{seat}") for seat in range(len(self.seat_names))]
        return row


class BaseDealRowFormSet(forms.BaseFormSet):
    """The deals, in order. The fresh rows after the last deal typed in are not part of the sheet;
    a deal left empty between others is (its fields are missing)."""

    @classmethod
    def get_default_prefix(cls) -> str:
        return SHEET_PREFIX

    @property
    def damaged(self) -> bool:
        """The hidden row count the page sends is missing or garbled: the rows cannot be read."""
        return self.is_bound and not self.management_form.is_valid()

    def deal_forms(self) -> list[DealRowForm]:
        forms_ = list(self.forms)
        while forms_ and forms_[-1].is_blank():
            forms_.pop()
        return forms_

    def full_clean(self) -> None:
        deals = len(self.deal_forms()) if self.is_bound else 0
        for form in self.forms[deals:]:
            form.unused = True
        super().full_clean()

    def ends_with_fresh_deal(self) -> bool:
        return bool(self.forms) and self.forms[-1].is_blank()

    def sheet(self) -> dict[str, Any]:
        self.is_valid()  # reads every field, so that each deal gives what its form read
        return {"mode": "deals", "rows": [form.as_row() for form in self.deal_forms()]}

    def sheet_messages(self) -> list[str]:
        """The errors of the whole sheet (too many rows), not of one deal."""
        return [str(error) for error in self.non_form_errors()]

    def row_messages(self) -> dict[int, list[str]]:
        """Each deal's errors, by its number (from 1, as the rules engine counts the rows)."""
        return {
            index: form.messages()
            for index, form in enumerate(self.deal_forms(), start=1)
            if form.errors
        }


DealRowFormSet = forms.formset_factory(
    DealRowForm,
    formset=BaseDealRowFormSet,
    extra=0,
    max_num=MAX_DEALS,
    absolute_max=MAX_DEALS,
    validate_max=True,
)


def deal_rows_formset(
    *, seat_names: list[str], data: Any = None, initial: list[dict[str, Any]] | None = None
) -> BaseDealRowFormSet:
    return DealRowFormSet(data=data, initial=initial, form_kwargs={"seat_names": seat_names})


def initial_deal_rows(*, players: int, sheet: Any, rows: int) -> list[dict[str, Any]]:
    """The form's first rows: a stored sheet to correct, or `rows` fresh deals with their dealer.

    The dealer is filled in by rotation (seat 0 deals first, then the deal passes to the left).
    """
    if isinstance(sheet, dict) and sheet.get("mode") == "deals" and sheet.get("rows"):
        return [
            {
                "dealer": row.get("dealer"),
                "declarer": row.get("declarer"),
                "bid": row.get("bid"),
                "contract": row.get("contract"),
                "outcome": row.get("outcome"),
                "forced": row.get("forced", False),
                **{f"score_{seat}": score for seat, score in enumerate(row.get("scores", []))},
            }
            for row in sheet["rows"]
        ]
    return [fresh_deal(index, players) for index in range(max(rows, 1))]


def fresh_deal(index: int, players: int) -> dict[str, Any]:
    return {"dealer": index % players, "outcome": "made"}


def _field_text(value: Any) -> str:
    return "" if value is None else str(value)


def deal_rows_data(rows: list[dict[str, Any]], *, players: int, fresh: int = 0) -> dict[str, str]:
    """The deals `rows` (a draft's, or a sheet's) as the form posts them, then `fresh` new deals
    with their dealers: to show a saved sheet as a typed one, checked and ready to go on."""
    total = min(len(rows) + fresh, MAX_DEALS)
    data = {
        f"{SHEET_PREFIX}-TOTAL_FORMS": str(total),
        f"{SHEET_PREFIX}-INITIAL_FORMS": "0",
    }
    for index, row in enumerate(rows[:total]):
        prefix = f"{SHEET_PREFIX}-{index}-"
        for name in ("dealer", "declarer", "bid", "contract", "outcome"):
            data[prefix + name] = _field_text(row.get(name))
        if row.get("forced") is True:
            data[prefix + "forced"] = "on"
        for seat, score in enumerate(list(row.get("scores") or [])[:players]):
            data[f"{prefix}score_{seat}"] = _field_text(score)
    for index in range(len(rows), total):
        for name, value in fresh_deal(index, players).items():
            data[f"{SHEET_PREFIX}-{index}-{name}"] = str(value)
    return data


def with_more_deals(data: Any, *, players: int, count: int) -> Any:
    """The posted sheet with up to `count` fresh deals more (never beyond MAX_DEALS rows)."""
    data = data.copy()
    prefix = SHEET_PREFIX
    try:
        total = max(0, min(int(data.get(f"{prefix}-TOTAL_FORMS", "0")), MAX_DEALS))
    except ValueError:
        return data
    more = min(total + count, MAX_DEALS)
    for index in range(total, more):
        for name, value in fresh_deal(index, players).items():
            data[f"{prefix}-{index}-{name}"] = str(value)
    data[f"{prefix}-TOTAL_FORMS"] = str(more)
    return data


class TotalsForm(SheetForm):
    """Final totals alone (when the tournament allows it): each seat's total, and the winner."""

    winner = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, label=gettext_lazy("Winner")
    )

    def __init__(self, *args: Any, seat_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = seat_names
        for seat, name in enumerate(seat_names):
            self.fields[f"total_{seat}"] = _sheet_number(_seat_label(seat, name), required=True)
        self.fields["winner"].choices = [
            ("", _("— the highest total —")),
            *_seat_choices(seat_names),
        ]
        self.fields["winner"].widget.attrs["aria-describedby"] = "winner-help"

    @property
    def total_inputs(self) -> list[tuple[int, str, forms.BoundField]]:
        return [(seat, name, self[f"total_{seat}"]) for seat, name in enumerate(self.seat_names)]

    def sheet(self) -> dict[str, Any]:
        self.is_valid()
        totals = [self.typed(f"total_{seat}") for seat in range(len(self.seat_names))]
        return {"mode": "totals", "totals": totals, "winner": self.typed("winner")}


def initial_totals(sheet: Any) -> dict[str, Any]:
    """The totals form's fields from a stored sheet of final totals, to correct it."""
    if not (isinstance(sheet, dict) and sheet.get("mode") == "totals"):
        return {}
    initial: dict[str, Any] = {
        f"total_{seat}": total for seat, total in enumerate(sheet.get("totals", []))
    }
    winner, totals = sheet.get("winner"), sheet.get("totals", [])
    numbers = [total for total in totals if isinstance(total, int)]
    highest = numbers.index(max(numbers)) if numbers and len(numbers) == len(totals) else None
    if highest is not None and numbers.count(numbers[highest]) == 1 and winner == highest:
        # The winner is the one the highest total names: the form says "the highest total", so
        # a correction of the totals that makes another seat the highest one names the new
        # winner instead of keeping the old one.
        winner = None
    initial["winner"] = winner
    return initial


class SheetSubmitForm(forms.Form):
    """What comes with every sheet: the version of the result the person saw. A player's sheet
    waits for a table-mate's confirmation."""

    confirm = False
    # Only compared with the table's current version: any other number is a conflict.
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    # The version of the table's draft the page shows (scoring.services.sheet_draft_save).
    draft_version = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, required=False, widget=forms.HiddenInput
    )

    def options(self) -> dict[str, Any]:
        """The keyword arguments of `result_submit` besides the sheet."""
        return {"expected_version": self.cleaned_data["expected_version"], "confirm": self.confirm}

    def renewed(self, version: int) -> SheetSubmitForm:
        """The form again, unbound, for the version the result stands at now."""
        cleaned = getattr(self, "cleaned_data", {})
        return type(self)(initial={**self.initial, **cleaned, "expected_version": version})

    def seen_draft(self) -> int | None:
        """The draft version the page showed, None when it sent none that can be read."""
        field = self.fields["draft_version"]
        try:
            return field.clean(field.widget.value_from_datadict(self.data, {}, "draft_version"))
        except forms.ValidationError:
            return None

    def with_draft(self, *, draft_version: int, result_version: int) -> SheetSubmitForm:
        """The form again, unbound, for the page showing the draft `draft_version`: what was sent
        with it stays (the note), the result's version as the page had it when it can be read."""
        self.is_valid()
        cleaned = getattr(self, "cleaned_data", {})
        expected = cleaned.get("expected_version")
        return type(self)(
            initial={
                **self.initial,
                **cleaned,
                "expected_version": result_version if expected is None else expected,
                "draft_version": draft_version,
            }
        )


class DirectorSheetSubmitForm(SheetSubmitForm):
    """The director's: his sheet is confirmed at once (it counts), with a note on why."""

    confirm = True
    note = forms.CharField(
        label=gettext_lazy("Note (why it was entered or corrected)"),
        required=False,
        max_length=1000,
        widget=forms.TextInput,
    )

    def options(self) -> dict[str, Any]:
        return {**super().options(), "note": self.cleaned_data["note"]}


@dataclass(frozen=True)
class SheetEntry:
    """A score sheet on its page: its mode, the form of what comes with it, and the deals'
    formset or the totals' form (the other is None)."""

    mode: str
    meta: SheetSubmitForm
    formset: BaseDealRowFormSet | None = None
    totals_form: TotalsForm | None = None

    @property
    def damaged(self) -> bool:
        return self.formset is not None and self.formset.damaged

    @property
    def form_valid(self) -> bool:
        """The sheet's own forms read every field (whatever the rules engine says of it)."""
        if self.formset is not None:
            return self.formset.is_valid()
        return self.totals_form is not None and self.totals_form.is_valid()

    def sheet(self) -> dict[str, Any]:
        if self.formset is not None:
            return self.formset.sheet()
        assert self.totals_form is not None
        return self.totals_form.sheet()

    def sheet_messages(self) -> list[str]:
        """The forms' errors that are not about one deal (a totals field's are of the sheet)."""
        if self.formset is not None:
            return self.formset.sheet_messages()
        assert self.totals_form is not None
        return self.totals_form.messages()

    def row_messages(self) -> dict[int, list[str]]:
        return self.formset.row_messages() if self.formset is not None else {}

    def with_meta(self, meta: SheetSubmitForm) -> SheetEntry:
        return replace(self, meta=meta)

    def with_more_deals(self, *, seat_names: list[str], count: int) -> SheetEntry:
        if self.formset is None or count <= 0:
            return self
        data = with_more_deals(self.formset.data, players=len(seat_names), count=count)
        return replace(self, formset=deal_rows_formset(seat_names=seat_names, data=data))

    def with_following(self, following: list[dict[int, int]]) -> SheetEntry:
        """The entry with the scores each deal gives (`following`, one mapping per deal, seat to
        score) filled into the fields left empty, and shown as filled in."""
        if self.formset is None or not self.formset.is_bound or self.damaged:
            return self
        data = self.formset.data.copy()
        prefix = self.formset.prefix
        for index, scores in enumerate(following):
            for seat, score in scores.items():
                name = f"{prefix}-{index}-score_{seat}"
                if not str(data.get(name) or "").strip():
                    data[name] = str(score)
        seat_names = self.formset.form_kwargs["seat_names"]
        formset = deal_rows_formset(seat_names=seat_names, data=data)
        for form, scores in zip(formset.forms, following, strict=False):
            form.follow(scores)
        return replace(self, formset=formset)

    @property
    def deals(self) -> list[dict[str, Any]]:
        """The deals as typed (the rows of `sheet()`); none for final totals."""
        return self.sheet()["rows"] if self.formset is not None else []


def posted_entry(
    data: Any, *, seat_names: list[str], meta_form: type[SheetSubmitForm]
) -> SheetEntry:
    """The sheet a page posted. Its mode is as posted: the rules engine refuses final totals
    where the tournament does not take them, with a message."""
    meta = meta_form(data)
    if data.get("mode") == "totals":
        return SheetEntry("totals", meta, totals_form=TotalsForm(data, seat_names=seat_names))
    return SheetEntry("deals", meta, formset=deal_rows_formset(seat_names=seat_names, data=data))


def entry_of_deals(
    rows: list[dict[str, Any]], *, seat_names: list[str], meta: SheetSubmitForm, fresh: int = 0
) -> SheetEntry:
    """The deals `rows` (a draft's, a stored sheet's) in the form as if just typed in, then
    `fresh` new deals to fill in."""
    data = deal_rows_data(rows, players=len(seat_names), fresh=fresh)
    return SheetEntry("deals", meta, formset=deal_rows_formset(seat_names=seat_names, data=data))


def new_entry(
    *,
    seat_names: list[str],
    mode: str,
    sheet: Any,
    rows: int,
    meta_form: type[SheetSubmitForm],
    expected_version: int,
) -> SheetEntry:
    """A sheet to enter: `sheet` (a stored one to correct) or `rows` fresh deals."""
    meta = meta_form(initial={"expected_version": expected_version})
    if mode == "totals":
        totals = TotalsForm(initial=initial_totals(sheet), seat_names=seat_names)
        return SheetEntry("totals", meta, totals_form=totals)
    initial = initial_deal_rows(players=len(seat_names), sheet=sheet, rows=rows)
    return SheetEntry(
        "deals", meta, formset=deal_rows_formset(seat_names=seat_names, initial=initial)
    )


class DisputeForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("What is wrong with the sheet?"),
        required=False,  # the service says so when it is empty, in its own words
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 1000}),
    )
