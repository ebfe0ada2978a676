"""Recreates a tournament from its archive (see archive.importer) in a club, all or nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from archive.importer import tournament_import
from archive.management.archive_commands import ImportCommand
from tournaments.models import Club


class Command(ImportCommand):
    help = (
        "Recreate a tournament from an archive written by export_tournament (or downloaded from "
        "the director's page) in the club of the given slug. The import acts as a director of "
        "the club: the user named by --as, or else the club's first director (or the first "
        "site administrator). A bad archive changes nothing and names its bad element."
    )

    def imported(self, *, actor: User, club: Club, data: Any) -> str:
        tournament = tournament_import(actor=actor, club=club, data=data)
        return f"Imported {tournament.name} into {club} as tournament {tournament.pk}."
