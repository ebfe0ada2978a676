"""Database models of table results (versioned score sheets) and standings snapshots."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Table, Tournament


class TableResult(models.Model):
    """The result state of one table; `version` counts the score sheets submitted for it.

    Writers lock this row and compare versions, so two people saving the same table at once get
    a conflict instead of overwriting each other.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("no result yet")
        SUBMITTED = "submitted", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="result")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    confirmed = models.ForeignKey(
        "ResultVersion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed version"),
    )
    # Stamped by each write in scoring.services; a default rather than auto_now, so that an
    # archive's import keeps the archived time.
    updated_at = models.DateTimeField(_("updated"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("table result")
        verbose_name_plural = _("table results")

    def __str__(self) -> str:
        return _("%(table)s: %(status)s (version %(version)d)") % {
            "table": self.table,
            "status": self.get_status_display(),
            "version": self.version,
        }


class ResultVersion(models.Model):
    """One submitted score sheet of a table; never changed except to record its confirmation."""

    class Source(models.TextChoices):
        PLAYER = "player", _("player")
        DIRECTOR = "director", _("director")
        LIVE = "live", _("live table")

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        SUPERSEDED = "superseded", _("superseded")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="result_versions")
    number = models.PositiveIntegerField(_("version"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SUBMITTED
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    sheet = models.JSONField(_("score sheet"))
    # Derived from the validated sheet, per seat position (None for a bot seat's player id).
    totals = models.JSONField(_("totals"))
    placements = models.JSONField(_("placements"))
    winner_position = models.PositiveSmallIntegerField(_("winner's seat"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    # A default rather than auto_now_add, so that an archive's import keeps the archived time.
    submitted_at = models.DateTimeField(_("submitted"), default=timezone.now, editable=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed or disputed by"),
    )
    reviewed_at = models.DateTimeField(_("confirmed or disputed"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True, max_length=1000)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="result_version_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="result_version_positive"),
        ]

    def __str__(self) -> str:
        return _("%(table)s, version %(number)d (%(status)s)") % {
            "table": self.table,
            "number": self.number,
            "status": self.get_status_display(),
        }


class StandingsSnapshot(models.Model):
    """Standings computed from the confirmed results as of `version`; pages read only these."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings_snapshots"
    )
    version = models.PositiveIntegerField(_("results version"))
    rows = models.JSONField(_("rows"))
    computed_at = models.DateTimeField(_("computed"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-version"]
        get_latest_by = "version"
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "version"], name="standings_snapshot_unique_version"
            ),
        ]

    def __str__(self) -> str:
        return _("Standings of %(tournament)s, version %(version)d") % {
            "tournament": self.tournament.name,
            "version": self.version,
        }


class SheetDraft(models.Model):
    """The deals a table has entered so far, saved after every deal while the game is played.

    Not a result: it only keeps what was typed, so that a reload, a second phone or a table-mate
    sees the same sheet until it is submitted (which empties it). `version` counts the saves;
    a writer names the version he saw and gets a conflict, not an overwrite, when another saved
    meanwhile. `removed` keeps the deal removed last (its index and row), to undo the removal.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet_draft")
    version = models.PositiveIntegerField(_("version"), default=0)
    rows = models.JSONField(_("deals"), default=list, blank=True)
    removed = models.JSONField(_("removed deal"), null=True, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("saved by"),
    )
    updated_at = models.DateTimeField(_("saved"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("score sheet draft")
        verbose_name_plural = _("score sheet drafts")

    def __str__(self) -> str:
        return _("Draft of %(table)s (version %(version)d)") % {
            "table": self.table,
            "version": self.version,
        }
