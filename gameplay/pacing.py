"""How long a live table lets each move be seen before the next one: the pace of the bots.

A bot decides in milliseconds; played at that speed, a deal the bots win is over before a human
has seen the talon. The bots answer at once (with workers and in the embedded mode alike), and the
table page shows their moves one after another with these pauses (`client_pace`), so no request
and no worker sleeps; static/js/table/pacing.js picks the pause that follows each move.
"""

from __future__ import annotations

from django.conf import settings

# Seconds, shown between moves the server has already applied.
BID_SECONDS = 0.6
CARD_SECONDS = 0.8
# A finished trick stays on the table a little longer, so that everyone sees who took it.
TRICK_SECONDS = 1.4
# The talon, turned up for everyone, before the declarer's first gift.
TALON_SECONDS = 3.0
GIVE_SECONDS = 0.5
CONTRACT_SECONDS = 0.8
# Only on the page: how long the end-of-deal summary waits for "Continue".
SUMMARY_SECONDS = 30.0


def client_pace() -> dict[str, int]:
    """The same pauses in milliseconds, for the table page (static/js/table/pacing.js), each
    multiplied by the LIVE_TABLE_PACE setting; the summary waits for a person all the same."""
    scale = 1000 * settings.LIVE_TABLE_PACE
    return {
        "bid": round(BID_SECONDS * scale),
        "card": round(CARD_SECONDS * scale),
        "trick": round(TRICK_SECONDS * scale),
        "talon": round(TALON_SECONDS * scale),
        "give": round(GIVE_SECONDS * scale),
        "contract": round(CONTRACT_SECONDS * scale),
        "summary": round(SUMMARY_SECONDS * 1000),
    }
