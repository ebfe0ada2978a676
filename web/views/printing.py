"""Pages a director prints at the venue: the final ranking with its prize list.

Only a director of the tournament's club opens them (anyone else gets 403); the figures are the
standings snapshot's, formatted as the standings page formats them (web.presenters.standings).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import selectors as scoring_selectors
from tournaments import selectors
from tournaments.models import Tournament
from web.presenters import printing
from web.presenters.standings import standings_table


@login_required
@require_safe
def final_ranking(request: HttpRequest, pk: int) -> HttpResponse:
    """The final standings on one A4 page, the prize places marked, a column to fill in the
    prizes and sign; while the tournament runs it prints as provisional."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not selectors.is_director(request.user, tournament.club_id):
        raise PermissionDenied(_("Only a director of this club may do this."))
    snapshot = scoring_selectors.standings_latest(tournament)
    standings = standings_table(tournament, snapshot)
    context = {
        "tournament": tournament,
        "standings": standings,
        "lines": printing.prize_lines(standings),
        "prize_places": printing.PRIZE_PLACES,
        "final": tournament.status == Tournament.Status.FINISHED,
        "rounds_played": selectors.rounds_public(tournament).count(),
    }
    return render(request, "director/final_ranking.html", context)
