"""{{ value|figure }}: a figure as the standings show it (web.presenters.numbers.number_text),
for the pages that print a table's points: rounded half-up to two decimals, "—" for none.

{{ rank|shared_rank:tied }}: a rank as the standings write it, "1=" when it is shared (the mark
explained in its title), wherever a rank is shown, in a table or within a sentence.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from web.presenters.numbers import number_text

register = template.Library()


@register.filter
def figure(value: float | int | None) -> str:
    return number_text(value)


@register.filter
def shared_rank(rank: int | str, tied: bool) -> SafeString:
    if not tied:
        return format_html("{}", rank)
    return format_html('{}<abbr class="tie" title="{}">=</abbr>', rank, _("Shared rank"))
