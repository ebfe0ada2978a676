"""Tournament tables played live: starting one, its result in the score sheet, seat changes."""

import random
import sys

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from gameplay import selectors, services
from gameplay.models import LiveGame, LiveSeatChange
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from tests.factories import UserFactory
from tests.gameplay.conftest import human_choice, live_table_round
from tournaments import services as tournament_services
from tournaments.models import Round
from tournaments.selectors import tournament_finish_gaps

pytestmark = pytest.mark.django_db


def fresh(game):
    return LiveGame.objects.get(pk=game.pk)


def humans(game):
    return {seat.position: seat.user for seat in game.seats.exclude(user=None)}


def play_humans_to_the_end(game, committed, seed=1):
    rng = random.Random(seed)
    for _ in range(2000):
        game = fresh(game)
        if game.status == LiveGame.Status.FINISHED:
            return game
        user = humans(game)[game.to_act]
        view = selectors.live_game_view(game, user=user)
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
    raise AssertionError("the game did not end")


@pytest.fixture
def table_round():
    return live_table_round(players=4, deals=3)


def test_a_director_starts_a_table_live_with_its_drawn_seats(table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)

    game = services.live_game_create_for_table(actor=director, table=table)

    seats = list(game.seats.order_by("position"))
    drawn = list(table.seats.select_related("registration__player").order_by("position"))
    assert (game.players, game.first_dealer, game.fixed_deals) == (3, 0, 3)
    assert game.status == LiveGame.Status.PLAYING and game.table == table
    for live, seat in zip(seats, drawn, strict=True):
        if seat.is_bot:
            assert (live.user, live.bot_level) == (None, seat.bot_level)
        else:
            player = seat.registration.player
            player.refresh_from_db()
            # A player without a login got one, to sign in with his personal link.
            assert player.user is not None and live.user == player.user
            assert live.name == player.name
    assert game.deals.count() == 1


def test_only_a_director_of_the_club_starts_a_live_table(table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    player = table.seats.exclude(registration=None).first().registration.player

    for outsider in (UserFactory(), player.user or UserFactory()):
        with pytest.raises(PermissionDenied):
            services.live_game_create_for_table(actor=outsider, table=table)
    services.live_game_create_for_table(actor=director, table=table)
    with pytest.raises(ValidationError, match="already"):
        services.live_game_create_for_table(actor=director, table=table)


def test_a_table_of_a_draft_round_is_not_played_live():
    director, round_ = live_table_round(players=4)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.DRAFT)

    with pytest.raises(ValidationError, match="Publish the round"):
        services.live_game_create_for_table(actor=director, table=round_.tables.first())


def test_a_finished_live_table_has_a_confirmed_live_result_and_standings(table_round, committed):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)

    game = play_humans_to_the_end(game, committed)

    state = selectors.live_game_state(game)
    assert len(state.deals) == 3 and state.over
    version = ResultVersion.objects.get(table=table)
    assert version.status == ResultVersion.Status.CONFIRMED
    assert version.source == ResultVersion.Source.LIVE
    assert version.totals == state.totals
    assert version.winner_position == state.winner == game.winner
    assert [row["scores"] for row in version.sheet["rows"]] == [
        list(deal.scores) for deal in state.deals
    ]
    assert TableResult.objects.get(table=table).status == TableResult.Status.CONFIRMED
    snapshot = StandingsSnapshot.objects.get(tournament=round_.tournament)
    played = {row["start_number"]: row for row in snapshot.rows if row["games_played"]}
    assert len(played) == 2  # the table's two players; the bot is not in the standings
    assert sorted(row["total_score"] for row in played.values()) == sorted(
        state.totals[seat.position]
        for seat in table.seats.exclude(registration=None).order_by("position")
    )


def test_a_finished_tournament_stops_its_live_tables_until_it_is_reopened(
    table_round, committed, monkeypatch
):
    director, round_ = table_round
    tournament = round_.tournament
    done = committed(
        services.live_game_create_for_table, actor=director, table=round_.tables.get(number=1)
    )
    play_humans_to_the_end(done, committed)  # a confirmed result: the tournament may finish
    game = fresh(
        committed(
            services.live_game_create_for_table, actor=director, table=round_.tables.get(number=2)
        )
    )
    user = humans(game)[game.to_act]
    assert any(
        "Table 2 of round 1 is still being played in the app" in gap
        for gap in tournament_finish_gaps(tournament)
    )

    legal = selectors.live_game_view(game, user=user)["legal"]

    tournament_services.tournament_finish(actor=director, tournament=tournament, note="Late.")

    view = selectors.live_game_view(game, user=user)
    assert view["stopped"] is True and view["legal"] == []  # the page offers no move
    with pytest.raises(ValidationError, match="tournament is finished"):
        services.live_game_act(
            actor=user,
            game=game,
            action=legal[0],
            expected_sequence=view["sequence"],
        )
    assert fresh(game).sequence == game.sequence
    # Its bots do not play either, and the watchdog leaves the game alone.
    bot = next(seat.position for seat in game.seats.all() if seat.is_bot)
    LiveGame.objects.filter(pk=game.pk).update(to_act=bot, turn_started_at=game.created_at)
    assert services.bot_play_turn(game_id=game.pk, expected_sequence=game.sequence) is False
    sent = []
    monkeypatch.setattr(services, "enqueue_bot_turn", lambda *args: sent.append(args))
    assert services.bot_turns_watchdog(older_than_seconds=0) == 0 and sent == []

    tournament_services.tournament_reopen(actor=director, tournament=tournament, note="Oops.")

    assert selectors.live_game_view(fresh(game), user=user)["stopped"] is False
    assert services.bot_turns_watchdog(older_than_seconds=0) == 1
    assert sent == [(game.pk, game.sequence)]


def test_a_director_replaces_a_player_who_left_by_a_bot(table_round, committed):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)
    game = fresh(game)
    leaving = game.seats.exclude(user=None).order_by("position").first()
    left_user = leaving.user

    with pytest.raises(PermissionDenied):
        services.live_seat_replace_with_bot(
            actor=left_user, game=game, position=leaving.position, level="easy"
        )
    committed(
        services.live_seat_replace_with_bot,
        actor=director,
        game=game,
        position=leaving.position,
        level="easy",
    )

    change = LiveSeatChange.objects.get(game=game)
    assert (change.position, change.from_user, change.to_bot_level) == (
        leaving.position,
        left_user,
        "easy",
    )
    assert change.changed_by == director and change.from_name == leaving.name
    seat = game.seats.get(position=leaving.position)
    assert (seat.user, seat.bot_level) == (None, "easy")
    # The stand-in is named after him, in the reader's language.
    players = selectors.live_game_view(game, user=director)["players"]
    with translation.override("uk"):
        in_ukrainian = selectors.live_game_view(game, user=director)["players"]
    assert players[leaving.position]["name"] == f"{leaving.name} (bot)"
    assert in_ukrainian[leaving.position]["name"] == f"{leaving.name} (бот)"
    assert seat.name == leaving.name
    # The bots play on at once; only the remaining human is ever waited for.
    game = fresh(game)
    remaining = humans(game)
    assert game.status == LiveGame.Status.FINISHED or game.to_act in remaining
    assert selectors.live_game_view(game, user=left_user)["seat"] is None
    with pytest.raises(ValidationError, match="already"):
        services.live_seat_replace_with_bot(
            actor=director, game=game, position=leaving.position, level="easy"
        )
    with pytest.raises(ValidationError, match="level"):
        services.live_seat_replace_with_bot(
            actor=director, game=game, position=next(iter(remaining)), level="genius"
        )


def test_a_table_of_bots_only_plays_itself_to_the_end(table_round, committed):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)

    for position in sorted(humans(fresh(game))):
        committed(
            services.live_seat_replace_with_bot,
            actor=director,
            game=fresh(game),
            position=position,
            level="easy",
        )

    game = fresh(game)
    assert game.status == LiveGame.Status.FINISHED
    assert LiveSeatChange.objects.filter(game=game).count() == 2
    assert ResultVersion.objects.get(table=table).source == ResultVersion.Source.LIVE


def test_who_may_watch_a_live_table(table_round):
    director, round_ = table_round
    table = round_.tables.get(number=1)
    game = services.live_game_create_for_table(actor=director, table=table)
    seated = next(iter(humans(game).values()))

    assert selectors.live_game_for_user(seated, game.pk) == game
    assert selectors.live_game_for_user(director, game.pk) == game
    # A public tournament's table may be watched by anyone, without the hidden cards.
    stranger = UserFactory()
    assert selectors.live_game_for_user(stranger, game.pk) == game
    assert selectors.live_game_view(game, user=stranger)["seat"] is None
    assert selectors.live_game_view(game, user=stranger)["observation"]["hand"] == []
    assert selectors.live_game_for_user(None, game.pk + 1000) is None

    round_.tournament.is_public = False
    round_.tournament.save()
    assert selectors.live_game_for_user(stranger, game.pk) is None
    assert selectors.live_game_for_user(seated, game.pk) == game
    assert selectors.live_game_for_user(director, game.pk) == game


def test_a_practice_game_is_its_owners_only(committed):
    owner = UserFactory()
    game = services.practice_game_start(user=owner)

    assert selectors.live_game_for_user(owner, game.pk) == game
    assert selectors.live_game_for_user(UserFactory(), game.pk) is None
    with pytest.raises(PermissionDenied):
        services.live_seat_replace_with_bot(actor=owner, game=game, position=0, level="easy")


def frame_depth() -> int:
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


@pytest.mark.django_db(transaction=True)
def test_in_the_embedded_mode_bots_play_in_a_loop_not_a_recursion(monkeypatch):
    director, round_ = live_table_round(players=4, deals=3)
    table = round_.tables.get(number=1)
    depths = []
    real_make_bot = services.make_bot

    class Measured:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, observation):
            depths.append(frame_depth())
            return self.bot.choose(observation)

        @property
        def last_cut(self):
            return self.bot.last_cut

    monkeypatch.setattr(
        services, "make_bot", lambda level, seed: Measured(real_make_bot("easy", seed=seed))
    )
    game = services.live_game_create_for_table(actor=director, table=table)

    # Real commits here: each bot move's on-commit hook enqueues the next bot's turn.
    for position in sorted(humans(game)):
        services.live_seat_replace_with_bot(
            actor=director, game=fresh(game), position=position, level="easy"
        )

    assert fresh(game).status == LiveGame.Status.FINISHED
    assert len(depths) > 60
    assert max(depths) - min(depths) < 10
