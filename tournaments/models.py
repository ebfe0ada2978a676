"""Database models of clubs, players, tournaments, registrations, rounds, tables and seats."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from standings import ranking as standings_rules

# The standings' defaults are the pure standings module's; a tournament stores them as JSON
# (placement points keyed by the table size as text).


def default_precedence() -> list[str]:
    return list(standings_rules.DEFAULT_PRECEDENCE)


def default_placement_points() -> dict[str, list[float]]:
    defaults = standings_rules.DEFAULT_PLACEMENT_POINTS
    return {str(size): list(defaults[size]) for size in sorted(defaults)}


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_clubs",
        blank=True,
        verbose_name=_("directors"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = pgettext_lazy("more than one club", "clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="players", verbose_name=_("club")
    )
    name = models.CharField(pgettext_lazy("of a person", "name"), max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
        verbose_name=_("login"),
    )
    # Times are defaults rather than auto_now_add, so that an archive's import keeps them.
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class TableSize(models.TextChoices):
        THREE = "3", _("tables of 3")
        FOUR = "4", _("tables of 4")
        MIXED = "mixed", _("tables of 3 and 4")

    class RoundFormat(models.TextChoices):
        GAME = "game", _("a full game to the target")
        DEALS = "deals", _("a fixed number of deals")

    class SeatingMode(models.TextChoices):
        BALANCED = "balanced", _("balanced: fewest repeated meetings")
        STANDINGS = "standings", _("by standings (Swiss)")
        SCHEDULE = "schedule", _("whole schedule up front")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    rounds_planned = models.PositiveSmallIntegerField(_("number of rounds"), default=5)
    table_size = models.CharField(
        _("table size"), max_length=5, choices=TableSize.choices, default=TableSize.FOUR
    )
    bots_allowed = models.BooleanField(
        _("bots fill empty seats"),
        default=False,
        help_text=_(
            "When the player count does not fill the tables, bots take the empty seats "
            "instead of mixing tables of 3 and 4."
        ),
    )
    round_format = models.CharField(
        _("round format"), max_length=5, choices=RoundFormat.choices, default=RoundFormat.GAME
    )
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    rules = models.JSONField(_("rule options"), default=dict, blank=True)
    seating_mode = models.CharField(
        _("seating mode"),
        max_length=10,
        choices=SeatingMode.choices,
        default=SeatingMode.BALANCED,
    )
    standings_precedence = models.JSONField(_("standings precedence"), default=default_precedence)
    placement_points = models.JSONField(
        _("tournament points by placement"), default=default_placement_points
    )
    quick_results_allowed = models.BooleanField(
        _("final totals may be entered alone"), default=False
    )
    is_public = models.BooleanField(_("public"), default=True)
    # Club seasons and ratings (the seasons app): the season it counts in, if any, and whether
    # its results rate the players (not for practice or handicap events).
    season = models.ForeignKey(
        "seasons.Season",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("season"),
    )
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_("Its results change the players' ratings (not for practice or handicap)."),
    )
    seed = models.BigIntegerField(_("seed"), default=0)
    # Bumped in the transaction that confirms a result; a standings snapshot records the
    # version it was computed from, so a burst of confirmations costs one recomputation each.
    results_version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1, rounds_planned__lte=60),
                name="tournament_rounds_1_to_60",
            ),
            models.CheckConstraint(
                condition=Q(round_format="game", deals_per_round__isnull=True)
                | Q(round_format="deals", deals_per_round__gte=3),
                name="tournament_deals_only_with_deals_format",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({formats.date_format(self.date, 'DATE_FORMAT')})"

    @property
    def fixed_deals(self) -> int | None:
        """The number of deals every table plays in a round, or None when a table plays a
        game to the target (the "game" format)."""
        if self.round_format == self.RoundFormat.DEALS:
            return self.deals_per_round or None
        return None


# The code a player types to sign in on a phone (the table's QR page, or "For players" on the
# home page), printed on his player card: six characters from an alphabet without look-alikes
# (no 0 and O, no 1, I and L, no U), typed in either case. It names one registration of the
# whole site, so a code of one tournament never opens another's; the director's "new link"
# draws a new code with the new link.
ENTRY_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
ENTRY_CODE_LENGTH = 6


def new_entry_code() -> str:
    """A random entry code (the services draw again while one is taken, `unused_entry_code`)."""
    return "".join(secrets.choice(ENTRY_CODE_ALPHABET) for _ in range(ENTRY_CODE_LENGTH))


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("start number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    # Late entries join from this round on; withdrawn players leave after `withdrawn_after`.
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("registered"), default=timezone.now, editable=False)
    # Signed into the player's personal link for this tournament; the director's "new link"
    # raises it, and every link printed before stops signing in.
    personal_link_version = models.PositiveIntegerField(_("personal link version"), default=1)
    # Printed on the player card beside the personal link; see ENTRY_CODE_ALPHABET.
    entry_code = models.CharField(
        _("entry code"),
        max_length=ENTRY_CODE_LENGTH,
        unique=True,
        default=new_entry_code,
        editable=False,
    )
    # The roll call: a player marked absent sits out the rounds drawn while he is absent (he is
    # neither withdrawn nor removed); everyone counts as present until the director says not.
    present = models.BooleanField(_("present"), default=True)

    class Meta:
        ordering = ["tournament", "start_number"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="registration_unique_start_number"
            ),
            models.CheckConstraint(
                condition=Q(start_number__gte=1), name="registration_start_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.start_number} {self.player}"

    @property
    def entry_code_display(self) -> str:
        """The entry code as printed, in two groups of three ("K7M 4PX")."""
        half = len(self.entry_code) // 2
        return f"{self.entry_code[:half]} {self.entry_code[half:]}"


class TournamentEvent(models.Model):
    """The audit trail of a director's decisions about a tournament as a whole (results have
    their own, scoring.ResultVersion): who did what, when, and why when he was asked."""

    class Kind(models.TextChoices):
        FINISHED = "finished", _("finished")
        REOPENED = "reopened", _("reopened")
        PLAYER_RENAMED = "player_renamed", _("player renamed")
        PLAYERS_MERGED = "players_merged", _("players merged")
        REGISTRATION_DELETED = "registration_deleted", _("registration deleted")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    # The director's reason, where one is asked for (finishing early, reopening).
    note = models.CharField(_("note"), max_length=1000, blank=True)
    # What changed, for people to read back: names before and after, the players merged.
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]
        verbose_name = _("tournament event")
        verbose_name_plural = _("tournament events")

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.get_kind_display()}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        FINISHED = "finished", _("finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    seed = models.BigIntegerField(_("draw seed"))
    created_at = models.DateTimeField(_("drawn"), default=timezone.now, editable=False)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    # The round clock: its length with every extension, when it was started, when it was paused
    # (null while it runs) and how long it stood paused before; none set until it is started.
    clock_seconds = models.PositiveIntegerField(_("clock length (seconds)"), null=True, blank=True)
    clock_started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    clock_paused_at = models.DateTimeField(_("clock paused"), null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(_("clock paused for (seconds)"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("%(tournament)s, round %(number)d") % {
            "tournament": self.tournament.name,
            "number": self.number,
        }


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        ]

    def __str__(self) -> str:
        return _("%(round)s, table %(number)d") % {"round": self.round, "number": self.number}


class BotLevel(models.TextChoices):
    """How strongly a bot plays: a seat of the draw and a seat of a live game have one of these
    (the bots behind each level: `bots.LEVELS`)."""

    EASY = "easy", _("easy")
    NORMAL = "normal", _("normal")
    HARD = "hard", _("hard")

    @property
    def seat_name(self) -> str:
        """What a bot's seat is called on every page, sheet, card and file."""
        return _("Bot (%(level)s)") % {"level": self.label}


class Seat(models.Model):
    BotLevel = BotLevel

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round is the table's round, stored again so that the database itself can forbid a
    # player from sitting twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="seats", null=True, blank=True
    )
    # Empty for a player's seat; a bot's seat has no registration and a level.
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BotLevel.choices, blank=True
    )

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["round", "registration"], name="seat_player_once_per_round"
            ),
            models.CheckConstraint(condition=Q(position__lte=3), name="seat_position_0_to_3"),
            models.CheckConstraint(
                condition=(Q(registration__isnull=True) & ~Q(bot_level=""))
                | Q(registration__isnull=False, bot_level=""),
                name="seat_player_or_bot",
            ),
        ]

    def __str__(self) -> str:
        if self.is_bot:
            who = _("bot (%(level)s)") % {"level": self.get_bot_level_display()}
        else:
            who = str(self.registration)
        return _("%(table)s, seat %(seat)d: %(who)s") % {
            "table": self.table,
            "seat": self.number,
            "who": who,
        }

    @property
    def number(self) -> int:
        """The seat as people count it, from 1 (`position` is the 0-based index of the records)."""
        return self.position + 1

    @property
    def is_bot(self) -> bool:
        return self.registration_id is None

    @property
    def display_name(self) -> str:
        """The player's name, or the bot's seat name (load `registration__player` with it)."""
        if self.is_bot:
            return BotLevel(self.bot_level or BotLevel.NORMAL).seat_name
        return self.registration.player.name
