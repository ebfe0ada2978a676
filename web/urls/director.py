"""URL routes of the director's pages (under /manage/)."""

from django.urls import path

from web.views import director, director_corrections, printing, venue

urlpatterns = [
    path("", director.home, name="director-home"),
    path("tournaments/new/", director.tournament_create, name="director-tournament-create"),
    path("tournaments/<int:pk>/", director.tournament_detail, name="director-tournament"),
    path(
        "tournaments/<int:pk>/archive/",
        director.tournament_archive,
        name="director-tournament-archive",
    ),
    path("tournaments/import/", director.tournament_import, name="director-tournament-import"),
    path(
        "tournaments/<int:pk>/ranking/print/",
        printing.final_ranking,
        name="director-final-ranking",
    ),
    path("tournaments/<int:pk>/edit/", director.tournament_edit, name="director-tournament-edit"),
    path(
        "tournaments/<int:pk>/finish/",
        director_corrections.tournament_finish,
        name="director-tournament-finish",
    ),
    path(
        "tournaments/<int:pk>/reopen/",
        director_corrections.tournament_reopen,
        name="director-tournament-reopen",
    ),
    path(
        "tournaments/<int:pk>/delete/",
        director_corrections.tournament_delete,
        name="director-tournament-delete",
    ),
    path("tournaments/<int:pk>/players/", director.registrations, name="director-registrations"),
    path(
        "tournaments/<int:pk>/players/add/",
        director.registration_add,
        name="director-registration-add",
    ),
    path(
        "tournaments/<int:pk>/players/paste/",
        director.registration_bulk,
        name="director-registration-bulk",
    ),
    path(
        "tournaments/<int:pk>/players/csv/",
        director.registration_csv,
        name="director-registration-csv",
    ),
    path(
        "tournaments/<int:pk>/players/cards/",
        director.player_cards,
        name="director-player-cards",
    ),
    path(
        "registrations/<int:pk>/",
        director_corrections.registration_fix,
        name="director-registration-fix",
    ),
    path(
        "registrations/<int:pk>/rename/",
        director_corrections.registration_rename,
        name="director-registration-rename",
    ),
    path(
        "registrations/<int:pk>/merge/",
        director_corrections.registration_merge,
        name="director-registration-merge",
    ),
    path(
        "registrations/<int:pk>/delete/",
        director_corrections.registration_delete,
        name="director-registration-delete",
    ),
    path(
        "registrations/<int:pk>/withdraw/",
        director.registration_withdraw,
        name="director-registration-withdraw",
    ),
    path(
        "registrations/<int:pk>/new-link/",
        director.registration_new_link,
        name="director-registration-new-link",
    ),
    path(
        "registrations/<int:pk>/rejoin/",
        director.registration_rejoin,
        name="director-registration-rejoin",
    ),
    path("tournaments/<int:pk>/draw/", director.round_draw, name="director-round-draw"),
    path(
        "tournaments/<int:pk>/draw/progress/",
        director.round_draw_progress,
        name="director-round-draw-progress",
    ),
    path("rounds/<int:pk>/", director.round_detail, name="director-round"),
    path("rounds/<int:pk>/results/", director.round_results, name="director-round-results"),
    path("rounds/<int:pk>/redraw/", director.round_redraw, name="director-round-redraw"),
    path("rounds/<int:pk>/swap/", director.round_swap, name="director-round-swap"),
    path("rounds/<int:pk>/publish/", director.round_publish, name="director-round-publish"),
    path("rounds/<int:pk>/delete/", director.round_delete, name="director-round-delete"),
    path("rounds/<int:pk>/print/", director.round_print, name="director-round-print"),
    path("tables/<int:pk>/result/", director.table_result, name="director-table-result"),
    path("tables/<int:pk>/confirm/", director.table_confirm, name="director-table-confirm"),
    path("tables/<int:pk>/live/", director.table_live, name="director-table-live"),
    path(
        "games/<int:pk>/seats/<int:position>/bot/",
        director.seat_bot,
        name="director-seat-bot",
    ),
]

# The venue during a round (web/views/venue.py): the clock, the roll call, the results board.
urlpatterns += [
    path("rounds/<int:pk>/clock/", venue.round_clock, name="director-round-clock"),
    path("rounds/<int:pk>/board/", venue.results_board, name="director-results-board"),
    path("tournaments/<int:pk>/roll-call/", venue.roll_call, name="director-roll-call"),
    path(
        "tournaments/<int:pk>/roll-call/all-present/",
        venue.roll_call_all_present,
        name="director-roll-call-all-present",
    ),
    path(
        "registrations/<int:pk>/presence/",
        venue.registration_presence,
        name="director-registration-presence",
    ),
]
