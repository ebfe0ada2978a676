"""Admin pages for directors: clubs, players, tournaments and registrations.

A director who is staff sees and reaches only the records of the clubs he directs (`ClubScoped`);
the draws, scoring and gameplay admins use the same confinement. Changes that have rules
(withdrawing a registration) go through the services as admin actions.
"""

from django.contrib import admin, messages
from django.contrib.admin import widgets
from django.contrib.admin.exceptions import NotRegistered
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.i18n import error_message
from tournaments import admin_summaries, services
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.selectors import directed_club_ids
from tournaments.services import FORMAT_FIELDS


class DirectedRawIdWidget(widgets.ForeignKeyRawIdWidget):
    """A raw-id input that names the chosen record only if the user may reach it.

    Django's widget looks the typed id up among all records, so a foreign id put in the URL or
    sent back with a form error would show that record's name.
    """

    def __init__(self, rel, admin_site, *, reachable, attrs=None, using=None):
        self.reachable = reachable
        super().__init__(rel, admin_site, attrs=attrs, using=using)

    def label_and_url_for_value(self, value):
        key = self.rel.get_related_field().name
        try:
            known = self.reachable.filter(**{key: value}).exists()
        except (ValueError, TypeError, ValidationError):
            known = False
        return super().label_and_url_for_value(value) if known else ("", "")


class ClubScoped:
    """Confines an admin (a ModelAdmin or an inline) to the clubs a non-superuser directs.

    `club_path` leads from the admin's model to its club. Confined are the records listed and
    reached (change, delete, history pages, actions, the raw-id popup, which is the changelist),
    and, through the admins of the related models, the choices of every relation field: selects,
    autocompletes and raw-id inputs, so a foreign id typed or posted is a form error. A relation
    whose model has a club-scoped admin can only point into the user's clubs, so neither a change
    nor an add can put a record into another club. The list filters offer only the related
    records present in the confined list.
    """

    club_path = "club"

    def club_scope(self, request) -> Q:
        """The records a non-superuser may reach."""
        return Q(**{f"{self.club_path}__in": directed_club_ids(request.user)})

    def get_queryset(self, request):
        records = super().get_queryset(request)
        if request.user.is_superuser:
            return records
        return records.filter(self.club_scope(request))

    def get_field_queryset(self, db, db_field, request):
        related = db_field.remote_field.model
        if related is get_user_model() and not request.user.is_superuser:
            # Logins are people's own: a director may pick his own or one of his players', never
            # another login of the site (a player's personal link would then sign in as it).
            clubs = directed_club_ids(request.user)
            return related.objects.using(db).filter(
                Q(pk=request.user.pk) | Q(player__club__in=clubs)
            )
        try:
            model_admin = self.admin_site.get_model_admin(related)
        except NotRegistered:
            model_admin = None
        if isinstance(model_admin, ClubScoped):
            return model_admin.get_queryset(request).using(db)
        return super().get_field_queryset(db, db_field, request)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if "widget" not in kwargs and db_field.name in self.raw_id_fields:
            db = kwargs.get("using")
            reachable = kwargs.get("queryset")
            if reachable is None:
                reachable = self.get_field_queryset(db, db_field, request)
            if reachable is not None:
                kwargs["queryset"] = reachable
                kwargs["widget"] = DirectedRawIdWidget(
                    db_field.remote_field, self.admin_site, reachable=reachable, using=db
                )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_list_filter(self, request):
        return [self._confined_filter(item) for item in super().get_list_filter(request)]

    def _confined_filter(self, item):
        # A plain related filter offers every record of the related model, other clubs' too.
        if isinstance(item, str) and get_fields_from_path(self.model, item)[-1].is_relation:
            return (item, admin.RelatedOnlyFieldListFilter)
        return item


class ClubScopedAdmin(ClubScoped, admin.ModelAdmin):
    """A ModelAdmin confined to the clubs a non-superuser directs."""


class ClubScopedInline(ClubScoped, admin.TabularInline):
    """A tabular inline confined to the clubs a non-superuser directs."""


def report(modeladmin, request, call) -> None:
    try:
        call()
    except (ValidationError, PermissionDenied) as error:
        text = error_message(error)
        modeladmin.message_user(request, text, level=messages.ERROR)


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    club_path = "pk"
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "user__username"]
    # A select of the logins he may link (ClubScoped), not the site-wide login search.


class SuperusersOnly:
    """Logins and groups are the site's, not a club's: only superusers see or change them, so a
    staff director can neither read every username nor give himself more rights."""

    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    has_add_permission = has_module_permission

    def has_change_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_superuser

    has_delete_permission = has_change_permission


class SiteUserAdmin(SuperusersOnly, UserAdmin):
    pass


class SiteGroupAdmin(SuperusersOnly, GroupAdmin):
    pass


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), SiteUserAdmin)
admin.site.unregister(Group)
admin.site.register(Group, SiteGroupAdmin)


class RegistrationInline(ClubScopedInline):
    model = Registration
    club_path = "tournament__club"
    extra = 0
    fields = ["start_number", "player", "status", "first_round", "withdrawn_after"]
    readonly_fields = ["first_round", "withdrawn_after"]
    autocomplete_fields = ["player"]
    ordering = ["start_number"]


@admin.register(Tournament)
class TournamentAdmin(ClubScopedAdmin):
    """Tournaments, with what has rules read-only: the status moves by the director's pages
    (draw, publish, finish), and the rule options and ranking are set on the tournament's
    settings page, which checks them; here they are summaries to read, not JSON to type."""

    list_display = ["name", "club", "date", "status", "rounds_planned", "table_size", "is_public"]
    list_filter = ["status", "club", "table_size", "is_public"]
    search_fields = ["name"]
    date_hierarchy = "date"
    exclude = ["rules", "standings_precedence", "placement_points"]
    readonly_fields = [
        "status",
        "rule_options",
        "ranking",
        "points_per_place",
        "results_version",
        "seed",
        "created_at",
    ]
    inlines = [RegistrationInline]

    def get_readonly_fields(self, request, obj=None):
        """Once a round is drawn the format is fixed (services.FORMAT_FIELDS, as the settings
        page says): the admin does not edit it either."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.rounds.exists():
            fields += [f for f in FORMAT_FIELDS if f not in self.exclude and f not in fields]
        return fields

    @admin.display(description=_("rule options"))
    def rule_options(self, tournament: Tournament) -> str:
        return admin_summaries.rule_options(tournament.rules)

    @admin.display(description=_("standings precedence"))
    def ranking(self, tournament: Tournament) -> str:
        return admin_summaries.ranking(tournament.standings_precedence)

    @admin.display(description=_("tournament points by placement"))
    def points_per_place(self, tournament: Tournament) -> str:
        return admin_summaries.points_per_place(tournament.placement_points)


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
            report(
                self,
                request,
                lambda r=registration: services.registration_withdraw(
                    actor=request.user, registration=r
                ),
            )
