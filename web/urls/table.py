"""URL routes of live games: the table page, its polling fallback and the deal replays."""

from django.urls import path

from web.views import practice as practice_views
from web.views import table as views

game = "games/<int:game_id>/"

urlpatterns = [
    path("practice/", practice_views.practice_start, name="practice-start"),
    path(game, views.live_game, name="live-game"),
    path(f"{game}state/", views.live_game_state, name="live-game-state"),
    path(f"{game}act/", views.live_game_act, name="live-game-act"),
    path(f"{game}deals/<int:number>/replay/", views.live_deal_replay, name="live-deal-replay"),
    path("tables/<int:table_id>/play/", views.table_play, name="table-play"),
]
