"""Websocket routes of the pages: the live standings of a public tournament."""

from django.urls import path

from web.consumers import StandingsConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/standings/", StandingsConsumer.as_asgi()),
]
