"""A real Celery worker process on Redis, sharing the PostgreSQL test database with the tests."""

import os
import sys
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app
from tests.integration.stack import Service, Stack, collect_static

# A Redis database of its own, so a test run never meets a developer's queued tasks.
BROKER = os.environ.get("INTEGRATION_REDIS_URL", "redis://127.0.0.1:6379/14")


def shared_database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    """Start `celery worker` as a separate process and send this process's tasks to it."""
    env = dict(os.environ, DATABASE_URL=shared_database_url(), REDIS_URL=BROKER, DEBUG="1")
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend")}
    app.conf.update(task_always_eager=False, broker_url=BROKER, result_backend=BROKER)
    _forget_connections()
    app.control.purge()  # tasks left over from an aborted run
    worker = Service(
        "worker",
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--hostname=integration@%h",
        ],
        env,
        tmp_path,
    )
    try:
        worker.start()
        worker.wait_for_log(" ready.", timeout=30)
        yield worker
    finally:
        worker.stop(timeout=10)
        app.conf.update(previous)
        _forget_connections()


def _forget_connections() -> None:
    # Celery caches its connection and producer pools on first use; after switching the broker
    # they must be made anew, or tasks would still go to the in-memory transport.
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory) -> Path:
    """Static files collected once for every stack of the run (compressing them takes long)."""
    static_root = tmp_path_factory.mktemp("static")
    collect_static(static_root)
    return static_root


@pytest.fixture
def stack(transactional_db, collected_static):
    """The production topology (tests/integration/stack.py) on the test database."""
    with Stack(shared_database_url(), static_root=collected_static) as running:
        yield running
