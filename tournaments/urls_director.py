"""URL routes of the director's pages (under /manage/)."""

from django.urls import path

from tournaments.views import director

urlpatterns = [
    path("", director.home, name="director-home"),
]
