"""REST API of clubs, players, tournaments, registrations and rounds: thin calls into services.

Who may write is checked before the request's data is read (`DirectorWrites`), so that someone who
may not write learns nothing from the validation messages; the services check again.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api.filters import FilteredList, ListFilter, list_filters
from api.serializers.tournaments import (
    ClubSerializer,
    DrawSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
    RegistrationSerializer,
    RoundSerializer,
    RoundSummarySerializer,
    SwapSerializer,
    TableSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)
from draws import services as draw_services
from tournaments import selectors, services
from tournaments.models import Club, Registration, Round, Seat, Tournament


def _valid(serializer_class, request: Request, **kwargs):
    # The request goes with the data: the related fields take only records the user may use.
    serializer = serializer_class(data=request.data, context={"request": request}, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _club_id(record) -> int:
    if isinstance(record, Club):
        return record.pk
    if isinstance(record, Registration | Round):
        return record.tournament.club_id
    return record.club_id


class DirectorWrites(permissions.BasePermission):
    """Creating needs a director (of any club); changing a record, a director of its club."""

    message = gettext_lazy("Only a director of this club may do this.")

    def has_permission(self, request: Request, view) -> bool:
        if request.method in permissions.SAFE_METHODS or view.action != "create":
            return True
        return bool(selectors.directed_club_ids(request.user))

    def has_object_permission(self, request: Request, view, record) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return selectors.is_director(request.user, _club_id(record))


class AdministratorCreates(permissions.BasePermission):
    """Clubs are created by a site administrator only."""

    message = gettext_lazy("Only a site administrator may do this.")

    def has_permission(self, request: Request, view) -> bool:
        if request.method in permissions.SAFE_METHODS or view.action != "create":
            return True
        return bool(request.user and request.user.is_superuser)


READ_OR_DIRECT = [permissions.IsAuthenticatedOrReadOnly, DirectorWrites]


def _status_filter(model, what: str) -> ListFilter:
    return ListFilter(
        "status", "status", f"Only the {what} of this status.", tuple(model.Status.values)
    )


CLUB_FILTER = ListFilter("club", "club_id", "Only those of the club with this id.")
TOURNAMENT_FILTER = ListFilter(
    "tournament", "tournament_id", "Only those of the tournament with this id."
)


@list_filters()
class ClubViewSet(FilteredList, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = ClubSerializer
    queryset = Club.objects.order_by("name")
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, AdministratorCreates]

    def create(self, request: Request) -> Response:
        data = _valid(ClubSerializer, request)
        club = services.club_create(
            actor=request.user,
            name=data["name"],
            slug=data.get("slug", ""),
            directors=[request.user],
        )
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


@list_filters(CLUB_FILTER)
class PlayerViewSet(
    FilteredList, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    serializer_class = PlayerSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]
    permission_classes = READ_OR_DIRECT

    def get_queryset(self):
        return selectors.players_visible_to(self.request.user).order_by("name", "id")

    def create(self, request: Request) -> Response:
        data = _valid(PlayerSerializer, request)
        player = services.player_create(
            actor=request.user, club=data["club"], name=data["name"], user=data.get("user")
        )
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses=PlayerSerializer)
    def partial_update(self, request: Request, pk=None) -> Response:
        player = self.get_object()
        data = _valid(PlayerUpdateSerializer, request)
        player = services.player_update(actor=request.user, player=player, **data)
        return Response(PlayerSerializer(player).data)


@list_filters(CLUB_FILTER, _status_filter(Tournament, "tournaments"))
class TournamentViewSet(
    FilteredList, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    serializer_class = TournamentSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]
    permission_classes = READ_OR_DIRECT

    def get_queryset(self):
        return selectors.tournaments_visible_to(self.request.user).order_by("-date", "-id")

    def create(self, request: Request) -> Response:
        data = dict(_valid(TournamentSerializer, request))
        tournament = services.tournament_create(
            actor=request.user,
            club=data.pop("club"),
            name=data.pop("name"),
            date=data.pop("date"),
            **data,
        )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentUpdateSerializer, responses=TournamentSerializer)
    def partial_update(self, request: Request, pk=None) -> Response:
        tournament = self.get_object()
        data = _valid(TournamentUpdateSerializer, request, partial=True)
        tournament = services.tournament_update(actor=request.user, tournament=tournament, **data)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk=None) -> Response:
        tournament = services.tournament_finish(actor=request.user, tournament=self.get_object())
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(responses=RoundSummarySerializer(many=True), methods=["GET"])
    @extend_schema(request=DrawSerializer, responses={201: RoundSerializer}, methods=["POST"])
    # The rounds of one tournament are few and come in one list, never in pages.
    @action(
        detail=True, methods=["get", "post"], pagination_class=None, serializer_class=DrawSerializer
    )
    def rounds(self, request: Request, pk=None) -> Response:
        """GET: the rounds; POST: draw the next round (a draft to check, redraw or publish)."""
        tournament = self.get_object()
        if request.method == "POST":
            data = _valid(DrawSerializer, request)
            round_ = draw_services.round_draw(
                actor=request.user, tournament=tournament, seed=data.get("seed")
            )
            return Response(
                RoundSerializer(_round_with_tables(request, round_.pk)).data,
                status=status.HTTP_201_CREATED,
            )
        rounds = _rounds_visible(request, tournament)
        return Response(RoundSummarySerializer(rounds, many=True).data)


def _rounds_visible(request: Request, tournament: Tournament):
    rounds = tournament.rounds.order_by("number")
    if not selectors.is_director(request.user, tournament.club_id):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


def _round_with_tables(request: Request, pk: int) -> Round:
    return selectors.rounds_visible_to(request.user).get(pk=pk)


@list_filters(
    TOURNAMENT_FILTER,
    ListFilter("player", "player_id", "Only those of the player with this id."),
    _status_filter(Registration, "registrations"),
)
class RegistrationViewSet(FilteredList, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = RegistrationSerializer
    permission_classes = READ_OR_DIRECT

    def get_queryset(self):
        visible = selectors.tournaments_visible_to(self.request.user)
        registrations = Registration.objects.filter(tournament__in=visible).select_related("player")
        return registrations.order_by("tournament_id", "start_number")

    def create(self, request: Request) -> Response:
        data = _valid(RegistrationSerializer, request)
        registration = services.registration_create(
            actor=request.user, tournament=data["tournament"], player=data["player"]
        )
        return Response(RegistrationSerializer(registration).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=RegistrationSerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk=None) -> Response:
        registration = services.registration_withdraw(
            actor=request.user, registration=self.get_object()
        )
        return Response(RegistrationSerializer(registration).data)


@list_filters(TOURNAMENT_FILTER, _status_filter(Round, "rounds"))
class RoundViewSet(FilteredList, viewsets.ReadOnlyModelViewSet):
    serializer_class = RoundSerializer
    permission_classes = READ_OR_DIRECT

    def get_queryset(self):
        return selectors.rounds_visible_to(self.request.user)

    @extend_schema(request=DrawSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"], serializer_class=DrawSerializer)
    def redraw(self, request: Request, pk=None) -> Response:
        round_ = self.get_object()
        data = _valid(DrawSerializer, request)
        round_ = draw_services.round_redraw(
            actor=request.user, round_=round_, seed=data.get("seed")
        )
        return Response(RoundSerializer(_round_with_tables(request, round_.pk)).data)

    @extend_schema(request=SwapSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"], serializer_class=SwapSerializer)
    def swap(self, request: Request, pk=None) -> Response:
        round_ = self.get_object()
        data = _valid(SwapSerializer, request)
        first = get_object_or_404(Seat, pk=data["first_seat"], round=round_)
        second = get_object_or_404(Seat, pk=data["second_seat"], round=round_)
        draw_services.round_swap_seats(
            actor=request.user, round_=round_, first=first, second=second
        )
        return Response(RoundSerializer(_round_with_tables(request, round_.pk)).data)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def publish(self, request: Request, pk=None) -> Response:
        round_ = draw_services.round_publish(actor=request.user, round_=self.get_object())
        return Response(RoundSerializer(_round_with_tables(request, round_.pk)).data)


@list_filters(
    ListFilter("tournament", "round__tournament_id", "Only those of the tournament with this id."),
    ListFilter("round", "round_id", "Only those of the round with this id."),
)
class TableViewSet(FilteredList, viewsets.ReadOnlyModelViewSet):
    serializer_class = TableSerializer

    def get_queryset(self):
        return selectors.tables_visible_to(self.request.user)
