"""What a client is shown: only its own cards, a commitment before each deal, the deck after."""

import hashlib
import json
import random

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from gameplay import broadcast, selectors, services
from gameplay.models import LiveGame
from gameplay.shuffle import commitment_message, deck_commitment
from rules import CARDS
from rules.cards import CARD_NAMES
from tests.factories import UserFactory
from tests.gameplay.conftest import human_choice, live_table_round

pytestmark = pytest.mark.django_db


def fresh(game):
    return LiveGame.objects.get(pk=game.pk)


def hidden_from(state, seat):
    """Cards `seat` may not know now: other hands, less the turned-up talon and its own gifts."""
    deal = state.deals[-1]
    if deal.done:
        return set()
    hidden = {
        CARD_NAMES[card]
        for other in range(state.players)
        if other != seat
        for card in deal.hand(other)
    }
    if deal.talon_revealed:
        hidden -= {CARD_NAMES[card] for card in deal.talon_cards}
    if seat is not None:
        hidden -= {CARD_NAMES[card] for _to, card in deal.observation(seat).given}
    return hidden


def cards_in(value) -> set[str]:
    names = set(CARD_NAMES)
    text = json.dumps(value)
    return {name for name in names if f'"{name}"' in text}


def assert_view_hides_other_cards(game, user, seat):
    view = selectors.live_game_view(game, user=user)
    state = selectors.replay_live_game(game)
    assert view["seat"] == seat
    current = state.deals[-1]
    # Finished deals are revealed whole; everything else must hold no hidden card.
    shown = cards_in({key: value for key, value in view.items() if key != "deals"})
    assert not shown & hidden_from(state, seat), f"leak at action {game.sequence}"
    revealed = {deal["number"] for deal in view["deals"]}
    assert revealed == set(range(1, len(state.deals) + (1 if current.done else 0)))
    if not current.done:
        row = game.deals.get(number=len(state.deals))
        text = json.dumps(view)
        assert row.salt not in text
        assert view["current_deal"]["commitment"] == row.commitment
    if seat is not None:
        assert sorted(view["observation"]["hand"]) == sorted(
            CARD_NAMES[card] for card in current.hand(seat)
        )
    return view


def test_no_view_shows_another_seats_cards_at_any_step_of_a_game(committed):
    director, round_ = live_table_round(players=4, deals=3)
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)
    rng = random.Random(4)
    seated = {seat.position: seat.user for seat in game.seats.exclude(user=None)}
    watchers = [(user, position) for position, user in seated.items()]
    watchers += [(director, None), (UserFactory(), None), (AnonymousUser(), None)]
    steps = 0
    while True:
        game = fresh(game)
        for user, seat in watchers:
            assert_view_hides_other_cards(game, user, seat)
        if game.status == LiveGame.Status.FINISHED:
            break
        user = seated[game.to_act]
        view = selectors.live_game_view(game, user=user)
        # Every legal move is the actor's own: no one else's turn shows him anything.
        assert all(action["seat"] == game.to_act for action in view["legal"])
        for other, _seat in watchers:
            if other is not user:
                assert selectors.live_game_view(game, user=other)["legal"] == []
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
        steps += 1
    assert steps > 10
    final = selectors.live_game_view(game, user=director)
    assert len(final["deals"]) == 3 and final["current_deal"] is None


def test_every_deal_is_committed_before_and_revealed_after(committed):
    user = UserFactory()
    game = committed(services.practice_game_start, user=user)
    rng = random.Random(2)
    commitments = {}
    while len(selectors.live_game_view(fresh(game), user=user)["deals"]) < 3:
        view = selectors.live_game_view(fresh(game), user=user)
        current = view["current_deal"]
        commitments.setdefault(current["number"], current["commitment"])
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )

    view = selectors.live_game_view(fresh(game), user=user)
    assert [deal["number"] for deal in view["deals"]] == [1, 2, 3]
    for deal in view["deals"]:
        assert sorted(deal["deck"]) == sorted(str(card) for card in CARDS)
        assert len(deal["salt"]) == 64
        message = (",".join(deal["deck"]) + ":" + deal["salt"]).encode("ascii")
        assert commitment_message(deal["deck"], deal["salt"]) == message
        assert deal["commitment"] == hashlib.sha256(message).hexdigest()
        if deal["number"] in commitments:  # shown before the deal was played
            assert commitments[deal["number"]] == deal["commitment"]
    # The deck each deal was played with is the one revealed: the replay deals it again.
    state = selectors.live_game_state(fresh(game))
    for deal, shown in zip(state.deals, view["deals"], strict=False):
        assert [CARD_NAMES[card] for card in deal.deck] == shown["deck"]
        assert list(deal.scores) == shown["scores"]


def test_decks_are_shuffled_anew_every_deal():
    user = UserFactory()
    decks = [tuple(services.practice_game_start(user=user).deals.get().deck) for _ in range(5)]
    assert len(set(decks)) == 5
    assert deck_commitment(list(decks[0]), "00" * 32) != deck_commitment(list(decks[1]), "00" * 32)


def test_each_move_tells_the_games_group(committed, settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    user = UserFactory()
    game = services.practice_game_start(user=user)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"game-{game.pk}", channel)
    view = selectors.live_game_view(game, user=user)

    with pytest.MonkeyPatch.context() as patch:
        # Only the notice of the human's move: the bots' moves are not run here.
        patch.setattr(services, "enqueue_bot_turn", lambda *args: None)
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=view["legal"][0],
            expected_sequence=0,
        )

    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "game.changed", "game": game.pk, "sequence": 1}


def test_a_move_succeeds_without_a_channel_layer_or_with_a_broken_one(committed, monkeypatch):
    user = UserFactory()
    game = services.practice_game_start(user=user)
    monkeypatch.setattr(services, "enqueue_bot_turn", lambda *args: None)

    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: None)
    broadcast.notify_game_changed(game.pk, 0)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: Broken())
    view = selectors.live_game_view(game, user=user)

    committed(
        services.live_game_act,
        actor=user,
        game=game,
        action=view["legal"][0],
        expected_sequence=0,
    )

    assert fresh(game).sequence == 1
