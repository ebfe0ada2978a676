"""The whole standings page as every visitor who is not signed in sees it, kept per snapshot.

A big event's phones load the standings page far more often than anything on it changes. For a
public tournament the page a visitor without a session gets is the same for all (but for the
CSRF token, put in on each request), so it is kept in the cache per snapshot, set of columns and
language (scoring.standings_cache). The worker that renders a new snapshot's table renders these
pages too (web/tasks.py), before the phones learn of the snapshot: the web processes then hand
the page out at the moment hundreds of phones reload it, instead of each rendering it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language

from scoring import selectors as scoring_selectors
from scoring import standings_cache
from tournaments import selectors
from tournaments.models import Tournament
from web.presenters.csv_files import CSV_SEPARATOR_CHOICES, default_csv_separator
from web.presenters.live_standings import LiveState, columns_text, live_html, version_text
from web.presenters.tournament_header import tournament_context

# Stands for the visitor's CSRF token in a kept page (the token is the only part of that page
# that is each visitor's own); the view puts the visitor's in place of it on each request.
TOKEN_STAND_IN = "csrf-token-of-the-visitor-5b0e7c1d"
TEMPLATE = "public/standings.html"


def standings_page_context(
    request: HttpRequest | None, tournament: Tournament, latest: int | None
) -> dict:
    return tournament_context(
        tournament,
        current_round=selectors.latest_round_public(tournament),
        standings_live=live_html(request, tournament, latest),
        csv_separators=CSV_SEPARATOR_CHOICES,
        csv_separator=default_csv_separator(),
    )


def keep_page(
    request: HttpRequest, tournament: Tournament, latest: int | None, *, remember: bool = True
) -> str:
    """Render the page every visitor who is not signed in gets (with the token's stand-in) in
    the active language and keep it; the page. With `remember`, the tournament's poll state
    then names this snapshot, which sends the visitors to the kept pages."""
    context = standings_page_context(request, tournament, latest)
    context["csrf_token"] = TOKEN_STAND_IN  # over the context processor's
    html = render_to_string(TEMPLATE, context, request=request)
    latest_text, columns = version_text(latest), columns_text(tournament)
    key = standings_cache.page_key(tournament.pk, latest_text, columns, get_language())
    standings_cache.store_page(key, html)
    if remember:
        standings_cache.remember_poll_state(tournament.pk, latest=latest_text, columns=columns)
    return html


def _visitor_request(tournament: Tournament) -> HttpRequest:
    """The request of a visitor who is not signed in, with no cookie and no query, opening the
    page: what the page's template reads of a request (its path, the user, no messages)."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse("public-standings", args=[tournament.pk])
    request.user = AnonymousUser()
    return request


def keep_pages(state: LiveState) -> bool:
    """Render and keep a public tournament's page in every language for the snapshot `state`
    names (its table rendered already, web.presenters.live_standings.live_prerender). Whether
    pages were kept: not for a private tournament (every visitor's page is checked for who
    asks), nor one gone or changed since `state` was read."""
    if not state.public:
        return False
    tournament = Tournament.objects.filter(pk=state.tournament_id).select_related("club").first()
    if tournament is None or not tournament.is_public:
        return False
    latest = scoring_selectors.standings_latest_version(tournament)
    if version_text(latest) != state.version or columns_text(tournament) != state.columns:
        return False  # a newer snapshot's worker keeps its own
    languages = [code for code, _name in settings.LANGUAGES]
    for language in languages:
        with translation.override(language):
            # The poll state with the last one: every language's page is kept by then.
            remember = language == languages[-1]
            keep_page(_visitor_request(tournament), tournament, latest, remember=remember)
    return True
