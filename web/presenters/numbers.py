"""Numbers as the pages and files show them: rounded half-up as people round, "—" for none.

Python's round() and Django's number_format do neither: round() rounds halves to even on the
binary float (round(0.125, 2) is 0.12) and number_format cuts the decimals off (5/3 becomes 1.66),
so every figure goes through `rounded` first.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats

# What a page shows for a figure that does not exist (the average place of a player who has not
# played yet): a 0 there would read as the best.
NO_FIGURE = "—"


def rounded(value: float | int | Decimal, places: int) -> Decimal:
    """`value` rounded half-up (away from zero) to `places` decimals, as people round.

    A float is taken as the shortest decimal that reads back as it (repr), so that 2.675 rounds
    to 2.68 as written, not to 2.67 as its binary value would.
    """
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    number = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return abs(number) if number == 0 else number  # never "-0"


def _trimmed(number: Decimal) -> Decimal:
    """Without trailing zeros: 1.50 as 1.5, 2.00 as 2."""
    if number == number.to_integral_value():
        return number.quantize(Decimal(1))
    return number.normalize()


def number_text(value: float | int | None, places: int = 2, *, pad: bool = False) -> str:
    """A number in the active language's format, rounded to at most `places` decimals.

    Decimals only where it has them, or exactly `places` with `pad` (a column whose decimal
    points line up); `NO_FIGURE` for None.
    """
    if value is None:
        return NO_FIGURE
    number = rounded(value, places)
    if pad:
        return formats.number_format(number, places)
    return formats.number_format(_trimmed(number))


def decimals(values: list[float | int | None], places: int) -> int:
    """The decimals a column needs (at most `places`), so that its decimal points line up."""
    needed = 0
    for value in values:
        if value is None:
            continue
        exponent = _trimmed(rounded(value, places)).as_tuple().exponent
        needed = max(needed, -exponent if isinstance(exponent, int) else 0)
    return needed


def column_texts(values: list[float | int | None], places: int) -> list[str]:
    """A column's figures, each with the decimals the column needs (at most `places`), so that
    their decimal points line up ("8.0" above "1.5"); `NO_FIGURE` for None."""
    shown = decimals(values, places)
    # Formatted once per distinct value: a column repeats few values, and formatting dominates.
    seen: dict[float | int | None, str] = {}
    for value in values:
        if value not in seen:
            seen[value] = number_text(value, shown, pad=True)
    return [seen[value] for value in values]


def plain_number(value: float | int | None, places: int = 2, *, decimal_mark: str = ".") -> str:
    """A number for a CSV file: rounded like the pages, no grouping, no trailing zeros, the
    decimal mark given (a dot unless the file is for a spreadsheet that reads a comma); an
    empty cell for None."""
    if value is None:
        return ""
    text = format(_trimmed(rounded(value, places)), "f")
    return text.replace(".", decimal_mark)
