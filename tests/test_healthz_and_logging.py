"""Health checks as an orchestrator sees them, request ids as an operator reads them in logs."""

import asyncio
import io
import json
import logging
import os
import socket
import time
from contextlib import closing, contextmanager

import pytest
from asgiref.sync import iscoroutinefunction
from celery.signals import task_postrun, task_prerun
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from core.logging import JsonFormatter, RequestIdFilter, request_id
from core.middleware import RequestIdMiddleware
from tests.integration.stack import Service, free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_port():
    return free_port()


@pytest.fixture
def private_redis(tmp_path):
    """A Redis server of this test's own on a free port (redis-server, as CI installs it)."""
    port = free_port()
    redis = Service(
        "redis",
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(tmp_path),
        ],
        dict(os.environ),
        tmp_path,
    )
    redis.start()
    try:
        redis.wait_for_log("Ready to accept connections", timeout=30)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        redis.stop()


@pytest.fixture
def silent_server():
    """Accepts connections (the kernel's backlog does) and never answers: a hung Redis."""
    with closing(socket.socket()) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


@pytest.fixture
def unreachable_database(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr("core.health.connection.cursor", refuse)


@contextmanager
def json_log_lines(*logger_names: str):
    """The lines those loggers write through the production formatter, parsed."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    loggers = [logging.getLogger(name) for name in logger_names]
    previous_levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    lines: list[dict] = []
    try:
        yield lines
    finally:
        for logger, level in zip(loggers, previous_levels, strict=True):
            logger.removeHandler(handler)
            logger.setLevel(level)
        # Every line must be one valid JSON object.
        lines.extend(json.loads(line) for line in stream.getvalue().splitlines())


def test_healthz_is_ok_with_a_working_database_and_no_redis_configured(client, settings):
    settings.REDIS_URL = ""

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "redis": None}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_is_unavailable_when_the_database_is_unreachable(
    client, settings, unreachable_database
):
    settings.REDIS_URL = ""

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": False, "redis": None}


def test_healthz_pings_a_running_redis(client, settings, private_redis):
    settings.REDIS_URL = private_redis

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "redis": True}


def test_healthz_is_unavailable_when_redis_refuses_connections(client, settings, closed_port):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": True, "redis": False}


def test_a_hung_redis_fails_the_check_within_seconds_instead_of_hanging_it(
    client, settings, silent_server
):
    settings.REDIS_URL = f"redis://127.0.0.1:{silent_server}/0"

    started = time.monotonic()
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["redis"] is False
    assert time.monotonic() - started < 3


def test_every_response_carries_a_fresh_request_id(client):
    first = client.get("/healthz")["X-Request-ID"]
    second = client.get("/healthz")["X-Request-ID"]

    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second


def test_a_sane_incoming_request_id_is_kept(client):
    response = client.get("/healthz", headers={"X-Request-ID": "proxy-7f3a.12_b"})

    assert response["X-Request-ID"] == "proxy-7f3a.12_b"


@pytest.mark.parametrize(
    "incoming",
    ["x" * 65, "two words", 'quote"injection', "new\\nline", "ünïcode", ""],
    ids=["too long", "space", "quote", "backslash", "non-ascii", "empty"],
)
def test_an_unfit_incoming_request_id_is_replaced(client, incoming):
    response = client.get("/healthz", headers={"X-Request-ID": incoming})

    assert response["X-Request-ID"] != incoming
    assert len(response["X-Request-ID"]) == 32


def test_lines_logged_during_a_request_carry_its_id_as_json(client, settings, unreachable_database):
    settings.REDIS_URL = ""

    with json_log_lines("core.health", "config.access") as lines:
        client.get("/healthz?probe=1", headers={"X-Request-ID": "trace-42"})

    view_line, access_line = lines
    assert view_line["logger"] == "core.health"
    assert view_line["level"] == "ERROR"
    assert view_line["request_id"] == "trace-42"
    assert "Connection refused" in view_line["exception"]
    assert access_line["logger"] == "config.access"
    assert access_line["request_id"] == "trace-42"
    assert access_line["method"] == "GET"
    assert access_line["path"] == "/healthz"  # never the query string
    assert access_line["status"] == 503
    assert access_line["duration_ms"] >= 0
    assert access_line["message"].startswith("GET /healthz 503 ")
    assert request_id.get() is None  # nothing leaks into what runs after the request


def test_lines_logged_outside_requests_say_so():
    with json_log_lines("tests.outside") as lines:
        logging.getLogger("tests.outside").info("between requests")

    assert lines[0]["request_id"] == "-"
    assert lines[0]["message"] == "between requests"


def test_the_middleware_stays_async_under_asgi():
    async def view(request):
        logging.getLogger("tests.async").info("inside")
        return HttpResponse()

    middleware = RequestIdMiddleware(view)
    request = RequestFactory().get("/", headers={"X-Request-ID": "async-1"})

    with json_log_lines("tests.async", "config.access") as lines:
        response = asyncio.run(middleware(request))

    assert iscoroutinefunction(middleware)  # Django calls it without a thread in between
    assert response["X-Request-ID"] == "async-1"
    assert [line["request_id"] for line in lines] == ["async-1", "async-1"]


def test_celery_task_lines_carry_the_task_id_and_inline_tasks_keep_the_request_id():
    task_prerun.send(sender=None, task_id="task-1", task=None)
    assert request_id.get() == "task-1"
    task_postrun.send(sender=None, task_id="task-1", task=None)
    assert request_id.get() is None

    token = request_id.set("request-9")
    try:
        task_prerun.send(sender=None, task_id="task-2", task=None)
        assert request_id.get() == "request-9"
        task_postrun.send(sender=None, task_id="task-2", task=None)
        assert request_id.get() == "request-9"
    finally:
        request_id.reset(token)


@contextmanager
def console_output():
    """What the configured console handler (settings.LOGGING, with its filters) writes."""
    (handler,) = [h for h in logging.getLogger("django").handlers if h.get_name() == "console"]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    access = logging.getLogger("config.access")
    level = access.level
    access.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        handler.setStream(previous)
        access.setLevel(level)


def test_no_log_line_holds_a_personal_links_token(client, django_user_model):
    from tests.factories import RegistrationFactory
    from tournaments.selectors import player_personal_link

    link = player_personal_link(RegistrationFactory())
    token = link.split("/")[-2]

    with console_output() as output:
        client.get(link)  # the sign-in page: an access line
        client.post(link.replace(token, token[:-1] + "x"))  # a bad link: Django's warning too
        logging.getLogger("tests.anything").warning("opened %s", link)

    text = output.getvalue()
    assert "/me/link/…/" in text and "Bad Request" in text
    assert token not in text and token.split(":")[-1] not in text


def test_the_json_lines_hide_the_token_in_their_fields_too():
    from core.logging import SecretPathFilter

    record = logging.LogRecord(
        "config.access", logging.INFO, "", 0, "GET %s", ("/me/link/ab:cd/",), None
    )
    record.path = "/me/link/ab:cd/"
    record.request = RequestFactory().get("/me/link/ab:cd/")
    RequestIdFilter().filter(record)
    SecretPathFilter().filter(record)

    line = json.loads(JsonFormatter().format(record))

    assert line["message"] == "GET /me/link/…/" and line["path"] == "/me/link/…/"
    assert "ab:cd" not in json.dumps(line)


# ------------------------------------------------------------------ routine periodic tasks
def routine_filter() -> logging.Filter:
    from django.conf import settings

    spec = dict(settings.LOGGING["filters"]["routine_tasks"])
    factory = spec.pop("()")
    module, name = factory.rsplit(".", 1)
    return getattr(__import__(module, fromlist=[name]), name)(**spec)


def celery_record(logger: str, message: str, args) -> logging.LogRecord:
    record = logging.LogRecord(logger, logging.INFO, __file__, 1, message, None, None)
    record.args = args  # Celery passes a dict for %(name)s formats; LogRecord() would unwrap it
    return record


WATCHDOG_LINES = [
    # beat sending it, a worker receiving and finishing it: every five seconds at INFO, they were
    # most of what an idle server logged.
    (
        "celery.beat",
        "Scheduler: Sending due task %s (%s)",
        ("watch-bot-turns", "gameplay.tasks.watch_bot_turns"),
    ),
    (
        "celery.worker.strategy",
        "Task %(name)s[%(id)s] received",
        {"name": "gameplay.tasks.watch_bot_turns", "id": "1"},
    ),
    (
        "celery.app.trace",
        "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s",
        {
            "name": "gameplay.tasks.watch_bot_turns",
            "id": "1",
            "runtime": 0.01,
            "return_value": None,
        },
    ),
]


@pytest.mark.parametrize(("logger", "message", "args"), WATCHDOG_LINES)
def test_the_watchdogs_routine_lines_are_not_logged_at_info(logger, message, args):
    logging.getLogger(logger).setLevel(logging.INFO)

    assert not routine_filter().filter(celery_record(logger, message, args))


@pytest.mark.parametrize(("logger", "message", "args"), WATCHDOG_LINES)
def test_the_watchdogs_routine_lines_are_there_at_debug(logger, message, args):
    logging.getLogger(logger).setLevel(logging.DEBUG)
    try:
        record = celery_record(logger, message, args)
        assert routine_filter().filter(record)
        assert record.levelname == "DEBUG"
        assert "watch" in record.getMessage()
    finally:
        logging.getLogger(logger).setLevel(logging.NOTSET)


def test_a_bot_moves_task_lines_stay_at_info():
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)
    record = celery_record(
        "celery.app.trace",
        "Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s",
        {"name": "gameplay.tasks.play_bot_turn", "id": "2", "runtime": 0.2, "return_value": None},
    )

    assert routine_filter().filter(record)
    assert record.levelname == "INFO"


def test_the_console_log_applies_the_routine_task_filter():
    from django.conf import settings

    assert "routine_tasks" in settings.LOGGING["handlers"]["console"]["filters"]
