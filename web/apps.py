"""Django app configuration of the web app (every page of the site)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebConfig(AppConfig):
    name = "web"
    verbose_name = _("Pages")

    def ready(self) -> None:
        # Connects the receiver that pre-renders new standings (scoring.signals.standings_stored).
        from web import tasks  # noqa: F401
