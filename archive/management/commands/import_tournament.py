"""Recreates a tournament from its archive (see archive.importer) in a club, all or nothing."""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.importer import archive_loads, tournament_import
from core.i18n import error_message
from tournaments.models import Club


class Command(BaseCommand):
    help = (
        "Recreate a tournament from an archive written by export_tournament (or downloaded from "
        "the director's page) in the club of the given slug. The import acts as a director of "
        "the club: the user named by --as, or else the club's first director (or the first "
        "site administrator). A bad archive changes nothing and names its bad element."
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
            tournament = tournament_import(actor=actor, club=club, data=data)
        except (ValidationError, PermissionDenied) as error:
            raise CommandError(_message(error)) from None
        self.stdout.write(f"Imported {tournament.name} into {club} as tournament {tournament.pk}.")


def _read(name: str):
    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {name}: {error.strerror}.") from None
    try:
        return archive_loads(raw)
    except ValidationError as error:
        raise CommandError(_message(error)) from None


def _actor(club: Club, username: str | None) -> User:
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


def _message(error: ValidationError | PermissionDenied) -> str:
    return error_message(error)
