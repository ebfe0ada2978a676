"""Celery tasks of the pages: the standings table rendered by a worker before phones ask for it."""

import logging

from celery import shared_task
from django.dispatch import receiver

from scoring.signals import standings_stored

logger = logging.getLogger(__name__)


# Every task has an explicit name, the one it had when Celery named it after its module: a task
# queued before the code moved (from tournaments/tasks.py) still finds its function.
@shared_task(ignore_result=True, name="tournaments.tasks.prerender_standings")
def prerender_standings(tournament_id: int) -> None:
    """Render the live standings block of the latest snapshot in every language, into the cache.

    Run by a worker right after a new snapshot is stored, so the web processes only hand out the
    cached block: rendering 200 rows holds a web process for tens of milliseconds, while hundreds
    of phones wait for their answer.
    """
    from web.views.public import standings_prerender

    standings_prerender(tournament_id)


@receiver(standings_stored, dispatch_uid="web.prerender_standings")
def _prerender_new_standings(sender, *, tournament_id: int, **kwargs) -> None:
    try:
        if not prerender_standings.app.conf.task_always_eager:
            # With workers, a worker renders the new table for the pages before they ask.
            prerender_standings.delay(tournament_id)
    except Exception:
        logger.exception("Could not pre-render the standings of tournament %s", tournament_id)
