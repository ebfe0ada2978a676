"""Writes the JSON Schema of the tournament archive (archive.schema), as docs/archive-schema.json
publishes it: `python manage.py archive_schema -o docs/archive-schema.json` after changing the
format; with --season, the season archive's (archive.seasons, docs/season-archive-schema.json)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.schema import archive_schema_text


class Command(BaseCommand):
    help = (
        "Write the JSON Schema of the tournament archive (the format of export_tournament and "
        "import_tournament), generated from archive/schema.py; docs/archive-schema.json is it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "-o", "--output", help="the file to write (standard output if not given)"
        )
        parser.add_argument(
            "--season", action="store_true", help="the season archive's schema instead"
        )

    def handle(self, *args, **options) -> None:
        if options["season"]:
            from archive.seasons import season_schema_text

            text = season_schema_text()
        else:
            text = archive_schema_text()
        if not options["output"]:
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["output"]).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {options['output']}: {error.strerror}.") from None
        self.stdout.write(f"Wrote the archive's JSON Schema to {options['output']}.")
