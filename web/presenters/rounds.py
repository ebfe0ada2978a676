"""The director's view of a round: every table with its seats, result, latest version, repeated
meetings and live game, read through the selectors of the apps that own each."""

from __future__ import annotations

from typing import Any

from draws import selectors as draw_selectors
from gameplay import selectors as gameplay_selectors
from scoring import selectors as scoring_selectors
from tournaments import selectors
from tournaments.models import Round


def round_tables(round_: Round) -> list[dict[str, Any]]:
    """The round's tables with their seats, result, latest version and repeated meetings."""
    tables = list(selectors.tables_with_seats(round_))
    results = {result.table_id: result for result in scoring_selectors.results_of_round(round_)}
    latest = scoring_selectors.latest_versions_of_round(round_)
    repeats = (
        draw_selectors.repeated_pairs_by_table(round_)
        if round_.status == Round.Status.DRAFT
        else {}
    )
    games = gameplay_selectors.live_games_of_round(round_)
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        game = games.get(table.pk)
        version = latest.get(table.pk)
        totals = list(version.totals) if version else []
        rows.append(
            {
                "table": table,
                "seats": seats,
                "result": results.get(table.pk),
                "latest": version,
                "seat_totals": [
                    (seat, totals[seat.position] if seat.position < len(totals) else None)
                    for seat in seats
                ],
                "repeats": len(repeats.get(table.pk, ())),
                "repeated_pairs": _named_pairs(repeats.get(table.pk, ()), seats),
                "game": game,
                "live_seats": sorted(game.seats.all(), key=lambda s: s.position) if game else [],
                "has_bot": any(seat.is_bot for seat in seats),
            }
        )
    return rows


def _named_pairs(pairs, seats) -> list[dict[str, Any]]:
    """The pairs of a table who met before, by their players' names, with the rounds they met
    in ("1, 3")."""
    names = {
        seat.registration_id: seat.registration.player.name
        for seat in seats
        if seat.registration_id
    }
    return [
        {
            "first": names[pair.first],
            "second": names[pair.second],
            "times": len(pair.rounds),
            "rounds": ", ".join(str(number) for number in pair.rounds),
        }
        for pair in pairs
    ]
