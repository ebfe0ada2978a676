"""DEBUG's error pages with a traceback only for this computer; phones in the club room get the
plain page.

While DEBUG is on (the embedded mode, `make run`), Django answers a server error with its
technical page: the code, the local variables of every frame (a deal's hidden cards among them,
in a game's view) and the request. In venue mode (`make run ADDRESS=0.0.0.0:8000`) every phone
on the club's network could read it, so a request from another address gets the page a
production site shows; the traceback still goes to the server's log as before.
"""

from __future__ import annotations

import ipaddress

from django.http import HttpRequest
from django.views import defaults
from django.views.debug import ExceptionReporter


def from_this_computer(request: HttpRequest | None) -> bool:
    """Whether the request came over the loopback interface (no request: a log or a mail)."""
    if request is None:
        return True
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


class LocalExceptionReporter(ExceptionReporter):
    """settings.DEFAULT_EXCEPTION_REPORTER: Django's technical 500 page, for this computer only."""

    def get_traceback_html(self) -> str:
        if from_this_computer(self.request):
            return super().get_traceback_html()
        return self._plain_page()

    def get_traceback_text(self) -> str:
        # The answer to a client that does not take HTML (text/plain).
        if from_this_computer(self.request):
            return super().get_traceback_text()
        return "Server Error (500)"

    def _plain_page(self) -> str:
        # defaults.server_error renders the project's 500.html, or Django's own plain page.
        return defaults.server_error(self.request).content.decode()
