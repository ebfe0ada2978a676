"""A database error is a clear 503 ("nothing was saved"), never a crash.

Every write runs in one transaction, so a connection lost in the middle (a restart, a failover,
a network cut) leaves nothing behind: the API and the pages say so, and the client may simply
send the same request again (a stale expected version then gets a 409, never a double). A
database that is there but busy (another writer held its lock for longer than the settings let
a request wait, or PostgreSQL broke a deadlock) gets a 503 of its own with Retry-After: that one
passes by itself within moments, and nothing is wrong with the server.
"""

import logging
import sqlite3

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status

from core.request_limits import API_PREFIX

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# Seconds after which a client may send the request again when the database was busy.
BUSY_RETRY_AFTER = 5
# SQLite's primary result codes for "another connection holds the lock".
_SQLITE_LOCK_CODES = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
# PostgreSQL's SQLSTATEs of the same kind: serialization failure, deadlock, lock not available.
_POSTGRESQL_LOCK_STATES = {"40001", "40P01", "55P03"}


class DatabaseUnavailableError(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _("The database could not be reached, so nothing was saved. Try again.")
    default_code = "database_unavailable"


class DatabaseBusyError(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _("The database is busy; try again in a moment. Nothing was saved.")
    default_code = "database_busy"
    # DRF's exception handler turns this into the Retry-After header.
    wait = BUSY_RETRY_AFTER


def database_is_busy(exc: Exception) -> bool:
    """Whether a database error is a lock held by another writer, not a lost database."""
    driver_error = exc.__cause__ or exc
    sqlite_code = getattr(driver_error, "sqlite_errorcode", None)
    if sqlite_code is not None:
        # Extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE...) keep the primary
        # code in their low byte.
        return sqlite_code & 0xFF in _SQLITE_LOCK_CODES
    sqlstate = getattr(driver_error, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in _POSTGRESQL_LOCK_STATES
    return "database is locked" in str(exc) or "database table is locked" in str(exc)


def api_error_for_database(exc: Exception, path: str) -> exceptions.APIException | None:
    """The API's answer to a database error (None for any other exception)."""
    if not isinstance(exc, DATABASE_ERRORS):
        return None
    if database_is_busy(exc):
        logger.warning("Database busy during %s: %s", path, exc)
        return DatabaseBusyError()
    logger.warning("Database unavailable during %s: %s", path, exc)
    return DatabaseUnavailableError()


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Pages: a 503 page of its own that needs no database (no user, no session lookups).

    API views answer through the API's exception handler (api_error_for_database); an error
    that escapes them under /api/ still gets the API's JSON here, and the live table's JSON
    endpoints get theirs.
    """

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        error = api_error_for_database(exception, request.path)
        if error is None:
            return None
        busy = isinstance(error, DatabaseBusyError)
        if request.path_info.startswith(API_PREFIX):
            response = JsonResponse({"detail": str(error.detail)}, status=error.status_code)
        elif request.content_type == "application/json":
            # The live table's own endpoints answer {"error": ...} (static/js/table.js shows it).
            response = JsonResponse({"error": str(error.detail)}, status=error.status_code)
        else:
            response = render(request, "503.html", {"busy": busy}, status=error.status_code)
        if busy:
            response["Retry-After"] = str(BUSY_RETRY_AFTER)
        return response
