"""REST representations of clubs, players, tournaments, registrations, rounds, tables and seats."""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"slug": {"required": False}}


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), required=False, allow_null=True, write_only=True
    )

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "created_at"]
        read_only_fields = ["id", "created_at"]


class PlayerUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all())
    rules = serializers.JSONField(required=False)
    standings_precedence = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, max_length=10
    )
    placement_points = serializers.JSONField(required=False)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "date",
            "status",
            "rounds_planned",
            "table_size",
            "bots_allowed",
            "round_format",
            "deals_per_round",
            "rules",
            "seating_mode",
            "standings_precedence",
            "placement_points",
            "quick_results_allowed",
            "is_public",
            "created_at",
        ]
        read_only_fields = ["id", "status", "created_at"]


class TournamentUpdateSerializer(TournamentSerializer):
    class Meta(TournamentSerializer.Meta):
        read_only_fields = ["id", "club", "status", "created_at"]


class RegistrationSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Registration
        fields = [
            "id",
            "tournament",
            "player",
            "player_name",
            "start_number",
            "status",
            "first_round",
            "withdrawn_after",
            "created_at",
        ]
        read_only_fields = [
            "id",
            "start_number",
            "status",
            "first_round",
            "withdrawn_after",
            "created_at",
        ]


class SeatSerializer(serializers.ModelSerializer):
    player_name = serializers.SerializerMethodField()
    start_number = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = ["id", "position", "registration", "player_name", "start_number", "bot_level"]

    def get_player_name(self, seat: Seat) -> str | None:
        return seat.registration.player.name if seat.registration_id else None

    def get_start_number(self, seat: Seat) -> int | None:
        return seat.registration.start_number if seat.registration_id else None


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    tournament = serializers.IntegerField(source="round.tournament_id", read_only=True)

    class Meta:
        model = Table
        fields = ["id", "tournament", "round", "round_number", "number", "seats"]


class RoundSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "status",
            "seed",
            "created_at",
            "published_at",
            "tables",
        ]


class RoundSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "seed", "created_at", "published_at"]


class DrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)


class SwapSerializer(serializers.Serializer):
    first_seat = serializers.IntegerField(min_value=1)
    second_seat = serializers.IntegerField(min_value=1)
