"""The players' way in without a password: the code of the player card, with or without a seat.

The forms only read what was typed; whether a code is right, and how many tries are left, is
`tournaments.services.player_login_from_code`'s to say.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

# Longer than any code typed with spaces or dashes, short enough to be no burden to read.
CODE_TYPED_LIMIT = 40


class EntryCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("The code on your player card"),
        max_length=CODE_TYPED_LIMIT,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "autocorrect": "off",
                "spellcheck": "false",
                "enterkeyhint": "go",
                "maxlength": CODE_TYPED_LIMIT,
                "class": "entry-code-input",
            }
        ),
    )


class SeatCodeForm(EntryCodeForm):
    """The seat the player says is his (a position of a player's seat at the table) and his
    code. The template draws the seats itself, with their names."""

    seat = forms.TypedChoiceField(
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("Choose your seat."),
            "invalid_choice": gettext_lazy("Choose your seat."),
        },
    )

    def __init__(self, *args: Any, positions: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [(position, str(position + 1)) for position in positions]
        self.order_fields(["seat", "code"])
