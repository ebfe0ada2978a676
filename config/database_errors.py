"""A lost database connection is a clear 503 ("nothing was saved"), never a crash.

Every write runs in one transaction, so a connection lost in the middle (a restart, a failover,
a network cut) leaves nothing behind: the API and the pages say so, and the client may simply
send the same request again (a stale expected version then gets a 409, never a double).
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)


class DatabaseUnavailableError(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _("The database could not be reached, so nothing was saved. Try again.")
    default_code = "database_unavailable"


def api_error_for_database(exc: Exception, path: str) -> exceptions.APIException | None:
    """The API's answer to a database error (None for any other exception)."""
    if not isinstance(exc, DATABASE_ERRORS):
        return None
    logger.warning("Database unavailable during %s: %s", path, exc)
    return DatabaseUnavailableError()


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Pages: a 503 page of its own that needs no database (no user, no session lookups)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        logger.warning("Database unavailable during %s: %s", request.path, exception)
        return render(request, "503.html", status=503)
