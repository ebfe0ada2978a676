"""URL routes of the public pages: tournaments, draws, results, standings, player pages."""

from django.urls import path

from web.views import public, venue

tournament = "tournaments/<int:tournament_id>/"

urlpatterns = [
    path("tournaments/", public.tournament_list, name="public-tournament-list"),
    path(tournament, public.tournament_detail, name="public-tournament"),
    path(f"{tournament}rounds/<int:number>/", public.round_detail, name="public-round"),
    path(
        f"{tournament}rounds/<int:number>/tables/<int:table_number>/",
        public.table_detail,
        name="public-table",
    ),
    path(f"{tournament}standings/", public.standings, name="public-standings"),
    path(f"{tournament}standings/live/", public.standings_live, name="public-standings-live"),
    path(f"{tournament}standings.csv", public.standings_csv, name="public-standings-csv"),
    path(f"{tournament}results.csv", public.results_csv, name="public-results-csv"),
    path(f"{tournament}wall/", public.wall, name="public-wall"),
    path(f"{tournament}wall/live/", public.wall_live, name="public-wall-live"),
    path(f"{tournament}players/<int:start_number>/", public.player_detail, name="public-player"),
]

# Find your seat (web/views/venue.py): the current round's players alphabetically.
urlpatterns += [
    path(f"{tournament}seats/", venue.seat_list, name="public-seat-list"),
]
