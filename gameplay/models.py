"""Database models of live games played at the tables.

The ordered action log (`LiveAction`) is the source of truth of a live game: its state is the
engine's replay of the deals' deck orders and the actions (see `selectors.live_game_state`).
The other fields are what the log cannot say (who sits where, the secret decks and salts) or
copies of the replay's outcome kept for queries (whose turn it is, the winner).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import BotLevel, Table


class LiveGame(models.Model):
    """A game of 1001 played in the app, at a tournament table or at a practice table."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    # Null for a practice game, which belongs to no tournament.
    table = models.OneToOneField(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="live_game",
        verbose_name=_("table"),
    )
    players = models.PositiveSmallIntegerField(_("players"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    rules = models.JSONField(_("rule options"), default=dict, blank=True)
    fixed_deals = models.PositiveSmallIntegerField(
        _("fixed number of deals"), null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    # The number of actions applied; an action is accepted only from a client that saw this many.
    sequence = models.PositiveIntegerField(_("actions applied"), default=0)
    # Copied from the replay after every change, so the watchdog finds stuck bot turns by query.
    to_act = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    winner = models.PositiveSmallIntegerField(_("winner's seat"), null=True, blank=True)
    practice_owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="practice_games",
        verbose_name=_("practice game of"),
    )
    # A guest's practice game (no login): the random key his session holds, not the session's
    # own key, which Django changes when he signs in (then the game becomes his user's).
    practice_guest = models.CharField(
        _("practice game of a guest"), max_length=64, blank=True, default="", editable=False
    )
    # Where a guest's game was started from, as a keyed hash (never the address itself): the
    # limit on the games started anonymously from one address counts by it.
    practice_address = models.CharField(
        _("started from"), max_length=64, blank=True, default="", editable=False
    )
    # Times are defaults rather than auto_now_add, so that an archive's import keeps them.
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("live game")
        verbose_name_plural = _("live games")
        constraints = [
            models.CheckConstraint(condition=Q(players__in=(3, 4)), name="live_game_3_or_4"),
            models.CheckConstraint(
                condition=Q(first_dealer__lt=models.F("players")),
                name="live_game_first_dealer_seated",
            ),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(practice_owner__isnull=True),
                name="live_game_table_or_practice",
            ),
            models.CheckConstraint(
                condition=Q(practice_guest="") | Q(table__isnull=True, practice_owner__isnull=True),
                name="live_game_guest_practice_only",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "turn_started_at"], name="live_game_turns"),
            models.Index(
                fields=["practice_guest", "created_at"],
                condition=~Q(practice_guest=""),
                name="live_game_guest",
            ),
            models.Index(
                fields=["practice_address", "created_at"],
                condition=~Q(practice_address=""),
                name="live_game_guest_address",
            ),
        ]

    def __str__(self) -> str:
        where = str(self.table) if self.table_id else _("practice")
        return f"{_('Live game')} {self.pk} ({where})"

    @property
    def is_practice(self) -> bool:
        return self.table_id is None

    @property
    def is_guest_practice(self) -> bool:
        return bool(self.practice_guest)


class LiveSeat(models.Model):
    """A seat of a live game: a human player (a login) or a bot of a level.

    A human's seat without a login is a guest's, at his practice game (`LiveGame.practice_guest`
    says whose).
    """

    game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="live_seats",
        verbose_name=_("player"),
    )
    # Empty for a human's seat.
    bot_level = models.CharField(
        _("bot level"), max_length=10, choices=BotLevel.choices, blank=True
    )
    # The name a human sat down with; for a bot that took over a human's seat, that human's name;
    # empty for a seat that was a bot's or a guest's from the start. What pages show is
    # `display_name`, in the reader's language.
    name = models.CharField(_("name"), max_length=120, blank=True)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("live seat")
        verbose_name_plural = _("live seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="live_seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="live_seat_user_once_per_game",
            ),
            models.CheckConstraint(condition=Q(position__lte=3), name="live_seat_position_0_to_3"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot_level=""),
                name="live_seat_human_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}, seat {self.position}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def display_name(self) -> str:
        """What the seat is called on the table page, in the reader's language.

        A practice game's bots are numbered by seat; a tournament table's are called as on the
        draw (`BotLevel.seat_name`); a bot that took over a human's seat is his stand-in.
        """
        if self.is_bot:
            if self.name:
                # His name first: on a phone the seat shows its beginning, which tells two apart.
                return str(_("%(name)s (bot)") % {"name": self.name})
            if self.game.is_practice:
                return str(_("Bot %(number)d") % {"number": self.position})
            return BotLevel(self.bot_level).seat_name
        if self.user_id is None:
            return str(_("Guest"))
        return self.name


class LiveSeatChange(models.Model):
    """A human replaced by a bot during a game, as the director decided."""

    game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="seat_changes")
    position = models.PositiveSmallIntegerField(_("seat"))
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("replaced player"),
    )
    from_name = models.CharField(_("replaced player's name"), max_length=120)
    to_bot_level = models.CharField(_("bot level"), max_length=10, choices=BotLevel.choices)
    # The number of actions applied when the bot took over.
    sequence = models.PositiveIntegerField(_("at action"))
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(_("changed"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "changed_at", "id"]
        verbose_name = _("seat change")
        verbose_name_plural = _("seat changes")

    def __str__(self) -> str:
        return f"{self.game}, seat {self.position}: {self.from_name} -> bot ({self.to_bot_level})"


class LiveDeal(models.Model):
    """One deal of a live game with its secret deck order and the public commitment to it.

    `commitment` is the SHA-256 (lowercase hex) of the ASCII bytes of the deck's card names in
    deal order joined by commas, a colon, and the salt (64 lowercase hex digits), for example
    ``sha256(b"9S,JS,QS,...,AH:3f0c...e1")``. It is shown before the first action of the deal;
    the deck and the salt are shown once the deal is over, so anyone can check the shuffle.
    """

    game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("number"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    deck = models.JSONField(_("deck order"))
    salt = models.CharField(_("salt"), max_length=64)
    commitment = models.CharField(_("commitment"), max_length=64)
    # The game's sequence when the deal was dealt: its actions are the ones after it.
    start_sequence = models.PositiveIntegerField(_("dealt after action"))
    started_at = models.DateTimeField(_("started"), default=timezone.now, editable=False)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("live deal")
        verbose_name_plural = _("live deals")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="live_deal_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="live_deal_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game}, deal {self.number}"


class LiveAction(models.Model):
    """One applied action, in the record notation of RULES.md section 9."""

    game = models.ForeignKey(LiveGame, on_delete=models.CASCADE, related_name="actions")
    deal = models.ForeignKey(LiveDeal, on_delete=models.CASCADE, related_name="actions")
    # 1 for the game's first action; the game's `sequence` is the latest one.
    sequence = models.PositiveIntegerField(_("sequence number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    by_bot = models.BooleanField(_("by a bot"), default=False)
    created_at = models.DateTimeField(_("played"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "sequence"]
        verbose_name = _("live action")
        verbose_name_plural = _("live actions")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "sequence"], name="live_action_unique_sequence"
            ),
            models.CheckConstraint(
                condition=Q(sequence__gte=1), name="live_action_sequence_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}, action {self.sequence}"
