"""The director's form of a club season: its name, dates and rule, and its tournaments."""

from __future__ import annotations

import math
import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.i18n import translate
from ratings.season import (
    MAX_BEST_COUNT,
    MAX_PLACEMENT_VALUES,
    MAX_SEASON_POINTS,
    SEASON_METRIC_REGISTRY,
)
from seasons.models import Season
from tournaments.models import Club, Tournament
from web.forms.director import DirectorForm, check_criteria

PRECEDENCE_SLOTS = 5


class SeasonTournamentsField(forms.ModelMultipleChoiceField):
    """The club's tournaments to tick; one of another season says which, as ticking it moves it
    here (a tournament counts in one season)."""

    season: Season | None = None

    def label_from_instance(self, obj: Tournament) -> str:
        label = super().label_from_instance(obj)
        other = (
            obj.season
            if obj.season_id and obj.season_id != getattr(self.season, "pk", None)
            else None
        )
        if other is None:
            return label
        return _("%(tournament)s — now in %(season)s") % {"tournament": label, "season": other.name}


class SeasonForm(DirectorForm):
    club = forms.ModelChoiceField(queryset=Club.objects.none(), label=_("Club"))
    name = forms.CharField(label=pgettext_lazy("season", "Name"), max_length=120)
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends_on = forms.DateField(
        label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    scoring = forms.ChoiceField(label=_("Season points"), choices=Season.Scoring.choices)
    best_count = forms.IntegerField(
        label=_("Best tournaments counted"),
        required=False,
        min_value=1,
        max_value=MAX_BEST_COUNT,
        help_text=_("Only each player's best N tournaments count; empty: all of them."),
    )
    placement_points = forms.CharField(
        label=_("Season points by final rank"),
        max_length=2000,
        help_text=_("For the placement points: the winner's first, separated by spaces."),
    )
    tournaments = SeasonTournamentsField(
        queryset=Tournament.objects.none(),
        required=False,
        label=_("Tournaments of the season"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, clubs=None, season: Season | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        if season is not None:
            del self.fields["club"]
            # The club's tournaments that can count in it: those within its dates (and those in
            # it), not every tournament the club ever had.
            self.fields["tournaments"].queryset = (
                Tournament.objects.filter(club_id=season.club_id)
                .filter(Q(date__gte=season.starts_on, date__lte=season.ends_on) | Q(season=season))
                .select_related("season")
                .order_by("date", "pk")
            )
            self.fields["tournaments"].season = season
        else:
            del self.fields["tournaments"]
            self.fields["club"].queryset = clubs
            if clubs is not None and len(clubs) == 1:
                self.fields["club"].initial = clubs[0]
                self.fields["club"].disabled = True
                self.fields["club"].widget = forms.HiddenInput()
        metrics = [("", pgettext_lazy("no metric", "—"))] + [
            (key, translate(metric.name)) for key, metric in SEASON_METRIC_REGISTRY.items()
        ]
        for slot in range(1, PRECEDENCE_SLOTS + 1):
            self.fields[f"precedence_{slot}"] = forms.ChoiceField(
                label=_("Criterion %(n)d") % {"n": slot}, choices=metrics, required=False
            )
        source = season or Season()
        for name in ("name", "starts_on", "ends_on", "scoring", "best_count"):
            self.initial.setdefault(name, getattr(source, name))
        self.initial.setdefault(
            "placement_points", " ".join(f"{value:g}" for value in source.placement_points)
        )
        for slot, key in enumerate(source.precedence[:PRECEDENCE_SLOTS], start=1):
            self.initial.setdefault(f"precedence_{slot}", key)
        if season is not None:
            self.initial.setdefault("tournaments", list(season.tournaments.all()))

    def clean_placement_points(self) -> list[float]:
        text = self.cleaned_data["placement_points"]
        parts = [part for part in re.split(r"[\s;]+", text.replace(",", ".")) if part]
        try:
            values = [float(part) for part in parts]
        except ValueError:
            values = [math.nan]
        if not all(math.isfinite(value) for value in values):  # "nan" and "inf" read as floats
            raise ValidationError(_("Give numbers separated by spaces, such as 25 18 15."))
        if not 1 <= len(values) <= MAX_PLACEMENT_VALUES:
            raise ValidationError(
                _("Give from 1 to %(count)d numbers.") % {"count": MAX_PLACEMENT_VALUES}
            )
        if not all(0 <= value <= MAX_SEASON_POINTS for value in values):
            raise ValidationError(
                _("Each number is from 0 to %(most)s.") % {"most": MAX_SEASON_POINTS}
            )
        if any(later > earlier for earlier, later in zip(values, values[1:], strict=False)):
            raise ValidationError(
                _("A rank may not get more points than the rank before it: the winner's first.")
            )
        return values

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        check_criteria(self, SEASON_METRIC_REGISTRY, PRECEDENCE_SLOTS)
        return cleaned

    def precedence_fields(self):
        return [self[f"precedence_{slot}"] for slot in range(1, PRECEDENCE_SLOTS + 1)]

    def rule_fields(self):
        return [self[name] for name in ("scoring", "best_count", "placement_points")]

    def values(self) -> dict[str, Any]:
        """The keyword arguments of season_create / season_update."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
            "scoring": data["scoring"],
            "best_count": data.get("best_count"),
            "placement_points": data["placement_points"],
            "precedence": [
                data[f"precedence_{slot}"]
                for slot in range(1, PRECEDENCE_SLOTS + 1)
                if data.get(f"precedence_{slot}")
            ],
        }

    def add_service_error(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        # The service names the rule's fields; the form shows the precedence as its criteria.
        aliases = {"precedence": "precedence_1"}
        for field, messages in error.message_dict.items():
            target = aliases.get(field, field)
            for message in messages:
                self.add_error(target if target in self.fields else None, message)
