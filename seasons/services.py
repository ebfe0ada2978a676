"""Writes of seasons and the recomputation of season tables and ratings.

A director groups his club's tournaments into seasons and marks tournaments unrated. Season
tables and ratings are derived: recomputed from scratch (ratings.rating, ratings.season) by a
Celery task enqueued when the transaction that changed their inputs commits, and stored, so that
pages only read them. Recomputing is idempotent: the same inputs store the same numbers.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.i18n import error_text
from ratings.rating import recompute_ratings
from ratings.season import SeasonRule, SeasonRuleError, compute_season, validate_season_rule
from seasons import selectors
from seasons.models import PlayerRating, RatingPoint, Season, SeasonStandings
from tournaments.models import Club, Player, Tournament
from tournaments.services import new_seed, require_director

logger = logging.getLogger(__name__)

NAME_MAX_LENGTH = 120
# A season longer than this is a typing mistake (a year 2206), refused with a clear reason.
MAX_SEASON_DAYS = 3 * 366


# ----------------------------------------------------------------------------- seasons
def _tournament_names(tournaments: QuerySet[Tournament]) -> list[str]:
    return list(tournaments.order_by("date", "pk").values_list("name", flat=True))


def _short_date(day: datetime.date) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT")


def _season_clean(
    *,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    rule: SeasonRule,
    season: Season | None = None,
) -> str:
    name = " ".join(str(name).split())
    if not name:
        raise ValidationError({"name": _("A season needs a name.")})
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            {"name": _("A name has at most %(count)d characters.") % {"count": NAME_MAX_LENGTH}}
        )
    if ends_on < starts_on:
        raise ValidationError({"ends_on": _("A season ends on or after the day it starts.")})
    if (ends_on - starts_on).days > MAX_SEASON_DAYS:
        raise ValidationError({"ends_on": _("A season lasts at most three years.")})
    try:
        validate_season_rule(rule)
    except SeasonRuleError as error:
        raise ValidationError({error.field: error_text(error)}) from None
    taken = Season.objects.filter(club=club, name=name)
    if season is not None:
        taken = taken.exclude(pk=season.pk)
    if taken.exists():
        raise ValidationError({"name": _("The club has a season of that name already.")})
    if season is not None:
        # Said at the day that leaves them out, naming them.
        outside = {}
        early = _tournament_names(season.tournaments.filter(date__lt=starts_on))
        if early:
            outside["starts_on"] = ngettext(
                "The tournament %(tournaments)s would fall before the season's first day.",
                "The tournaments %(tournaments)s would fall before the season's first day.",
                len(early),
            ) % {"tournaments": ", ".join(early)}
        late = _tournament_names(season.tournaments.filter(date__gt=ends_on))
        if late:
            outside["ends_on"] = ngettext(
                "The tournament %(tournaments)s would fall after the season's last day.",
                "The tournaments %(tournaments)s would fall after the season's last day.",
                len(late),
            ) % {"tournaments": ", ".join(late)}
        if outside:
            raise ValidationError(outside)
    return name


@transaction.atomic
def season_create(
    *,
    actor: User,
    club: Club,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    scoring: str = Season.Scoring.TOURNAMENT_POINTS,
    best_count: int | None = None,
    placement_points: list[float] | None = None,
    precedence: list[str] | None = None,
) -> Season:
    require_director(actor, club)
    season = Season(
        club=club, starts_on=starts_on, ends_on=ends_on, scoring=scoring, best_count=best_count
    )
    if placement_points is not None:
        season.placement_points = list(placement_points)
    if precedence is not None:
        season.precedence = list(precedence)
    season.name = _season_clean(
        club=club, name=name, starts_on=starts_on, ends_on=ends_on, rule=season.rule
    )
    season.seed = new_seed()
    season.save()
    schedule_season_standings(season.pk)
    return season


@transaction.atomic
def season_update(*, actor: User, season: Season, **changes: Any) -> Season:
    """Change the season's name, dates or rule (keyword arguments named as its fields)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    require_director(actor, season.club_id)
    allowed = {
        "name",
        "starts_on",
        "ends_on",
        "scoring",
        "best_count",
        "placement_points",
        "precedence",
    }
    unknown = set(changes) - allowed
    if unknown:
        raise TypeError(f"season_update got unknown fields {sorted(unknown)}")
    for field, value in changes.items():
        setattr(
            season, field, list(value) if field in ("placement_points", "precedence") else value
        )
    season.name = _season_clean(
        club=season.club,
        name=season.name,
        starts_on=season.starts_on,
        ends_on=season.ends_on,
        rule=season.rule,
        season=season,
    )
    season.save()
    schedule_season_standings(season.pk)
    return season


@transaction.atomic
def season_delete(*, actor: User, season: Season) -> None:
    """Delete the season; its tournaments stay, in no season."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    require_director(actor, season.club_id)
    season.tournaments.update(season=None)
    season.delete()


@transaction.atomic
def tournament_season_set(
    *, actor: User, tournament: Tournament, season: Season | None
) -> Tournament:
    """Put the tournament into `season` (of its club, its date within the season's), or into
    none; both seasons' tables are recomputed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    if season is not None:
        if season.club_id != tournament.club_id:
            raise ValidationError({"season": _("The season is another club's.")})
        if not season.starts_on <= tournament.date <= season.ends_on:
            raise ValidationError(
                {
                    "season": _(
                        "%(tournament)s (%(date)s) is outside the dates of %(season)s "
                        "(%(start)s to %(end)s)."
                    )
                    % {
                        "tournament": tournament.name,
                        "date": _short_date(tournament.date),
                        "season": season.name,
                        "start": _short_date(season.starts_on),
                        "end": _short_date(season.ends_on),
                    }
                }
            )
    previous = tournament.season_id
    tournament.season = season
    tournament.save(update_fields=["season"])
    if previous is not None and previous != tournament.season_id:
        schedule_season_standings(previous)
    return tournament


@transaction.atomic
def tournament_rated_set(*, actor: User, tournament: Tournament, rated: bool) -> Tournament:
    """Mark the tournament rated or unrated (practice, handicap events); the club's ratings are
    recomputed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_director(actor, tournament.club_id)
    tournament.rated = bool(rated)
    tournament.save(update_fields=["rated"])
    return tournament


# ----------------------------------------------------------------------------- recomputation
def season_standings_recompute(*, season_id: int) -> SeasonStandings | None:
    """Store the season's table from its finished public tournaments (None: no such season)."""
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id).first()
        if season is None:
            return None
        players, finishes, tournaments, names = selectors.season_finishes(season)
        rows = compute_season(players, finishes, rule=season.rule, seed=season.seed)
        stored_rows = []
        for row in rows:
            stored = row.as_dict()
            values = stored.pop("values")
            counted = set(stored.pop("counted"))
            stored["name"] = names.get(row.player, "")
            # Per tournament of the season, in date order: its value, None where he did not play.
            stored["results"] = [
                {"value": values.get(t["id"]), "counted": t["id"] in counted} for t in tournaments
            ]
            stored_rows.append(stored)
        standings, _created = SeasonStandings.objects.update_or_create(
            season=season,
            defaults={
                "rows": stored_rows,
                "tournaments": tournaments,
                "computed_at": timezone.now(),
            },
        )
        return standings


def ratings_recompute(*, club_id: int) -> int:
    """Recompute every rating of the club from scratch, in date order, and store them with
    each player's history; returns how many players are rated."""
    with transaction.atomic():
        # One recomputation of a club at a time: the last to take the lock reads the latest.
        if not Club.objects.select_for_update().filter(pk=club_id).exists():
            return 0
        history = recompute_ratings(selectors.rated_tables(club_id))
        players = Player.objects.filter(club_id=club_id)
        PlayerRating.objects.filter(player__in=players).delete()
        RatingPoint.objects.filter(player__in=players).delete()
        now = timezone.now()
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    player_id=player, mu=r.mu, sigma=r.sigma, tables=r.tables, computed_at=now
                )
                for player, r in history.ratings.items()
            ],
            batch_size=1000,
        )
        RatingPoint.objects.bulk_create(
            [
                RatingPoint(
                    player_id=point.player,
                    tournament_id=point.event,
                    mu=point.rating.mu,
                    sigma=point.rating.sigma,
                    tables=point.rating.tables,
                )
                for point in history.points
            ],
            batch_size=1000,
        )
        return len(history.ratings)


# ----------------------------------------------------------------------------- scheduling
def schedule_season_standings(season_id: int | None) -> None:
    if season_id is not None:
        transaction.on_commit(lambda: _enqueue("recompute_season_standings", season_id))


def schedule_ratings(club_id: int) -> None:
    transaction.on_commit(lambda: _enqueue("recompute_ratings", club_id))


def schedule_for_tournament(tournament_id: int) -> None:
    """The club's ratings and the season's table, after the tournament or its results changed."""
    found = Tournament.objects.filter(pk=tournament_id).values_list("club_id", "season_id").first()
    if found is None:
        return
    club_id, season_id = found
    schedule_ratings(club_id)
    schedule_season_standings(season_id)


def _enqueue(task_name: str, object_id: int) -> None:
    from seasons import tasks

    task = getattr(tasks, task_name)
    # The change is committed by now: a broker that is down (or a failing computation in the
    # embedded mode) must not turn it into an error. The next change recomputes everything.
    try:
        task.delay(object_id)
    except Exception:
        logger.exception("Could not run %s for %s", task_name, object_id)


def club_seasons_recompute(*, club_id: int) -> None:
    """Recompute the club's ratings and every season table of it now (the admin's action)."""
    ratings_recompute(club_id=club_id)
    for season_id in Season.objects.filter(club_id=club_id).values_list("pk", flat=True):
        season_standings_recompute(season_id=season_id)


def seasons_catch_up() -> int:
    """Recompute every club's ratings and season tables (the periodic catch-up); returns how
    many clubs."""
    club_ids = list(Club.objects.values_list("pk", flat=True))
    for club_id in club_ids:
        club_seasons_recompute(club_id=club_id)
    return len(club_ids)
