"""Forms of the venue's pages: the round clock's buttons and the roll call's toggles."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments import clock
from web.forms.director import DirectorForm

CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "reset")
# The length the start form offers first, in minutes.
CLOCK_DEFAULT_MINUTES = 60
CLOCK_DEFAULT_EXTENSION = 5


class ClockForm(DirectorForm):
    """One of the clock's buttons; start and extend take a number of minutes."""

    action = forms.ChoiceField(choices=[(action, action) for action in CLOCK_ACTIONS])
    minutes = forms.IntegerField(
        label=_("Minutes"),
        required=False,
        min_value=1,
        max_value=max(clock.START_MINUTES[1], clock.EXTEND_MINUTES[1]),
    )

    def clean(self):
        data = super().clean()
        action = data.get("action")
        bounds = {"start": clock.START_MINUTES, "extend": clock.EXTEND_MINUTES}.get(action)
        if bounds is not None and "minutes" not in self.errors:
            minutes = data.get("minutes")
            low, high = bounds
            if minutes is None or not low <= minutes <= high:
                raise ValidationError(
                    {
                        "minutes": _("Enter %(low)d to %(high)d minutes.")
                        % {"low": low, "high": high}
                    }
                )
        return data


class PresenceForm(DirectorForm):
    present = forms.TypedChoiceField(
        choices=[("1", _("present")), ("0", _("absent"))],
        coerce=lambda value: value == "1",
        error_messages={"required": _("Say whether the player is present or absent.")},
    )
