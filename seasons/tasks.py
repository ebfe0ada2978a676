"""Celery tasks of the seasons app (thin interfaces to its services), and the receivers that
enqueue them when a tournament's results or settings change."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from scoring.signals import standings_stored
from seasons import services
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

# Saving these fields of a tournament changes what its club's ratings or its season's table are
# computed from (a finish, a reopening, a date, public or not, rated or not, another season).
_INPUT_FIELDS = {"status", "date", "is_public", "rated", "season", "season_id", "club", "club_id"}


# Explicit names: a task queued before its code moves still finds its function.
@shared_task(acks_late=True, ignore_result=True, name="seasons.tasks.recompute_ratings")
def recompute_ratings(club_id: int) -> None:
    """Recompute the club's ratings from scratch. Idempotent: the same results store the same
    ratings, so a redelivered task is harmless."""
    services.ratings_recompute(club_id=club_id)


@shared_task(acks_late=True, ignore_result=True, name="seasons.tasks.recompute_season_standings")
def recompute_season_standings(season_id: int) -> None:
    """Recompute the season's table from its tournaments' final standings. Idempotent."""
    services.season_standings_recompute(season_id=season_id)


@receiver(standings_stored, dispatch_uid="seasons.results_changed")
def _results_changed(sender, *, tournament_id: int, **kwargs) -> None:
    # New standings mean a result was confirmed or corrected.
    try:
        services.schedule_for_tournament(tournament_id)
    except Exception:
        logger.exception("Could not schedule the ratings of tournament %s", tournament_id)


@receiver(post_save, sender=Tournament, dispatch_uid="seasons.tournament_saved")
def _tournament_saved(sender, *, instance: Tournament, created: bool, update_fields, **kwargs):
    if created or (update_fields is not None and not _INPUT_FIELDS & set(update_fields)):
        return
    if kwargs.get("raw"):
        return  # fixtures loading
    services.schedule_ratings(instance.club_id)
    services.schedule_season_standings(instance.season_id)


@receiver(post_delete, sender=Tournament, dispatch_uid="seasons.tournament_deleted")
def _tournament_deleted(sender, *, instance: Tournament, **kwargs) -> None:
    services.schedule_ratings(instance.club_id)
    services.schedule_season_standings(instance.season_id)


@shared_task(ignore_result=True, name="seasons.tasks.catch_up_ratings")
def catch_up_ratings() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): every club's ratings and season tables recomputed, so
    that a task a broker lost leaves nothing stale for long. Idempotent."""
    services.seasons_catch_up()
