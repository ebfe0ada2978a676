"""Recreates a club season and its tournaments from its archive in a club, all or nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from archive.management.archive_commands import ImportCommand
from archive.seasons import season_import
from tournaments.models import Club


class Command(ImportCommand):
    help = (
        "Recreate a season from an archive written by export_season in the club of the given "
        "slug, acting as --as or the club's first director; the club's ratings and the season's "
        "table are recomputed from the results. A bad archive changes nothing."
    )

    def imported(self, *, actor: User, club: Club, data: Any) -> str:
        season = season_import(actor=actor, club=club, data=data)
        return f"Imported {season.name} into {club} as season {season.pk}."
