"""Admin pages for directors: the club's seasons (confined to his clubs, as every admin of the
site) with a recomputation action, and the stored ratings to read."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.i18n import error_text
from ratings.season import validate_season_rule
from seasons import services
from seasons.models import PlayerRating, Season
from tournaments.admin import ClubScopedAdmin


class SeasonAdminForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "club",
            "name",
            "starts_on",
            "ends_on",
            "scoring",
            "best_count",
            "placement_points",
            "precedence",
        ]

    def clean(self):
        cleaned = super().clean()
        season = Season(**{k: v for k, v in cleaned.items() if k != "club"})
        try:
            validate_season_rule(season.rule)
        except (ValueError, TypeError) as error:
            raise ValidationError(error_text(error)) from None
        return cleaned


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin):
    form = SeasonAdminForm
    list_display = ["name", "club", "starts_on", "ends_on", "scoring", "best_count"]
    list_filter = ["club"]
    search_fields = ["name"]
    actions = ["recompute"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        services.schedule_season_standings(obj.pk)

    @admin.action(description=_("Recompute the club's ratings and season tables now"))
    def recompute(self, request, queryset):
        for club_id in set(queryset.values_list("club_id", flat=True)):
            services.club_seasons_recompute(club_id=club_id)


@admin.register(PlayerRating)
class PlayerRatingAdmin(ClubScopedAdmin):
    club_path = "player__club"
    list_display = ["player", "conservative", "mu", "sigma", "tables", "computed_at"]
    readonly_fields = ["player", "mu", "sigma", "tables", "computed_at"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
