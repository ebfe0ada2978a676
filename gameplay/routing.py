"""Websocket routes of live tables."""

from django.urls import path

from gameplay.consumers import LiveGameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", LiveGameConsumer.as_asgi()),
]
