"""URL routes of the director's season pages (under /manage/)."""

from django.urls import path

from web.views import director_seasons

urlpatterns = [
    path("seasons/", director_seasons.seasons, name="director-seasons"),
    path("seasons/import/", director_seasons.season_import, name="director-season-import"),
    path("seasons/<int:pk>/", director_seasons.season_edit, name="director-season"),
    path("seasons/<int:pk>/delete/", director_seasons.season_delete, name="director-season-delete"),
    path(
        "seasons/<int:pk>/archive/",
        director_seasons.season_archive_download,
        name="director-season-archive",
    ),
]
