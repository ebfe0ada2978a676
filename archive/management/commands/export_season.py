"""Writes the archive of a club season (its settings and every tournament) to a file or
standard output."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from archive.management.archive_commands import ExportCommand
from archive.seasons import season_export
from seasons.models import Season


class Command(ExportCommand):
    help = (
        "Write the archive of a season (its rule and the archive of each of its tournaments) "
        "as JSON; import_season recreates it, ratings and season table recomputed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", type=int, help="the season's id")
        super().add_arguments(parser)

    def exported(self, options: dict[str, Any]) -> tuple[str, dict]:
        season = Season.objects.filter(pk=options["season"]).first()
        if season is None:
            raise CommandError(f"No season has the id {options['season']}.")
        return season.name, season_export(season=season)
