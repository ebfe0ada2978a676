"""The health check (/healthz): whether the database and Redis answer right now."""

import logging

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

# Long enough for a Redis on another machine, short enough for a container health check.
REDIS_TIMEOUT_SECONDS = 1.0


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether the database and Redis (when configured; null when not) answer right now."""
    database_ok = _database_answers()
    redis_ok = _redis_answers(settings.REDIS_URL) if settings.REDIS_URL else None
    healthy = database_ok and redis_ok is not False
    # A load balancer reads the status code, people read the body.
    return JsonResponse(
        {"status": "ok" if healthy else "error", "database": database_ok, "redis": redis_ok},
        status=200 if healthy else 503,
    )


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        logger.exception("Health check could not query the database")
        return False


def _redis_answers(url: str) -> bool:
    # A client of its own with short timeouts and no retries: a Redis that hangs must make the
    # check fail in about a second, not stall it for the client's default retries and backoff.
    client = redis.Redis.from_url(
        url,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )
    try:
        return client.ping() is True
    except redis.RedisError:
        logger.exception("Health check could not ping Redis")
        return False
    finally:
        client.close()
