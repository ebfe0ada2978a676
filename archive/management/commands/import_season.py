"""Recreates a club season and its tournaments from its archive in a club, all or nothing."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.management.commands.import_tournament import _actor, _message, _read
from archive.seasons import season_import
from tournaments.models import Club


class Command(BaseCommand):
    help = (
        "Recreate a season from an archive written by export_season in the club of the given "
        "slug, acting as --as or the club's first director; the club's ratings and the season's "
        "table are recomputed from the results. A bad archive changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (- for standard input)")
        parser.add_argument("--club", required=True, help="the slug of the club to import into")
        parser.add_argument("--as", dest="username", help="the director who imports it")

    def handle(self, *args, **options) -> None:
        data = _read(options["file"])
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"No club has the slug {options['club']}.")
        actor = _actor(club, options["username"])
        try:
            season = season_import(actor=actor, club=club, data=data)
        except (ValidationError, PermissionDenied) as error:
            raise CommandError(_message(error)) from None
        self.stdout.write(f"Imported {season.name} into {club} as season {season.pk}.")
