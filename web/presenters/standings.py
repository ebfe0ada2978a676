"""The standings table of a snapshot as the pages show it: the tournament's columns in its
order of ranking criteria, numbers formatted for the active language with aligned decimals
(rounded half-up, "—" for a figure that does not exist), what the columns and the order of
ranking mean, and a player's own line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.i18n import translate
from scoring.models import StandingsSnapshot
from standings.ranking import METRIC_REGISTRY
from tournaments.models import Tournament
from web.presenters.numbers import NO_FIGURE, column_texts, number_text

# On a phone only the first few columns fit; the rest are hidden below this many.
COLUMNS_ON_A_PHONE = 2


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str
    title: str
    places: int
    extra: bool  # hidden on a phone


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    css: str  # "num", or "num extra" for a column hidden on a phone


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: str
    tied: bool
    name: str
    start_number: int
    url: str
    withdrawn: bool
    cells: list[Cell]


@dataclass(frozen=True, slots=True)
class StandingsTable:
    version: str  # what the live page sends back to ask "anything new?"
    snapshot: StandingsSnapshot | None
    columns: list[Column]
    rows: list[StandingLine]
    total_rows: int
    missing: bool = False  # some figure does not exist (a player who has not played): "—"


def standings_columns(tournament: Tournament) -> list[Column]:
    """Tables played, then the tournament's ranking metrics in their order, then points and score
    if the ranking does not use them."""
    keys = ["games_played"]
    for key in [*tournament.standings_precedence, "tournament_points", "total_score"]:
        metric = METRIC_REGISTRY.get(key)
        if metric is not None and metric.shown and key not in keys:
            keys.append(key)
    columns = []
    for index, key in enumerate(keys):
        metric = METRIC_REGISTRY[key]
        # "Played" is the first to go on a phone; then everything after the first two metrics.
        extra = index == 0 or index > COLUMNS_ON_A_PHONE
        columns.append(
            Column(
                key, translate(metric.short), translate(metric.description), metric.places, extra
            )
        )
    return columns


def standings_table(
    tournament: Tournament, snapshot: StandingsSnapshot | None, *, limit: int | None = None
) -> StandingsTable:
    columns = standings_columns(tournament)
    rows = snapshot.rows if snapshot is not None else []
    shown = rows[:limit] if limit is not None else rows
    # One reverse() and string substitution instead of one reverse() per player.
    url_pattern = reverse("public-player", args=[tournament.pk, 999999999])
    texts = [
        column_texts([METRIC_REGISTRY[column.key].value_of(row) for row in shown], column.places)
        for column in columns
    ]
    css = ["num extra" if column.extra else "num" for column in columns]
    lines = [
        StandingLine(
            rank=formats.number_format(row["rank"]),
            tied=row["tied"],
            name=row["name"],
            start_number=row["start_number"],
            url=url_pattern.replace("999999999", str(row["start_number"])),
            withdrawn=row.get("withdrawn", False),
            cells=[Cell(texts[c][index], css[c]) for c in range(len(columns))],
        )
        for index, row in enumerate(shown)
    ]
    version = str(snapshot.version) if snapshot is not None else ""
    missing = any(NO_FIGURE in column_texts for column_texts in texts)
    return StandingsTable(version, snapshot, columns, lines, len(rows), missing)


def ranking_order_text(tournament: Tournament) -> str:
    """The tournament's order of ranking criteria as a sentence: "Ranked by tournament points,
    then total score, then ..."; and what happens to players equal on all of them."""
    phrases = []
    for key in tournament.standings_precedence:
        metric = METRIC_REGISTRY.get(key)
        if metric is not None and metric.phrase is not None:
            phrases.append(translate(metric.phrase))
    if not phrases:
        return ""
    criteria = pgettext("between two ranking criteria", ", then ").join(phrases)
    text = _("Ranked by %(criteria)s.") % {"criteria": criteria}
    if "random" not in tournament.standings_precedence:
        text += " " + _("Players equal on all of these share a rank (=).")
    return text


@dataclass(frozen=True, slots=True)
class Fact:
    name: str
    text: str


def standing_facts(tournament: Tournament, row: dict[str, Any]) -> list[Fact]:
    """A player's figures of the standings, as the table's columns, named in full."""
    facts = []
    for column in standings_columns(tournament):
        metric = METRIC_REGISTRY[column.key]
        facts.append(Fact(translate(metric.name), number_text(metric.value_of(row), metric.places)))
    return facts
