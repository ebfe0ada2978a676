"""Celery tasks of the scoring app: thin interfaces to its services."""

# Every task has an explicit name, the one it had when Celery named it after its module: a task
# queued before the code moves to another module still finds its function after the upgrade.

from celery import shared_task

from scoring import services


@shared_task(acks_late=True, ignore_result=True, name="scoring.tasks.recompute_standings")
def recompute_standings(tournament_id: int) -> None:
    """Store the standings snapshot of the tournament's current results, if not stored yet.

    Idempotent: a task that finds its version (or a newer one) stored does nothing, so a burst of
    confirmations costs one computation per results version, and a redelivered task is harmless.
    """
    services.standings_recompute_due(tournament_id=tournament_id)


@shared_task(ignore_result=True, name="scoring.tasks.catch_up_standings")
def catch_up_standings() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): standings a lost task left behind are computed."""
    services.standings_catch_up()
