"""The round clock as pure arithmetic: what it reads at a moment, and how start, pause, resume,
extend and reset change it (no Django; the services store the result on the round).

A clock is its length (every extension included), when it was started, when it was paused
(None while it runs) and how long it stood paused before. All of it is in whole seconds: the
moments a change is made at are cut to the second, so a pause and a resume never round a
second away or add one. Remaining time goes below zero once the length is used up (overtime).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

# What the director may type: a round of 1 to 300 minutes, extended by 1 to 60 minutes at a
# time, never longer than LONGEST_MINUTES in all.
START_MINUTES = (1, 300)
EXTEND_MINUTES = (1, 60)
LONGEST_MINUTES = 600

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
OVER = "over"  # running past its length: overtime


class ClockError(ValueError):
    """A change the clock cannot make in its state (the services say why to people)."""


def _whole_seconds(moment: datetime.datetime) -> datetime.datetime:
    return moment.replace(microsecond=0)


def _seconds_between(earlier: datetime.datetime, later: datetime.datetime) -> int:
    """Whole seconds from `earlier` to `later` (never negative: a clock set back counts 0)."""
    delta = later - earlier
    return max(0, delta.days * 86400 + delta.seconds)


@dataclass(frozen=True, slots=True)
class Reading:
    """What the clock shows at a moment."""

    state: str  # NOT_STARTED, RUNNING, PAUSED or OVER
    remaining: int  # seconds; below zero in overtime; the length while not started
    length: int  # seconds, every extension included; 0 while not started

    @property
    def started(self) -> bool:
        return self.state != NOT_STARTED

    @property
    def ticking(self) -> bool:
        """Whether the shown time moves on by itself (running, or running in overtime)."""
        return self.state in (RUNNING, OVER)

    @property
    def overtime(self) -> bool:
        return self.started and self.remaining < 0


@dataclass(frozen=True, slots=True)
class Clock:
    seconds: int | None = None
    started_at: datetime.datetime | None = None
    paused_at: datetime.datetime | None = None
    paused_seconds: int = 0

    @property
    def started(self) -> bool:
        return self.seconds is not None and self.started_at is not None

    @property
    def paused(self) -> bool:
        return self.started and self.paused_at is not None

    def elapsed(self, now: datetime.datetime) -> int:
        """Seconds the clock has run: since the start, less every pause (this one too)."""
        if not self.started or self.started_at is None:
            return 0
        until = self.paused_at if self.paused_at is not None else now
        return max(0, _seconds_between(self.started_at, until) - self.paused_seconds)

    def reading(self, now: datetime.datetime) -> Reading:
        if not self.started or self.seconds is None:
            return Reading(state=NOT_STARTED, remaining=0, length=0)
        remaining = self.seconds - self.elapsed(now)
        if self.paused:
            state = PAUSED
        elif remaining < 0:
            state = OVER
        else:
            state = RUNNING
        return Reading(state=state, remaining=remaining, length=self.seconds)

    # ------------------------------------------------------------------ changes
    def start(self, now: datetime.datetime, *, minutes: int) -> Clock:
        """A clock of `minutes` that runs from now (a started clock is reset first)."""
        low, high = START_MINUTES
        if not low <= minutes <= high:
            raise ClockError(f"a round clock runs {low} to {high} minutes")
        return Clock(seconds=minutes * 60, started_at=_whole_seconds(now))

    def pause(self, now: datetime.datetime) -> Clock:
        if not self.started:
            raise ClockError("the clock is not started")
        if self.paused:
            raise ClockError("the clock is paused already")
        return replace(self, paused_at=_whole_seconds(now))

    def resume(self, now: datetime.datetime) -> Clock:
        if not self.paused or self.paused_at is None:
            raise ClockError("the clock is not paused")
        stood = _seconds_between(self.paused_at, _whole_seconds(now))
        return replace(self, paused_at=None, paused_seconds=self.paused_seconds + stood)

    def extend(self, *, minutes: int) -> Clock:
        """`minutes` more for the round, paused or not (overtime counts down again)."""
        if not self.started or self.seconds is None:
            raise ClockError("the clock is not started")
        low, high = EXTEND_MINUTES
        if not low <= minutes <= high:
            raise ClockError(f"a round clock is extended by {low} to {high} minutes")
        if self.seconds + minutes * 60 > LONGEST_MINUTES * 60:
            raise ClockError(f"a round clock runs at most {LONGEST_MINUTES} minutes")
        return replace(self, seconds=self.seconds + minutes * 60)

    def reset(self) -> Clock:
        """Back to not started."""
        return Clock()


def clock_text(seconds: int) -> str:
    """Remaining seconds as a clock shows them: 45:00, 1:05:00, 0:09; overtime as +2:30."""
    sign = "+" if seconds < 0 else ""
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"
