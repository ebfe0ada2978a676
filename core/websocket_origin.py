"""Lets a websocket open only from the site's own pages: its Origin must be the site's origin.

A websocket carries the player's session cookie but no CSRF token, so its Origin header is the
only sign of which page opened it. Channels' `AllowedHostsOriginValidator` compares the origin's
host name with ALLOWED_HOSTS and ignores scheme and port, so a page at http://club.example:8080,
or another service on http://localhost:9999, could play for a signed-in visitor. This check is
the one Django's `CsrfViewMiddleware` makes for a form posted with an Origin header:

- the origin must equal scheme://host of the upgrade request itself, the host read as Django
  reads it for a page (the Host header, or X-Forwarded-Host with USE_X_FORWARDED_HOST), the
  scheme https for wss and http for ws, or what the TLS proxy's header says when
  SECURE_PROXY_SSL_HEADER is set (so pages and websockets agree behind the proxy);
- or it must be one of CSRF_TRUSTED_ORIGINS (full origins, `https://*.example.com` for every
  subdomain), as for forms.

Unlike for forms, the Host must be allowed (ALLOWED_HOSTS, with Django's localhost defaults
under DEBUG) whatever the origin: for pages Django's CommonMiddleware has refused other hosts
before the CSRF check runs, for websockets nothing has, and a name of the attacker's made to
resolve to the club's server (DNS rebinding) would otherwise be its own origin.

A handshake without an Origin header is refused, as Channels' validators refuse it: browsers
send the header with every websocket handshake (RFC 6455 section 4.1, the Fetch standard), so
no page of the club ever lacks it, and a program that leaves it out can as well send the right
one; refusing it keeps the rule one rule with no exception to reason about.
"""

from __future__ import annotations

import io
import logging
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.utils.http import is_same_domain

logger = logging.getLogger(__name__)


def handshake_request(scope: dict) -> HttpRequest:
    """The websocket's upgrade request as Django sees an HTTP request (headers, host, scheme)."""
    http_scheme = "https" if scope.get("scheme") == "wss" else "http"
    return ASGIRequest(
        {**scope, "type": "http", "method": "GET", "scheme": http_scheme}, io.BytesIO()
    )


def trusted_origin(origin: str) -> bool:
    """Whether CSRF_TRUSTED_ORIGINS lists the origin, read as Django's CSRF check reads it."""
    trusted = settings.CSRF_TRUSTED_ORIGINS
    if origin in {entry for entry in trusted if "*" not in entry}:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    for entry in trusted:
        if "*" in entry:
            pattern = urlsplit(entry)
            if pattern.scheme == parsed.scheme and is_same_domain(
                parsed.netloc, pattern.netloc.lstrip("*")
            ):
                return True
    return False


def origin_allowed(scope: dict) -> bool:
    """Whether the page that opens this websocket is one of the site's own (module docstring)."""
    request = handshake_request(scope)
    origin = request.META.get("HTTP_ORIGIN")
    try:
        host = request.get_host()
    except DisallowedHost:
        logger.warning("Websocket refused: host %r is not allowed", request.META.get("HTTP_HOST"))
        return False
    if origin is None:
        logger.warning("Websocket refused: the handshake has no Origin header")
        return False
    own_origin = f"{'https' if request.is_secure() else 'http'}://{host}"
    if origin == own_origin or trusted_origin(origin):
        return True
    # A proxy that does not pass the scheme or Host on shows up here for every page, not only
    # for an attacker's: the expected origin in the line tells the two apart.
    logger.warning("Websocket refused: origin %r is not %r nor trusted", origin, own_origin)
    return False


class SameOriginValidator:
    """ASGI middleware: a websocket from another origin is closed before it is accepted."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator only guards websocket connections.")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        # Closes at the handshake (HTTP 403) and ignores anything sent after it.
        return await WebsocketDenier()(scope, receive, send)
