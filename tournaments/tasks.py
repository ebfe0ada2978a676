"""Celery tasks of the tournaments app: thin interfaces to work done outside a request."""

from celery import shared_task


@shared_task(ignore_result=True)
def prerender_standings(tournament_id: int) -> None:
    """Render the live standings block of the latest snapshot in every language, into the cache.

    Run by a worker right after a new snapshot is stored, so the web processes only hand out the
    cached block: rendering 200 rows holds a web process for tens of milliseconds, while hundreds
    of phones wait for their answer.
    """
    from tournaments.views.public import standings_prerender

    standings_prerender(tournament_id)
