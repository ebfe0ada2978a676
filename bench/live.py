"""Benchmark of live tables: from a human's card play to the bot's reply on the human's page.

Goal (live table issue): p95 under 300 ms with the heuristic bot on this machine. Starts Daphne
(the ASGI server of production) in a subprocess on a free port against a throwaway database (a
temporary SQLite file, or a fresh database on DATABASE_URL's PostgreSQL server), starts practice
games against heuristic bots through the service, and plays the human's seat over a websocket
exactly as the table page does: random legal actions, each sent as an `act` message. For every
card play after which a bot is to act, it times the wait from sending the play to the first
message whose view holds the bot's reply. Prints one JSON line.

    python bench/live.py [--plays 200] [--seed 1] [--timeout 300]
"""

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.integration.stack import free_port  # noqa: E402

GOALS = {"p95_ms": 300.0}
BOT_LEVEL = "easy"  # the heuristic bot


class ThrowawayDatabase:
    """A database URL for this run only: a SQLite file, or a new PostgreSQL database."""

    def __init__(self) -> None:
        self.base = os.environ.get("DATABASE_URL", "")
        self.directory = tempfile.TemporaryDirectory(prefix="bench-live-")
        self.name = None
        if self.base.startswith(("postgres://", "postgresql://")):
            self.name = f"bench_live_{uuid.uuid4().hex[:12]}"
            self.url = self.base.rsplit("/", 1)[0] + "/" + self.name
            self._admin(f'CREATE DATABASE "{self.name}"')
            self.kind = "postgresql"
        else:
            self.url = f"sqlite:///{Path(self.directory.name) / 'bench.sqlite3'}"
            self.kind = "sqlite"

    def _admin(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as connection:
            connection.execute(statement)

    def drop(self) -> None:
        if self.name:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.directory.cleanup()


def server_environment(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        DEBUG="1",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    # One process in the embedded mode: eager bot tasks and the in-memory channel layer.
    env.pop("REDIS_URL", None)
    env.pop("ALLOWED_HOSTS", None)
    return env


def wait_for_server(base_url: str, server: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"daphne exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(f"{base_url}/healthz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("daphne did not answer in time")


def start_practice_game(user) -> int:
    """A practice game of the user against two heuristic bots, through the service."""
    from gameplay import services

    game = services.practice_game_start(owner=user, bot_level=BOT_LEVEL)
    return game.pk


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


async def play_game(url: str, cookie: str, origin: str, rng: random.Random, budget) -> dict:
    """Play the human's seat of one game until it ends or the budget is spent."""
    from websockets.asyncio.client import connect

    from gameplay.consumers import MESSAGE_RATE

    samples: list[float] = []
    moves = 0
    pace = 1.25 / MESSAGE_RATE
    last_sent = -pace
    async with connect(
        url, additional_headers={"Cookie": cookie, "Origin": origin}, max_size=2**22
    ) as websocket:

        async def next_view(deadline: float) -> dict:
            while True:
                remaining = deadline - time.monotonic()
                message = json.loads(await asyncio.wait_for(websocket.recv(), remaining))
                if message["type"] == "view":
                    return message["view"]
                if message["type"] == "error":
                    raise RuntimeError(f"the server refused a move: {message['message']}")

        view = await next_view(time.monotonic() + 30)
        while view["status"] != "finished" and not budget.spent(len(samples)):
            if not view["legal"]:
                view = await next_view(time.monotonic() + 30)
                continue
            action = rng.choice(view["legal"])
            # A person's pace: the socket allows MESSAGE_RATE messages a second per connection.
            await asyncio.sleep(max(0.0, last_sent + pace - time.monotonic()))
            last_sent = time.monotonic()
            sent_at = time.perf_counter()
            sequence = view["sequence"]
            await websocket.send(
                json.dumps({"type": "act", "action": action, "sequence": sequence})
            )
            moves += 1
            # The human's own move is sequence + 1; a bot's reply makes it sequence + 2 or more.
            view = await next_view(time.monotonic() + 30)
            while view["sequence"] <= sequence:
                view = await next_view(time.monotonic() + 30)
            waiting_for_bot = view["sequence"] == sequence + 1 and not view["legal"]
            while waiting_for_bot and view["status"] != "finished":
                view = await next_view(time.monotonic() + 30)
                waiting_for_bot = view["sequence"] == sequence + 1 and not view["legal"]
            if action["type"] == "play" and view["sequence"] >= sequence + 2:
                samples.append((time.perf_counter() - sent_at) * 1000)
    return {"samples": samples, "moves": moves}


class Budget:
    def __init__(self, plays: int, seconds: float) -> None:
        self.plays = plays
        self.deadline = time.monotonic() + seconds
        self.measured = 0

    def spent(self, extra: int = 0) -> bool:
        return self.measured + extra >= self.plays or time.monotonic() > self.deadline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=200, help="card plays to time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole run")
    args = parser.parse_args()

    database = ThrowawayDatabase()
    env = server_environment(database.url)
    server = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL")})
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        import django

        django.setup()
        from django.contrib.auth import get_user_model

        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_for_server(base_url, server)

        user = get_user_model().objects.create_user("bench-player", password=uuid.uuid4().hex)
        cookie = session_cookie(user)
        rng = random.Random(args.seed)
        budget = Budget(args.plays, args.timeout)
        samples: list[float] = []
        moves = games = 0
        while not budget.spent():
            game_id = start_practice_game(user)
            games += 1
            result = asyncio.run(
                play_game(
                    f"ws://127.0.0.1:{port}/ws/games/{game_id}/", cookie, base_url, rng, budget
                )
            )
            samples += result["samples"]
            moves += result["moves"]
            budget.measured = len(samples)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        database.drop()

    if not samples:
        raise SystemExit("no card play was timed")
    report = {
        "bench": "live",
        "database": database.kind,
        "bot": "heuristic",
        "games": games,
        "moves": moves,
        "plays_timed": len(samples),
        "p50_ms": round(statistics.median(samples), 1),
        "p95_ms": round(percentile(samples, 0.95), 1),
        "max_ms": round(max(samples), 1),
        "goals": GOALS,
    }
    report["goals_met"] = report["p95_ms"] < GOALS["p95_ms"]
    print(json.dumps(report))


if __name__ == "__main__":
    main()
