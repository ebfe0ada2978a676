"""Benchmark of the public pages: the whole standings page of a 200-player tournament.

Goal (web issue): the standings page for 200 players renders in under 100 ms. Builds, in a
throwaway test database made by Django's test utilities (in-memory SQLite by default, or a test
database beside DATABASE_URL's PostgreSQL one), a tournament of 200 players with 5 confirmed rounds,
entered through the services as a director enters final totals, and its stored standings snapshot.
Then it times full GET requests of the page with Django's test client (middleware, view, template,
DEBUG off as in production), after a warm-up, and reports the median: rendered (a signed-in
visitor's page) and kept (the page every visitor not signed in shares, from the cache). The
other public pages of the same tournament are timed too, for information. Prints one JSON line.

    python bench/pages.py [--players 200] [--rounds 5] [--runs 15]
"""

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_test_environment,
    teardown_test_environment,
)
from django.urls import reverse  # noqa: E402

GOALS = {"standings_median_ms": 100.0}
WARM_UP = 3


def quick_sheet(rng: random.Random, players: int) -> dict:
    """Final totals of a finished game: one seat past 1001, the others anywhere below."""
    winner = rng.randrange(players)
    totals = [rng.randrange(-20, 200) * 5 for _ in range(players)]
    totals[winner] = rng.randrange(201, 241) * 5
    return {"mode": "totals", "totals": totals, "winner": winner}


def build_tournament(players: int, rounds: int, seed: int):
    from draws import services as draw_services
    from scoring.models import TableResult
    from scoring.services import result_submit
    from tournaments import services

    rng = random.Random(seed)
    director = get_user_model().objects.create_superuser(
        username="bench-director", email="", password="bench-password"
    )
    club = services.club_create(actor=director, name="Bench club", directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Bench Open",
        date=datetime.date(2026, 11, 30),
        rounds_planned=rounds,
        quick_results_allowed=True,
    )
    for number in range(1, players + 1):
        player = services.player_create(actor=director, club=club, name=f"Гравець {number:03d}")
        services.registration_create(actor=director, tournament=tournament, player=player)
    tables = 0
    for _ in range(rounds):
        round_ = draw_services.round_draw(
            actor=director, tournament=tournament, seed=rng.randrange(10**9)
        )
        round_ = draw_services.round_publish(actor=director, round_=round_)
        # One transaction per round, so the standings are stored once per round, not per table.
        with transaction.atomic():
            for table in round_.tables.order_by("number"):
                result_submit(
                    actor=director,
                    table=table,
                    sheet=quick_sheet(rng, table.seats.count()),
                    expected_version=TableResult.objects.get(table=table).version,
                    confirm=True,
                )
                tables += 1
    tournament.refresh_from_db()
    return tournament, tables


def time_page(client: Client, url: str, runs: int, **headers) -> tuple[list[float], int, int]:
    """Milliseconds per GET after a warm-up, the queries of one GET, the response size."""
    for _ in range(WARM_UP):
        client.get(url, headers=headers)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append((time.perf_counter() - started) * 1000)
        if response.status_code not in (200, 204):
            raise SystemExit(f"{url} answered {response.status_code}")
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return times, len(queries), len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    setup_test_environment(debug=False)
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from scoring.selectors import standings_latest

        started = time.perf_counter()
        tournament, tables = build_tournament(args.players, args.rounds, seed=2026)
        build_seconds = time.perf_counter() - started
        snapshot = standings_latest(tournament)
        assert snapshot is not None and len(snapshot.rows) == args.players

        client = Client()
        pk = tournament.pk
        standings_url = reverse("public-standings", args=[pk])
        # Rendered: a signed-in visitor's page is never the one kept for everyone.
        signed_in = Client()
        signed_in.force_login(get_user_model().objects.create_user("bench-viewer"))
        times, queries, size = time_page(signed_in, standings_url, args.runs)
        uk_times, _, _ = time_page(signed_in, standings_url, args.runs, accept_language="uk")
        # Kept: the page every visitor not signed in shares (scoring.standings_cache).
        kept_times, kept_queries, _ = time_page(client, standings_url, args.runs)
        others = {
            "tournament": reverse("public-tournament", args=[pk]),
            "round": reverse("public-round", args=[pk, args.rounds]),
            "player": reverse("public-player", args=[pk, 1]),
            "wall": reverse("public-wall", args=[pk]),
            "live_changed": reverse("public-standings-live", args=[pk]),
            "live_unchanged": f"{reverse('public-standings-live', args=[pk])}"
            f"?version={snapshot.version}",
            "standings_csv": reverse("public-standings-csv", args=[pk]),
            "results_csv": reverse("public-results-csv", args=[pk]),
        }
        other_ms = {
            name: round(statistics.median(time_page(client, url, args.runs)[0]), 2)
            for name, url in others.items()
        }
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()

    result = {
        "benchmark": "pages",
        "database": connection.vendor,
        "players": args.players,
        "rounds": args.rounds,
        "tables": tables,
        "build_seconds": round(build_seconds, 1),
        "runs": args.runs,
        "standings_median_ms": round(statistics.median(times), 2),
        "standings_runs_ms": [round(t, 2) for t in times],
        "standings_uk_median_ms": round(statistics.median(uk_times), 2),
        "standings_queries": queries,
        "standings_kept_median_ms": round(statistics.median(kept_times), 2),
        "standings_kept_queries": kept_queries,
        "standings_bytes": size,
        "other_pages_median_ms": other_ms,
        "goals": GOALS,
    }
    result["goals_met"] = result["standings_median_ms"] < GOALS["standings_median_ms"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
