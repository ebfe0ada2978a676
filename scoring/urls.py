"""URL routes of the player's pages: my table, score sheet entry, confirmation."""

from django.urls import path

from scoring import views

urlpatterns = [
    path("me/", views.player_home, name="player-home"),
]
