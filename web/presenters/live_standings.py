"""The live standings block (the table the standings page swaps in), rendered once per snapshot.

Shared by the page and its polls (web/views/public.py), the worker that renders a new snapshot's
block before anyone asks (web/tasks.py) and the standings socket that pushes it (web/consumers.py).
A block is keyed by the tournament, the snapshot's version, its columns and the language
(scoring.standings_cache); it never changes once rendered.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from scoring import selectors as scoring_selectors
from scoring import standings_cache
from tournaments.models import Tournament
from web.presenters.standings import ranking_order_text, standings_columns, standings_table


@dataclass(frozen=True)
class LiveState:
    """What names a tournament's latest block: the version shown and the columns."""

    tournament_id: int
    version: str
    columns: str
    public: bool


def version_text(version: int | None) -> str:
    return "" if version is None else str(version)


def columns_text(tournament: Tournament) -> str:
    """What the rendered block depends on besides the snapshot: its columns and the order of
    ranking written under it (which may end in the random draw, a column of none)."""
    columns = ",".join(column.key for column in standings_columns(tournament))
    return f"{columns}|{','.join(tournament.standings_precedence)}"


def live_key(tournament_id: int, version: str, columns: str, language: str | None = None) -> str:
    """The cache key of a rendered standings block, in the active language unless given."""
    return standings_cache.block_key(tournament_id, version, columns, language or get_language())


def live_state(tournament: Tournament) -> LiveState:
    """The tournament's latest block as it is now (one query: the latest snapshot's version)."""
    latest = scoring_selectors.standings_latest_version(tournament)
    return LiveState(
        tournament_id=tournament.pk,
        version=version_text(latest),
        columns=columns_text(tournament),
        public=tournament.is_public,
    )


def live_state_of(tournament_id: int) -> LiveState | None:
    """`live_state` by id; None when the tournament is gone."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return None if tournament is None else live_state(tournament)


def live_html(
    request: HttpRequest | None, tournament: Tournament, version: int | None, *, wait: bool = True
) -> str | None:
    """The live standings block, rendered once per snapshot, language and set of columns.

    A snapshot never changes once stored, so the block is kept in the cache (Redis, shared by
    every web process, in production): when a result lands, hundreds of phones ask for the new
    standings within a second, and only one of them renders it (or a worker did already). With
    `wait=False` the others get None while that one is at it (a poll then answers "nothing new
    yet" and asks again).
    """
    columns = columns_text(tournament)
    key = live_key(tournament.pk, version_text(version), columns)
    html = standings_cache.block(key)
    if html is not None:
        return mark_safe(html)  # noqa: S308 - rendered by our own template, escaped there
    if not standings_cache.claim_render(key) and not wait:
        return None
    snapshot = scoring_selectors.standings_latest(tournament)
    context = {
        "tournament": tournament,
        "standings": standings_table(tournament, snapshot),
        "ranking_order": ranking_order_text(tournament),
    }
    html = render_to_string("public/_standings_live.html", context, request=request)
    stored = version_text(snapshot.version if snapshot is not None else None)
    standings_cache.store_block(live_key(tournament.pk, stored, columns), html)
    return mark_safe(html)  # noqa: S308 - rendered by our own template, escaped there


def live_prerender(tournament_id: int) -> LiveState | None:
    """Render the latest snapshot's block into the cache in every language (web.tasks); the
    state it was rendered for, or None when the tournament is gone."""
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("club").first()
    if tournament is None:
        return None
    state = live_state(tournament)
    latest = int(state.version) if state.version else None
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            live_html(None, tournament, latest, wait=True)
    return state


def compressed_live_block(tournament_id: int, language: str) -> tuple[LiveState, bytes] | None:
    """The latest block's gzip in `language`, rendered now if no worker has (a socket's catch-up
    after the cache lost it); None when the tournament is gone."""
    tournament = Tournament.objects.filter(pk=tournament_id).select_related("club").first()
    if tournament is None:
        return None
    state = live_state(tournament)
    with translation.override(language):
        html = live_html(None, tournament, int(state.version) if state.version else None) or ""
    data = standings_cache.compressed_block(
        live_key(tournament_id, state.version, state.columns, language)
    )
    # None only for a block kept by an older release, which stored no gzip beside it.
    return state, data if data is not None else gzip.compress(html.encode("utf-8"), mtime=0)
