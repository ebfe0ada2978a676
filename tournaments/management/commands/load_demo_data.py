"""Loads demonstration data for a development machine; safe to run any number of times."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DIRECTOR_USERNAME = "director"
DIRECTOR_PASSWORD = "director"


class Command(BaseCommand):
    help = (
        "Ensure the demo data exists: a superuser 'director' with password 'director'. "
        "Does nothing when DEBUG is off, because the password is public."
    )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo data loaded.")
            return
        self._ensure_director()

    @transaction.atomic
    def _ensure_director(self) -> None:
        user_model = get_user_model()
        if user_model.objects.filter(username=DIRECTOR_USERNAME).exists():
            self.stdout.write(f"Superuser '{DIRECTOR_USERNAME}' already exists; left unchanged.")
            return
        user_model.objects.create_superuser(
            username=DIRECTOR_USERNAME, email="", password=DIRECTOR_PASSWORD
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Created superuser '{DIRECTOR_USERNAME}' with password '{DIRECTOR_PASSWORD}'."
            )
        )
