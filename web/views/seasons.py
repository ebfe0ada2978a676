"""The public pages of club seasons and players' careers: a season's table (page, wall screen,
CSV) and a player's profile across tournaments (rating, tournaments, deal statistics, head to
head).

Thin views over the seasons selectors: every figure comes from public tournaments only (a season
table and the ratings are computed from them alone), and tables are stored, never recomputed on
a request.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.i18n import translate
from gameplay import selectors as gameplay_selectors
from ratings.season import SEASON_METRIC_REGISTRY
from seasons import selectors
from seasons.models import PlayerRating, Season
from tournaments.models import Player
from web.presenters.csv_files import (
    CSV_SEPARATOR_CHOICES,
    csv_attachment,
    csv_decimal_mark,
    csv_separator,
    default_csv_separator,
)
from web.presenters.numbers import plain_number
from web.presenters.seasons import (
    career_points,
    rating_chart,
    rating_text,
    season_columns,
    season_rule_text,
    season_table,
)
from web.views.public import WALL_SECONDS_DEFAULT, WALL_SECONDS_RANGE

SEASONS_PER_PAGE = 25


def _season(season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id)


@require_safe
def season_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.seasons_listed(), SEASONS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "public/season_list.html", {"page": page})


@require_safe
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season(season_id)
    standings = selectors.season_standings(season)
    context = {
        "season": season,
        "standings": season_table(season, standings, latest_tournaments=WALL_TOURNAMENT_COLUMNS),
        "computed_at": standings.computed_at if standings else None,
        "rule_text": season_rule_text(season),
        # What the heads of the season's own columns mean (the tournaments' are listed below).
        "criteria": season_columns(season),
        "tournaments": list(selectors.season_tournaments(season)),
        "csv_separators": CSV_SEPARATOR_CHOICES,
        "csv_separator": default_csv_separator(),
    }
    return render(request, "public/season_detail.html", context)


# The wall's large type holds the season's own columns and the latest few tournaments'.
WALL_TOURNAMENT_COLUMNS = 3


def _wall_seconds(request: HttpRequest) -> int:
    low, high = WALL_SECONDS_RANGE
    value = request.GET.get("seconds", "")
    if value.isascii() and value.isdigit():
        return max(low, min(high, int(value)))
    return WALL_SECONDS_DEFAULT


def _wall_context(season: Season) -> dict:
    standings = selectors.season_standings(season)
    return {
        "season": season,
        "standings": season_table(season, standings, latest_tournaments=WALL_TOURNAMENT_COLUMNS),
        "computed_at": standings.computed_at if standings else None,
        "state": standings.computed_at.isoformat() if standings else "none",
    }


@require_safe
def season_wall(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's table in large type for the club's wall screen, a screenful at a time."""
    season = _season(season_id)
    context = _wall_context(season) | {"seconds": _wall_seconds(request)}
    return render(request, "public/season_wall.html", context)


@never_cache
@require_safe
def season_wall_live(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season(season_id)
    context = _wall_context(season)
    if request.GET.get("state") == context["state"]:
        return HttpResponse(status=204)
    return render(request, "public/_season_wall_live.html", context)


@require_safe
def season_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season(season_id)
    separator = csv_separator(request.GET.get("sep"))
    if separator is None:
        message = _("The columns of a CSV file are separated by a comma, a semicolon or a tab.")
        return render(request, "request_refused.html", {"message": message}, status=400)
    mark = csv_decimal_mark(separator)
    standings = selectors.season_standings(season)
    response, writer = csv_attachment(season.name, f"season-{season.pk}", _("season"), separator)
    metrics = [SEASON_METRIC_REGISTRY[column.key] for column in season_columns(season)]
    tournaments = standings.tournaments if standings is not None else []
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            *[translate(metric.name) for metric in metrics],
            *[f"{t['name']} ({t['date']})" for t in tournaments],
        ]
    )
    for row in standings.rows if standings is not None else []:
        figures = [
            plain_number(
                None
                if metric.key == "best_rank" and not row["tournaments_played"]
                else row[metric.key],
                metric.places,
                decimal_mark=mark,
            )
            for metric in metrics
        ]
        values = [plain_number(result["value"], 2, decimal_mark=mark) for result in row["results"]]
        writer.writerow([row["rank"], row["name"], *figures, *values])
    return response


@require_safe
def player_profile(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player across the club's public tournaments; 404 for a player who has none."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    if not selectors.player_is_public(player):
        raise Http404
    rating = PlayerRating.objects.filter(player=player).first()
    seats = dict(selectors.public_seats(player))
    marriages, live_deals = gameplay_selectors.marriages_declared(seats)
    opponents = selectors.opponents_met(player)
    opponent = None
    chosen = request.GET.get("opponent", "")
    if chosen.isascii() and chosen.isdigit() and len(chosen) <= 12:
        opponent = next((o for o in opponents if o.pk == int(chosen)), None)
    # Asked for someone he never sat with (an old link, a hand-typed address): said, not hidden.
    never_met = bool(chosen) and opponent is None
    history = selectors.rating_history(player)
    career = selectors.player_tournaments(player)
    context = {
        "player": player,
        "rating": rating,
        "rating_text": rating_text(rating.mu, rating.sigma) if rating else "",
        "chart": rating_chart(history),
        "career": list(zip(career, career_points(career), strict=True)),
        "stats": selectors.player_deal_stats(player),
        "marriages": marriages,
        "live_deals": live_deals,
        "opponents": opponents,
        "opponent": opponent,
        "never_met": never_met,
        "head_to_head": selectors.head_to_head(player, opponent) if opponent else None,
    }
    return render(request, "public/player_profile.html", context)
