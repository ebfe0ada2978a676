"""Django app configuration of the seasons app (club seasons and ratings)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("Seasons and ratings")

    def ready(self) -> None:
        # Connects the receivers that recompute ratings and season tables when results change.
        from seasons import tasks  # noqa: F401
