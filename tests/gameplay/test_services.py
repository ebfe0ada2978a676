"""The game service: sequence numbers, turns and rules, idempotent bot turns and the watchdog."""

import datetime
import logging
from dataclasses import replace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from bots import StrongBot
from bots.strong import BUDGETS
from core.exceptions import Conflict
from gameplay import selectors, services
from gameplay.models import LiveAction, LiveGame
from gameplay.tasks import play_bot_turn, watch_bot_turns
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return UserFactory()


@pytest.fixture
def game(user):
    # On-commit hooks do not run here, so the bots wait until a test runs their turn.
    return services.practice_game_start(user=user)


def fresh(game):
    return LiveGame.objects.get(pk=game.pk)


def my_move(game, user):
    view = selectors.live_game_view(fresh(game), user=user)
    return view["legal"][0], view["sequence"]


def test_a_practice_game_starts_with_the_human_to_bid(game, user):
    view = selectors.live_game_view(game, user=user)

    assert view["status"] == "playing"
    assert view["seat"] == 0 and view["to_act"] == 0
    assert view["sequence"] == 0
    assert {"type": "pass", "seat": 0} in view["legal"]
    assert view["current_deal"]["number"] == 1
    assert len(view["observation"]["hand"]) == 7


def test_an_action_gets_the_next_sequence_number(game, user):
    action, sequence = my_move(game, user)

    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    game = fresh(game)
    assert game.sequence == 1
    stored = LiveAction.objects.get(game=game)
    assert (stored.sequence, stored.seat, stored.action, stored.by_bot) == (1, 0, action, False)
    assert game.to_act == 1


def test_a_repeated_action_is_refused_and_never_applied_twice(game, user):
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    with pytest.raises(Conflict, match="moved on to action 1"):
        services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    assert fresh(game).sequence == 1
    assert LiveAction.objects.filter(game=game).count() == 1


def test_a_stale_or_future_sequence_is_refused(game, user):
    action, sequence = my_move(game, user)

    for wrong in (sequence + 1, sequence - 1):
        with pytest.raises(Conflict):
            services.live_game_act(actor=user, game=game, action=action, expected_sequence=wrong)
    with pytest.raises(ValidationError):
        services.live_game_act(actor=user, game=game, action=action, expected_sequence="0")

    assert fresh(game).sequence == 0


def test_an_illegal_action_is_refused_with_the_rule_it_breaks(game, user):
    with pytest.raises(ValidationError) as refused:
        services.live_game_act(
            actor=user, game=game, action={"type": "bid", "value": 35}, expected_sequence=0
        )

    assert "40" in refused.value.messages[0]
    assert fresh(game).sequence == 0
    assert not LiveAction.objects.exists()


def test_acting_out_of_turn_names_whose_turn_it_is(game, user):
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    with pytest.raises(ValidationError) as refused:
        services.live_game_act(actor=user, game=game, action={"type": "pass"}, expected_sequence=1)

    assert refused.value.messages == ["it is seat 1's turn, not seat 0's"]


def test_a_player_acts_only_for_his_own_seat(game, user):
    with pytest.raises(ValidationError, match="your own seat"):
        services.live_game_act(
            actor=user, game=game, action={"seat": 1, "type": "pass"}, expected_sequence=0
        )
    with pytest.raises(PermissionDenied):
        services.live_game_act(
            actor=UserFactory(), game=game, action={"type": "pass"}, expected_sequence=0
        )
    with pytest.raises(ValidationError):
        services.live_game_act(actor=user, game=game, action="pass", expected_sequence=0)
    with pytest.raises(ValidationError):
        services.live_game_act(
            actor=user, game=game, action={"type": "shuffle"}, expected_sequence=0
        )


def test_the_bot_task_is_idempotent(game, user):
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    play_bot_turn.apply(args=(game.pk, 1))
    play_bot_turn.apply(args=(game.pk, 1))  # redelivered

    game = fresh(game)
    assert game.sequence == 2
    bot_actions = LiveAction.objects.filter(game=game, by_bot=True)
    assert [(a.sequence, a.seat) for a in bot_actions] == [(2, 1)]


def test_a_bot_turn_does_nothing_once_the_game_moved_on(game, user):
    assert services.bot_play_turn(game_id=game.pk, expected_sequence=0) is False  # human's turn
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    assert services.bot_play_turn(game_id=game.pk, expected_sequence=0) is False
    assert services.bot_play_turn(game_id=game.pk, expected_sequence=5) is False
    assert services.bot_play_turn(game_id=game.pk + 1000, expected_sequence=1) is False
    assert services.bot_play_turn(game_id=game.pk, expected_sequence=1) is True
    assert fresh(game).sequence == 2


def test_a_bot_sees_only_its_own_observation(game, user, monkeypatch):
    seen = []
    real_make_bot = services.make_bot

    class Spy:
        last_cut = False

        def __init__(self, bot):
            self.bot = bot

        def choose(self, observation):
            seen.append(observation)
            return self.bot.choose(observation)

    monkeypatch.setattr(
        services, "make_bot", lambda level, seed: Spy(real_make_bot(level, seed=seed))
    )
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    services.bot_play_turn(game_id=game.pk, expected_sequence=1)

    deal = selectors.live_game_state(game).deals[0]
    (observation,) = seen
    assert type(observation).__name__ == "Observation"
    assert observation.seat == 1
    assert set(observation.hand) == set(deal.hand(1))


@pytest.mark.parametrize(("deadline", "cut"), [(1e-9, True), (600.0, False)])
def test_a_bot_decision_cut_by_its_safety_deadline_is_logged(
    game, user, monkeypatch, caplog, deadline, cut
):
    # A real searching bot whose deadline comes before its second sample, or never.
    def make_bot(level, seed):
        return StrongBot(
            seed=seed, level="hard", budget=replace(BUDGETS["hard"], deadline=deadline)
        )

    monkeypatch.setattr(services, "make_bot", make_bot)
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    with caplog.at_level(logging.WARNING, logger="gameplay.services"):
        assert services.bot_play_turn(game_id=game.pk, expected_sequence=1) is True
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    level = fresh(game).seats.get(position=1).bot_level
    expected = [services.BOT_DECISION_CUT % (level, game.pk)] if cut else []
    assert warnings == expected


def test_a_failing_bot_still_makes_a_legal_move(game, user, monkeypatch):
    class Broken:
        def choose(self, observation):
            raise RuntimeError("bug")

    monkeypatch.setattr(services, "make_bot", lambda level, seed: Broken())
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)

    assert services.bot_play_turn(game_id=game.pk, expected_sequence=1) is True
    assert fresh(game).sequence == 2


def test_the_watchdog_enqueues_again_a_bot_turn_left_behind(game, user, monkeypatch):
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)
    # The worker that took the turn died: nothing moves, and no hook will enqueue it again.
    assert services.bot_turns_watchdog(older_than_seconds=5) == 0  # too recent to be stuck
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - datetime.timedelta(seconds=30)
    )

    assert services.bot_turns_watchdog(older_than_seconds=5) == 1

    # Eager Celery played the turn at once.
    game = fresh(game)
    assert game.sequence == 2
    assert LiveAction.objects.get(game=game, sequence=2).by_bot


def test_the_watchdog_sends_the_turn_with_its_sequence_and_only_once_per_period(
    game, user, monkeypatch
):
    sent = []
    monkeypatch.setattr(play_bot_turn, "delay", lambda *args: sent.append(args))
    action, sequence = my_move(game, user)
    services.live_game_act(actor=user, game=game, action=action, expected_sequence=sequence)
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - datetime.timedelta(seconds=30)
    )

    watch_bot_turns.apply()
    watch_bot_turns.apply()  # the next beat, before the turn is old again

    assert sent == [(game.pk, 1)]


def test_the_watchdog_leaves_human_turns_and_finished_games_alone(game, user):
    LiveGame.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - datetime.timedelta(minutes=5)
    )

    assert services.bot_turns_watchdog(older_than_seconds=5) == 0
    LiveGame.objects.filter(pk=game.pk).update(status=LiveGame.Status.FINISHED, to_act=1)
    assert services.bot_turns_watchdog(older_than_seconds=5) == 0


def test_after_one_human_move_the_bots_play_on_until_the_human_is_to_act(committed, user):
    game = committed(services.practice_game_start, user=user)
    action, sequence = my_move(game, user)

    committed(services.live_game_act, actor=user, game=game, action=action, expected_sequence=0)

    game = fresh(game)
    assert game.sequence >= 3
    assert game.to_act == 0 or game.status == LiveGame.Status.FINISHED
    assert selectors.live_game_view(game, user=user)["legal"]


def test_the_cached_state_is_the_replay_of_the_log(committed, user):
    game = committed(services.practice_game_start, user=user)
    for _ in range(6):
        action, sequence = my_move(game, user)
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=action,
            expected_sequence=sequence,
        )
    game = fresh(game)

    cached = selectors.live_game_state(game)
    replayed = selectors.replay_live_game(game)

    assert cached is not replayed
    assert [d.history() for d in cached.deals] == [d.history() for d in replayed.deals]
    assert cached.totals == replayed.totals


def test_every_bot_level_of_the_app_has_its_bots_and_no_more():
    from bots import LEVELS
    from tournaments.models import BotLevel

    assert set(BotLevel.values) == set(LEVELS)


def _declarer_at_the_talon(rules, *, bid: bool):
    """A deal of three whose seat 1 won the auction (or was forced to play) and may concede."""
    import random as _random

    from rules import Game
    from rules.simulate import shuffled_deck

    deal = Game(players=3, first_dealer=0, rules=rules).start_deal(shuffled_deck(_random.Random(1)))
    while not any(action.type == "concede" for action in deal.legal_actions()):
        actions = deal.legal_actions()
        bids = [a for a in actions if a.type == "bid"]
        passes = [a for a in actions if a.type == "pass"]
        deal.apply(
            bids[0] if bid and deal.to_act == 1 and bids else passes[0] if passes else actions[0]
        )
    return deal, next(a for a in deal.legal_actions() if a.type == "concede")


@pytest.mark.parametrize("bonus", [50, 30])
def test_the_concession_question_says_what_conceding_scores_under_the_games_rules(bonus):
    from gameplay.selectors import _concede_question
    from rules import RuleSet

    deal, concede = _declarer_at_the_talon(RuleSet(concede_bonus=bonus), bid=True)

    question = _concede_question(deal, concede, concede.seat)

    assert question == (
        f"Concede this deal? You score -{deal.bid}; the other players score +{bonus}."
    )


def test_a_forced_declarer_is_told_he_scores_nothing():
    from gameplay.selectors import _concede_question
    from rules import RuleSet

    deal, concede = _declarer_at_the_talon(RuleSet(), bid=False)
    assert deal.forced

    assert "You score 0;" in _concede_question(deal, concede, concede.seat)
