"""Site-wide pages that belong to no single app: the home page and the health check."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.selectors import tournaments_listed

logger = logging.getLogger(__name__)

HOME_RUNNING = 20
HOME_UPCOMING = 5
HOME_FINISHED = 10


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Tournaments being played first, then coming up, then recently finished."""
    running = tournaments_listed(request.user, status=Tournament.Status.RUNNING)
    upcoming = tournaments_listed(request.user, status=Tournament.Status.DRAFT)
    finished = tournaments_listed(request.user, status=Tournament.Status.FINISHED)
    context = {
        "running": running[:HOME_RUNNING],
        "upcoming": upcoming.order_by("date", "id")[:HOME_UPCOMING],
        "finished": finished[:HOME_FINISHED],
    }
    return render(request, "home.html", context)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            database_ok = cursor.fetchone() == (1,)
    except DatabaseError:
        logger.exception("Health check could not query the database")
        database_ok = False
    # A load balancer reads the status code, people read the body.
    return JsonResponse(
        {"status": "ok" if database_ok else "error", "database": database_ok},
        status=200 if database_ok else 503,
    )
