"""{{ value|figure }}: a figure as the standings show it (web.presenters.numbers.number_text),
for the pages that print a table's points: rounded half-up to two decimals, "—" for none."""

from django import template

from web.presenters.numbers import number_text

register = template.Library()


@register.filter
def figure(value: float | int | None) -> str:
    return number_text(value)
