"""Admin pages for directors: clubs, players, tournaments, registrations, rounds, tables, seats.

A director who is staff sees only the clubs he directs. Round changes that have rules (draw,
redraw, publish) go through the services as admin actions.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments import services
from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament
from tournaments.selectors import directed_club_ids


class ClubScopedAdmin(admin.ModelAdmin):
    """Limits a non-superuser to the records of the clubs he directs."""

    club_path = "club"

    def get_queryset(self, request):
        records = super().get_queryset(request)
        if request.user.is_superuser:
            return records
        return records.filter(**{f"{self.club_path}__in": directed_club_ids(request.user)})


def _report(modeladmin, request, call) -> None:
    try:
        call()
    except (ValidationError, PermissionDenied) as error:
        text = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
        modeladmin.message_user(request, text, level=messages.ERROR)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]

    def get_queryset(self, request):
        clubs = super().get_queryset(request)
        if request.user.is_superuser:
            return clubs
        return clubs.filter(pk__in=directed_club_ids(request.user))


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["start_number", "player", "status", "first_round", "withdrawn_after"]
    readonly_fields = ["first_round", "withdrawn_after"]
    autocomplete_fields = ["player"]
    ordering = ["start_number"]


@admin.register(Tournament)
class TournamentAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "date", "status", "rounds_planned", "table_size", "is_public"]
    list_filter = ["status", "club", "table_size", "is_public"]
    search_fields = ["name"]
    date_hierarchy = "date"
    readonly_fields = ["results_version", "seed", "created_at"]
    inlines = [RegistrationInline]
    actions = ["draw_next_round"]

    @admin.action(description=_("Draw the next round (as a draft)"))
    def draw_next_round(self, request, queryset):
        for tournament in queryset:
            _report(
                self,
                request,
                lambda t=tournament: services.round_draw(actor=request.user, tournament=t),
            )


@admin.register(Registration)
class RegistrationAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = [
        "start_number",
        "player",
        "tournament",
        "status",
        "first_round",
        "withdrawn_after",
    ]
    list_filter = ["status", "tournament"]
    search_fields = ["player__name", "tournament__name"]
    autocomplete_fields = ["player", "tournament"]
    actions = ["withdraw"]

    @admin.action(description=_("Withdraw from the tournament"))
    def withdraw(self, request, queryset):
        for registration in queryset:
            _report(
                self,
                request,
                lambda r=registration: services.registration_withdraw(
                    actor=request.user, registration=r
                ),
            )


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "registration", "bot_level"]
    raw_id_fields = ["registration"]


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True
    fields = ["number"]


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "number", "status", "seed", "published_at"]
    list_filter = ["status", "tournament"]
    readonly_fields = ["seed", "created_at", "published_at"]
    inlines = [TableInline]
    actions = ["publish", "redraw"]

    @admin.action(description=_("Publish the draw"))
    def publish(self, request, queryset):
        for round_ in queryset:
            _report(
                self, request, lambda r=round_: services.round_publish(actor=request.user, round_=r)
            )

    @admin.action(description=_("Redraw with a new seed"))
    def redraw(self, request, queryset):
        for round_ in queryset:
            _report(
                self, request, lambda r=round_: services.round_redraw(actor=request.user, round_=r)
            )


@admin.register(Seat)
class SeatAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "position", "registration", "bot_level"]
    list_filter = ["round__tournament", "bot_level"]
    raw_id_fields = ["registration", "table", "round"]
