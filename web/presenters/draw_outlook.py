"""What the director's draw panel says about the seat draw before he draws: the tables of a
round for the players it would seat, how many rounds can be repeat-free (the best known, or
proven; the counting bound otherwise) and what that means for the rounds the tournament plans."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from draws import seating
from draws.progress import DrawProgress
from tournaments.models import Tournament


@dataclass(frozen=True)
class DrawOutlook:
    tables: str
    reach: str
    plan: str
    # True when the rounds planned cannot all be repeat-free (the panel shows it as a warning).
    repeats_coming: bool


def _tables(outlook: seating.Outlook) -> str:
    sizes = Counter(table.seats for table in outlook.tables)
    parts = [
        ngettext("%(n)d table of %(size)d", "%(n)d tables of %(size)d", count)
        % {"n": count, "size": size}
        for size, count in sorted(sizes.items(), reverse=True)
    ]
    bots = sum(table.seats - table.humans for table in outlook.tables)
    text = ngettext(
        "%(players)d player: %(tables)s", "%(players)d players: %(tables)s", outlook.players
    ) % {"players": outlook.players, "tables": _(", ").join(parts)}
    if bots:
        text += " " + ngettext("(%(n)d bot seat)", "(%(n)d bot seats)", bots) % {"n": bots}
    return text


def draw_outlook(tournament: Tournament, outlook: seating.Outlook) -> DrawOutlook:
    known, bound = outlook.known_max, outlook.upper_bound
    if known is None:
        reach = ngettext(
            "At most %(n)d round can be repeat-free (a counting bound); the draw searches for "
            "as many as it can.",
            "At most %(n)d rounds can be repeat-free (a counting bound); the draw searches for "
            "as many as it can.",
            bound,
        ) % {"n": bound}
        reachable = bound
    elif outlook.proven_max:
        reach = ngettext(
            "At most %(n)d round can be repeat-free: nobody meets anybody twice in it, and more "
            "is proven impossible.",
            "At most %(n)d rounds can be repeat-free: nobody meets anybody twice in them, and "
            "more is proven impossible.",
            known,
        ) % {"n": known}
        reachable = known
    else:
        reach = ngettext(
            "%(n)d round can be repeat-free (the best known; a counting bound allows %(bound)d).",
            "%(n)d rounds can be repeat-free (the best known; a counting bound allows %(bound)d).",
            known,
        ) % {"n": known, "bound": bound}
        reachable = known
    planned = tournament.rounds_planned
    schedule = tournament.seating_mode == Tournament.SeatingMode.SCHEDULE
    if planned <= reachable:
        plan = ngettext(
            "The tournament plans %(n)d round: nobody needs to meet anybody twice.",
            "The tournament plans %(n)d rounds: nobody needs to meet anybody twice.",
            planned,
        ) % {"n": planned}
        if not schedule and planned > 1:
            plan += " " + _(
                "Drawn round by round, repeats may still come: the schedule mode draws every "
                "round up front and keeps them repeat-free."
            )
    else:
        plan = ngettext(
            "The tournament plans %(n)d round: from round %(next)d on some pairs meet again, "
            "as few as the draw can make it.",
            "The tournament plans %(n)d rounds: from round %(next)d on some pairs meet again, "
            "as few as the draw can make it.",
            planned,
        ) % {"n": planned, "next": reachable + 1}
    return DrawOutlook(
        tables=_tables(outlook), reach=reach, plan=plan, repeats_coming=planned > reachable
    )


def draw_progress_text(progress: DrawProgress) -> str:
    """What the draw panel says while a large field's schedule is searched."""
    return ngettext(
        "Round %(number)d: the search is %(percent)d%% done; so far %(count)d of %(rounds)d "
        "rounds is repeat-free (at most %(bound)d can be).",
        "Round %(number)d: the search is %(percent)d%% done; so far %(count)d of %(rounds)d "
        "rounds are repeat-free (at most %(bound)d can be).",
        progress.repeat_free,
    ) % {
        "number": progress.round_number,
        "percent": int(progress.share * 100),
        "count": progress.repeat_free,
        "rounds": progress.rounds,
        "bound": progress.bound,
    }
