"""Admin pages for directors: table results with their audit trail, and standings snapshots.

Result versions are an audit trail, so they are read-only here; confirming goes through the
service as an admin action, and so does recomputing standings. As in the tournaments' admin, a
director who is staff sees and reaches only the tables of the clubs he directs (`ClubScopedAdmin`).
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _

from core.exceptions import Conflict
from core.i18n import error_message
from scoring import services
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from tournaments.admin import ClubScopedAdmin


class ReadOnlyAdmin(ClubScopedAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TableResult)
class TableResultAdmin(ClubScopedAdmin):
    club_path = "table__round__tournament__club"
    list_display = ["table", "status", "version", "updated_at"]
    list_filter = ["status", "table__round__tournament"]
    readonly_fields = ["table", "status", "version", "confirmed", "updated_at"]
    actions = ["confirm_latest"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description=_("Confirm the latest submitted version"))
    def confirm_latest(self, request, queryset):
        for result in queryset.select_related("table"):
            try:
                services.result_confirm(
                    actor=request.user, table=result.table, version_number=result.version
                )
            except (ValidationError, PermissionDenied, Conflict) as error:
                text = error_message(error)
                self.message_user(request, f"{result.table}: {text}", level=messages.ERROR)


@admin.register(ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    club_path = "table__round__tournament__club"
    list_display = ["table", "number", "status", "source", "submitted_by", "submitted_at"]
    list_filter = ["status", "source", "table__round__tournament"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "version", "computed_at"]
    list_filter = ["tournament"]
    actions = ["recompute"]

    @admin.action(description=_("Recompute the standings now"))
    def recompute(self, request, queryset):
        for tournament_id in set(queryset.values_list("tournament_id", flat=True)):
            services.standings_recompute(tournament_id=tournament_id)
