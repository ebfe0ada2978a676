"""Writes the archive of a club season (its settings and every tournament) to a file or
standard output."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.exporter import archive_dumps
from archive.seasons import season_export
from seasons.models import Season


class Command(BaseCommand):
    help = (
        "Write the archive of a season (its rule and the archive of each of its tournaments) "
        "as JSON; import_season recreates it, ratings and season table recomputed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", type=int, help="the season's id")
        parser.add_argument(
            "-o", "--output", help="the file to write (standard output if not given)"
        )

    def handle(self, *args, **options) -> None:
        season = Season.objects.filter(pk=options["season"]).first()
        if season is None:
            raise CommandError(f"No season has the id {options['season']}.")
        text = archive_dumps(season_export(season=season))
        if not options["output"]:
            self.stdout.write(text)
            return
        try:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {options['output']}: {error.strerror}.") from None
        self.stdout.write(f"Wrote the archive of {season.name} to {options['output']}.")
