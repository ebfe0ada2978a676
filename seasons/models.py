"""Database models of club seasons, their stored tables, and players' stored ratings.

Season tables and ratings are derived from the tournaments' results: stored by the services
(recomputed from scratch, in a worker) so that pages only read them.
"""

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings import rating as rating_rules
from ratings import season as season_rules
from tournaments.models import Club, Player, Tournament


def default_season_precedence() -> list[str]:
    return list(season_rules.DEFAULT_SEASON_PRECEDENCE)


def default_season_placement_points() -> list[float]:
    return list(season_rules.DEFAULT_SEASON_PLACEMENT_POINTS)


class Season(models.Model):
    class Scoring(models.TextChoices):
        TOURNAMENT_POINTS = season_rules.SCORING_TOURNAMENT_POINTS, _("sum of tournament points")
        PLACEMENT_POINTS = (
            season_rules.SCORING_PLACEMENT_POINTS,
            _("placement points per tournament"),
        )

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    scoring = models.CharField(
        _("season scoring"),
        max_length=20,
        choices=Scoring.choices,
        default=Scoring.TOURNAMENT_POINTS,
    )
    best_count = models.PositiveSmallIntegerField(
        _("best tournaments counted"),
        null=True,
        blank=True,
        help_text=_("Only each player's best N tournaments count; empty: all of them."),
    )
    placement_points = models.JSONField(
        _("season points by final rank"), default=default_season_placement_points
    )
    precedence = models.JSONField(_("season precedence"), default=default_season_precedence)
    seed = models.BigIntegerField(_("seed"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(best_count__isnull=True)
                | Q(best_count__gte=1, best_count__lte=season_rules.MAX_BEST_COUNT),
                name="season_best_count_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rule(self) -> season_rules.SeasonRule:
        """The season's rule for the pure season table (ratings.season)."""
        return season_rules.SeasonRule(
            scoring=self.scoring,
            best_count=self.best_count,
            placement_points=tuple(self.placement_points or ()),
            precedence=tuple(self.precedence or ()),
        )


class SeasonStandings(models.Model):
    """The season's table as last computed; pages read only this."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="standings")
    rows = models.JSONField(_("rows"))
    # The tournaments that counted, in date order: id, name, date.
    tournaments = models.JSONField(_("tournaments"))
    computed_at = models.DateTimeField(_("computed"), default=timezone.now)

    class Meta:
        verbose_name = _("season table")
        verbose_name_plural = _("season tables")

    def __str__(self) -> str:
        return str(self.season)


class PlayerRating(models.Model):
    """A player's current rating (OpenSkill's Plackett-Luce mean and uncertainty)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    tables = models.PositiveIntegerField(_("tables rated"))
    computed_at = models.DateTimeField(_("computed"), default=timezone.now)

    class Meta:
        ordering = ["player"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player}: {self.conservative:.1f}"

    @property
    def conservative(self) -> float:
        return self.mu - rating_rules.CONSERVATIVE_SIGMAS * self.sigma


class RatingPoint(models.Model):
    """A player's rating after a tournament: the points of his rating chart."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField(_("mean"))
    sigma = models.FloatField(_("uncertainty"))
    tables = models.PositiveIntegerField(_("tables rated"))

    class Meta:
        ordering = ["player", "tournament__date", "tournament_id"]
        verbose_name = _("rating after a tournament")
        verbose_name_plural = _("ratings after tournaments")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tournament"], name="rating_point_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}, {self.tournament_id}: {self.conservative:.1f}"

    @property
    def conservative(self) -> float:
        return self.mu - rating_rules.CONSERVATIVE_SIGMAS * self.sigma
