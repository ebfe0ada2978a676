"""A real Celery worker process on Redis, sharing the PostgreSQL test database with the tests."""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app
from tests.integration.stack import Stack, collect_static

ROOT = Path(__file__).resolve().parents[2]
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
def celery_worker_process(transactional_db):
    """Start `celery worker` as a separate process and send this process's tasks to it."""
    env = dict(os.environ, DATABASE_URL=shared_database_url(), REDIS_URL=BROKER, DEBUG="1")
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend")}
    app.conf.update(task_always_eager=False, broker_url=BROKER, result_backend=BROKER)
    _forget_connections()
    app.control.purge()  # tasks left over from an aborted run
    # The log goes to a file, not a pipe: nobody reads it while the test runs, and a full pipe
    # would freeze the worker mid-game.
    with tempfile.TemporaryFile(mode="w+") as log:
        worker = subprocess.Popen(
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
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        worker.log = log  # the end of it goes into failure messages
        try:
            deadline = time.monotonic() + 30
            while not app.control.ping(timeout=0.5):
                if worker.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"the Celery worker did not start:\n{log.read()}")
            yield worker
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=10)
            except subprocess.TimeoutExpired:
                worker.kill()
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
