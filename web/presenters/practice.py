"""The practice offer on the home page and on a refused start: "continue my game" and the form."""

from __future__ import annotations

from typing import Any

from gameplay import selectors
from web.forms.practice import PracticeForm


def practice_offer(
    viewer: selectors.AnyUser, *, form: PracticeForm | None = None, refusal: str = ""
) -> dict[str, Any]:
    """`continue_game`: the viewer's latest unfinished practice game (or None); `form`: the
    form to start another (a fresh one with its defaults unless given); `refusal`: why the
    last start was refused, if it was."""
    return {
        "continue_game": selectors.practice_game_to_continue(viewer),
        "form": form if form is not None else PracticeForm(guest=not viewer.is_authenticated),
        "refusal": refusal,
    }
