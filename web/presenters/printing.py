"""What the printed pages hold: the paper score sheet of a table (its rows, split into pages) and
the final ranking with its prize places, from the round's tables and the standings snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from rules import RuleSet
from tournaments.models import Tournament

# A slow game: the leader gains about this many points a deal he plays. A 3-player game to 1001
# has been seen to take 33 deals; at this pace the sheet has 42 rows for it, 56 at a table of 4
# (where the dealer sits each deal out). Longer games go on to a continuation sheet by hand.
SLOW_GAME_POINTS_PER_DEAL = 25
# Deal rows on a table's first page (under its seats and QR code) and on each page after it.
FIRST_PAGE_ROWS = 25
CONTINUATION_ROWS = 40
# The places marked on the final ranking (the podium).
PRIZE_PLACES = 3


def sheet_deals(tournament: Tournament, players: int) -> int:
    """The deal rows a table's paper sheet needs: the round's fixed number of deals, or, for a
    game to the target, enough for a slow game, in whole turns of the deal."""
    fixed = tournament.fixed_deals
    if fixed:
        return fixed
    target = RuleSet.from_dict(tournament.rules or None).target
    playing = players - 1 if players == 4 else players  # the dealer of 4 sits the deal out
    deals = ceil(target / SLOW_GAME_POINTS_PER_DEAL * players / playing)
    return ceil(deals / players) * players


@dataclass(frozen=True, slots=True)
class SheetPage:
    number: int  # from 1
    lines: list[tuple[int, int]]  # (deal, dealer's seat), both counted from 1
    first: bool
    last: bool


def sheet_pages(deals: int, players: int) -> list[SheetPage]:
    """The sheet's deal rows page by page. The first seat deals first and the deal passes to the
    left (RULES.md section 2); people count deals and seats from 1."""
    lines = [(deal, (deal - 1) % players + 1) for deal in range(1, deals + 1)]
    chunks = [lines[:FIRST_PAGE_ROWS]]
    rest = lines[FIRST_PAGE_ROWS:]
    while rest:
        chunks.append(rest[:CONTINUATION_ROWS])
        rest = rest[CONTINUATION_ROWS:]
    return [
        SheetPage(number, chunk, number == 1, number == len(chunks))
        for number, chunk in enumerate(chunks, start=1)
    ]


def prize_lines(standings: Any) -> list[dict[str, Any]]:
    """The standings' lines with their prize place marked: a rank within the first
    PRIZE_PLACES (a shared rank shares the prize place)."""
    marked = []
    for line, rank in zip(standings.rows, _ranks(standings.snapshot), strict=True):
        marked.append({"line": line, "prize": rank is not None and rank <= PRIZE_PLACES})
    return marked


def _ranks(snapshot: Any) -> list[int | None]:
    rows = snapshot.rows if snapshot is not None else []
    return [row.get("rank") for row in rows]
