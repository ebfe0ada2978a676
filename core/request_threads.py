"""The threads of Django's synchronous code under ASGI, kept from one request for the next.

Django runs each HTTP request's synchronous code (middleware, views, the ORM) in a thread of
its own (asgiref's `ThreadSensitiveContext`), and asgiref makes that thread for the request
and another one to join it when the request ends: two threads started and stopped per request,
on the event loop's side, which also serves every websocket of the process. Under the load of a
big event's standings (1,000 phones, `bench/load.py`) starting threads was a sixth of the time a
web process held the interpreter lock.

`RequestThreads` wraps Django's ASGI application and gives each request a single-thread executor
from a pool instead: the same guarantee (all of a request's synchronous code on one thread, one
call at a time, no two requests on one thread at once), without starting a thread. Django's own
`ThreadSensitiveContext` inside then uses this one. A thread goes back to the pool only once it
has finished everything the request gave it: a request cancelled while its view still runs (a
phone gone away) does not hand its busy thread to the next one. Websockets are not touched
(Channels' consumers have their own threads).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext


def _nothing() -> None:
    """Run after a request's work on its thread: once it has run, the thread is free."""


class RequestThreads:
    """ASGI middleware: HTTP requests run their synchronous code on pooled threads.

    At most `keep_idle` idle threads are kept (settings.REQUEST_THREADS_KEPT in the server); more
    concurrent requests than that get new threads, which stop when their request is done.
    """

    def __init__(self, app, *, keep_idle: int) -> None:
        self.app = app
        self.keep_idle = keep_idle
        # Only touched on the event loop's thread (a server process has one loop).
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        executor = self.idle.pop() if self.idle else self._new_thread()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            self._give_back(executor)

    @staticmethod
    def _new_thread() -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        loop = asyncio.get_running_loop()

        def free(_) -> None:
            try:
                loop.call_soon_threadsafe(self._idle_again, executor)
            except RuntimeError:  # the loop is closed: the server is stopping
                executor.shutdown(wait=False)

        executor.submit(_nothing).add_done_callback(free)

    def _idle_again(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep_idle:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)
