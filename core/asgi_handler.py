"""Django's ASGI handler with one switch per request between the event loop and its thread.

Django under ASGI builds its middleware chain for an event loop: every middleware that can run
either way (all of Django's own, through MiddlewareMixin) then runs asynchronously and calls
its synchronous `process_request` and `process_response` each in a thread turn of its own
(asgiref's sync_to_async), one switch between the loop and the request's thread after another:
20 for a standings poll, which then took 7.8 ms of CPU where the same chain run straight
through takes 2.3 ms. Under load each switch also waits its turn on the loop, which serves every
websocket of the process, so the waits added up in the slow tail of every page.

`OneSwitchASGIHandler` builds the chain as Django does under WSGI, synchronously, except for
the middleware at its top that are async themselves (settings.MIDDLEWARE: the request id and
the access line, then the static files, which are answered in the loop without a thread): the
first middleware that is synchronous and all below it, the view and the ORM, run in the
request's thread in a single call. A middleware below the static files must be able to run
synchronously, or it would switch back and forth again (a test checks the order). Views may
still be async (Django runs them inside with async_to_sync), and answers may stream.
"""

from __future__ import annotations

import django
from asgiref.sync import AsyncToSync, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.urls import get_resolver


class OneSwitchASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        # Built for a synchronous caller: the async middleware at the top (the chain's only
        # async part) call what is below them through one sync_to_async, and Django wraps them
        # so that a thread could call them (async_to_sync), which the loop does not need.
        super().load_middleware(is_async=False)
        chain = self._middleware_chain
        if isinstance(chain, AsyncToSync):
            self._middleware_chain = chain.awaitable
        else:  # no async middleware at all: the whole chain is the one switch
            self._middleware_chain = sync_to_async(chain, thread_sensitive=True)


def get_asgi_application() -> OneSwitchASGIHandler:
    """django.core.asgi.get_asgi_application, with the handler above, its URLconf loaded."""
    django.setup(set_prefix=False)
    handler = OneSwitchASGIHandler()
    # The URLconf, and with it every view module, imported now: else the first requests of each
    # process import them (half a second on a busy machine, while they and the sockets wait).
    get_resolver().url_patterns  # noqa: B018 - loading is the point
    return handler
