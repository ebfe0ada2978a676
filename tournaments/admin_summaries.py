"""A tournament's rule options, ranking and points per place as the admin shows them: read-only
lists in the reader's language, where the model stores JSON."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.utils import formats
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.i18n import translate
from rules import DEFAULT_RULES
from standings import ranking as standings_rules
from tournaments.models import Tournament

# The titles the tournament's settings page gives the options (web/forms/director.py).
RULE_LABELS = {
    "min_bid": _("Lowest bid"),
    "bid_step": _("Bid step"),
    "bid_jumps": _("Jump bids"),
    "bid_cap": _("Bid cap"),
    "concede_bonus": _("Points for the defenders when the declarer concedes"),
    "must_beat": _("Must beat"),
    "marriage_on_first_trick": _("Marriage on the first trick"),
    "round_declarer_points": _("Round the declarer's points"),
    "rounding": _("Rounding"),
    "target": _("Target"),
}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return gettext("Yes") if value else gettext("No")
    if isinstance(value, int | float):
        return formats.number_format(value)
    return str(value)


def _items(pairs: list[tuple[str, str]], tag: str = "ul") -> SafeString:
    rows = format_html_join("", "<li>{}: {}</li>", pairs)
    return format_html("<{}>{}</{}>", tag, rows, tag) if pairs else SafeString("")


def rule_options(rules: Any) -> SafeString:
    """Every rule option with the value the tournament plays (RULES.md's where it sets none)."""
    chosen = rules if isinstance(rules, dict) else {}
    pairs = [
        (str(RULE_LABELS.get(option.name, option.name)), _value(chosen.get(option.name, default)))
        for option in fields(DEFAULT_RULES)
        for default in [getattr(DEFAULT_RULES, option.name)]
    ]
    return _items(pairs)


def ranking(precedence: Any) -> SafeString:
    """The standings' criteria in their order, by the names the standings page uses."""
    keys = precedence if isinstance(precedence, list) else []
    names = [
        translate(metric.name) if (metric := standings_rules.METRIC_REGISTRY.get(key)) else str(key)
        for key in keys
    ]
    return format_html("<ol>{}</ol>", format_html_join("", "<li>{}</li>", ((n,) for n in names)))


def points_per_place(points: Any) -> SafeString:
    """The tournament points of each place, for each table size."""
    table = points if isinstance(points, dict) else {}
    labels = dict(Tournament.TableSize.choices)
    pairs = [
        (
            str(labels.get(str(size), size)),
            " · ".join(_value(value) for value in values)
            if isinstance(values, list)
            else str(values),
        )
        for size, values in sorted(table.items(), key=lambda item: str(item[0]))
    ]
    return _items(pairs)
