"""The live standings in the cache, in one place: what is kept, under which key, for how long.

Five things are kept (Redis in production, shared by every web process and worker):
- "due": a computation is scheduled for the tournament. A burst of confirmations makes one
  computation a little later (settings.STANDINGS_DEBOUNCE_SECONDS) instead of one each, since
  every new snapshot sends every phone on the standings page a new table.
- the poll state of a public tournament: its latest snapshot version and columns, kept for a
  second, so that a poll that finds nothing new costs no database query at all. Forgotten the
  moment a newer snapshot is stored.
- the block last pushed to the standings sockets (web/consumers.py), so that a socket that
  opens while a push is on its way still gets that snapshot.
- rendered blocks: the standings table of one snapshot in one language with one set of columns.
  A snapshot never changes once stored, so a block is rendered once (by a worker right after the
  snapshot, or by the first request) while the others wait for it or ask again a second later.
  Beside each block its gzip, compressed once for every standings socket that is sent it
  (web/consumers.py): a thousand sockets then cost one compression, not a thousand.
- whole standings pages of a public tournament as a visitor who is not signed in sees them, one
  per snapshot, set of columns and language, kept as long as the poll state (the rest of the
  page, round links and headline, may be that stale): a big event's phones load the page far
  more often than anything on it changes. The visitor's CSRF token is put in on each request.
"""

from __future__ import annotations

import gzip
from typing import Any

from django.core.cache import cache

# How long a rendered block is kept; a snapshot never changes, so this only frees memory.
BLOCK_SECONDS = 3600
# How stale a public tournament's "nothing new" may be.
POLL_SECONDS = 1
# How long a whole standings page is kept (the rest of the page is as stale as a poll may be).
PAGE_SECONDS = POLL_SECONDS
# How long the other requests let one request render a new block before they try themselves.
RENDER_SECONDS = 10
# How long past its countdown a scheduled computation counts as due (a lost task's is then
# scheduled again by the next confirmation; the periodic catch-up computes it anyway).
DUE_GRACE_SECONDS = 30


def _due_key(tournament_id: int) -> str:
    return f"standings-due:{tournament_id}"


def mark_due(tournament_id: int, delay: int) -> bool:
    """Note that a computation runs in `delay` seconds; False if one is already scheduled."""
    return cache.add(_due_key(tournament_id), True, delay + DUE_GRACE_SECONDS)


def clear_due(tournament_id: int) -> None:
    """The scheduled computation starts: a confirmation from now on schedules another one."""
    cache.delete(_due_key(tournament_id))


def _poll_key(tournament_id: int) -> str:
    return f"standings-poll:{tournament_id}"


def poll_state(tournament_id: int) -> dict[str, str] | None:
    """{"latest": version text, "columns": columns text} of a public tournament, if kept."""
    return cache.get(_poll_key(tournament_id))


def remember_poll_state(tournament_id: int, *, latest: str, columns: str) -> None:
    cache.set(_poll_key(tournament_id), {"latest": latest, "columns": columns}, POLL_SECONDS)


def forget_poll_state(tournament_id: int) -> None:
    """A newer snapshot is stored: the polls learn of it at once, not when the state expires."""
    cache.delete(_poll_key(tournament_id))


def _pushed_key(tournament_id: int) -> str:
    return f"standings-pushed:{tournament_id}"


def remember_pushed(tournament_id: int, *, latest: str, columns: str) -> None:
    """The block last pushed to the standings sockets; kept before the push is sent, so a
    socket that joins while it is sent reads it (or gets the push)."""
    cache.set(_pushed_key(tournament_id), {"latest": latest, "columns": columns}, BLOCK_SECONDS)


def pushed(tournament_id: int) -> dict[str, str] | None:
    """{"latest": version text, "columns": columns text} of the last push, if kept."""
    return cache.get(_pushed_key(tournament_id))


def block_key(tournament_id: int, version_text: str, columns: str, language: str) -> str:
    """The key of a rendered block: a snapshot, a language, a set of columns."""
    return f"standings-live:{tournament_id}:{version_text}:{language}:{columns}"


def block(key: str) -> Any:
    return cache.get(key)


def claim_render(key: str) -> bool:
    """Whether this caller renders the block (True) or another one is at it already (False)."""
    return cache.add(f"{key}:rendering", True, RENDER_SECONDS)


def store_block(key: str, html: str) -> None:
    """Keep the block and its gzip (the gzip first: whoever finds the block finds both)."""
    cache.set(_compressed_key(key), gzip.compress(html.encode("utf-8"), mtime=0), BLOCK_SECONDS)
    cache.set(key, html, BLOCK_SECONDS)


def _compressed_key(key: str) -> str:
    return f"{key}:gzip"


def compressed_block(key: str) -> bytes | None:
    """The gzip of a rendered block (`block_key`), if kept."""
    return cache.get(_compressed_key(key))


def page_key(tournament_id: int, version_text: str, columns: str, language: str) -> str:
    """The key of a whole standings page for visitors not signed in (see `block_key`)."""
    return f"standings-page:{tournament_id}:{version_text}:{language}:{columns}"


def page(key: str) -> str | None:
    return cache.get(key)


def store_page(key: str, html: str) -> None:
    cache.set(key, html, PAGE_SECONDS)
