"""Admin pages for inspecting live games: seats, deals, the action log and seat changes.

Read-only: a live game changes only through its services (moves, seat replacements). A director
who is staff sees only the games of the clubs he directs and his own practice games. The secret
part of a deal (its deck, its salt and its actions, among them the declarer's hidden gives) is
shown to nobody, superusers included, before the deal is over: anyone with a login may be seated.
"""

from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange
from tournaments.admin import ClubScoped

HIDDEN = _("hidden until the deal is over")


class GameScoped(ClubScoped):
    """Confines to the games of the clubs the user directs and to his own practice games.

    `game_path` leads from the admin's model to its live game ("" for the game itself).
    """

    game_path = "game"

    def _via_game(self, lookup: str) -> str:
        return f"{self.game_path}__{lookup}" if self.game_path else lookup

    @property
    def club_path(self) -> str:
        return self._via_game("table__round__tournament__club")

    def club_scope(self, request) -> Q:
        return super().club_scope(request) | Q(**{self._via_game("practice_owner"): request.user})


class ReadOnlyInline(GameScoped, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        # A view-only inline still builds its form from `fields`; read-only fields stay out of
        # it, so a field the model does not let forms edit (a timestamp) is no error.
        return self.fields


class LiveSeatInline(ReadOnlyInline):
    model = LiveSeat
    fields = ["position", "name", "user", "bot_level"]


class LiveSeatChangeInline(ReadOnlyInline):
    model = LiveSeatChange
    fields = ["position", "from_name", "to_bot_level", "sequence", "changed_by", "changed_at"]


class LiveDealInline(ReadOnlyInline):
    model = LiveDeal
    fields = [
        "number",
        "dealer",
        "commitment",
        "started_at",
        "finished_at",
        "revealed_deck",
        "revealed_salt",
    ]

    @admin.display(description=_("deck order"))
    def revealed_deck(self, deal: LiveDeal) -> str:
        return " ".join(deal.deck) if deal.finished_at else HIDDEN

    @admin.display(description=_("salt"))
    def revealed_salt(self, deal: LiveDeal) -> str:
        return deal.salt if deal.finished_at else HIDDEN


@admin.register(LiveGame)
class LiveGameAdmin(GameScoped, admin.ModelAdmin):
    game_path = ""
    list_display = ["id", "table", "practice_owner", "status", "sequence", "to_act", "created_at"]
    list_filter = ["status"]
    list_select_related = ["table__round__tournament", "practice_owner"]
    inlines = [LiveSeatInline, LiveSeatChangeInline, LiveDealInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LiveAction)
class LiveActionAdmin(GameScoped, admin.ModelAdmin):
    """The action log of finished deals only; a deal in progress has its secret gives in it."""

    list_display = ["game", "sequence", "seat", "action", "by_bot", "created_at"]
    list_filter = ["by_bot"]
    list_select_related = ["game"]
    search_fields = ["game__id"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(deal__finished_at__isnull=False)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
