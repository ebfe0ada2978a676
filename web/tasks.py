"""Celery tasks of the pages: the standings table rendered by a worker before phones ask for it,
then pushed to the standings sockets."""

import logging

from celery import shared_task
from django.dispatch import receiver

from scoring.signals import standings_stored
from web.presenters.live_standings import live_prerender, live_state_of
from web.standings_push import push_standings

logger = logging.getLogger(__name__)


# Every task has an explicit name, the one it had when Celery named it after its module: a task
# queued before the code moved (from tournaments/tasks.py) still finds its function.
@shared_task(ignore_result=True, name="tournaments.tasks.prerender_standings")
def prerender_standings(tournament_id: int) -> None:
    """Render the live standings block of the latest snapshot in every language, into the cache,
    then tell the tournament's standings sockets (web/consumers.py) to send it.

    Run by a worker right after a new snapshot is stored, so the web processes only hand out the
    cached block: rendering 200 rows holds a web process for tens of milliseconds, while hundreds
    of phones wait for their answer.
    """
    state = live_prerender(tournament_id)
    if state is not None:
        push_standings(state)


@receiver(standings_stored, dispatch_uid="web.prerender_standings")
def _prerender_new_standings(sender, *, tournament_id: int, **kwargs) -> None:
    try:
        if not prerender_standings.app.conf.task_always_eager:
            # With workers, a worker renders the new table for the pages before they ask.
            prerender_standings.delay(tournament_id)
        else:
            # The embedded mode (one process): the sockets render the block when they need it.
            state = live_state_of(tournament_id)
            if state is not None:
                push_standings(state)
    except Exception:
        logger.exception("Could not pre-render the standings of tournament %s", tournament_id)
