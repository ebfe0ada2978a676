"""Celery tasks of the pages: the standings table rendered by a worker before phones ask for it,
then pushed to the standings sockets."""

import logging

from celery import shared_task
from django.dispatch import receiver

from scoring import standings_cache
from scoring.signals import standings_stored
from web.presenters.live_standings import LiveState, live_prerender, live_state_of
from web.presenters.standings_page import keep_pages
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
    # A public tournament's whole page too, in every language, for the visitors not signed in:
    # at a push hundreds of phones reload it, and each web process would render it first.
    kept = state is not None and keep_pages(state)
    new_standings_out(tournament_id, state, pages_kept=kept)


def new_standings_out(
    tournament_id: int, state: LiveState | None, *, pages_kept: bool = False
) -> None:
    """The polls and the sockets learn of the new standings, once their table is rendered.

    Changed only now, the poll state kept the polls at the older snapshot while a worker
    rendered the new table: before, they learned of it at once, and every page loaded in that
    moment rendered the 200 rows itself while the phones waited. With the pages kept, it names
    the new snapshot already (keep_pages); else it is forgotten, and the next request reads it.
    Should this never run (a lost task), the poll state is only kept for a second.
    """
    if not pages_kept:
        standings_cache.forget_poll_state(tournament_id)
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
            new_standings_out(tournament_id, live_state_of(tournament_id))
    except Exception:
        logger.exception("Could not pre-render the standings of tournament %s", tournament_id)
