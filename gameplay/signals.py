"""A guest's practice games follow him when he signs in: Django's `user_logged_in` hands them over.

Signing in cycles the session's key but keeps its data, so the guest's key (see
`gameplay.selectors.GUEST_SESSION_KEY`) is still there when the signal comes; the games become
the user's and the key leaves the session.
"""

from __future__ import annotations

import logging

from django.contrib.auth.signals import user_logged_in
from django.db import DatabaseError
from django.dispatch import receiver

from gameplay import selectors, services

logger = logging.getLogger(__name__)


@receiver(user_logged_in, dispatch_uid="gameplay.practice_games_hand_over")
def hand_over_guest_games(sender, request=None, user=None, **kwargs) -> None:
    session = getattr(request, "session", None)
    key = selectors.session_guest(session)
    if not key or user is None:
        return
    try:
        services.practice_games_hand_over(guest=selectors.Guest(key), user=user)
    except DatabaseError:
        # Signing in matters more than the practice games: they stay the guest's.
        logger.exception("The practice games of a guest were not handed over to user %s", user.pk)
        return
    session.pop(selectors.GUEST_SESSION_KEY, None)
