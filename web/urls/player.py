"""URL routes of the player's pages: my table, score sheet entry, confirmation."""

from django.urls import path

from web.views import player as views

urlpatterns = [
    path("me/", views.player_home, name="player-home"),
    path("me/link/<str:token>/", views.personal_link, name="player-link"),
    path("tables/<int:table_id>/sheet/", views.table_sheet, name="table-sheet"),
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
