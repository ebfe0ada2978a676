"""ASGI entry point: Django's pages over HTTP, the live tables' and the standings' websockets."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from core.asgi_handler import get_asgi_application  # noqa: E402

# Django must be set up before anything imports models, so this comes first. The middleware and
# the view of a request run in its thread in one call (core/asgi_handler.py).
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import URLPattern  # noqa: E402

from core.request_threads import RequestThreads  # noqa: E402
from core.websocket_origin import SameOriginValidator  # noqa: E402
from gameplay.routing import websocket_urlpatterns as game_routes  # noqa: E402
from web.routing import websocket_urlpatterns as standings_routes  # noqa: E402

# Each request's synchronous code on a thread kept for the next request, not a new one.
http_application = (
    RequestThreads(django_application, keep_idle=settings.REQUEST_THREADS_KEPT)
    if settings.REQUEST_THREADS_KEPT
    else django_application
)


def behind(middleware, routes: list[URLPattern]) -> list[URLPattern]:
    """The same websocket routes, each consumer behind `middleware`."""
    return [
        URLPattern(route.pattern, middleware(route.callback), route.default_args, route.name)
        for route in routes
    ]


application = ProtocolTypeRouter(
    {
        "http": http_application,
        # The origin check keeps other sites' pages (another port or scheme of the same host
        # included) from acting with a player's cookies: websockets have no CSRF token.
        "websocket": SameOriginValidator(
            URLRouter(
                [
                    # Sessions identify the seat at a live table.
                    *behind(AuthMiddlewareStack, game_routes),
                    # The standings are public: the language cookie alone, no session or user
                    # looked up (a thread's turn each) for the thousand phones of a big event.
                    *behind(CookieMiddleware, standings_routes),
                ]
            )
        ),
    }
)
