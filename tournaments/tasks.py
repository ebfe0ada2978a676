"""Celery tasks of the tournaments app: thin interfaces to work done outside a request."""

# Every task has an explicit name, the one it had when Celery named it after its module: a task
# queued before the code moves to another module still finds its function after the upgrade.

from celery import shared_task


@shared_task(ignore_result=True, name="tournaments.tasks.prerender_standings")
def prerender_standings(tournament_id: int) -> None:
    """Render the live standings block of the latest snapshot in every language, into the cache.

    Run by a worker right after a new snapshot is stored, so the web processes only hand out the
    cached block: rendering 200 rows holds a web process for tens of milliseconds, while hundreds
    of phones wait for their answer.
    """
    from tournaments.views.public import standings_prerender

    standings_prerender(tournament_id)
