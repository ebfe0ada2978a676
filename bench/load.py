"""Load benchmark: many phones on the live standings while the tables send their results.

Goal (issue 17): against the multi-process setup on PostgreSQL, 1,000 concurrent viewers of the
public standings of a 200-player tournament while 50 tables submit and confirm their results:
p95 under 100 ms for every kind of standings request, no errors, no lost or duplicated result.

The run seeds a throwaway database on DATABASE_URL's PostgreSQL server (200 players, two rounds
already played, round 3 published: 50 tables of 4), starts the production topology of
tests/integration/stack.py (uvicorn with several processes in production mode, a private Redis,
two Celery workers and beat), then runs Locust headless (bench/_load_users.py) on the same
machine: of the --viewers, --pollers load the standings page and poll it once a second as the
page does without its socket, reloading it now and then; the others load the page and keep the
standings socket open (web/consumers.py), which pushes each new snapshot once, and every
--socket-dwell seconds on average reload the page or open the socket again as a phone woken
from sleep does. 50 table users each send their score sheet through the API and have a
table-mate confirm it, spread over the first half of the run. Afterwards it checks the
database (every table has exactly one stored version, confirmed) and which standings every
viewer shows at the end. Locust runs in --locust-processes processes: at each push its socket
viewers have 900 frames to read, and the other users of a process wait meanwhile, their answers
timed late. Beside Locust, a probe in this process (`Probe`) loads the page and polls it twice
a second and times the answers itself, outside Locust's waits. Prints one JSON line.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/thousand_one python bench/load.py
        [--viewers 1000] [--pollers 100] [--socket-dwell 60] [--seconds 60] [--ramp 30]
        [--web-workers 3] [--locust-processes 2]

`--viewers 200 --pollers 200 --ramp 10` is the earlier measurement (every phone polling).
"""

import argparse
import csv
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live import ThrowawayDatabase  # noqa: E402
from tests.integration.stack import Stack  # noqa: E402

GOALS = {"standings_p95_ms": 100.0, "failures": 0}
PLAYERS = 200
ROUNDS_PLAYED = 2
POLL_NAMES = ("standings live poll", "standings live poll (new standings)")
# The kinds of standings requests the goal is about (the push's delay is not a request: it is
# reported beside them).
REQUEST_NAMES = (
    *POLL_NAMES,
    "standings page",
    "standings socket open",
    "standings socket catch-up",
)
PUSH_NAME = "standings push (stored to shown)"


def seed(args) -> dict:
    """The tournament, its first two rounds confirmed, round 3 published; the Locust plan."""
    import datetime

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from draws import services as draw_services
    from scoring.models import TableResult
    from tests.factories import enter_confirmed_result, game_sheet
    from tournaments import services
    from tournaments.models import Tournament

    admin = get_user_model().objects.create_superuser("bench-admin", password=None)
    director = get_user_model().objects.create_user("bench-director", password=None)
    club = services.club_create(actor=admin, name="Load club", directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Load cup",
        date=datetime.date.today(),
        table_size=Tournament.TableSize.FOUR,
        rounds_planned=5,
    )
    services.registration_create_from_names(
        actor=director,
        tournament=tournament,
        names=[f"Player {number:03d}" for number in range(1, PLAYERS + 1)],
    )
    for number in range(1, ROUNDS_PLAYED + 2):
        round_ = draw_services.round_draw(actor=director, tournament=tournament)
        draw_services.round_publish(actor=director, round_=round_)
        if number <= ROUNDS_PLAYED:
            for table in round_.tables.all():
                enter_confirmed_result(table, seed=table.pk)
    tables = []
    for table in round_.tables.order_by("number"):
        seats = list(table.seats.select_related("registration__player").order_by("position"))
        tokens = []
        for seat in seats[:2]:
            user = services.player_login_ensure(actor=director, player=seat.registration.player)
            tokens.append(Token.objects.get_or_create(user=user)[0].key)
        tables.append(
            {
                "id": table.pk,
                "submitter": tokens[0],
                "confirmer": tokens[1],
                "sheet": game_sheet(players=len(seats), seed=table.pk),
            }
        )
    assert TableResult.objects.filter(table__round=round_).count() in (0, len(tables))
    return {
        "tournament": tournament.pk,
        "round": round_.pk,
        "pollers": args.pollers,
        "socket_viewers": args.viewers - args.pollers,
        "socket_dwell_seconds": args.socket_dwell,
        # The tables send their results once every viewer is there, over the first half of the
        # measured time, so that the last snapshot is pushed well before the end.
        "submit_after_seconds": args.ramp,
        "submit_window_seconds": args.seconds / 2,
        "tables": tables,
    }


def stored_results(round_id: int) -> dict:
    from scoring.models import ResultVersion, TableResult

    results = TableResult.objects.filter(table__round_id=round_id)
    versions = ResultVersion.objects.filter(table__round_id=round_id)
    per_table = {}
    for table_id in versions.values_list("table_id", flat=True):
        per_table[table_id] = per_table.get(table_id, 0) + 1
    return {
        "tables": results.count(),
        "confirmed": results.filter(status=TableResult.Status.CONFIRMED).count(),
        "versions": versions.count(),
        "tables_with_more_than_one_version": sum(1 for n in per_table.values() if n > 1),
    }


class Probe(threading.Thread):
    """A phone of its own beside Locust, in this (otherwise idle) process: every half second it
    loads the page, polls with the latest version (nothing new) and without one (new standings),
    each kind over a keep-alive connection of its own, and times the answers itself.

    Locust times its requests in one process with the 1,000 viewers' greenlets: at each push
    that process has 900 frames to read, and the answers that arrive meanwhile wait for it. The
    probe's times are the server's (and the network's) without that wait: the two side by side
    say which of them a slow tail is in.
    """

    KINDS = ("page", "poll_nothing_new", "poll_new_standings")
    PERIOD_SECONDS = 0.5

    def __init__(self, base_url: str, tournament_id: int, start_after: float, seconds: float):
        super().__init__(daemon=True)
        self.address = urlsplit(base_url)
        self.paths = {
            "page": f"/tournaments/{tournament_id}/standings/",
            "poll_new_standings": f"/tournaments/{tournament_id}/standings/live/?version=",
        }
        self.starts_at = time.monotonic() + start_after
        self.ends_at = self.starts_at + seconds
        self.times: dict[str, list[float]] = {kind: [] for kind in self.KINDS}
        self.failures = 0
        self.latest = ""

    def run(self) -> None:
        connections = {kind: self._connection() for kind in self.KINDS}
        while time.monotonic() < self.starts_at:
            time.sleep(0.1)
        while time.monotonic() < self.ends_at:
            tick = time.monotonic()
            for kind in self.KINDS:
                path = self.paths.get(kind) or f"{self.paths['poll_new_standings']}{self.latest}"
                try:
                    started = time.perf_counter()
                    connections[kind].request("GET", path, headers={"Accept-Encoding": "gzip"})
                    response = connections[kind].getresponse()
                    body = response.read()
                    elapsed = (time.perf_counter() - started) * 1000
                except (OSError, http.client.HTTPException):
                    self.failures += 1
                    connections[kind].close()
                    connections[kind] = self._connection()
                    continue
                if response.status not in (200, 204):
                    self.failures += 1
                    continue
                if kind == "poll_new_standings":
                    html = zlib.decompress(body, wbits=31) if body[:2] == b"\x1f\x8b" else body
                    found = re.search(rb'data-standings-version="([0-9]*)"', html)
                    self.latest = found.group(1).decode() if found else self.latest
                if kind != "poll_nothing_new" or response.status == 204:
                    self.times[kind].append(elapsed)
            time.sleep(max(0.0, tick + self.PERIOD_SECONDS - time.monotonic()))

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.address.hostname, self.address.port, timeout=10)

    def report(self) -> dict:
        def summary(times: list[float]) -> dict:
            if not times:
                return {"requests": 0}
            ordered = sorted(times)
            return {
                "requests": len(ordered),
                "p50_ms": round(statistics.median(ordered), 1),
                "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
                "max_ms": round(ordered[-1], 1),
            }

        return {"failures": self.failures, **{k: summary(v) for k, v in self.times.items()}}


def locust_stats(prefix: str) -> dict[str, dict]:
    with open(f"{prefix}_stats.csv", newline="", encoding="utf-8") as handle:
        return {row["Name"]: row for row in csv.DictReader(handle)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--pollers", type=int, default=100)
    parser.add_argument("--socket-dwell", type=float, default=60.0)
    # The phones arrive over this many seconds (Locust's spawn rate), not in one instant.
    parser.add_argument("--ramp", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--web-workers", type=int, default=3)
    # Locust's processes: at each push the socket viewers have 900 frames to read, and in one
    # process the answers its other users wait for meanwhile are timed late by that much.
    parser.add_argument("--locust-processes", type=int, default=2)
    parser.add_argument("--keep-logs", help="copy the services' logs into this folder at the end")
    args = parser.parse_args()
    if not 0 <= args.pollers <= args.viewers:
        parser.error("--pollers must be between 0 and --viewers")

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        # `make bench` runs every benchmark; this one says why it measured nothing.
        print(json.dumps({"bench": "load", "skipped": "needs DATABASE_URL=postgres://..."}))
        return
    database = ThrowawayDatabase()
    stack = None
    try:
        env = dict(os.environ, DATABASE_URL=database.url, DEBUG="1", LOG_LEVEL="WARNING")
        env.pop("REDIS_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=database.url)
        os.environ.pop("REDIS_URL", None)
        os.environ["LOG_LEVEL"] = "WARNING"
        import django

        django.setup()
        plan = seed(args)
        from django.db import connection

        connection.close()

        stack = Stack(
            database.url,
            web_workers=args.web_workers,
            celery_workers=2,
            log_level=os.environ.get("LOAD_WEB_LOG_LEVEL", "WARNING"),
        ).start()
        with tempfile.TemporaryDirectory(prefix="bench-load-") as directory:
            plan_path = Path(directory) / "plan.json"
            plan_path.write_text(json.dumps(plan), encoding="utf-8")
            prefix = str(Path(directory) / "locust")
            users = args.viewers + len(plan["tables"])
            before = CpuAccount.now(stack, database.name)
            probe = Probe(stack.base_url, plan["tournament"], args.ramp, args.seconds)
            probe.start()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "locust",
                    "-f",
                    str(ROOT / "bench" / "_load_users.py"),
                    "--headless",
                    "--host",
                    stack.base_url,
                    "--users",
                    str(users),
                    # Phones arrive over --ramp seconds, not in one instant; the statistics
                    # start once everybody is there (--reset-stats), the run then lasts
                    # --seconds.
                    "--spawn-rate",
                    str(max(1, users // args.ramp)),
                    "--reset-stats",
                    "--run-time",
                    f"{args.seconds + args.ramp}s",
                    "--csv",
                    prefix,
                    "--only-summary",
                    "--loglevel",
                    "WARNING",
                    *(
                        ["--processes", str(args.locust_processes)]
                        if args.locust_processes > 1
                        else []
                    ),
                ],
                cwd=ROOT,
                env=dict(os.environ, LOAD_PLAN=str(plan_path)),
                check=False,
                stdout=subprocess.DEVNULL,
            )
            cpu = CpuAccount.now(stack, database.name).since(before)
            probe.join(timeout=15)
            stats = locust_stats(prefix)
            shown = [  # each Locust process's viewers (bench/_load_users.py: SHOWN_FILES)
                viewer
                for path in sorted(Path(directory).glob("shown-*.json"))
                for viewer in json.loads(path.read_text(encoding="utf-8"))
            ]
        stack.check_alive()
        results = stored_results(plan["round"])
        final = final_standings(plan["tournament"], shown)
    finally:
        if stack is not None:
            for service in reversed(stack.services):
                service.stop()
            if args.keep_logs:
                shutil.copytree(stack.logs, args.keep_logs, dirs_exist_ok=True)
            stack.stop()
        from django.db import connections

        connections.close_all()
        database.drop()

    def entry(name: str) -> dict:
        row = stats.get(name, {})
        return {
            "requests": int(row.get("Request Count", 0)),
            "failures": int(row.get("Failure Count", 0)),
            "p50_ms": float(row.get("50%", 0) or 0),
            "p95_ms": float(row.get("95%", 0) or 0),
            "max_ms": float(row.get("Max Response Time", 0) or 0),
        }

    kinds = {
        "poll_nothing_new": entry("standings live poll"),
        "poll_new_standings": entry("standings live poll (new standings)"),
        "page": entry("standings page"),
        "socket_open": entry("standings socket open"),
        "socket_catch_up": entry("standings socket catch-up"),
    }
    standings_requests = sum(kind["requests"] for kind in kinds.values())
    everything = entry("Aggregated")
    report = {
        "bench": "load",
        "viewers": args.viewers,
        "pollers": args.pollers,
        "socket_viewers": args.viewers - args.pollers,
        "tables": len(plan["tables"]),
        "seconds": args.seconds,
        "web_workers": args.web_workers,
        "locust_processes": args.locust_processes,
        "standings": {
            "requests": standings_requests,
            "requests_per_second": round(standings_requests / args.seconds, 1),
            "p95_ms": entry_p95(stats, REQUEST_NAMES),
        },
        **{f"standings_{name}": value for name, value in kinds.items()},
        "probe": probe.report(),
        "push_stored_to_shown": entry(PUSH_NAME),
        "sockets_dropped": entry("standings socket dropped")["requests"],
        "pushes_older_than_shown": entry("standings push older than shown (ignored)")["requests"],
        "submit": entry("submit result"),
        "confirm": entry("confirm result"),
        "failures": everything["failures"],
        "results": results,
        "final_standings": final,
        "machine": cpu,
        "goals": GOALS,
    }
    report["goals_met"] = (
        report["standings"]["p95_ms"] < GOALS["standings_p95_ms"]
        and report["failures"] == 0
        and results["confirmed"] == len(plan["tables"])
        and results["versions"] == len(plan["tables"])
    )
    print(json.dumps(report))


class CpuAccount:
    """CPU seconds spent on the machine, by the stack, its PostgreSQL backends and Locust.

    The 2 cores are shared with other people's work; these say how much of them the run had.
    Counted from Locust's start to its end (ramp and measured time).
    """

    def __init__(self, wall, busy, stack, postgres, locust, load) -> None:
        self.wall, self.busy, self.stack = wall, busy, stack
        self.postgres, self.locust, self.load = postgres, locust, load

    @classmethod
    def now(cls, stack, database_name: str) -> "CpuAccount":
        import resource

        import psutil

        def seconds(process) -> float:
            try:
                times = process.cpu_times()
            except psutil.Error:
                return 0.0
            return times.user + times.system

        in_stack: dict[str, float] = {}
        for service in stack.services:
            if service.running:
                root = psutil.Process(service.process.pid)
                in_stack[service.name] = sum(
                    seconds(p) for p in [root, *root.children(recursive=True)]
                )
        postgres = 0.0
        for process in psutil.process_iter(["name", "cmdline"]):
            if database_name in " ".join(process.info["cmdline"] or []):
                postgres += seconds(process)
        machine = psutil.cpu_times()
        busy = sum(machine) - machine.idle - getattr(machine, "iowait", 0.0)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return cls(
            time.monotonic(),
            busy,
            in_stack,
            postgres,
            children.ru_utime + children.ru_stime,
            os.getloadavg()[0],
        )

    def since(self, start: "CpuAccount") -> dict:
        wall = self.wall - start.wall
        busy = self.busy - start.busy
        services = {
            name: round(self.stack.get(name, 0.0) - start.stack.get(name, 0.0), 1)
            for name in self.stack
        }
        ours = (
            sum(services.values()),
            self.postgres - start.postgres,
            self.locust - start.locust,
        )
        return {
            "cores": os.cpu_count(),
            "wall_seconds": round(wall, 1),
            "cpu_seconds_available": round(wall * (os.cpu_count() or 1), 1),
            "cpu_seconds_busy": round(busy, 1),
            "cpu_seconds_stack": round(ours[0], 1),
            "cpu_seconds_by_service": services,
            "cpu_seconds_postgres_backends": round(ours[1], 1),
            "cpu_seconds_locust": round(ours[2], 1),
            "cpu_seconds_others": round(busy - sum(ours), 1),
            "load_average_1min_start_end": [round(start.load, 1), round(self.load, 1)],
        }


def final_standings(tournament_id: int, shown: list) -> dict:
    """How many viewers of each kind show the latest snapshot when the run ends."""
    from scoring.models import StandingsSnapshot

    latest = (
        StandingsSnapshot.objects.filter(tournament_id=tournament_id)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    counts: dict = {"latest_version": latest}
    for kind, version in shown:
        counts.setdefault(kind, {"viewers": 0, "showing_latest": 0, "others": {}})
        counts[kind]["viewers"] += 1
        if version == str(latest):
            counts[kind]["showing_latest"] += 1
        else:
            others = counts[kind]["others"]
            others[version] = others.get(version, 0) + 1
    return counts


def entry_p95(stats: dict[str, dict], names: tuple[str, ...]) -> float:
    """The p95 over several request names, from Locust's per-name response-time histogram.

    Locust's CSV has percentiles per name, not for a union; the union's p95 is the largest of the
    names' p95 at worst, which is what is reported (an upper bound).
    """
    return max(float(stats.get(name, {}).get("95%", 0) or 0) for name in names)


if __name__ == "__main__":
    main()
