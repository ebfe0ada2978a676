"""REST representations of clubs, players, tournaments, registrations, rounds, tables and seats.

A field that points at another record takes only records the requesting user may use (the
serializer's context holds the request): the clubs he directs, their tournaments and players, and
his own login. These are also the only choices the browsable API's forms list, so that its pages
name nothing the user may not see; any other id, existing or not, gets the same 400.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tournaments import selectors
from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament
from tournaments.services import OPTION_FIELDS, SEED_LIMIT


class ScopedRelatedField(serializers.PrimaryKeyRelatedField):
    """The id of a record among those `scope(user)` gives the requesting user.

    Any other id, of a record he may not use or of none at all, gets the same message, so that
    the answer does not tell which records exist.
    """

    def __init__(self, *, scope: Callable[[object], QuerySet], refused: str, **kwargs) -> None:
        self.scope = scope
        kwargs["error_messages"] = {"does_not_exist": refused, **kwargs.get("error_messages", {})}
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet:
        request = self.context.get("request")
        return self.scope(getattr(request, "user", None))


def _directed_clubs(user) -> QuerySet[Club]:
    return Club.objects.filter(pk__in=selectors.directed_club_ids(user)).order_by("name")


def _directed_tournaments(user) -> QuerySet[Tournament]:
    return selectors.tournaments_directed_by(user).order_by("-date", "-id")


def _directed_players(user) -> QuerySet[Player]:
    return Player.objects.filter(club_id__in=selectors.directed_club_ids(user)).order_by(
        "name", "id"
    )


def _linkable_logins(user):
    """His own login; every login for a site administrator (see `services.player_create`)."""
    logins = get_user_model().objects.order_by("username")
    if user is None or not user.is_authenticated:
        return logins.none()
    return logins if user.is_superuser else logins.filter(pk=user.pk)


def _club_field() -> ScopedRelatedField:
    return ScopedRelatedField(scope=_directed_clubs, refused=_("You direct no club with this id."))


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "created_at"]
        read_only_fields = ["id", "created_at"]
        extra_kwargs = {"slug": {"required": False}}


class PlayerSerializer(serializers.ModelSerializer):
    club = _club_field()
    user = ScopedRelatedField(
        scope=_linkable_logins,
        refused=_(
            "You may link only your own login to a player; a site administrator links others."
        ),
        required=False,
        allow_null=True,
        write_only=True,
    )

    class Meta:
        model = Player
        fields = ["id", "club", "name", "user", "created_at"]
        read_only_fields = ["id", "created_at"]


class PlayerUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=Player._meta.get_field("name").max_length)


class TournamentSerializer(serializers.ModelSerializer):
    club = _club_field()
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
            *OPTION_FIELDS,
            "created_at",
        ]
        read_only_fields = ["id", "status", "created_at"]


class TournamentUpdateSerializer(TournamentSerializer):
    # Declared, since Meta.read_only_fields does not apply to a field declared by the parent.
    club = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta(TournamentSerializer.Meta):
        read_only_fields = ["id", "club", "status", "created_at"]


class RegistrationSerializer(serializers.ModelSerializer):
    tournament = ScopedRelatedField(
        scope=_directed_tournaments, refused=_("You direct no tournament with this id.")
    )
    player = ScopedRelatedField(
        scope=_directed_players, refused=_("No player of the clubs you direct has this id.")
    )
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
        # Output only; a writable relation would list every record in the browsable API's form.
        read_only_fields = ["registration"]

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
        read_only_fields = ["round"]  # as SeatSerializer's


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
        read_only_fields = ["tournament"]  # as SeatSerializer's


class RoundSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["id", "tournament", "number", "status", "seed", "created_at", "published_at"]
        read_only_fields = ["tournament"]  # as SeatSerializer's


class DrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=SEED_LIMIT - 1)


class SwapSerializer(serializers.Serializer):
    first_seat = serializers.IntegerField(min_value=1)
    second_seat = serializers.IntegerField(min_value=1)
