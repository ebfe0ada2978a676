"""Reads of table results, their audit trail and the stored standings snapshots."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from scoring import standings as standings_logic
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from tournaments.models import Registration, Round, Seat, Table, Tournament


def standings_latest(tournament: Tournament) -> StandingsSnapshot | None:
    return tournament.standings_snapshots.order_by("-version").first()


def standings_order(tournament: Tournament, players: list[int]) -> list[int]:
    """Registration ids best first by the latest standings; newcomers last by start number."""
    snapshot = standings_latest(tournament)
    ranked = [row["registration"] for row in snapshot.rows] if snapshot else []
    wanted = set(players)
    order = [player for player in ranked if player in wanted]
    seen = set(order)
    return order + [player for player in players if player not in seen]


def standings_inputs(
    tournament: Tournament,
) -> tuple[list[int], list[standings_logic.TableResult], dict[int, dict[str, Any]]]:
    """Everything `compute_standings` needs, from confirmed results only."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_number")
    )
    names = {
        r.pk: {
            "registration": r.pk,
            "start_number": r.start_number,
            "name": r.player.name,
            "player": r.player_id,
            "withdrawn": r.status == Registration.Status.WITHDRAWN,
        }
        for r in registrations
    }
    seats_by_table: dict[int, list[int | None]] = {}
    for table_id, registration_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "registration_id")
    ):
        seats_by_table.setdefault(table_id, []).append(registration_id)
    confirmed = (
        TableResult.objects.filter(table__round__tournament=tournament, confirmed__isnull=False)
        .select_related("confirmed", "table__round")
        .order_by("table__round__number", "table__number")
    )
    results = []
    for result in confirmed:
        version = result.confirmed
        seated = tuple(seats_by_table.get(result.table_id, ()))
        winner = seated[version.winner_position] if version.winner_position is not None else None
        results.append(
            standings_logic.TableResult(
                round_number=result.table.round.number,
                table_number=result.table.number,
                players=seated,
                totals=tuple(version.totals),
                placements=tuple(version.placements),
                winner=winner,
            )
        )
    return [r.pk for r in registrations], results, names


def results_of_round(round_: Round) -> QuerySet[TableResult]:
    return (
        TableResult.objects.filter(table__round=round_)
        .select_related("table", "confirmed")
        .order_by("table__number")
    )


def result_history(table: Table) -> QuerySet[ResultVersion]:
    """Every version of a table's score sheet, oldest first: who, when, what, and its fate."""
    return table.result_versions.select_related("submitted_by", "reviewed_by").order_by("number")


def table_result(table: Table) -> TableResult | None:
    return TableResult.objects.select_related("confirmed").filter(table=table).first()
