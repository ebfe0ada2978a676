"""Numbers as the pages and files show them."""

from __future__ import annotations

from django.utils import formats


def number_text(value: float | int | None, places: int = 2) -> str:
    """A number in the active language's format, with decimals only where it has them."""
    if value is None:
        return ""
    value = round(value, places)
    if value == int(value):
        value = int(value)
    return formats.number_format(value)


def decimals(values: list[float | int | None], places: int) -> int:
    """The decimals a column needs (at most `places`), so that its decimal points line up."""
    needed = 0
    for value in values:
        if value is None:
            continue
        exact = round(value, places)
        while needed < places and round(exact, needed) != exact:
            needed += 1
    return needed


def plain_number(value: float | int | None, places: int = 4) -> str:
    """A number for a CSV file: a dot for decimals whatever the language, no trailing zeros."""
    if value is None:
        return ""
    value = round(value, places)
    return str(int(value)) if value == int(value) else str(value)
