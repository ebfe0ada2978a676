"""What every public page of a tournament shows in its header and navigation."""

from __future__ import annotations

from typing import Any

from tournaments import selectors
from tournaments.models import Tournament


def tournament_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    """The tournament and its published rounds' links, with the page's own `extra`."""
    rounds = list(selectors.rounds_public(tournament).values_list("number", "status"))
    return {"tournament": tournament, "round_links": rounds, **extra}
