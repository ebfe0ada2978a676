"""The public pages of a tournament: draws, results, live standings, wall screen, players, CSV.

Thin views over the tournaments and scoring selectors, as the API uses them: a tournament the
visitor may not see (`can_view_tournament`) is a 404 on every page and file, draft rounds are
never shown, and standings come from the stored snapshot only, never recomputed on a request.
What they show is computed by the presenters (web/presenters/): formatted numbers, the
standings table, the score chart's geometry, the CSV files.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.middleware.gzip import re_accepts_gzip
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from core.i18n import translate
from scoring import selectors as scoring_selectors
from scoring import standings_cache
from standings.ranking import METRIC_REGISTRY
from tournaments import selectors
from tournaments.models import Registration, Table, Tournament
from web.presenters.charts import progress_chart
from web.presenters.csv_files import (
    CSV_SEPARATOR_CHOICES,
    csv_decimal_mark,
    csv_response,
    csv_separator,
    default_csv_separator,
)
from web.presenters.live_standings import columns_text, live_html, live_key, version_text
from web.presenters.numbers import plain_number
from web.presenters.rule_options import placement_points_lines, rule_option_lines
from web.presenters.standings import (
    ranking_order_text,
    standing_facts,
    standings_columns,
    standings_table,
)
from web.presenters.standings_page import TEMPLATE as STANDINGS_TEMPLATE
from web.presenters.standings_page import TOKEN_STAND_IN, keep_page, standings_page_context
from web.presenters.tournament_header import tournament_context
from web.presenters.venue import seat_list

TOURNAMENTS_PER_PAGE = 25
LEADERS_ON_OVERVIEW = 10
WALL_SECONDS_DEFAULT = 12
WALL_SECONDS_RANGE = (3, 120)
SEARCH_MAX_LENGTH = 100


# ----------------------------------------------------------------------------- helpers


def _visible_tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=tournament_id)
    if not selectors.can_view_tournament(request.user, tournament):
        raise Http404
    return tournament


# ----------------------------------------------------------------------------- lists


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    tournaments = selectors.tournaments_listed(request.user, query=query)
    page = Paginator(tournaments, TOURNAMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "public/tournament_list.html", {"page": page, "query": query})


# ----------------------------------------------------------------------------- a tournament


@require_safe
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    snapshot = scoring_selectors.standings_latest(tournament)
    registrations = None
    if snapshot is None:
        registrations = list(selectors.registrations_of(tournament))
    rule_options = rule_option_lines(tournament)
    context = tournament_context(
        tournament,
        current_round=selectors.latest_round_public(tournament),
        standings=standings_table(tournament, snapshot, limit=LEADERS_ON_OVERVIEW),
        ranking_order=ranking_order_text(tournament),
        rule_options=rule_options,
        rule_options_changed=[line for line in rule_options if line.changed],
        placement_points=placement_points_lines(tournament),
        registrations=registrations,
        active=Registration.Status.ACTIVE,
        csv_separators=CSV_SEPARATOR_CHOICES,
        csv_separator=default_csv_separator(),
    )
    return render(request, "public/tournament_detail.html", context)


@require_safe
def round_detail(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    round_ = selectors.round_public(tournament, number)
    if round_ is None:
        raise Http404
    tables = scoring_selectors.round_outcomes(round_)
    context = tournament_context(
        tournament,
        round=round_,
        tables=tables,
        confirmed_count=sum(table.confirmed for table in tables),
    )
    return render(request, "public/round_detail.html", context)


@require_safe
def table_detail(
    request: HttpRequest, tournament_id: int, number: int, table_number: int
) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    round_ = selectors.round_public(tournament, number)
    if round_ is None:
        raise Http404
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"), round=round_, number=table_number
    )
    context = tournament_context(
        tournament,
        round=round_,
        table=scoring_selectors.table_outcome(table),
        deals=scoring_selectors.confirmed_deals(table),
    )
    return render(request, "public/table_detail.html", context)


# ----------------------------------------------------------------------------- standings


def _same_for_every_visitor(request: HttpRequest) -> bool:
    """Whether this request gets the page every visitor who is not signed in gets (but for the
    CSRF token): no session (nobody signed in, no message kept in it), no message cookie, no
    query (the page's sign-in and language links repeat its address)."""
    return not (
        request.META.get("QUERY_STRING")
        or settings.SESSION_COOKIE_NAME in request.COOKIES
        or CookieStorage.cookie_name in request.COOKIES
    )


def _with_token(request: HttpRequest, html: str) -> HttpResponse:
    return HttpResponse(html.replace(TOKEN_STAND_IN, get_token(request)))


@require_safe
@gzip_page  # Django's gzip adds random padding against BREACH (the page carries a CSRF token)
def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    # A big event's phones load this page far more often than anything on it changes: for a
    # public tournament (its poll state kept) and a visitor not signed in, the whole page is
    # kept per snapshot, columns and language (scoring.standings_cache), no database asked.
    shared = _same_for_every_visitor(request)
    if shared:
        state = standings_cache.poll_state(tournament_id)
        if state is not None:
            key = standings_cache.page_key(
                tournament_id, state["latest"], state["columns"], get_language()
            )
            html = standings_cache.page(key)
            if html is not None:
                return _with_token(request, html)
    tournament = _visible_tournament(request, tournament_id)
    latest = scoring_selectors.standings_latest_version(tournament)
    if not (shared and tournament.is_public):
        context = standings_page_context(request, tournament, latest)
        return render(request, STANDINGS_TEMPLATE, context)
    return _with_token(request, keep_page(request, tournament, latest))


@never_cache
@require_safe
# 70 KB of table for 200 players is 4 KB compressed, sent to every phone at each new snapshot.
@gzip_page
def standings_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings table for the live page, or 204 if the page already shows the latest."""
    shown = request.GET.get("version")
    # Every phone on the page asks once a second. For a public tournament the latest version
    # (and its columns) is kept for a second, so a poll needs no database at all: "nothing new"
    # is a 204, a new table comes from the cache.
    state = standings_cache.poll_state(tournament_id)
    if state is not None:
        if shown == state["latest"]:
            return HttpResponse(status=204)
        key = live_key(tournament_id, state["latest"], state["columns"])
        if re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")):
            # The gzip a worker made once for the sockets: no compression per phone. The block
            # holds no secret (no CSRF token), so it needs no padding against BREACH.
            data = standings_cache.compressed_block(key)
            if data is not None:
                response = HttpResponse(data, headers={"Content-Encoding": "gzip"})
                patch_vary_headers(response, ("Accept-Encoding",))
                return response
        html = standings_cache.block(key)
        if html is not None:
            return HttpResponse(html)
    tournament = _visible_tournament(request, tournament_id)
    latest = scoring_selectors.standings_latest_version(tournament)
    latest_text = version_text(latest)
    if tournament.is_public:
        standings_cache.remember_poll_state(
            tournament_id, latest=latest_text, columns=columns_text(tournament)
        )
    if shown == latest_text:
        return HttpResponse(status=204)
    html = live_html(request, tournament, latest, wait=False)
    if html is None:
        return HttpResponse(status=204)  # being rendered by another request: next poll has it
    return HttpResponse(html)


def _wall_seconds(request: HttpRequest) -> int:
    low, high = WALL_SECONDS_RANGE
    value = request.GET.get("seconds", "")
    if value.isascii() and value.isdigit():
        return max(low, min(high, int(value)))
    return WALL_SECONDS_DEFAULT


def _wall_state(tournament: Tournament, snapshot_version: int | None, round_) -> str:
    """Changes whenever the wall would show something else: new standings, a result, a round."""
    round_part = f"{round_.pk}-{round_.status}" if round_ is not None else "none"
    if round_ is not None and round_.clock_started_at is not None:
        # The clock ticks in the browser; only a start, pause, resume, extension or reset is news.
        round_part += (
            f"-{round_.clock_seconds}-{round_.clock_started_at.timestamp():.0f}"
            f"-{round_.clock_paused_at.timestamp() if round_.clock_paused_at else 0:.0f}"
            f"-{round_.clock_paused_seconds}"
        )
    snapshot_part = "none" if snapshot_version is None else snapshot_version
    return f"{snapshot_part}.{tournament.results_version}.{round_part}"


def _wall_context(tournament: Tournament) -> dict[str, Any]:
    snapshot = scoring_selectors.standings_latest(tournament)
    round_ = selectors.latest_round_public(tournament)
    tables = scoring_selectors.round_outcomes(round_) if round_ is not None else []
    # Find your seat, while the round is being played (web/presenters/venue.py).
    playing = round_ is not None and round_.status == round_.Status.PUBLISHED
    seat_lines = seat_list(round_) if playing else []
    return {
        "tournament": tournament,
        "standings": standings_table(tournament, snapshot),
        "round": round_,
        "tables": tables,
        "seat_lines": seat_lines,
        # Until a table of the round has its result the room is looking for its seats, and the
        # standings are last round's: the seats come first in the rotation, then the rest.
        "seats_first": bool(seat_lines) and not any(table.confirmed for table in tables),
        "state": _wall_state(tournament, snapshot.version if snapshot else None, round_),
    }


@require_safe
def wall(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Large type for a projector: standings and the current round, a screenful at a time."""
    tournament = _visible_tournament(request, tournament_id)
    context = _wall_context(tournament) | {"seconds": _wall_seconds(request)}
    return render(request, "public/wall.html", context)


@never_cache
@require_safe
def wall_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    latest = scoring_selectors.standings_latest_version(tournament)
    round_ = selectors.latest_round_public(tournament)
    if request.GET.get("state") == _wall_state(tournament, latest, round_):
        return HttpResponse(status=204)
    return render(request, "public/_wall_live.html", _wall_context(tournament))


# ----------------------------------------------------------------------------- players


@require_safe
def player_detail(request: HttpRequest, tournament_id: int, start_number: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    registration = selectors.registration_by_start_number(tournament, start_number)
    if registration is None:
        raise Http404
    progress = scoring_selectors.player_progress(registration)
    snapshot = scoring_selectors.standings_latest(tournament)
    standing = None
    if snapshot is not None:
        standing = next(
            (row for row in snapshot.rows if row["registration"] == registration.pk), None
        )
    context = tournament_context(
        tournament,
        registration=registration,
        progress=progress,
        standing=standing,
        standing_facts=standing_facts(tournament, standing) if standing else [],
        chart=progress_chart(progress, tournament.rounds_planned),
        withdrawn=registration.status == Registration.Status.WITHDRAWN,
    )
    return render(request, "public/player_detail.html", context)


# ----------------------------------------------------------------------------- CSV files


def _csv_refused(request: HttpRequest) -> HttpResponse:
    message = _("The columns of a CSV file are separated by a comma, a semicolon or a tab.")
    return render(request, "request_refused.html", {"message": message}, status=400)


@require_safe
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    separator = csv_separator(request.GET.get("sep"))
    if separator is None:
        return _csv_refused(request)
    mark = csv_decimal_mark(separator)
    snapshot = scoring_selectors.standings_latest(tournament)
    response, writer = csv_response(tournament, _("standings"), separator)
    # The page's columns, in the tournament's order of its ranking criteria, named in full.
    metrics = [METRIC_REGISTRY[column.key] for column in standings_columns(tournament)]
    names = [translate(metric.name) for metric in metrics]
    writer.writerow([_("Rank"), _("Start number"), _("Player"), *names, _("Status")])
    withdrawn = Registration.Status.WITHDRAWN.label
    active = Registration.Status.ACTIVE.label
    for row in snapshot.rows if snapshot is not None else []:
        figures = [
            plain_number(metric.value_of(row), metric.places, decimal_mark=mark)
            for metric in metrics
        ]
        status = withdrawn if row.get("withdrawn") else active
        writer.writerow([row["rank"], row["start_number"], row["name"], *figures, status])
    return response


@require_safe
def results_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible_tournament(request, tournament_id)
    separator = csv_separator(request.GET.get("sep"))
    if separator is None:
        return _csv_refused(request)
    mark = csv_decimal_mark(separator)
    response, writer = csv_response(tournament, _("results"), separator)
    writer.writerow(
        [
            _("Round"),
            _("Table"),
            _("Seat"),
            _("Start number"),
            _("Player"),
            _("Total"),
            _("Place"),
            _("Tournament points"),
            _("Winner"),
        ]
    )
    yes = _("yes")
    for table in scoring_selectors.confirmed_outcomes(tournament):
        for seat in table.seats:
            name = seat.display_name
            writer.writerow(
                [
                    table.round_number,
                    table.number,
                    seat.number,
                    seat.start_number or "",
                    name,
                    seat.total,
                    seat.placement,
                    plain_number(seat.points, decimal_mark=mark),
                    yes if seat.won else "",
                ]
            )
    return response
