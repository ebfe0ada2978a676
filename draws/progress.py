"""How far the seat draw's search has come, kept for the director's page while the draw runs.

A large field's schedule takes seconds to search, in the director's own request. The search tells
a seating Progress; this module keeps the latest report in the cache under the tournament, and
the director's page asks for it (web's draw-progress view) while its draw request waits. The
cache is the one every web process shares (Redis in production; in development the one process
answers both requests).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache

from draws.seating import Progress

# A report outlives a draw that died without clearing it by this long, no more.
SECONDS = 60
# Reports closer together than this are not written: the page asks about once a second.
INTERVAL = 0.25


@dataclass(frozen=True)
class DrawProgress:
    """The draw of round `round_number` has spent `share` (0 to 1) of its search's budget and
    found `repeat_free` leading repeat-free rounds of the `rounds` planned (at most `bound`)."""

    round_number: int
    share: float
    repeat_free: int
    rounds: int
    bound: int


def _key(tournament_id: int) -> str:
    return f"draw-progress:{tournament_id}"


def reporter(tournament_id: int, *, round_number: int, rounds: int, bound: int) -> Progress:
    """A Progress for the schedule search that keeps its reports for the director's page."""
    last = [0.0]

    def report(share: float, repeat_free: int) -> None:
        now = time.monotonic()
        if now - last[0] < INTERVAL and share < 1:
            return
        last[0] = now
        cache.set(
            _key(tournament_id),
            DrawProgress(round_number, share, repeat_free, rounds, bound),
            SECONDS,
        )

    return report


def forget(tournament_id: int) -> None:
    """The draw is over (drawn or refused): nothing is being searched."""
    cache.delete(_key(tournament_id))


def current(tournament_id: int) -> DrawProgress | None:
    """The latest report of the draw running for the tournament, or None."""
    found = cache.get(_key(tournament_id))
    return found if isinstance(found, DrawProgress) else None
