"""The production topology as separate processes, the way docker/compose.yaml runs it.

A private Redis server on a free port, the ASGI server (uvicorn with several worker processes) in
production mode, Celery workers and Celery beat, all on one PostgreSQL database. Used by the
integration tests (topology and faults) and by bench/load.py. No Docker engine is needed: each
service is a process group of its own, so a test can kill a worker the way `docker kill` would, or
restart Redis under running tables.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def collect_static(static_root: Path) -> None:
    """`collectstatic` as the image build runs it: hashed names, compressed copies."""
    env = dict(
        os.environ,
        DEBUG="0",
        HTTPS="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_ROOT=str(static_root),
        LOG_LEVEL="WARNING",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=600,
    )


class StackError(RuntimeError):
    """A service did not start, or died; the message carries the end of its log."""


class Service:
    """One service: a command started in a process group of its own, logging to a file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.log_path = logs / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        # Appending: a restarted service keeps the log of its previous life above the new one.
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL to the whole process group: no chance to finish a task or ack a message."""
        if self.running:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self, timeout: float = 15) -> None:
        if not self.running:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def wait_for_log(self, text: str, *, since: int = 0, timeout: float = STARTUP_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log()[since:]:
            if not self.running:
                raise StackError(f"{self.name} exited:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise StackError(f"{self.name} did not log {text!r} in time:\n{self.tail()}")
            time.sleep(0.1)


class Stack:
    """postgres (given) + redis + web + worker x N + beat, started and stopped together."""

    def __init__(
        self,
        database_url: str,
        *,
        web_workers: int = 2,
        celery_workers: int = 2,
        beat: bool = True,
        log_level: str = "INFO",
        static_root: Path | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        """`static_root`: static files collected already (`collect_static`), else collected
        into a folder of this stack's own at start (slow: the files are compressed)."""
        self.directory = tempfile.TemporaryDirectory(prefix="stack-")
        self.logs = Path(self.directory.name)
        self.collect = static_root is None
        static_root = static_root or self.logs / "static"
        self.redis_port = free_port()
        self.web_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.base_url = f"http://127.0.0.1:{self.web_port}"
        self.secret_key = secrets.token_urlsafe(50)
        env = dict(os.environ)
        # The browser tests' conftest sets it for the whole run; production never has it.
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=database_url,
            REDIS_URL=self.redis_url,
            # Production mode, over plain http on the loopback (TLS would be the proxy's job).
            DEBUG="0",
            HTTPS="0",
            SECRET_KEY=self.secret_key,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            # Workers and beat log at INFO at least: readiness is read from their logs.
            LOG_LEVEL="INFO",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
            STATIC_ROOT=str(static_root),
        )
        env.update(extra_env or {})
        self.env = env
        self.redis = Service(
            "redis",
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.logs),
            ],
            env,
            self.logs,
        )
        web_env = dict(env, LOG_LEVEL=log_level)
        self.web = Service(
            "web",
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.web_port),
                "--workers",
                str(web_workers),
                "--no-access-log",
                "--lifespan",
                "off",
                # As the image runs it (docker/web.sh): frames past 64 KiB are refused before
                # the app reads them, and frames are not compressed again per socket.
                "--ws-max-size",
                "65536",
                "--ws-per-message-deflate",
                "false",
            ],
            web_env,
            self.logs,
        )
        self.workers = [
            Service(
                f"worker{number}",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--concurrency=1",
                    "-O",
                    "fair",
                    "--without-gossip",
                    "--without-mingle",
                    f"--hostname=worker{number}@%h",
                    # INFO at least: readiness is read from the " ready." line of the log.
                    "--loglevel=INFO",
                ],
                env,
                self.logs,
            )
            for number in range(1, celery_workers + 1)
        ]
        self.beat = (
            Service(
                "beat",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "beat",
                    f"--schedule={self.logs / 'beat-schedule'}",
                    "--loglevel=INFO",
                ],
                env,
                self.logs,
            )
            if beat
            else None
        )

    @property
    def services(self) -> list[Service]:
        beat = [self.beat] if self.beat else []
        return [self.redis, self.web, *self.workers, *beat]

    # ------------------------------------------------------------------------------ lifecycle
    def start(self) -> Stack:
        try:
            if self.collect:
                collect_static(Path(self.env["STATIC_ROOT"]))
            self.start_redis()
            for worker in self.workers:
                self.start_worker(worker)
            if self.beat:
                self.beat.start()
                self.beat.wait_for_log("beat: Starting")
            self.web.start()
            self.wait_for_web()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for service in reversed(self.services):
            service.stop()
        self.directory.cleanup()

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()

    # ------------------------------------------------------------------------------ services
    def start_redis(self) -> None:
        self.redis.start()
        self.redis.wait_for_log("Ready to accept connections")

    def restart_redis(self, down_seconds: float = 2.0) -> None:
        """Redis goes away (with everything queued in it) and comes back on the same port."""
        self.redis.stop()
        time.sleep(down_seconds)
        since = len(self.redis.log())
        self.redis.start()
        self.redis.wait_for_log("Ready to accept connections", since=since)

    def start_worker(self, worker: Service) -> None:
        since = len(worker.log())
        worker.start()
        worker.wait_for_log(" ready.", since=since)

    def wait_for_web(self, timeout: float = STARTUP_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.web.running:
                raise StackError(f"web exited:\n{self.web.tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise StackError(f"web did not become healthy:\n{self.web.tail()}")

    def check_alive(self) -> None:
        """Raise if the web server died (workers and Redis may be down on purpose in a test)."""
        for service in [self.web]:
            if not service.running:
                raise StackError(f"{service.name} died:\n{service.tail()}")

    def report(self) -> str:
        """The end of every service's log, for a failure message."""
        return "\n".join(f"--- {service.name}\n{service.tail()}" for service in self.services)
