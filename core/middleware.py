"""Request ids and the access log: one id per request, on every log line and in the response."""

import logging
import re
import time
import uuid

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from core.logging import request_id

REQUEST_ID_HEADER = "X-Request-ID"
# A proxy's or client's id is kept only if it cannot garble a log line.
_ACCEPTED_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

# A logger of its own, so the access lines can be turned down apart from everything else.
access_logger = logging.getLogger("config.access")


def _request_id_for(request: HttpRequest) -> str:
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    return incoming if _ACCEPTED_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Outermost middleware: sets the request id, answers with it, logs one access line.

    Sync and async capable, so under ASGI it adds no switch between the event loop and a thread.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest):
        if self.is_async:
            return self._acall(request)
        started, token = time.perf_counter(), request_id.set(_request_id_for(request))
        try:
            return self._finish(request, self.get_response(request), started)
        finally:
            request_id.reset(token)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        started, token = time.perf_counter(), request_id.set(_request_id_for(request))
        try:
            return self._finish(request, await self.get_response(request), started)
        finally:
            request_id.reset(token)

    @staticmethod
    def _finish(
        request: HttpRequest, response: HttpResponseBase, started: float
    ) -> HttpResponseBase:
        response[REQUEST_ID_HEADER] = request_id.get()
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        # The path without its query string: query strings may carry tokens.
        access_logger.info(
            "%s %s %s %.1f ms",
            request.method,
            request.path,
            response.status_code,
            duration_ms,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": duration_ms,
            },
        )
        return response
