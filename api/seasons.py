"""REST API of club seasons (their tables, the tournaments in them) and players' ratings: thin
calls into the seasons services and selectors. Only public tournaments ever count in a season's
table or a rating, so what these read is public; writing is a director's of the club."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.filters import FilteredList, list_filters
from api.serializers.seasons import (
    PlayerRatingSerializer,
    SeasonSerializer,
    SeasonStandingsSerializer,
    SeasonTournamentSerializer,
    SeasonUpdateSerializer,
)
from api.tournaments import CLUB_FILTER, READ_OR_DIRECT, _valid
from seasons import selectors, services
from seasons.models import PlayerRating
from tournaments import selectors as tournament_selectors


@list_filters(CLUB_FILTER)
class SeasonViewSet(
    FilteredList, mixins.CreateModelMixin, mixins.UpdateModelMixin, viewsets.ReadOnlyModelViewSet
):
    serializer_class = SeasonSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]
    permission_classes = READ_OR_DIRECT

    def get_queryset(self):
        return selectors.seasons_listed()

    def create(self, request: Request) -> Response:
        data = dict(_valid(SeasonSerializer, request))
        season = services.season_create(actor=request.user, **data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SeasonUpdateSerializer, responses=SeasonSerializer)
    def partial_update(self, request: Request, pk=None) -> Response:
        season = self.get_object()
        data = _valid(SeasonUpdateSerializer, request, partial=True)
        season = services.season_update(actor=request.user, season=season, **data)
        return Response(SeasonSerializer(season).data)

    @extend_schema(responses=SeasonStandingsSerializer)
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk=None) -> Response:
        """The season's stored table (recomputed in the background when results change)."""
        season = self.get_object()
        table = selectors.season_standings(season)
        return Response(
            {
                "season": season.pk,
                "computed_at": table.computed_at if table else None,
                "tournaments": table.tournaments if table else [],
                "rows": [{key: row[key] for key in SEASON_ROW_FIELDS} for row in table.rows]
                if table
                else [],
            }
        )

    @extend_schema(request=SeasonTournamentSerializer, responses=SeasonSerializer)
    @action(detail=True, methods=["post"], serializer_class=SeasonTournamentSerializer)
    def tournaments(self, request: Request, pk=None) -> Response:
        """Put one of the club's tournaments into the season, or take it out."""
        season = self.get_object()
        data = _valid(SeasonTournamentSerializer, request)
        tournament = data["tournament"]
        if data["included"]:
            services.tournament_season_set(actor=request.user, tournament=tournament, season=season)
        elif tournament.season_id == season.pk:
            services.tournament_season_set(actor=request.user, tournament=tournament, season=None)
        return Response(SeasonSerializer(season).data)


SEASON_ROW_FIELDS = (
    "rank",
    "tied",
    "player",
    "name",
    "season_points",
    "tournaments_played",
    "tournament_wins",
    "best_rank",
    "all_points",
    "results",
)


class PlayerRatingView(APIView):
    """A player's club rating and its history after each of his public rated tournaments."""

    @extend_schema(responses=PlayerRatingSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(
            tournament_selectors.players_visible_to(request.user), pk=player_id
        )
        rating = PlayerRating.objects.filter(player=player).first()
        history = selectors.rating_history(player)
        return Response(
            PlayerRatingSerializer(
                {
                    "player": player.pk,
                    "rating": rating.conservative if rating else None,
                    "mu": rating.mu if rating else None,
                    "sigma": rating.sigma if rating else None,
                    "tables": rating.tables if rating else 0,
                    "history": history,
                }
            ).data
        )
