"""A club season to one JSON document and back: the season's settings with the archive of each
of its tournaments (archive.exporter's documents, unchanged).

Season tables and ratings are derived, so they are not in the file: an import recreates the
season and its tournaments (each all or nothing with the others, through `tournament_import`,
which finds a club's players again by login, by creation time and name, or by name, so that a
person is one player in all of them) and then recomputes the club's ratings and the season's
table from the results, giving the same numbers as on the exporting site.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from pydantic import Field

from archive.exporter import tournament_export
from archive.importer import tournament_import
from archive.schema import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    SEASON_ARCHIVE_FORMAT,
    ArchiveDocument,
    Day,
    Moment,
    Seed,
    _check_version,
    _one_line_descriptions,
    _Part,
    _PublishedSchema,
    _validated,
    choice,
    number,
    problem,
    text,
    whole,
)
from ratings.season import (
    MAX_BEST_COUNT,
    MAX_PLACEMENT_VALUES,
    MAX_SEASON_POINTS,
    SCORINGS,
    SEASON_METRICS,
)
from seasons import services as season_services
from seasons.models import Season
from tournaments.models import Club, Tournament
from tournaments.selectors import is_director

# A club's season is a weekly or monthly series: a few dozen tournaments, far below this.
MAX_SEASON_TOURNAMENTS = 400


class ArchivedSeason(_Part):
    """The season's settings; the club is the one it is imported into."""

    name: text(120, blank=False)
    starts_on: Day
    ends_on: Day
    scoring: choice(list(SCORINGS))
    """"tournament_points": the sum of tournament points; "placement_points": points by each
    tournament's final rank."""
    best_count: whole(1, MAX_BEST_COUNT, null=True)
    """Only each player's best N tournaments count; null: all of them."""
    placement_points: Annotated[
        list[number(0, MAX_SEASON_POINTS)], Field(min_length=1, max_length=MAX_PLACEMENT_VALUES)
    ]
    """Season points by final rank, the winner's first."""
    precedence: Annotated[
        list[choice(list(SEASON_METRICS))], Field(min_length=1, max_length=len(SEASON_METRICS))
    ]
    """The season table's metrics in the order they rank players; "random" only last."""
    seed: Seed
    created_at: Moment


class SeasonArchiveDocument(_Part):
    """The archive of a club season (format "thousand-one-season", version 1): its settings and
    the archive of each of its tournaments, oldest first. Ratings and the season table are not
    in the file: an import computes them from the results."""

    format: Literal[SEASON_ARCHIVE_FORMAT]
    version: Literal[ARCHIVE_VERSION]
    exported_at: Moment
    season: ArchivedSeason
    tournaments: Annotated[list[ArchiveDocument], Field(max_length=MAX_SEASON_TOURNAMENTS)]


def season_export(*, season: Season) -> dict[str, Any]:
    """The season's archive as a JSON-ready dict (every tournament of it, public or not: the
    archive is the director's)."""
    tournaments = season.tournaments.order_by("date", "pk")
    return {
        "format": SEASON_ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "season": {
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
            "scoring": season.scoring,
            "best_count": season.best_count,
            "placement_points": [float(value) for value in season.placement_points],
            "precedence": list(season.precedence),
            "seed": season.seed,
            "created_at": season.created_at.isoformat(),
        },
        "tournaments": [tournament_export(tournament=t) for t in tournaments],
    }


def season_archive_filename(season: Season) -> str:
    """The archive's file name: the slug of the season's name, "season" and its first day."""
    slug = slugify(season.name, allow_unicode=True) or str(season.pk)
    return f"{slug}-season-{season.starts_on.isoformat()}.json"


def season_document(data: Any) -> SeasonArchiveDocument:
    """The document checked against its schema; ValidationError naming the bad element."""
    if not isinstance(data, dict):
        raise ValidationError(_("The archive must be a JSON object."), code="archive")
    if data.get("format") == ARCHIVE_FORMAT:
        raise problem(
            "format",
            _(
                "this is the archive of a tournament, not of a season: import it with “Import a "
                "tournament” on the director's home page, or with the command "
                "“manage.py import_tournament”"
            ),
        )
    if data.get("format") != SEASON_ARCHIVE_FORMAT:
        raise problem(
            "format",
            _("must be %(format)s: this is not a season archive of this app")
            % {"format": SEASON_ARCHIVE_FORMAT},
        )
    _check_version(data)
    return _validated(SeasonArchiveDocument, data)


@transaction.atomic
def season_import(*, actor: User, club: Club, data: Any) -> Season:
    """Recreate an archived season and its tournaments in `club`, all or nothing; the club's
    ratings and the season's table are recomputed once the import is committed."""
    if not is_director(actor, club):
        raise PermissionDenied(_("Only a director of this club may do this."))
    document = season_document(data)
    item = document.season
    name = item.name
    if Season.objects.filter(club=club, name=name).exists():
        name = _free_season_name(club, name)
    season = season_services.season_create(
        actor=actor,
        club=club,
        name=name,
        starts_on=item.starts_on,
        ends_on=item.ends_on,
        scoring=item.scoring,
        best_count=item.best_count,
        placement_points=list(item.placement_points),
        precedence=list(item.precedence),
    )
    Season.objects.filter(pk=season.pk).update(seed=item.seed, created_at=item.created_at)
    season.refresh_from_db()
    imported = []
    for index, tournament_data in enumerate(data["tournaments"]):
        try:
            tournament = tournament_import(actor=actor, club=club, data=tournament_data)
        except ValidationError as error:
            raise ValidationError(
                [_of_tournament(index, item) for item in error.error_list], code="archive"
            ) from None
        if not season.starts_on <= tournament.date <= season.ends_on:
            raise problem(
                f"tournaments[{index}].tournament.date",
                _("The tournament's date is outside the season's dates."),
            )
        imported.append(tournament.pk)
    # The tournaments' rows are the archive's own, so no save signal ran for them.
    Tournament.objects.filter(pk__in=imported).update(season=season)
    season_services.schedule_ratings(club.pk)
    season_services.schedule_season_standings(season.pk)
    return season


def _of_tournament(index: int, error: ValidationError) -> str:
    """A tournament's refusal within the season's document: a bad element's path
    ("rounds[2].number: ...") continues the tournament's, any other message follows it."""
    (message,) = error.messages
    separator = "." if error.code == "archive" else ": "
    return f"tournaments[{index}]{separator}{message}"


def _free_season_name(club: Club, name: str) -> str:
    number = 2
    while Season.objects.filter(club=club, name=f"{name} ({number})").exists():
        number += 1
    return f"{name} ({number})"


def season_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the season archive."""
    schema = _one_line_descriptions(
        SeasonArchiveDocument.model_json_schema(schema_generator=_PublishedSchema)
    )
    schema.pop("title")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Season archive (thousand-one-season, version 1)",
        **schema,
    }


def season_schema_text() -> str:
    """The published schema file's text (docs/season-archive-schema.json)."""
    return json.dumps(season_json_schema(), indent=2, ensure_ascii=False) + "\n"
