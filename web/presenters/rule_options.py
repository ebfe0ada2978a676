"""A tournament's rules as its public page shows them: each rule option with what it means, and
the tournament points per place at a table."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.utils.text import capfirst
from django.utils.translation import pgettext

from rules import DEFAULT_RULES
from rules.errors import RuleOptionError
from rules.options import RuleSet
from standings.ranking import validate_placement_points
from tournaments.models import Tournament
from web.forms.director import BID_CAP_LABELS, RULE_OPTIONS
from web.presenters.numbers import number_text

# As the standings show points: at most two decimals.
POINTS_PLACES = 2


@dataclass(frozen=True, slots=True)
class RuleOptionLine:
    label: str
    value: str
    help: str
    changed: bool  # differs from the rules of RULES.md


@dataclass(frozen=True, slots=True)
class PlacementPointsLine:
    label: str  # "Tables of 4"
    points: list[str]  # from the first place to the last; "" past a smaller table's last


@dataclass(frozen=True, slots=True)
class PlacementPoints:
    places: list[int]  # the columns: 1, 2, 3 (and 4)
    lines: list[PlacementPointsLine]


def rule_option_lines(tournament: Tournament) -> list[RuleOptionLine]:
    """Every rule option with the tournament's value, in the order of the tournament form."""
    try:
        rules = RuleSet.from_dict(tournament.rules or None)
    except (RuleOptionError, TypeError):
        return []  # a record damaged by hand: better nothing than a wrong rule
    values, defaults = asdict(rules), asdict(DEFAULT_RULES)
    lines = []
    for name, option in RULE_OPTIONS.items():
        value = values[name]
        if isinstance(value, bool):
            text = pgettext("a rule option", "on") if value else pgettext("a rule option", "off")
        elif name == "bid_cap":
            text = str(BID_CAP_LABELS.get(value, value))
        else:
            text = number_text(value, 0)
        lines.append(
            RuleOptionLine(str(option["label"]), text, str(option["help"]), value != defaults[name])
        )
    return lines


def placement_points_lines(tournament: Tournament) -> PlacementPoints | None:
    """The points per place for each table size the tournament's draws can make: its own size
    first, and the other one unless bots fill the seats (then every table has its own size)."""
    try:
        scheme = validate_placement_points(tournament.placement_points)
    except ValueError:
        return None
    if tournament.table_size == Tournament.TableSize.MIXED:
        sizes = [4, 3]
    elif tournament.bots_allowed:
        sizes = [int(tournament.table_size)]
    else:
        sizes = [int(tournament.table_size), 7 - int(tournament.table_size)]
    sizes = [size for size in sizes if size in scheme]
    if not sizes:
        return None
    places = max(sizes)
    lines = []
    for size in sizes:
        points = [number_text(float(value), POINTS_PLACES) for value in scheme[size]]
        label = capfirst(Tournament.TableSize(str(size)).label)
        lines.append(PlacementPointsLine(label, points + [""] * (places - size)))
    return PlacementPoints(list(range(1, places + 1)), lines)
