"""CSV files for spreadsheets: UTF-8 with a byte order mark, formulas made inert."""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from tournaments.models import Tournament


def csv_response(tournament: Tournament, what: str) -> tuple[HttpResponse, Any]:
    """An attachment in UTF-8 with a byte order mark, so that Excel reads Cyrillic names."""
    name = slugify(tournament.name, allow_unicode=True) or f"tournament-{tournament.pk}"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{name}-{what}.csv")
    response.write("\ufeff")
    return response, FormulaSafeWriter(csv.writer(response))


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
