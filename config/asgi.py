"""ASGI entry point: Django's pages over HTTP, the live tables' and the standings' websockets."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models, so this comes first.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from core.websocket_origin import SameOriginValidator  # noqa: E402
from gameplay.routing import websocket_urlpatterns as game_routes  # noqa: E402
from web.routing import websocket_urlpatterns as standings_routes  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # Sessions identify the seat; the origin check keeps other sites' pages (another port
        # or scheme of the same host included) from acting with a player's cookies: websockets
        # have no CSRF token.
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter([*game_routes, *standings_routes]))
        ),
    }
)
