"""The sign-in page, which sends each person where his evening starts when no page asked for
the sign-in: a director to his tournaments, a player to his table, anyone else home."""

from django.shortcuts import resolve_url
from django.urls import reverse

from core.login_limit import RateLimitedLoginView
from tournaments import selectors


class SignInView(RateLimitedLoginView):
    """The sign-in page, with the same limit on failures as every way of signing in."""

    def get_redirect_url(self) -> str:
        url = super().get_redirect_url()
        # The header's link on the home page asks to come back home, which is no page the
        # person asked for: he goes where his evening starts instead.
        return "" if url == reverse("home") else url

    def get_default_redirect_url(self) -> str:
        if self.next_page:
            return resolve_url(self.next_page)
        user = self.request.user
        if selectors.directed_club_ids(user):
            return reverse("director-home")
        if selectors.player_of(user) is not None:
            return reverse("player-home")
        return reverse("home")
