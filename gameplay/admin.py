"""Admin pages for inspecting live games: seats, deals, the action log and seat changes.

Read-only: a live game changes only through its services (moves, seat replacements).
"""

from django.contrib import admin

from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class LiveSeatInline(ReadOnlyInline):
    model = LiveSeat
    fields = ["position", "name", "user", "bot_level"]


class LiveSeatChangeInline(ReadOnlyInline):
    model = LiveSeatChange
    fields = ["position", "from_name", "to_bot_level", "sequence", "changed_by", "changed_at"]


class LiveDealInline(ReadOnlyInline):
    model = LiveDeal
    fields = ["number", "dealer", "commitment", "started_at", "finished_at"]


@admin.register(LiveGame)
class LiveGameAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "practice_owner", "status", "sequence", "to_act", "created_at"]
    list_filter = ["status"]
    list_select_related = ["table__round__tournament", "practice_owner"]
    inlines = [LiveSeatInline, LiveSeatChangeInline, LiveDealInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LiveAction)
class LiveActionAdmin(admin.ModelAdmin):
    list_display = ["game", "sequence", "seat", "action", "by_bot", "created_at"]
    list_filter = ["by_bot"]
    list_select_related = ["game"]
    search_fields = ["game__id"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
