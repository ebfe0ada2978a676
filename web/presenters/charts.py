"""The geometry of a player's score chart (an inline SVG drawn by the template)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from web.presenters.numbers import number_text


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: str
    y: str
    round_number: int
    label: str


@dataclass(frozen=True, slots=True)
class Tick:
    position: str
    label: str
    # How the label sits on its position (SVG text-anchor): "start" for one at the left edge of
    # the plot, "end" at the right edge, so that it stays inside the drawing.
    anchor: str = "middle"


@dataclass(frozen=True, slots=True)
class ProgressChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str  # the polyline's points attribute
    points: list[ChartPoint]
    x_ticks: list[Tick]
    y_ticks: list[Tick]


def tick_step(span: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving at most five intervals."""
    step = 1.0
    while span / step > 5:
        for factor in (2, 2.5, 2):
            step *= factor
            if span / step <= 5:
                break
    return step


def progress_chart(progress: list, rounds_planned: int) -> ProgressChart | None:
    """Coordinates of the running tournament points by round, for an inline SVG."""
    done = [(p.round_number, p.running_points) for p in progress if p.running_points is not None]
    if not done:
        return None
    # Small enough that the labels stay legible when a phone shrinks the drawing to its width.
    width, height, left, right, top, bottom = 480, 220, 40, 464, 14, 186
    last_round = max(rounds_planned, done[-1][0], 2)
    values = [value for _, value in done]
    low = min(0.0, *values)
    step = tick_step(max(max(values) - low, 1))
    high = max(step, step * -(-max(values) // step))
    low = step * (low // step)

    def x_of(number: int) -> float:
        return left + (right - left) * (number - 1) / (last_round - 1)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    points = [
        ChartPoint(
            f"{x_of(number):.1f}",
            f"{y_of(value):.1f}",
            number,
            _("Points after round %(round)s: %(points)s")
            % {"round": number, "points": number_text(value)},
        )
        for number, value in done
    ]
    ticks = []
    value = low
    while value <= high + step / 2:
        ticks.append(Tick(f"{y_of(value):.1f}", number_text(value)))
        value += step
    every = max(1, -(-last_round // 12))  # at most a dozen round labels
    x_ticks = [
        Tick(f"{x_of(n):.1f}", str(n)) for n in range(1, last_round + 1) if (n - 1) % every == 0
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
        y_ticks=ticks,
    )
