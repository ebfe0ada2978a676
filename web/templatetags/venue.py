"""Template tags of the venue: the round clock (to show, and the director's buttons) and the
roll call's count of absent players, for pages whose views others own (the round page, /me/,
the sheet page), so that those views need no change to show them.

    {% load venue %}
    {% round_clock round %}            the clock, ticking in the browser (static/js/clock.js)
    {% round_clock_controls round %}   the director's start, pause, resume, extend, reset
    {% absent_notice tournament 3 %}   "2 players are absent and sit out round 3"
"""

from __future__ import annotations

from django import template

from tournaments import clock, selectors
from tournaments.models import Round
from web.forms.venue import CLOCK_DEFAULT_EXTENSION, CLOCK_DEFAULT_MINUTES
from web.presenters.venue import clock_reading

register = template.Library()


@register.inclusion_tag("public/_round_clock.html")
def round_clock(round_: Round | None, size: str = "") -> dict:
    """The round's clock if it is started and the round is being played; nothing otherwise."""
    return {"clock": clock_reading(round_), "round": round_, "size": size}


@register.inclusion_tag("director/_round_clock.html", takes_context=True)
def round_clock_controls(context, round_: Round) -> dict:
    return {
        "round": round_,
        "clock": clock_reading(round_),
        "started": round_.clock_started_at is not None,
        "paused": round_.clock_paused_at is not None,
        "default_minutes": CLOCK_DEFAULT_MINUTES,
        "default_extension": CLOCK_DEFAULT_EXTENSION,
        "start_bounds": clock.START_MINUTES,
        "extend_bounds": clock.EXTEND_MINUTES,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("director/_absent_notice.html")
def absent_notice(tournament, round_number: int) -> dict:
    absent = selectors.registrations_absent(tournament, round_number)
    return {"tournament": tournament, "absent": absent, "number": round_number}
