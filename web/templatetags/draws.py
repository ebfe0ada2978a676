"""Template tags of the seat draw, for the director's pages whose views need not know:

{% load draws %}
{% draw_outlook tournament 3 %}   what the draw of round 3 can reach (web.presenters.draw_outlook)
"""

from __future__ import annotations

from django import template

from draws import selectors
from tournaments.models import Tournament
from web.presenters.draw_outlook import draw_outlook as present

register = template.Library()


@register.inclusion_tag("director/_draw_outlook.html")
def draw_outlook(tournament: Tournament, round_number: int) -> dict:
    outlook = selectors.draw_outlook(tournament, round_number)
    return {"outlook": present(tournament, outlook) if outlook is not None else None}
