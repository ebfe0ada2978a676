"""URL routes of the public season pages and players' profiles across tournaments."""

from django.urls import path

from web.views import seasons

season = "seasons/<int:season_id>/"

urlpatterns = [
    path("seasons/", seasons.season_list, name="public-season-list"),
    path(season, seasons.season_detail, name="public-season"),
    path(f"{season}wall/", seasons.season_wall, name="public-season-wall"),
    path(f"{season}wall/live/", seasons.season_wall_live, name="public-season-wall-live"),
    path(f"{season}table.csv", seasons.season_csv, name="public-season-csv"),
    path("players/<int:player_id>/", seasons.player_profile, name="public-player-profile"),
]
