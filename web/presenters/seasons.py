"""A season's table as the pages show it (the standings' table layout, columns and number
formats, reused), what its rule means in a sentence, and the rating chart's geometry."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse
from django.utils import formats
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from core.i18n import translate
from ratings.rating import CONSERVATIVE_SIGMAS
from ratings.season import SEASON_METRIC_REGISTRY
from seasons.models import Season, SeasonStandings
from standings.ranking import METRIC_REGISTRY
from web.presenters.charts import ChartPoint, ProgressChart, Tick, tick_step
from web.presenters.numbers import NO_FIGURE, column_texts, number_text
from web.presenters.standings import Cell, Column, StandingLine, StandingsTable

# How much of a tournament's name heads its column in the season table.
TOURNAMENT_HEAD_CHARACTERS = 16


def season_columns(season: Season) -> list[Column]:
    """The season's ranking criteria in their order, left to right, so that the first column
    that differs says why one player ranks above another; then the season points and the
    attendance if the ranking does not use them."""
    keys: list[str] = []
    for key in [*season.precedence, "season_points", "tournaments_played"]:
        metric = SEASON_METRIC_REGISTRY.get(key)
        if metric is not None and metric.shown and key not in keys:
            keys.append(key)
    # None is hidden on a phone: the table scrolls sideways in its box instead, the player's
    # name kept in view (public.css), since every column is needed to read the season.
    return [
        Column(
            key,
            translate(SEASON_METRIC_REGISTRY[key].short),
            translate(SEASON_METRIC_REGISTRY[key].description),
            SEASON_METRIC_REGISTRY[key].places,
            False,
        )
        for key in keys
    ]


def _value(key: str, row: dict[str, Any]) -> Any:
    if key == "best_rank" and not row.get("tournaments_played"):
        return None
    return row.get(key)


def season_table(
    season: Season,
    standings: SeasonStandings | None,
    *,
    limit: int | None = None,
    latest_tournaments: int | None = None,
) -> StandingsTable:
    """The stored season table with a column per tournament (its value for each player, in
    brackets where it did not count among his best): every tournament's, or the latest ones'
    (`latest_tournaments`, for the wall, whose large type holds only a few columns)."""
    columns = season_columns(season)
    tournaments = standings.tournaments if standings is not None else []
    rows = standings.rows if standings is not None else []
    shown = rows[:limit] if limit is not None else rows
    texts = [
        column_texts([_value(column.key, row) for row in shown], column.places)
        for column in columns
    ]
    # A tournament's values are points as the season's are: as many decimals as the season's.
    places = SEASON_METRIC_REGISTRY["season_points"].places
    first_shown = 0 if latest_tournaments is None else len(tournaments) - latest_tournaments
    for index, tournament in enumerate(tournaments):
        if index < first_shown:
            continue
        date = formats.date_format(
            datetime.date.fromisoformat(tournament["date"]), "SHORT_DATE_FORMAT"
        )
        # Headed by the tournament's name (its beginning), the date in the title: two
        # tournaments of one day are told apart.
        name = Truncator(tournament["name"]).chars(TOURNAMENT_HEAD_CHARACTERS)
        title = f"{tournament['name']} ({date})"
        columns.append(Column(f"t{tournament['id']}", name, title, places, False))
        results = [row["results"][index] if index < len(row["results"]) else None for row in shown]
        values = column_texts(
            [result["value"] if result is not None else None for result in results], places
        )
        texts.append(
            [
                text if result is None or result["counted"] or text == NO_FIGURE else f"({text})"
                for result, text in zip(results, values, strict=True)
            ]
        )
    url_pattern = reverse("public-player-profile", args=[999999999])
    css = ["num extra" if column.extra else "num" for column in columns]
    lines = [
        StandingLine(
            rank=formats.number_format(row["rank"]),
            tied=row["tied"],
            name=row["name"],
            start_number=0,
            url=url_pattern.replace("999999999", str(row["player"])),
            withdrawn=False,
            cells=[Cell(texts[c][index], css[c]) for c in range(len(columns))],
        )
        for index, row in enumerate(shown)
    ]
    version = standings.computed_at.isoformat() if standings is not None else ""
    return StandingsTable(version, None, columns, lines, len(rows), False)


def season_rule_text(season: Season) -> str:
    """What the season's points are and how its players are ranked, as sentences."""
    if season.scoring == Season.Scoring.PLACEMENT_POINTS:
        points = ", ".join(number_text(value, 2) for value in season.placement_points)
        what = _(
            "Each tournament gives placement points by the final rank (%(points)s; "
            "a shared rank shares the points of the ranks it covers)."
        ) % {"points": points}
    else:
        what = _("Each tournament gives its tournament points.")
    if season.best_count:
        count = ngettext(
            "Only the best %(count)d tournament of each player counts.",
            "Only the best %(count)d tournaments of each player count.",
            season.best_count,
        ) % {"count": season.best_count}
    else:
        count = _("Every tournament counts.")
    phrases = []
    for key in season.precedence:
        metric = SEASON_METRIC_REGISTRY.get(key)
        if metric is not None and metric.phrase is not None:
            phrases.append(translate(metric.phrase))
    criteria = pgettext("between two ranking criteria", ", then ").join(phrases)
    text = f"{what} {count} " + _("Ranked by %(criteria)s.") % {"criteria": criteria}
    if "random" not in season.precedence:
        text += " " + _("Players equal on all of these share a rank (=).")
    return text


def rating_chart(history: list) -> ProgressChart | None:
    """The geometry of a player's rating after each tournament (oldest first), for an inline
    SVG: one point per tournament, evenly spaced, labelled with the tournament and the rating."""
    if not history:
        return None
    width, height, left, right, top, bottom = 480, 220, 40, 464, 14, 186
    values = [point.rating for point in history]
    low_value, high_value = min(values), max(values)
    step = tick_step(max(high_value - low_value, 1))
    low = step * (low_value // step)
    high = max(low + step, step * -(-high_value // step))
    count = len(history)

    def x_of(index: int) -> float:
        if count == 1:
            return (left + right) / 2
        return left + (right - left) * index / (count - 1)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    points = [
        ChartPoint(
            f"{x_of(index):.1f}",
            f"{y_of(point.rating):.1f}",
            index + 1,
            _("%(tournament)s (%(date)s): rating %(rating)s")
            % {
                "tournament": point.tournament_name,
                "date": formats.date_format(point.date, "SHORT_DATE_FORMAT"),
                "rating": rating_number(point.rating),
            },
        )
        for index, point in enumerate(history)
    ]
    tick_values = []
    value = low
    while value <= high + step / 2:
        tick_values.append(value)
        value += step
    # The axis's labels line up as a column's figures do (0.0, 2.5, 5.0 or 0, 5, 10).
    y_ticks = [
        Tick(f"{y_of(value):.1f}", text)
        for value, text in zip(tick_values, column_texts(tick_values, 1), strict=True)
    ]
    # Two tournaments of one day share their date: it is written once, under the first.
    dated: list[tuple[float, str]] = []
    for index, point in enumerate(history):
        label = formats.date_format(point.date, "SHORT_DATE_FORMAT")
        if not dated or dated[-1][1] != label:
            dated.append((x_of(index), label))
    x_ticks = [
        Tick(f"{x:.1f}", label, anchor)
        for x, label, anchor in date_ticks(dated, left=left, right=right)
    ]
    return ProgressChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        line=" ".join(f"{p.x},{p.y}" for p in points),
        points=points,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
    )


# A chart label's width per character, in the chart's units (its font is 14 units high): a date
# of ten characters measures 81 in Chromium's sans-serif; the estimate errs on the wide side.
LABEL_WIDTH_PER_CHARACTER = 0.62 * 14
# The least room left between two labels, so that two dates never read as one.
LABEL_GAP = 10


def date_ticks(
    dated: list[tuple[float, str]], *, left: float, right: float
) -> list[tuple[float, str, str]]:
    """The dates to write under the chart: (position, label, text-anchor) of an evenly spaced
    choice of `dated` (positions left to right) whose labels do not overlap, the first and the
    last kept (the last one unless only one fits)."""

    def width(label: str) -> float:
        return len(label) * LABEL_WIDTH_PER_CHARACTER

    def extent(x: float, label: str, anchor: str) -> tuple[float, float]:
        if anchor == "start":
            return x, x + width(label)
        if anchor == "end":
            return x - width(label), x
        return x - width(label) / 2, x + width(label) / 2

    def anchored(chosen: list[int]) -> list[tuple[float, str, str]]:
        # Centred under its point, unless that would take it past the plot's edge.
        ticks = []
        for x, label in (dated[index] for index in chosen):
            anchor = "middle"
            if x - width(label) / 2 < left:
                anchor = "start"
            elif x + width(label) / 2 > right:
                anchor = "end"
            ticks.append((x, label, anchor))
        return ticks

    def apart(ticks: list[tuple[float, str, str]]) -> bool:
        ends = [extent(*tick) for tick in ticks]
        return all(
            later[0] - earlier[1] >= LABEL_GAP
            for earlier, later in zip(ends, ends[1:], strict=False)
        )

    if not dated:
        return []
    last = len(dated) - 1
    for every in range(1, len(dated) + 1):
        chosen = list(range(0, last + 1, every))
        if chosen[-1] != last:
            chosen.append(last)
        # The last date takes the place of the regular ones it would overlap.
        while len(chosen) > 2 and not apart(anchored(chosen[-2:])):
            del chosen[-2]
        if apart(anchored(chosen)):
            return anchored(chosen)
    return anchored([0])


def career_points(career: list) -> list[str]:
    """A player's tournament points in each of his tournaments (seasons.selectors.
    player_tournaments), as the standings write them, their decimal points lined up."""
    places = METRIC_REGISTRY["tournament_points"].places
    return column_texts([line.points for line in career], places)


def rating_number(value: float) -> str:
    """A rating's figure: always one decimal ("5.0", not "5" beside "3.8")."""
    return number_text(value, 1, pad=True)


def rating_text(mu: float, sigma: float) -> str:
    """A rating as shown: the conservative number and its uncertainty ("12.3 ± 2.1")."""
    return _("%(rating)s ± %(sigma)s") % {
        "rating": rating_number(mu - CONSERVATIVE_SIGMAS * sigma),
        "sigma": rating_number(sigma),
    }
