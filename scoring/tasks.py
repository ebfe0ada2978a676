"""Celery tasks of the scoring app: thin interfaces to its services."""

from celery import shared_task

from scoring import services


@shared_task(acks_late=True, ignore_result=True)
def recompute_standings(tournament_id: int) -> None:
    """Store the standings snapshot of the tournament's current results, if not stored yet.

    Idempotent: a task that finds its version (or a newer one) stored does nothing, so a burst of
    confirmations costs one computation per results version, and a redelivered task is harmless.
    """
    services.standings_recompute_due(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def catch_up_standings() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): standings a lost task left behind are computed."""
    services.standings_catch_up()
