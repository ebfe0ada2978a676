"""Benchmark of a web process's cost per request: Django's thread per request against kept threads.

Django under ASGI starts a thread for each request's synchronous code, and another to join it
(asgiref); `core/request_threads.py` keeps them for the next requests instead
(`REQUEST_THREADS_KEPT`, 0 = Django's own way). This starts one uvicorn process as production
runs it, on a throwaway SQLite database, and has 6 keep-alive clients ask one page as fast as it
answers for --seconds, for each setting in turn, --rounds times alternately (the machine is
shared: alternating spreads its noise over both). It measures the server process's CPU time per
request (psutil), requests per second and the clients' p50 / p95. Prints one JSON line with the
medians over the rounds.

    python bench/request_cost.py [--rounds 3] [--seconds 15] [--paths /healthz,/tournaments/]
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.integration.stack import free_port  # noqa: E402

CLIENTS = 6
SETTINGS = {"thread_per_request": "0", "kept_threads": "16"}


def wait_until_up(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def measure(env: dict, path: str, seconds: float) -> dict:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port),
         "--workers", "1", "--no-access-log", "--lifespan", "off"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_until_up(port)
        process = psutil.Process(server.pid)
        times: list[float] = []
        failures = [0]
        stop = time.monotonic() + seconds

        def client() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            while time.monotonic() < stop:
                started = time.perf_counter()
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    failures[0] += 1
                times.append(time.perf_counter() - started)

        for _ in range(20):  # warm up: templates loaded, connections open
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            connection.getresponse().read()
        before = process.cpu_times()
        started = time.monotonic()
        clients = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        wall = time.monotonic() - started
        after = process.cpu_times()
    finally:
        server.terminate()
        server.wait(timeout=10)
    cpu = (after.user + after.system) - (before.user + before.system)
    times.sort()
    return {
        "requests": len(times),
        "failures": failures[0],
        "cpu_ms_per_request": cpu / len(times) * 1000,
        "requests_per_second": len(times) / wall,
        "p50_ms": times[len(times) // 2] * 1000,
        "p95_ms": times[int(len(times) * 0.95)] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--paths", default="/healthz,/tournaments/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-request-cost-") as directory:
        env = dict(
            os.environ,
            DATABASE_URL=f"sqlite:///{Path(directory) / 'bench.sqlite3'}",
            DEBUG="1",
            LOG_LEVEL="WARNING",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        for name in ("REDIS_URL", "ALLOWED_HOSTS"):
            env.pop(name, None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        runs: dict[str, dict[str, list[dict]]] = {}
        for _ in range(args.rounds):
            for path in args.paths.split(","):
                for setting, kept in SETTINGS.items():
                    run = measure(dict(env, REQUEST_THREADS_KEPT=kept), path, args.seconds)
                    runs.setdefault(path, {}).setdefault(setting, []).append(run)
    result: dict = {"benchmark": "request_cost", "rounds": args.rounds, "clients": CLIENTS}
    for path, settings in runs.items():
        result[path] = {
            setting: {
                key: round(statistics.median(run[key] for run in measured), 2)
                for key in ("cpu_ms_per_request", "requests_per_second", "p50_ms", "p95_ms")
            }
            | {"failures": sum(run["failures"] for run in measured)}
            for setting, measured in settings.items()
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
