"""The talon turned up is shown to everyone and the gifts to no one but their two ends (RULES.md
section 5); a finished deal carries what its summary shows; the bots' moves are paced."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from gameplay import pacing, selectors, services
from gameplay.models import LiveGame
from gameplay.tasks import play_bot_turn
from rules import DealState
from rules.cards import CARD_NAMES
from rules.deal import CONTRACT
from tests.factories import UserFactory
from tests.gameplay.conftest import human_choice, live_table_round

pytestmark = pytest.mark.django_db


def fresh(game: LiveGame) -> LiveGame:
    return LiveGame.objects.get(pk=game.pk)


def in_progress(view: dict) -> str:
    """The view without its finished deals (whose decks are public), as text."""
    return json.dumps({key: value for key, value in view.items() if key != "deals"})


def gifts_of(deal: DealState) -> dict[int, str]:
    """Who received which card from the declarer so far: {seat: card}."""
    return {action.to: str(action.card) for action in deal.history() if action.type == "give"}


def test_the_talon_is_shown_to_all_once_turned_up_and_each_gift_only_to_its_two_ends(committed):
    director, round_ = live_table_round(players=3, deals=3)
    table = round_.tables.get(number=1)
    game = committed(services.live_game_create_for_table, actor=director, table=table)
    seated = {seat.position: seat.user for seat in game.seats.exclude(user=None)}
    assert len(seated) == 3
    watchers = [*((user, seat) for seat, user in seated.items()), (director, None)]
    watchers.append((AnonymousUser(), None))  # the tournament is public
    rng = random.Random(7)
    phases_seen: set[str] = set()
    gifts_seen = 0
    while fresh(game).status == LiveGame.Status.PLAYING:
        game = fresh(game)
        deal = selectors.live_game_state(game).deals[-1]
        talon = [CARD_NAMES[card] for card in deal.talon_cards]
        gifts = gifts_of(deal)
        for user, seat in watchers:
            view = selectors.live_game_view(game, user=user)
            obs = view["observation"]
            text = in_progress(view)
            if not deal.talon_revealed:
                # Face down: no one has it, and no card of it is anywhere in the view.
                assert obs["talon"] is None
                assert not {card for card in talon if f'"{card}"' in text}
                continue
            phases_seen.add(obs["phase"])
            # Turned up: every seat and every watcher sees the same three cards, in every
            # phase after, the play included.
            assert obs["talon"] == talon
            # Everyone sees how many cards were given, and to whom.
            assert obs["gives_done"] == list(gifts)
            # A gift is known to the declarer and to the one who got it, to no one else.
            if seat == deal.declarer:
                assert {gift["to"]: gift["card"] for gift in obs["given"]} == gifts
            else:
                assert obs["given"] == []
                assert obs["received"] == gifts.get(seat)
                # (unless it is a card of the talon, or played since: those are public)
                played = {str(card) for trick in deal.tricks() for card in trick.cards}
                others = {card for to, card in gifts.items() if to != seat} - set(talon) - played
                assert not {card for card in others if f'"{card}"' in text}
        if len(gifts) == 2 and deal.phase == CONTRACT:  # both given, the contract to name
            gifts_seen += 1
        user = seated[game.to_act]
        view = selectors.live_game_view(game, user=user)
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
    assert {"giving", "contract", "play"} <= phases_seen
    assert gifts_seen >= 2


def test_a_finished_deal_carries_its_summary_and_its_public_end(committed):
    user = UserFactory()
    game = committed(services.practice_game_start, user=user)
    rng = random.Random(11)
    while len(selectors.live_game_view(fresh(game), user=user)["deals"]) < 3:
        view = selectors.live_game_view(fresh(game), user=user)
        committed(
            services.live_game_act,
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
    view = selectors.live_game_view(fresh(game), user=user)
    state = selectors.live_game_state(fresh(game))
    running = [0, 0, 0]
    for shown, deal in zip(view["deals"], state.deals, strict=False):
        running = [total + score for total, score in zip(running, deal.scores, strict=True)]
        assert shown["totals"] == running
        assert shown["points"] == deal.deal_points()
        assert [marriage["seat"] for marriage in shown["marriages"]] == [
            marriage.seat for marriage in deal.marriages()
        ]
    assert view["deals"][-1]["totals"] == view["totals"]
    # The end of the latest two deals as a spectator saw it, tricks with who played and points.
    assert "final" not in view["deals"][0]
    finished = len(view["deals"])
    for shown, deal in zip(view["deals"][-2:], state.deals[finished - 2 : finished], strict=True):
        final = shown["final"]
        assert final["phase"] == "done" and final["seat"] is None and final["hand"] == []
        assert final["talon"] == [CARD_NAMES[card] for card in deal.talon_cards]
        assert final["scores"] == list(deal.scores)
        for trick, engine_trick in zip(final["tricks"], deal.tricks(), strict=True):
            assert trick["points"] == sum(card.points for card in engine_trick.cards)
            assert len(trick["seats"]) == len(trick["cards"])


# ---------------------------------------------------------------- the pace of the bots


def test_the_page_is_told_every_pause_in_milliseconds_and_the_talon_waits_longest():
    pace = pacing.client_pace()

    assert pace["talon"] == pacing.TALON_SECONDS * 1000
    assert pace["talon"] > max(pace[kind] for kind in ("bid", "card", "trick", "give", "contract"))
    assert pace["trick"] > pace["card"]
    assert pace["summary"] == pacing.SUMMARY_SECONDS * 1000


def test_with_workers_a_bot_turn_is_enqueued_at_once_and_the_page_paces_it(committed, monkeypatch):
    user = UserFactory()
    game = committed(services.practice_game_start, user=user)
    view = selectors.live_game_view(game, user=user)
    sent = []
    monkeypatch.setitem(play_bot_turn.app.conf, "task_always_eager", False)
    monkeypatch.setattr(play_bot_turn, "delay", lambda *args: sent.append(args))
    moved = next(action for action in view["legal"] if action["type"] == "pass")

    committed(
        services.live_game_act,
        actor=user,
        game=game,
        action=moved,
        expected_sequence=view["sequence"],
    )

    assert sent == [(game.pk, view["sequence"] + 1)]
    assert pacing.client_pace()["bid"] == pacing.BID_SECONDS * 1000


def test_the_table_page_gives_the_script_the_pauses(client):
    user = UserFactory()
    game = services.practice_game_start(user=user)
    client.force_login(user)

    html = client.get(reverse("live-game", args=[game.pk])).content.decode()

    assert '"pace": {' in html
    assert f'"talon": {round(pacing.TALON_SECONDS * 1000)}' in html
