"""Request threads kept from one request for the next (core.request_threads)."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import sync_to_async

from core.request_threads import RequestThreads


class Recorder:
    """An ASGI app whose request runs synchronous code twice and notes its threads."""

    def __init__(self) -> None:
        self.threads: list[set[int]] = []
        self.hold: asyncio.Event | None = None

    async def __call__(self, scope, receive, send) -> None:
        seen = {await sync_to_async(threading.get_ident)()}
        if self.hold is not None:
            await self.hold.wait()
        seen.add(await sync_to_async(threading.get_ident)())
        self.threads.append(seen)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def call(app, scope_type: str = "http") -> list[dict]:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app({"type": scope_type}, receive, send)
    return sent


async def until_idle(app: RequestThreads, count: int) -> None:
    for _ in range(200):
        if len(app.idle) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{len(app.idle)} idle threads, not {count}")


def test_a_request_runs_on_one_thread_and_the_next_request_reuses_it():
    async def scenario():
        recorder = Recorder()
        app = RequestThreads(recorder, keep_idle=4)
        await call(app)
        await until_idle(app, 1)
        await call(app)
        return recorder.threads

    first, second = asyncio.run(scenario())
    assert len(first) == 1 and first == second
    assert threading.get_ident() not in first


def test_requests_at_the_same_time_get_threads_of_their_own():
    async def scenario():
        recorder = Recorder()
        recorder.hold = asyncio.Event()
        app = RequestThreads(recorder, keep_idle=4)
        both = asyncio.gather(call(app), call(app))
        await asyncio.sleep(0.05)
        recorder.hold.set()
        await both
        await until_idle(app, 2)
        return recorder.threads, app

    threads, app = asyncio.run(scenario())
    assert all(len(seen) == 1 for seen in threads)
    assert threads[0] != threads[1]
    assert len(app.idle) == 2


def test_a_thread_still_busy_after_its_request_is_not_given_to_the_next():
    release = threading.Event()

    class Abandons:
        """A request that leaves slow synchronous work behind (its client went away)."""

        def __init__(self) -> None:
            self.threads: list[int] = []

        async def __call__(self, scope, receive, send) -> None:
            self.threads.append(await sync_to_async(threading.get_ident)())
            if len(self.threads) == 1:
                task = asyncio.ensure_future(sync_to_async(release.wait)())
                await asyncio.sleep(0.05)
                task.cancel()

    async def scenario():
        inner = Abandons()
        app = RequestThreads(inner, keep_idle=4)
        await call(app)
        await call(app)  # the first thread is still waiting
        release.set()
        await until_idle(app, 2)
        return inner.threads

    first, second = asyncio.run(scenario())
    assert first != second


def test_only_http_goes_through_the_pool():
    async def scenario():
        seen: list[str] = []

        async def app(scope, receive, send) -> None:
            seen.append(scope["type"])

        pooled = RequestThreads(app, keep_idle=4)
        await call(pooled, "websocket")
        return seen, pooled.idle

    seen, idle = asyncio.run(scenario())
    assert seen == ["websocket"] and idle == []


def test_no_more_idle_threads_are_kept_than_asked():
    async def scenario():
        recorder = Recorder()
        recorder.hold = asyncio.Event()
        app = RequestThreads(recorder, keep_idle=1)
        both = asyncio.gather(call(app), call(app), call(app))
        await asyncio.sleep(0.05)
        recorder.hold.set()
        await both
        await until_idle(app, 1)
        await asyncio.sleep(0.1)
        return app

    app = asyncio.run(scenario())
    assert len(app.idle) == 1
