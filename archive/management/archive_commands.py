"""What the archive commands share: writing an archive out, and reading one in as a director.

export_tournament and export_season write a JSON document to a file or standard output;
import_tournament and import_season read one (a file or standard input) into a club, acting as
the director named by --as or else the club's first director (or the first site administrator).
Each command says only what it exports or imports.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.exporter import archive_dumps
from archive.importer import archive_loads
from core.i18n import error_message
from tournaments.models import Club


class ExportCommand(BaseCommand):
    """Writes `exported(options)`'s document as JSON to --output, or to standard output."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "-o", "--output", help="the file to write (standard output if not given)"
        )

    def exported(self, options: dict[str, Any]) -> tuple[str, dict]:
        """The name of what is exported (for the closing line) and its archive."""
        raise NotImplementedError

    def handle(self, *args, **options) -> None:
        name, archive = self.exported(options)
        text = archive_dumps(archive)
        if not options["output"]:
            self.stdout.write(text)
            return
        try:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        except OSError as error:
            raise CommandError(f"Cannot write {options['output']}: {error.strerror}.") from None
        self.stdout.write(f"Wrote the archive of {name} to {options['output']}.")


class ImportCommand(BaseCommand):
    """Reads an archive and hands it to `imported`, all or nothing; a bad one changes nothing."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (- for standard input)")
        parser.add_argument("--club", required=True, help="the slug of the club to import into")
        parser.add_argument("--as", dest="username", help="the director who imports it")

    def imported(self, *, actor: User, club: Club, data: Any) -> str:
        """Import `data` into `club` as `actor`; the line that says what was made."""
        raise NotImplementedError

    def handle(self, *args, **options) -> None:
        data = read_archive(options["file"])
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"No club has the slug {options['club']}.")
        actor = importing_director(club, options["username"])
        try:
            line = self.imported(actor=actor, club=club, data=data)
        except (ValidationError, PermissionDenied) as error:
            raise CommandError(error_message(error)) from None
        self.stdout.write(line)


def read_archive(name: str) -> Any:
    """The archive in the file `name` ("-": standard input), decoded."""
    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {name}: {error.strerror}.") from None
    try:
        return archive_loads(raw)
    except ValidationError as error:
        raise CommandError(error_message(error)) from None


def importing_director(club: Club, username: str | None) -> User:
    """The user named by --as, or the club's first active director, or the first superuser."""
    if username is not None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user is called {username}.")
        return user
    user = (
        club.directors.filter(is_active=True).order_by("pk").first()
        or User.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    )
    if user is None:
        raise CommandError(f"{club} has no director; name the user to act as with --as.")
    return user
