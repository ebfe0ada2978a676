"""URL routes of the REST API and its OpenAPI schema and documentation."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from api.results import ConfirmResultView, DisputeResultView, StandingsView, TableResultsView
from api.seasons import PlayerRatingView, SeasonViewSet
from api.tournaments import (
    ClubViewSet,
    PlayerViewSet,
    RegistrationViewSet,
    RoundViewSet,
    TableViewSet,
    TournamentViewSet,
)
from core.login_limit import RateLimitedObtainAuthToken

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("registrations", RegistrationViewSet, basename="registration")
router.register("rounds", RoundViewSet, basename="round")
router.register("tables", TableViewSet, basename="table")
router.register("seasons", SeasonViewSet, basename="season")

urlpatterns = [
    path("", include(router.urls)),
    path("tables/<int:table_id>/results/", TableResultsView.as_view(), name="table-results"),
    path(
        "tables/<int:table_id>/results/<int:number>/confirm/",
        ConfirmResultView.as_view(),
        name="table-result-confirm",
    ),
    path(
        "tables/<int:table_id>/results/<int:number>/dispute/",
        DisputeResultView.as_view(),
        name="table-result-dispute",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/",
        StandingsView.as_view(),
        name="tournament-standings",
    ),
    path("players/<int:player_id>/rating/", PlayerRatingView.as_view(), name="player-rating"),
    path("token/", RateLimitedObtainAuthToken.as_view(), name="api-token"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file of its own (?script): no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]
