"""Writes the archive of a whole tournament (one JSON document) to a file or standard output."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.text import slugify

from archive.exporter import archive_filename, tournament_export
from archive.management.archive_commands import ExportCommand
from tournaments.models import Tournament


class Command(ExportCommand):
    help = (
        "Write the archive of a tournament (players, rounds, seats, every score sheet version, "
        "live games) as JSON; import_tournament recreates it. The tournament is given by its id "
        "or the slug of its name, with or without its date (winter-cup, winter-cup-2026-12-05)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="the tournament's id or slug")
        super().add_arguments(parser)

    def exported(self, options: dict[str, Any]) -> tuple[str, dict]:
        tournament = find_tournament(options["tournament"])
        return tournament.name, tournament_export(tournament=tournament)


def find_tournament(reference: str) -> Tournament:
    """The tournament of an id, or the only one whose file name (without .json) or slug this is."""
    if reference.isdigit():
        tournament = Tournament.objects.filter(pk=int(reference)).first()
        if tournament is None:
            raise CommandError(f"No tournament has the id {reference}.")
        return tournament
    wanted = reference.removesuffix(".json")
    matches = [
        tournament
        for tournament in Tournament.objects.select_related("club").order_by("pk")
        if wanted
        in (
            slugify(tournament.name, allow_unicode=True),
            archive_filename(tournament).removesuffix(".json"),
        )
    ]
    if not matches:
        raise CommandError(f"No tournament is called {reference}; give its id or its slug.")
    if len(matches) > 1:
        listed = ", ".join(f"{t.pk} ({t.club}, {t.date.isoformat()})" for t in matches)
        raise CommandError(f"Several tournaments are called {reference}: {listed}; give the id.")
    return matches[0]
