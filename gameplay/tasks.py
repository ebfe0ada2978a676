"""Celery tasks of live games: thin interfaces to the services that play bot seats and forget
guests' old practice games."""

# Every task has an explicit name, the one it had when Celery named it after its module: a task
# queued before the code moves to another module still finds its function after the upgrade.

from celery import shared_task

from gameplay import services


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    name="gameplay.tasks.play_bot_turn",
)
def play_bot_turn(game_id: int, expected_sequence: int) -> None:
    """Play the bot's action at a game that still waits for it after `expected_sequence` actions.

    Idempotent: a redelivered or duplicate task finds the sequence moved on and does nothing.
    """
    services.bot_play_turn(game_id=game_id, expected_sequence=expected_sequence)


@shared_task(ignore_result=True, name="gameplay.tasks.watch_bot_turns")
def watch_bot_turns() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): enqueue again the bot turns a dead worker left behind."""
    services.bot_turns_watchdog()


@shared_task(ignore_result=True, name="gameplay.tasks.forget_stale_guest_games")
def forget_stale_guest_games() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): delete the guests' practice games left unplayed for days,
    and the addresses games were started from once the limit no longer counts them."""
    services.practice_guest_games_forget()
