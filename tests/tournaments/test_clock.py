"""The round clock's arithmetic: start, pause, resume, extend and reset never lose or invent a
second, overtime counts on below zero, and the clock reads as a director expects."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.hypothesis_profiles import examples
from tournaments.clock import (
    EXTEND_MINUTES,
    LONGEST_MINUTES,
    NOT_STARTED,
    OVER,
    PAUSED,
    RUNNING,
    START_MINUTES,
    Clock,
    ClockError,
    clock_text,
)

T0 = datetime.datetime(2026, 12, 4, 19, 0, 0, 250_000, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


def test_a_clock_not_started_reads_not_started():
    reading = Clock().reading(at(10))

    assert reading.state == NOT_STARTED
    assert not reading.started and not reading.ticking and not reading.overtime


def test_a_started_clock_counts_down_and_then_into_overtime():
    clock = Clock().start(at(0), minutes=45)

    assert clock.reading(at(0)).remaining == 45 * 60
    assert clock.reading(at(60)).remaining == 44 * 60
    assert clock.reading(at(45 * 60)).state == RUNNING
    overtime = clock.reading(at(45 * 60 + 90))
    assert overtime.state == OVER
    assert overtime.remaining == -90
    assert overtime.overtime and overtime.ticking


def test_a_paused_clock_stands_still_and_resumes_where_it_stood():
    clock = Clock().start(at(0), minutes=10).pause(at(120))

    assert clock.reading(at(500)).state == PAUSED
    assert clock.reading(at(500)).remaining == 8 * 60
    resumed = clock.resume(at(1000))
    assert resumed.reading(at(1000)).remaining == 8 * 60
    assert resumed.reading(at(1060)).remaining == 7 * 60


def test_extending_in_overtime_counts_down_again():
    clock = Clock().start(at(0), minutes=1)

    assert clock.reading(at(90)).state == OVER
    extended = clock.extend(minutes=5)
    assert extended.reading(at(90)).remaining == 5 * 60 + 60 - 90
    assert extended.reading(at(90)).state == RUNNING


def test_reset_forgets_everything():
    clock = Clock().start(at(0), minutes=10).pause(at(5))

    assert clock.reset().reading(at(10)).state == NOT_STARTED


@pytest.mark.parametrize("minutes", [START_MINUTES[0] - 1, START_MINUTES[1] + 1, -5])
def test_a_start_outside_the_bounds_is_refused(minutes):
    with pytest.raises(ClockError):
        Clock().start(at(0), minutes=minutes)


@pytest.mark.parametrize("minutes", [EXTEND_MINUTES[0] - 1, EXTEND_MINUTES[1] + 1])
def test_an_extension_outside_the_bounds_is_refused(minutes):
    with pytest.raises(ClockError):
        Clock().start(at(0), minutes=30).extend(minutes=minutes)


def test_extensions_stop_at_the_longest_round():
    clock = Clock().start(at(0), minutes=START_MINUTES[1])
    while clock.seconds + EXTEND_MINUTES[1] * 60 <= LONGEST_MINUTES * 60:
        clock = clock.extend(minutes=EXTEND_MINUTES[1])

    with pytest.raises(ClockError):
        clock.extend(minutes=EXTEND_MINUTES[1])


@pytest.mark.parametrize(
    "change",
    [
        lambda clock: clock.pause(at(1)),
        lambda clock: clock.resume(at(1)),
        lambda clock: clock.extend(minutes=5),
    ],
)
def test_a_clock_not_started_cannot_be_paused_resumed_or_extended(change):
    with pytest.raises(ClockError):
        change(Clock())


def test_pausing_twice_and_resuming_a_running_clock_are_refused():
    running = Clock().start(at(0), minutes=5)

    with pytest.raises(ClockError):
        running.resume(at(1))
    with pytest.raises(ClockError):
        running.pause(at(1)).pause(at(2))


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(45 * 60, "45:00"), (9, "0:09"), (0, "0:00"), (3900, "1:05:00"), (-150, "+2:30")],
)
def test_the_clock_text(seconds, text):
    assert clock_text(seconds) == text


# --------------------------------------------------------------------------- never loses time
steps = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "extend", "wait"]),
        st.integers(min_value=0, max_value=4000),  # seconds until the change
        st.integers(min_value=0, max_value=999_999),  # the microseconds of its moment
        st.integers(min_value=EXTEND_MINUTES[0], max_value=EXTEND_MINUTES[1]),
    ),
    max_size=25,
)


@settings(max_examples=examples(300))
@given(
    minutes=st.integers(min_value=START_MINUTES[0], max_value=START_MINUTES[1]),
    changes=steps,
    read_after=st.integers(min_value=0, max_value=10_000),
)
def test_pause_resume_and_extend_never_lose_or_invent_time(minutes, changes, read_after):
    # The model: the length is the start plus every extension taken; the time used is the sum
    # of the whole seconds the clock ran between its changes.
    start = T0.replace(microsecond=0)
    clock = Clock().start(T0, minutes=minutes)
    length = minutes * 60
    used = 0
    running = True
    last = 0  # whole seconds since the start of the last change
    now = 0
    for change, wait, micro, extra in changes:
        now += wait
        moment = start + datetime.timedelta(seconds=now, microseconds=micro)
        if running:
            used += now - last
        last = now
        if change == "pause" and running:
            clock = clock.pause(moment)
            running = False
        elif change == "resume" and not running:
            clock = clock.resume(moment)
            running = True
        elif change == "extend" and length + extra * 60 <= LONGEST_MINUTES * 60:
            clock = clock.extend(minutes=extra)
            length += extra * 60
        # Whatever the clock reads at the moment of a change is what the model says.
        assert clock.reading(moment).remaining == length - used
    now += read_after
    if running:
        used += now - last
    reading = clock.reading(start + datetime.timedelta(seconds=now, microseconds=999_999))

    assert reading.remaining == length - used
    assert reading.length == length
    assert reading.state == (PAUSED if not running else OVER if used > length else RUNNING)
    assert reading.overtime == (used > length)


@given(
    minutes=st.integers(min_value=START_MINUTES[0], max_value=START_MINUTES[1]),
    pause_after=st.integers(min_value=0, max_value=20_000),
    stood=st.integers(min_value=0, max_value=20_000),
)
def test_a_pause_of_any_length_takes_no_time_from_the_round(minutes, pause_after, stood):
    clock = Clock().start(T0, minutes=minutes).pause(at(pause_after))
    before = clock.reading(at(pause_after)).remaining

    resumed = clock.resume(at(pause_after + stood))

    assert resumed.reading(at(pause_after + stood)).remaining == before
    assert clock.reading(at(pause_after + stood)).remaining == before
