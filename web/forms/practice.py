"""The practice game's small form: how many players and how strong the bots; every field has a
default, so the form's button alone starts a game."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from gameplay.services import PRACTICE_BOT_LEVEL, PRACTICE_PLAYERS
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

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "practice-%s")
        super().__init__(*args, **kwargs)

    def clean_bot_level(self) -> str:
        # A form posted without the field (the table page's "play again") takes the default.
        return self.cleaned_data.get("bot_level") or PRACTICE_BOT_LEVEL
