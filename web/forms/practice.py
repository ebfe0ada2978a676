"""The practice game's small form: how many players and how strong the bots; every field has a
default, so the form's button alone starts a game."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.services import GUEST_BOT_LEVELS, PRACTICE_BOT_LEVEL, PRACTICE_PLAYERS
from tournaments.models import BotLevel


class PracticeForm(forms.Form):
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(count, str(count)) for count in PRACTICE_PLAYERS],
        coerce=int,
        empty_value=PRACTICE_PLAYERS[0],
        initial=PRACTICE_PLAYERS[0],
        required=False,
        widget=forms.RadioSelect,
    )
    bot_level = forms.ChoiceField(
        label=_("Bot level"),
        choices=BotLevel.choices,
        initial=PRACTICE_BOT_LEVEL,
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, guest: bool = False, **kwargs):
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "practice-%s")
        super().__init__(*args, **kwargs)
        # A guest is offered the levels he may play (gameplay.services.GUEST_BOT_LEVELS).
        self.guest = guest
        if guest:
            self.fields["bot_level"].choices = [
                (value, label) for value, label in BotLevel.choices if value in GUEST_BOT_LEVELS
            ]

    def clean_bot_level(self) -> str:
        # A form posted without the field (the table page's "play again") takes the default.
        return self.cleaned_data.get("bot_level") or PRACTICE_BOT_LEVEL
