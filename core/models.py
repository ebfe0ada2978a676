"""Counts of failed sign-ins, kept in the database so that every web process sees the same."""

from django.db import models


class SignInFailureCount(models.Model):
    """Failed sign-ins for one key (a user name, an address, or the pair) in one time window.

    The key is a hash (`core.login_limit`), so any text typed as a user name fits and no user
    name or address is stored in plain text.
    """

    key = models.CharField(max_length=80, unique=True)
    count = models.PositiveIntegerField(default=0)
    window_started = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key[:20]}… {self.count} since {self.window_started:%Y-%m-%d %H:%M}"
