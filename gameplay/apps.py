"""Django app configuration of the gameplay app."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = _("Gameplay")

    def ready(self) -> None:
        # Connects the receiver that gives a guest's practice games to him when he signs in.
        from gameplay import signals  # noqa: F401
