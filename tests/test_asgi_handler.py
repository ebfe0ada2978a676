"""One switch per request between the event loop and its thread (core.asgi_handler)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.utils.module_loading import import_string

from core.asgi_handler import OneSwitchASGIHandler
from core.middleware import REQUEST_ID_HEADER

STATIC_FILES = "servestatic.middleware.ServeStaticMiddleware"


async def get(app, path: str) -> tuple[int, dict[str, str], bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"accept-language", b"uk")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    messages: list[dict] = []
    asked = False

    async def receive() -> dict:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        return {}

    async def send(message: dict) -> None:
        messages.append(message)

    await app(scope, receive, send)
    start = next(m for m in messages if m["type"] == "http.response.start")
    headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], headers, body


@pytest.fixture
def thread_calls(monkeypatch):
    """The names of the functions the request gave a thread (sync_to_async), in order."""
    calls: list[str] = []
    original = SyncToAsync.__call__

    async def noted(self, *args, **kwargs):
        name = getattr(self.func, "__qualname__", repr(self.func))
        calls.append(name)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", noted)
    return calls


def test_middleware_below_the_static_files_all_run_synchronously_and_those_above_in_the_loop():
    paths = list(settings.MIDDLEWARE)
    static = paths.index(STATIC_FILES)
    for path in paths[: static + 1]:
        assert getattr(import_string(path), "async_capable", False), path
    for path in paths[static + 1 :]:
        assert getattr(import_string(path), "sync_capable", True), path


@pytest.mark.django_db(transaction=True)
def test_a_page_runs_all_its_middleware_and_its_view_in_one_thread_call(thread_calls):
    handler = OneSwitchASGIHandler()
    status, headers, body = asyncio.run(get(handler, "/accounts/login/"))

    assert status == 200 and "<form" in body.decode()
    # Every middleware ran: the request id, the security and CSP headers, the language.
    assert headers[REQUEST_ID_HEADER.lower()]
    assert headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" in headers
    assert headers["content-language"] == "uk"
    # Django's request_started signal, the whole chain below the static files (Django's
    # exception wrapper around SecurityMiddleware) and closing the answer; before, each
    # middleware's process_request and process_response had a thread call of its own (20).
    assert thread_calls == [
        "Signal.asend.<locals>.sync_send",
        "convert_exception_to_response.<locals>.inner",
        "HttpResponseBase.close",
    ]


def test_a_static_file_is_answered_in_the_loop_with_the_pages_security_headers(thread_calls):
    handler = OneSwitchASGIHandler()
    status, headers, body = asyncio.run(get(handler, "/static/css/app.css"))

    assert status == 200 and body
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == settings.SECURE_REFERRER_POLICY
    assert headers[REQUEST_ID_HEADER.lower()]
    assert not [name for name in thread_calls if "get_response" in name], thread_calls
