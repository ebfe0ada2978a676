"""Exports of tournament archives: a whole tournament as one JSON document.

A club keeps the file so that it never loses a tournament; archive.importer recreates the
tournament from it, in this club or another, on this site or another. `tournament_export` writes
everything a tournament is: its settings, players, registrations, rounds, tables and seats, every
version of every score sheet (who submitted and who confirmed or disputed it, and when), and the
live games with their seats, seat changes, finished deals (deck, salt and commitment) and every
action in order. The document's keys, types and bounds are declared in archive.schema (published
as docs/archive-schema.json); each object holds its model's own columns, so a column added to a
model shows in the export and must be declared there too.

Decisions:

- Logins are written as usernames only, never with passwords or database ids.
- Standings snapshots are not in the archive: they follow from the confirmed results, the
  settings and the seed, and an import computes them again. Only a `random` tiebreak can order
  equal players differently, because its key is drawn from the registration's database id.
- A tournament has no slug of its own; it is known by the slug of its name and its date (the
  downloaded file is named so).
- A deal still being played is never in the file: its deck, salt and actions (the declarer's
  give among them) are secret until it is over, and the director who downloads the file may sit
  at that table. The game is written as it stood when that deal was dealt; an import deals it
  anew, so exporting the import again differs in that deal.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db import models
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify

from archive.schema import ARCHIVE_FORMAT, ARCHIVE_VERSION
from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange
from scoring.models import ResultVersion, TableResult
from tournaments.models import Registration, Round, Seat, Table, Tournament


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The archive of a whole tournament as a JSON-ready dict (see the module's docstring)."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__user")
        .order_by("start_number")
    )
    start_numbers = {registration.pk: registration.start_number for registration in registrations}
    # A player's key is his place in the list, which follows the start numbers.
    keys = {registration.player_id: key for key, registration in enumerate(registrations, 1)}
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": _values(tournament),
        "players": [
            {"key": keys[registration.player_id]}
            | _values(registration.player)
            | {"username": registration.player.user.username if registration.player.user else None}
            for registration in registrations
        ],
        "registrations": [
            _values(registration) | {"player": keys[registration.player_id]}
            for registration in registrations
        ],
        "rounds": _rounds_export(tournament, start_numbers),
    }


# Columns that are not part of what a tournament is. A personal link signs its registration's
# id, which an import makes anew: links printed for the original never open the copy. An entry
# code is a credential: a copy's registrations draw new ones. A tournament's live games are
# never practice games, whose guest key and address hash stay empty. The roll call and the round
# clock are the evening's state at the venue, not results: a copy starts with everyone present
# and no clock running.
NOT_ARCHIVED = {
    (Registration, "personal_link_version"),
    (Registration, "entry_code"),
    (Registration, "present"),
    (Round, "clock_seconds"),
    (Round, "clock_started_at"),
    (Round, "clock_paused_at"),
    (Round, "clock_paused_seconds"),
    (LiveGame, "practice_guest"),
    (LiveGame, "practice_address"),
}


def _own(model: type[models.Model]) -> list[str]:
    """A model's own values: its columns but the id and the links to other rows.

    The links are written as the archive's own keys instead, beside these.
    """
    return [
        column.name
        for column in model._meta.get_fields()
        if column.concrete
        and not column.primary_key
        and not column.is_relation
        and (model, column.name) not in NOT_ARCHIVED
    ]


def _values(row: models.Model) -> dict[str, Any]:
    return _plain({name: getattr(row, name) for name in _own(type(row))})


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its dates and times in ISO 8601, as JSON holds them."""
    return {
        key: value.isoformat() if isinstance(value, datetime.date) else value
        for key, value in row.items()
    }


def _grouped(rows: Iterable[dict[str, Any]], key: str) -> defaultdict[Any, list[dict[str, Any]]]:
    """The rows by the value of `key`, which is taken out of each row; order kept."""
    groups: defaultdict[Any, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        owner = row.pop(key)
        groups[owner].append(_plain(row))
    return groups


def _with_children(
    rows: Iterable[dict[str, Any]], **children: dict[int, list[dict[str, Any]]]
) -> Iterable[dict[str, Any]]:
    """Each row without its pk, with its children (listed by the row's pk) under their names."""
    for row in rows:
        pk = row.pop("pk")
        yield row | {name: groups[pk] for name, groups in children.items()}


def _single(rows: Iterable[dict[str, Any]], key: str) -> dict[Any, dict[str, Any]]:
    """The rows by the value of `key` (one row each), which is taken out of each row."""
    return {owner: row for owner, (row,) in _grouped(rows, key).items()}


def _rows(queryset: models.QuerySet, *keys: str, **logins: str) -> Iterable[dict[str, Any]]:
    """The own values of each row of the query, with the values named by `keys`.

    `logins` maps a key of the archive to a user field of the model, whose username it holds.
    """
    names = {f"{key}_login": key for key in logins}
    values = queryset.values(
        *keys,
        *_own(queryset.model),
        **{f"{key}_login": F(f"{column}__username") for key, column in logins.items()},
    )
    for row in values:
        # A query cannot name a value after a field of its model (submitted_by ...).
        yield {names.get(key, key): value for key, value in row.items()}


def _rounds_export(tournament: Tournament, start_numbers: dict[int, int]) -> list[dict[str, Any]]:
    in_tournament = {"round__tournament": tournament}
    seats = defaultdict(list)
    for row in _rows(
        Seat.objects.filter(**in_tournament).order_by("table_id", "position"),
        "table_id",
        "registration_id",
    ):
        table_id, registration_id = row.pop("table_id"), row.pop("registration_id")
        seats[table_id].append(row | {"start_number": start_numbers.get(registration_id)})
    results = _results_export(tournament)
    games = _live_games_export(tournament)
    tables = defaultdict(list)
    for row in _rows(
        Table.objects.filter(**in_tournament).order_by("round_id", "number"), "pk", "round_id"
    ):
        table_id, round_id = row.pop("pk"), row.pop("round_id")
        tables[round_id].append(
            row
            | {
                "seats": seats[table_id],
                "result": results.get(table_id),
                "live_game": games.get(table_id),
            }
        )
    rounds = _rows(Round.objects.filter(tournament=tournament).order_by("number"), "pk")
    return [_plain(row) for row in _with_children(rounds, tables=tables)]


def _results_export(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each table's result (by table id) with every version of its score sheet."""
    in_tournament = {"table__round__tournament": tournament}
    rows = list(
        _rows(
            ResultVersion.objects.filter(**in_tournament).order_by("table_id", "number"),
            "pk",
            "table_id",
            submitted_by="submitted_by",
            reviewed_by="reviewed_by",
        )
    )
    numbers = {row.pop("pk"): row["number"] for row in rows}
    versions = _grouped(rows, "table_id")
    results = _single(
        _rows(TableResult.objects.filter(**in_tournament), "table_id", "confirmed_id"), "table_id"
    )
    for table_id, row in results.items():
        row["confirmed"] = numbers.get(row.pop("confirmed_id"))
        row["versions"] = versions[table_id]
    return results


def _live_games_export(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each table's live game (by table id) with its seats, seat changes, deals and actions.

    A deal still being played is left out, with its deck, salt and actions: its hands and the
    talon are secret until it is over, and whoever downloads the file may sit at that table. The
    game is written as it stood when that deal was dealt (between deals); an import deals anew.
    """
    in_tournament = {"game__table__round__tournament": tournament}
    unfinished = LiveDeal.objects.filter(**in_tournament, finished_at__isnull=True)
    in_play = list(unfinished.values_list("pk", flat=True))
    # The game's sequence where its deal in play began, by game id.
    resumed_at = dict(unfinished.values_list("game_id", "start_sequence"))
    seats = _grouped(
        _rows(
            LiveSeat.objects.filter(**in_tournament).order_by("game_id", "position"),
            "game_id",
            username="user",
        ),
        "game_id",
    )
    changes = _grouped(
        _rows(
            LiveSeatChange.objects.filter(**in_tournament).order_by("game_id", "changed_at", "pk"),
            "game_id",
            from_username="from_user",
            changed_by="changed_by",
        ),
        "game_id",
    )
    for game_id, sequence in resumed_at.items():
        for change in changes.get(game_id, []):
            # A bot that took a seat during the deal left out plays from the new deal on.
            change["sequence"] = min(change["sequence"], sequence)
    actions = _grouped(
        _rows(
            LiveAction.objects.filter(**in_tournament)
            .exclude(deal_id__in=in_play)
            .order_by("sequence"),
            "deal_id",
        ),
        "deal_id",
    )
    deals = _grouped(
        _with_children(
            _rows(
                LiveDeal.objects.filter(**in_tournament)
                .exclude(pk__in=in_play)
                .order_by("game_id", "number"),
                "pk",
                "game_id",
            ),
            actions=actions,
        ),
        "game_id",
    )
    games = list(
        _rows(LiveGame.objects.filter(table__round__tournament=tournament), "pk", "table_id")
    )
    for game in games:
        if game["pk"] in resumed_at:
            game.update(sequence=resumed_at[game["pk"]], to_act=None)
    return _single(
        _with_children(games, seats=seats, seat_changes=changes, deals=deals), "table_id"
    )


def archive_dumps(data: dict[str, Any]) -> str:
    """The archive as JSON text (UTF-8 names kept readable)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def archive_filename(tournament: Tournament) -> str:
    """The archive's file name: the slug of the tournament's name and its date."""
    slug = slugify(tournament.name, allow_unicode=True) or f"tournament-{tournament.pk}"
    return f"{slug}-{tournament.date.isoformat()}.json"
