"""CSV files for spreadsheets: UTF-8 with a byte order mark, formulas made inert, the columns
separated as the reader's spreadsheet expects."""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpResponse
from django.utils import formats
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

# The separators a file may use, by the value of ?sep= ("tab" for a link; %09 works too), and how
# the page offers them.
CSV_SEPARATORS = {",": ",", ";": ";", "tab": "\t", "\t": "\t"}
CSV_SEPARATOR_CHOICES = [
    (",", _("comma (,)")),
    (";", _("semicolon (;), for Excel in Ukrainian")),
    ("tab", _("tab")),
]


def default_csv_separator() -> str:
    """The ?sep= value for the active language: a spreadsheet in a language that writes a decimal
    comma (Ukrainian) splits columns at a semicolon, and opens a comma CSV in one column."""
    return ";" if formats.get_format("DECIMAL_SEPARATOR") == "," else ","


def csv_separator(choice: str | None) -> str | None:
    """The separator ?sep= asks for (the language's default when it is not given); None for a
    value that is not one of CSV_SEPARATORS."""
    return CSV_SEPARATORS.get(default_csv_separator() if choice is None else choice)


def csv_decimal_mark(separator: str) -> str:
    """A comma-separated file keeps the dot (scripts read it, a comma would need quotes); the
    others are for spreadsheets, which read numbers with the language's decimal mark."""
    return "." if separator == "," else formats.get_format("DECIMAL_SEPARATOR")


def csv_response(
    tournament: Tournament, what: str, separator: str = ","
) -> tuple[HttpResponse, Any]:
    """An attachment in UTF-8 with a byte order mark, so that Excel reads Cyrillic names."""
    return csv_attachment(tournament.name, f"tournament-{tournament.pk}", what, separator)


def csv_attachment(
    title: str, fallback: str, what: str, separator: str = ","
) -> tuple[HttpResponse, Any]:
    """A CSV attachment named after `title` (or `fallback` when it has no letters): a
    tournament's files, a season's table."""
    name = slugify(title, allow_unicode=True) or fallback
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}-{what}.csv")
    response.write("\ufeff")
    return response, FormulaSafeWriter(csv.writer(response, delimiter=separator))


# A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class FormulaSafeWriter:
    """Text cells that a spreadsheet would run as a formula (a player named "=HYPERLINK(...)")
    get a leading apostrophe, which shows the text as written; numbers stay numbers."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([inert(cell) for cell in row])


def inert(cell: Any) -> Any:
    if not isinstance(cell, str) or not cell.startswith(FORMULA_STARTS):
        return cell
    try:
        float(cell.replace(",", "."))
    except ValueError:
        return "'" + cell
    return cell  # a negative number such as "-20"
