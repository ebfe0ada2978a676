"""Admin pages of the draws: rounds, tables and seats, and the tournament admin's draw action.

Confined to the director's clubs like every admin (tournaments.admin.ClubScoped). Round changes
that have rules (draw, redraw, publish) go through the draw services as admin actions.
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from draws import services as draw_services
from tournaments.admin import ClubScopedAdmin, ClubScopedInline, report
from tournaments.admin import TournamentAdmin as BaseTournamentAdmin
from tournaments.models import Round, Seat, Table, Tournament

# The tournament admin with the draw's action: the draw is this app's, so its action is added
# here, over the tournaments app's admin, which cannot import the draws (a layer above it).
admin.site.unregister(Tournament)


@admin.register(Tournament)
class TournamentAdmin(BaseTournamentAdmin):
    actions = ["draw_next_round"]

    @admin.action(description=_("Draw the next round (as a draft)"))
    def draw_next_round(self, request, queryset):
        for tournament in queryset:
            report(
                self,
                request,
                lambda t=tournament: draw_services.round_draw(actor=request.user, tournament=t),
            )


class SeatInlineFormSet(forms.BaseInlineFormSet):
    """The seats of a table, each given the table's round (a new table's too, still unsaved)."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "table_round_id": self.instance.round_id}


class SeatInlineForm(forms.ModelForm):
    """A seat at its table: the round it stores again is the table's, which the row cannot set."""

    def __init__(self, *args, table_round_id=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.round_id = table_round_id

    def clean(self):
        cleaned = super().clean()
        # The database forbids a second seat in the round; the form has no round field, so
        # Django would not check it and the save would fail.
        registration = cleaned.get("registration")
        if registration is not None and self.instance.round_id is not None:
            twice = Seat.objects.filter(round_id=self.instance.round_id, registration=registration)
            if twice.exclude(pk=self.instance.pk).exists():
                self.add_error("registration", _("This player has a seat in this round already."))
        return cleaned


class SeatInline(ClubScopedInline):
    model = Seat
    form = SeatInlineForm
    formset = SeatInlineFormSet
    club_path = "round__tournament__club"
    extra = 0
    fields = ["position", "registration", "bot_level"]
    raw_id_fields = ["registration"]


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "round", "number"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


class TableInline(ClubScopedInline):
    model = Table
    club_path = "round__tournament__club"
    extra = 0
    show_change_link = True
    fields = ["number"]


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "number", "status", "seed", "published_at"]
    list_filter = ["status", "tournament"]
    # The status moves by publishing (the action below) and by the results, never typed.
    readonly_fields = ["status", "seed", "created_at", "published_at"]
    inlines = [TableInline]
    actions = ["publish", "redraw"]

    @admin.action(description=_("Publish the draw"))
    def publish(self, request, queryset):
        for round_ in queryset:
            report(
                self,
                request,
                lambda r=round_: draw_services.round_publish(actor=request.user, round_=r),
            )

    @admin.action(description=_("Redraw with a new seed"))
    def redraw(self, request, queryset):
        for round_ in queryset:
            report(
                self,
                request,
                lambda r=round_: draw_services.round_redraw(actor=request.user, round_=r),
            )


@admin.register(Seat)
class SeatAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "position", "registration", "bot_level"]
    list_filter = ["round__tournament", "bot_level"]
    raw_id_fields = ["registration", "table", "round"]
