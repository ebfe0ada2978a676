"""Serializers of club seasons, their tables and players' ratings."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.tournaments import ScopedRelatedField, _club_field, _directed_tournaments
from ratings.season import (
    MAX_BEST_COUNT,
    MAX_PLACEMENT_VALUES,
    MAX_SEASON_POINTS,
    SEASON_METRICS,
)
from seasons.models import Season


class SeasonSerializer(serializers.ModelSerializer):
    club = _club_field()
    best_count = serializers.IntegerField(
        min_value=1, max_value=MAX_BEST_COUNT, required=False, allow_null=True
    )
    placement_points = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=MAX_SEASON_POINTS),
        min_length=1,
        max_length=MAX_PLACEMENT_VALUES,
        required=False,
    )
    precedence = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SEASON_METRICS)),
        min_length=1,
        max_length=len(SEASON_METRICS),
        required=False,
    )

    class Meta:
        model = Season
        fields = [
            "id",
            "club",
            "name",
            "starts_on",
            "ends_on",
            "scoring",
            "best_count",
            "placement_points",
            "precedence",
            "created_at",
        ]
        read_only_fields = ["id", "created_at"]


class SeasonUpdateSerializer(SeasonSerializer):
    club = serializers.PrimaryKeyRelatedField(read_only=True)


@extend_schema_field(OpenApiTypes.INT)
class TournamentIdField(ScopedRelatedField):
    """A tournament's id among those the user directs (an integer in the schema)."""


class SeasonTournamentSerializer(serializers.Serializer):
    tournament = TournamentIdField(
        scope=_directed_tournaments,
        refused=_("You do not direct a tournament with this id."),
    )
    included = serializers.BooleanField(
        help_text="true: the tournament joins the season; false: it leaves it."
    )


class SeasonRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    season_points = serializers.FloatField()
    tournaments_played = serializers.IntegerField()
    tournament_wins = serializers.IntegerField()
    best_rank = serializers.IntegerField(help_text="0 for a player who played no tournament.")
    all_points = serializers.FloatField()
    results = serializers.ListField(
        child=serializers.DictField(),
        help_text="Per tournament, in the order of `tournaments`: value and counted.",
    )


class SeasonTournamentEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()


class SeasonStandingsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    tournaments = SeasonTournamentEntrySerializer(many=True)
    rows = SeasonRowSerializer(many=True)


class RatingPointSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    tournament_name = serializers.CharField()
    date = serializers.DateField()
    rating = serializers.FloatField()
    sigma = serializers.FloatField()


class PlayerRatingSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    rating = serializers.FloatField(
        allow_null=True, help_text="mu - 3 sigma: the cautious rating; null while unrated."
    )
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    tables = serializers.IntegerField()
    history = RatingPointSerializer(many=True)
