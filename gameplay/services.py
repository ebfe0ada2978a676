"""Writes of live games: start a table, apply the players' and the bots' actions, replace a seat.

Every action goes through `_apply` with the game row locked: it is checked by the engine, given
the next sequence number (unique per game, so an action is never stored twice) and appended to the
log. When a deal ends the next one is dealt from a fresh secure shuffle; when the game ends a
tournament table's result goes to its score sheet, confirmed. After the commit, watchers are told
and, if a bot is to act, its turn is enqueued (`tasks.play_bot_turn`).
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import random
import threading
from collections import deque
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bots import make_bot
from core.exceptions import Conflict
from core.i18n import error_text
from gameplay.broadcast import notify_game_changed
from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange
from gameplay.selectors import (
    PAUSED_GAMES,
    Guest,
    live_game_paused,
    live_game_state,
    new_engine_game,
    practice_games_of,
    remember_state,
    seat_of,
    state_cache_key,
)
from gameplay.shuffle import deck_commitment, new_salt, secure_deck
from rules import Action, DealState, EngineError, Game, IllegalActionError
from scoring.models import TableResult
from scoring.score_sheet import sheet_from_game
from scoring.services import result_record_live
from tournaments.models import BotLevel, Round, Table
from tournaments.selectors import is_director, player_of
from tournaments.services import player_login_ensure

logger = logging.getLogger(__name__)

PRACTICE_BOT_LEVEL = "easy"
PRACTICE_PLAYERS = (3, 4)
BOT_LEVEL_NAMES = set(BotLevel.values)
# The bots a guest (nobody signed in) may practise against. A hard bot searches for up to a
# second of the server's processor per decision, three of them after each move at a table of
# four: that is for the club's players, not for any visitor's browser to claim at will.
GUEST_BOT_LEVELS = (BotLevel.EASY.value, BotLevel.NORMAL.value)
# Logged (WARNING) for each bot decision its safety deadline cut short: the search answered with
# what it had, so the bot played below its level; many of them say the workers are too few for
# the tables (docs/deployment.md). bench/live.py counts them.
BOT_DECISION_CUT = "The %s bot of game %s answered at its safety deadline (the workers are busy)"
# The limits on practice games; settings.PRACTICE_LIMITS may change any of them. Bots cost the
# server CPU, so nobody may start games without end, least of all anonymously.
DEFAULT_PRACTICE_LIMITS = {
    "window": 60 * 60,  # seconds over which the games started are counted
    "per_user": 30,  # games a signed-in user may start in the window
    "per_guest": 10,  # games one guest (one browser session) may start in the window
    "per_address": 20,  # guests' games started from one address in the window
    "guest_unfinished": 3,  # a guest's unfinished games; one more gives up his oldest
    "guest_kept_days": 3,  # a guest's game without a move for this long is deleted
}


class PracticeLimitReached(Exception):
    """Too many practice games were started from here lately; `retry_after` seconds to wait."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def practice_limits() -> dict[str, int]:
    return {**DEFAULT_PRACTICE_LIMITS, **getattr(settings, "PRACTICE_LIMITS", {})}


# ----------------------------------------------------------------------------- starting games
@transaction.atomic
def live_game_create_for_table(*, actor: User, table: Table) -> LiveGame:
    """Play a tournament table live: its seats as they were drawn, deal 1 dealt at once.

    Players without a login get one (they sign in with their personal link); bots keep their
    level. The table's first dealer is seat 0, as on its paper score sheet.
    """
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )
    tournament = table.round.tournament
    if not is_director(actor, tournament.club_id):
        raise PermissionDenied(_("Only a director of this club may start a live table."))
    if table.round.status != Round.Status.PUBLISHED:
        raise ValidationError(_("Publish the round before its tables are played live."))
    if LiveGame.objects.filter(table=table).exists():
        raise ValidationError(_("This table is played live already."))
    if TableResult.objects.filter(table=table, status=TableResult.Status.CONFIRMED).exists():
        raise ValidationError(_("This table has a confirmed result already."))
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    if [seat.position for seat in seats] not in ([0, 1, 2], [0, 1, 2, 3]):
        raise ValidationError(_("A live table needs 3 or 4 seats numbered from 0."))
    fixed = tournament.fixed_deals
    game = LiveGame.objects.create(
        table=table,
        players=len(seats),
        first_dealer=0,
        rules=dict(tournament.rules or {}),
        fixed_deals=fixed,
        status=LiveGame.Status.PLAYING,
    )
    for seat in seats:
        if seat.is_bot:
            LiveSeat.objects.create(game=game, position=seat.position, bot_level=seat.bot_level)
        else:
            player = seat.registration.player
            user = player_login_ensure(actor=actor, player=player)
            LiveSeat.objects.create(game=game, position=seat.position, user=user, name=player.name)
    _start(game)
    return game


@transaction.atomic
def practice_game_start(
    *,
    user: User | Guest | None = None,
    players: int = 3,
    bot_level: str = PRACTICE_BOT_LEVEL,
    address: str = "",
    owner: User | None = None,
) -> LiveGame:
    """A practice game at once: `user` (signed in, or a guest) at seat 0 against bots.

    `players` is 3 or 4 (2 or 3 bots of `bot_level`). In his first practice game the human is
    the first to bid, so the page opens on his own move; after that the first dealer moves one
    seat on with each game he starts, so he is not always first. Games are limited (see
    DEFAULT_PRACTICE_LIMITS): a guest's from his session and from his `address`.

    `owner` is another name for `user` (the table page's code and benchmark use it).
    """
    user = user if user is not None else owner
    guest = user if isinstance(user, Guest) else None
    if guest is None and (user is None or not user.is_authenticated):
        raise PermissionDenied(_("Sign in to practise against bots."))
    if type(players) is not int or players not in PRACTICE_PLAYERS:
        raise ValidationError(_("A practice game is for 3 or 4 players."), code="players")
    if bot_level not in BOT_LEVEL_NAMES:
        raise ValidationError(_("Unknown bot level %(level)s.") % {"level": bot_level})
    if guest is not None and bot_level not in GUEST_BOT_LEVELS:
        raise ValidationError(
            _("The hard bots are for the club's players: sign in to practise against them."),
            code="bot_level",
        )
    address_key = _address_key(address) if guest is not None else ""
    _check_practice_limits(user, address_key)
    previous = practice_games_of(user).order_by("-created_at", "-id").first()
    if guest is not None:
        _give_up_oldest_guest_games(guest)
    game = LiveGame.objects.create(
        players=players,
        first_dealer=_practice_first_dealer(previous, players),
        rules={},
        status=LiveGame.Status.PLAYING,
        practice_owner=None if guest is not None else user,
        practice_guest=guest.key if guest is not None else "",
        practice_address=address_key,
    )
    if guest is not None:
        LiveSeat.objects.create(game=game, position=0)
    else:
        LiveSeat.objects.create(game=game, position=0, user=user, name=_human_name(user))
    for position in range(1, players):
        LiveSeat.objects.create(game=game, position=position, bot_level=bot_level)
    _start(game)
    return game


def _human_name(user: User) -> str:
    player = player_of(user)
    return player.name if player is not None else (user.get_full_name() or user.get_username())


def _practice_first_dealer(previous: LiveGame | None, players: int) -> int:
    """The seat left of the dealer bids first: the human at seat 0 in his first game, then the
    deal moves one seat on per game."""
    if previous is None:
        return players - 1
    return (previous.first_dealer + 1) % players


def _address_key(address: str) -> str:
    """A keyed hash of the client's address: the limit can count by it, a reader of the
    database learns nothing of the address."""
    if not address:
        return ""
    return salted_hmac("gameplay.practice_address", address[:100], algorithm="sha256").hexdigest()


def _check_practice_limits(user: User | Guest, address_key: str) -> None:
    limits = practice_limits()
    since = timezone.now() - datetime.timedelta(seconds=limits["window"])
    counted = [
        (practice_games_of(user), limits["per_guest" if isinstance(user, Guest) else "per_user"])
    ]
    if address_key:
        by_address = LiveGame.objects.filter(table__isnull=True, practice_address=address_key)
        counted.append((by_address, limits["per_address"]))
    for games, limit in counted:
        most = max(1, limit)
        started = list(
            games.filter(created_at__gte=since)
            .order_by("-created_at")
            .values_list("created_at", flat=True)[:most]
        )
        if len(started) >= most:
            # Once the oldest of the last `most` games leaves the window, one more may start.
            wait = started[-1] + datetime.timedelta(seconds=limits["window"]) - timezone.now()
            minutes = max(1, -(-int(wait.total_seconds()) // 60))
            raise PracticeLimitReached(
                ngettext(
                    "Too many practice games were started from here lately. "
                    "Try again in %(minutes)d minute, or go on with a game you have.",
                    "Too many practice games were started from here lately. "
                    "Try again in %(minutes)d minutes, or go on with a game you have.",
                    minutes,
                )
                % {"minutes": minutes},
                retry_after=max(1, int(wait.total_seconds()) + 1),
            )


def _give_up_oldest_guest_games(guest: Guest) -> None:
    """Keep a guest's unfinished games under the limit: his oldest ones end, unplayed."""
    keep = practice_limits()["guest_unfinished"] - 1
    unfinished = list(
        practice_games_of(guest)
        .filter(status=LiveGame.Status.PLAYING)
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)
    )
    given_up = unfinished[max(keep, 0) :]
    if given_up:
        # The rows stay (the limits count them) until forget_stale_guest_games deletes them.
        LiveGame.objects.filter(pk__in=given_up).update(
            status=LiveGame.Status.FINISHED, finished_at=timezone.now(), to_act=None
        )


@transaction.atomic
def practice_games_hand_over(*, guest: Guest, user: User) -> int:
    """A guest who signs in keeps his practice games: they become the user's, his seat at each
    the user's seat. Returns the number of games handed over."""
    if not user.is_authenticated:
        raise PermissionDenied(_("Sign in to practise against bots."))
    games = list(
        practice_games_of(guest).select_for_update().values_list("pk", flat=True).order_by("pk")
    )
    if not games:
        return 0
    LiveSeat.objects.filter(game__in=games, user__isnull=True, bot_level="").update(
        user=user, name=_human_name(user)
    )
    LiveGame.objects.filter(pk__in=games).update(practice_owner=user, practice_guest="")
    return len(games)


def practice_guest_games_forget(*, now: datetime.datetime | None = None, batch: int = 200) -> int:
    """Delete the guests' practice games nobody has moved at for `guest_kept_days`, and forget
    the addresses games were started from once the limit no longer counts them. Returns the
    number of games deleted (at most `batch` a call; the periodic task comes again)."""
    limits = practice_limits()
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=limits["guest_kept_days"])
    stale = list(
        LiveGame.objects.filter(table__isnull=True)
        .exclude(practice_guest="")
        .filter(
            Q(turn_started_at__lt=cutoff) | Q(turn_started_at__isnull=True, created_at__lt=cutoff)
        )
        .values_list("pk", flat=True)[:batch]
    )
    with transaction.atomic():
        LiveGame.objects.filter(pk__in=stale).delete()
        LiveGame.objects.exclude(practice_address="").filter(
            created_at__lt=now - datetime.timedelta(seconds=limits["window"])
        ).update(practice_address="")
    return len(stale)


def _start(game: LiveGame) -> None:
    engine_game = new_engine_game(game)
    _deal_next(game, engine_game)
    _save_turn(game, engine_game)
    _after_change(game, engine_game)


def _deal_next(game: LiveGame, engine_game: Game) -> LiveDeal:
    """Shuffle securely, commit to the deck order and deal it."""
    deck = secure_deck()
    salt = new_salt()
    dealer = engine_game.next_dealer
    engine_game.start_deal(deck)
    return LiveDeal.objects.create(
        game=game,
        number=len(engine_game.deals),
        dealer=dealer,
        deck=deck,
        salt=salt,
        commitment=deck_commitment(deck, salt),
        start_sequence=game.sequence,
    )


@transaction.atomic
def live_game_deal_on(*, game: LiveGame) -> LiveGame:
    """Deal the next deal of a game that stands between deals, and let it go on.

    Only an imported game stands so: an archive leaves out the deal that was being played (its
    cards are secret), so the game goes on with a new shuffle of that deal. Any other game is
    left as it is.
    """
    game = LiveGame.objects.select_for_update().get(pk=game.pk)
    engine_game = live_game_state(game)
    between_deals = engine_game.current is None and not engine_game.over
    if game.status == LiveGame.Status.PLAYING and between_deals:
        _deal_next(game, engine_game)
        _save_turn(game, engine_game)
        _after_change(game, engine_game)
    return game


# ----------------------------------------------------------------------------- actions
@transaction.atomic
def live_game_act(
    *, actor: User | Guest, game: LiveGame, action: dict[str, Any], expected_sequence: int
) -> LiveGame:
    """Apply the action of `actor`'s seat, if he saw the game as it is (`expected_sequence`).

    A repeated or stale action (the game has moved on) is a Conflict; an action out of turn or
    against the rules is a ValidationError whose message names the rule.
    """
    game = LiveGame.objects.select_for_update().get(pk=game.pk)
    seat = seat_of(game, actor)
    if seat is None:
        raise PermissionDenied(_("You do not hold a seat at this game."))
    if game.status != LiveGame.Status.PLAYING:
        raise ValidationError(_("The game is over."), code="over")
    if live_game_paused(game):
        raise ValidationError(
            _("The tournament is finished, so its tables are no longer played."), code="finished"
        )
    if not isinstance(expected_sequence, int) or isinstance(expected_sequence, bool):
        raise ValidationError(_("Say which action number you saw last."), code="sequence")
    if expected_sequence != game.sequence:
        raise Conflict(
            _(
                "The game had moved on to action %(n)d (you saw %(seen)d), "
                "so your move was not made."
            )
            % {"n": game.sequence, "seen": expected_sequence}
        )
    parsed = _parse_action(action, seat.position)
    engine_game = live_game_state(game)
    try:
        _apply(game, engine_game, parsed, by_bot=False)
    except IllegalActionError as error:
        raise ValidationError(error_text(error), code="illegal") from None
    _after_change(game, engine_game)
    return game


def _parse_action(record: Any, position: int) -> Action:
    if not isinstance(record, dict):
        raise ValidationError(_("An action must be an object such as {'type': 'pass'}."))
    seat = record.get("seat", position)
    if seat != position:
        raise ValidationError(_("You can act only for your own seat."), code="seat")
    try:
        return Action.from_record({**record, "seat": position})
    except EngineError as error:
        raise ValidationError(error_text(error), code="malformed") from None


def _apply(game: LiveGame, engine_game: Game, action: Action, *, by_bot: bool) -> None:
    """Apply a checked action to the locked game and its state, deal on or end the game."""
    deal_row = game.deals.order_by("-number").first()
    engine_game.apply(action)  # raises IllegalActionError and changes nothing
    sequence = game.sequence + 1
    try:
        with transaction.atomic():
            LiveAction.objects.create(
                game=game,
                deal=deal_row,
                sequence=sequence,
                seat=action.seat,
                action=action.to_record(),
                by_bot=by_bot,
            )
    except IntegrityError:
        # Only without row locks (SQLite) can two writers get this far; the second one loses.
        raise Conflict(
            _("Action %(n)d was played meanwhile, so your move was not made.") % {"n": sequence}
        ) from None
    game.sequence = sequence
    if engine_game.current is None:
        deal_row.finished_at = timezone.now()
        deal_row.save(update_fields=["finished_at"])
        if engine_game.over:
            _finish(game, engine_game)
        else:
            _deal_next(game, engine_game)
    _save_turn(game, engine_game)


def _save_turn(game: LiveGame, engine_game: Game) -> None:
    current = engine_game.current
    game.to_act = current.to_act if current is not None else None
    game.turn_started_at = timezone.now()
    game.save(
        update_fields=["sequence", "status", "to_act", "turn_started_at", "winner", "finished_at"]
    )


def _finish(game: LiveGame, engine_game: Game) -> None:
    game.status = LiveGame.Status.FINISHED
    game.finished_at = timezone.now()
    game.winner = engine_game.winner
    if game.table_id is None:
        return
    try:
        with transaction.atomic():
            result_record_live(table=game.table, sheet=sheet_from_game(engine_game))
    except ValidationError as error:
        # The game itself is over either way; the director can enter the sheet by hand.
        logger.error(
            "The result of live game %s was not recorded: %s", game.pk, "; ".join(error.messages)
        )


def _after_change(game: LiveGame, engine_game: Game) -> None:
    """After the commit: cache the new state, tell the watchers, enqueue a bot's turn."""
    game_id, sequence = game.pk, game.sequence
    key = state_cache_key(game)
    bot_turn = (
        game.status == LiveGame.Status.PLAYING
        and game.to_act is not None
        and game.seats.filter(position=game.to_act).exclude(bot_level="").exists()
    )

    def committed() -> None:
        remember_state(key, engine_game)
        notify_game_changed(game_id, sequence)
        if bot_turn:
            enqueue_bot_turn(game_id, sequence)

    transaction.on_commit(committed)


# ----------------------------------------------------------------------------- bots
def bot_seed(game_id: int, position: int) -> int:
    """A bot's seed: fixed per game and seat, so its decisions can be reproduced."""
    return game_id * 4 + position


def bot_play_turn(*, game_id: int, expected_sequence: int) -> bool:
    """Play the bot's action if the game still waits for it at `expected_sequence`.

    The body of the Celery task, so it must be idempotent: a redelivered or duplicate task finds
    the sequence moved on (or the row locked, then moved on) and does nothing. The bot thinks
    before the row is locked, so a slow decision never holds the lock; it sees only its seat's
    observation. Returns whether an action was applied.
    """
    game = LiveGame.objects.filter(pk=game_id).first()
    if game is None or game.status != LiveGame.Status.PLAYING or game.sequence != expected_sequence:
        return False
    if live_game_paused(game):
        return False
    deal = live_game_state(game).current
    if deal is None:
        return False
    seat = game.seats.filter(position=deal.to_act).first()
    if seat is None or not seat.is_bot:
        return False
    action = _bot_choose(game_id, seat, deal)
    try:
        return _bot_apply(game_id, expected_sequence, action)
    except Conflict:
        return False


def _bot_choose(game_id: int, seat: LiveSeat, deal: DealState) -> Action:
    """The bot's action; a failing or illegal choice is logged and replaced by a legal one.

    A bot is deterministic, so a turn retried after its failure would fail again and the table
    would never finish.
    """
    legal = deal.legal_actions()
    try:
        bot = make_bot(seat.bot_level, seed=bot_seed(game_id, seat.position))
        action = dataclasses.replace(
            bot.choose(deal.observation(seat.position)), seat=seat.position
        )
        if bot.last_cut:
            logger.warning(BOT_DECISION_CUT, seat.bot_level, game_id)
    except Exception:
        logger.exception(
            "The %s bot of game %s failed; it plays a legal action", seat.bot_level, game_id
        )
        return random.Random(bot_seed(game_id, seat.position)).choice(legal)
    if action not in legal:
        logger.error(
            "The %s bot of game %s chose %s, which is illegal", seat.bot_level, game_id, action
        )
        return random.Random(bot_seed(game_id, seat.position)).choice(legal)
    return action


@transaction.atomic
def _bot_apply(game_id: int, expected_sequence: int, action: Action) -> bool:
    game = LiveGame.objects.select_for_update().get(pk=game_id)
    if game.status != LiveGame.Status.PLAYING or game.sequence != expected_sequence:
        return False
    if not game.seats.filter(position=action.seat).exclude(bot_level="").exists():
        return False
    engine_game = live_game_state(game)
    _apply(game, engine_game, action, by_bot=True)
    _after_change(game, engine_game)
    return True


# Bot turns waiting to run in this thread, while an eager (in-process) loop is draining them.
_eager = threading.local()


def enqueue_bot_turn(game_id: int, sequence: int) -> None:
    """Send a bot's turn to the workers; with eager Celery, play it (and the bots after it) here.

    In the embedded mode each bot move commits and enqueues the next bot's turn from its own
    on-commit hook; the outermost call drains those in a loop instead of recursing, and stops when
    a human is to act or the game is over.
    """
    from gameplay.tasks import play_bot_turn

    if not play_bot_turn.app.conf.task_always_eager:
        # At once, as in the embedded mode: the table page shows the bots' moves one by one with
        # the pauses of gameplay.pacing. (A countdown per bot turn on the workers stalled games
        # in the integration tests: a turn received with its countdown was never played.)
        try:
            play_bot_turn.delay(game_id, sequence)
        except Exception:
            # The move is committed; the watchdog sends the turn again once the broker is back.
            logger.exception("Could not enqueue the bot turn of game %s", game_id)
        return
    queue = getattr(_eager, "queue", None)
    if queue is not None:
        queue.append((game_id, sequence))
        return
    _eager.queue = queue = deque([(game_id, sequence)])
    try:
        while queue:
            turn_game, turn_sequence = queue.popleft()
            try:
                play_bot_turn.delay(turn_game, turn_sequence)
            except Exception:
                logger.exception("The bot turn of game %s failed", turn_game)
    finally:
        _eager.queue = None


def bot_turns_watchdog(*, older_than_seconds: float = 5) -> int:
    """Enqueue again the bot turns that have waited too long (a worker died mid-move).

    The turn's time is reset when it is enqueued again, so a slow queue gets one more task per
    period, not one per watchdog run. Returns the number of turns enqueued.
    """
    now = timezone.now()
    cutoff = now - datetime.timedelta(seconds=older_than_seconds)
    bot_to_act = LiveSeat.objects.filter(game=OuterRef("pk"), position=OuterRef("to_act")).exclude(
        bot_level=""
    )
    stuck = list(
        LiveGame.objects.filter(
            status=LiveGame.Status.PLAYING, to_act__isnull=False, turn_started_at__lt=cutoff
        )
        .exclude(PAUSED_GAMES)
        .filter(Exists(bot_to_act))
        .values_list("pk", "sequence")
    )
    enqueued = 0
    for game_id, sequence in stuck:
        # Only if no move was made meanwhile: another process may just have played it.
        if LiveGame.objects.filter(pk=game_id, sequence=sequence).update(turn_started_at=now):
            enqueue_bot_turn(game_id, sequence)
            enqueued += 1
    return enqueued


# ----------------------------------------------------------------------------- seats
@transaction.atomic
def live_seat_replace_with_bot(
    *, actor: User, game: LiveGame, position: int, level: str
) -> LiveSeat:
    """A director puts a bot in the seat of a player who left; the change is recorded."""
    game = (
        # Only the game's row: PostgreSQL cannot lock the nullable side of the table join.
        LiveGame.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .get(pk=game.pk)
    )
    if game.table is None or not is_director(actor, game.table.round.tournament.club_id):
        raise PermissionDenied(_("Only a director of this club may replace a player."))
    if game.status != LiveGame.Status.PLAYING:
        raise ValidationError(_("The game is over."))
    if level not in BOT_LEVEL_NAMES:
        raise ValidationError(
            _("The bot level must be one of: %(levels)s.")
            % {"levels": ", ".join(sorted(BOT_LEVEL_NAMES))}
        )
    seat = game.seats.select_for_update().filter(position=position).first()
    if seat is None:
        raise ValidationError(_("There is no such seat at this table."))
    if seat.is_bot:
        raise ValidationError(_("A bot sits in this seat already."))
    LiveSeatChange.objects.create(
        game=game,
        position=position,
        from_user=seat.user,
        from_name=seat.name,
        to_bot_level=level,
        sequence=game.sequence,
        changed_by=actor,
    )
    seat.user = None
    seat.bot_level = level
    # The name stays: the bot is shown as his stand-in (LiveSeat.display_name).
    seat.save(update_fields=["user", "bot_level"])
    engine_game = live_game_state(game)
    _save_turn(game, engine_game)
    _after_change(game, engine_game)
    return seat
