"""URL routes of the player's pages: getting in, my table, score sheet entry, confirmation."""

from django.urls import path

from web.views import player as views

urlpatterns = [
    path("me/", views.player_home, name="player-home"),
    path("me/status/", views.player_status, name="player-status"),
    path("me/enter/", views.player_enter, name="player-enter"),
    path("me/link/<str:token>/", views.personal_link, name="player-link"),
    path("tables/<int:table_id>/seat/", views.table_seat, name="table-seat"),
    path(
        "tables/<int:table_id>/seat/<int:position>/hand-over/",
        views.table_seat_hand_over,
        name="table-seat-hand-over",
    ),
    path("tables/<int:table_id>/sheet/", views.table_sheet, name="table-sheet"),
    path(
        "tables/<int:table_id>/sheet/status/", views.table_sheet_status, name="table-sheet-status"
    ),
    path("tables/<int:table_id>/sheet/check/", views.table_sheet_check, name="table-sheet-check"),
    path(
        "tables/<int:table_id>/result/<int:number>/confirm/",
        views.result_confirm,
        name="table-result-confirm",
    ),
    path(
        "tables/<int:table_id>/result/<int:number>/dispute/",
        views.result_dispute,
        name="table-result-dispute",
    ),
]
