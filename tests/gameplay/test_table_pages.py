"""The table page, its polling fallback (state and act) and the replay of finished deals."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse

from gameplay import selectors, services
from gameplay.models import LiveGame
from rules.cards import CARD_NAMES
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory()


@pytest.fixture
def game(owner) -> LiveGame:
    return services.practice_game_start(owner=owner, bot_level="easy")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def fresh(game: LiveGame) -> LiveGame:
    return LiveGame.objects.get(pk=game.pk)


@pytest.fixture
def play_until_a_deal_is_finished(django_capture_on_commit_callbacks):
    """Random legal moves for the owner's seat until the first deal is over; the view then.

    The bots answer from on-commit hooks (eager Celery), which run here as after a real commit.
    """

    def play(owner, game: LiveGame, *, seed: int = 5) -> dict:
        rng = random.Random(seed)
        for _ in range(200):
            game = fresh(game)
            view = selectors.live_game_view(game, user=owner)
            if view["deals"]:
                return view
            with django_capture_on_commit_callbacks(execute=True):
                services.live_game_act(
                    actor=owner,
                    game=game,
                    action=rng.choice(view["legal"]),
                    expected_sequence=view["sequence"],
                )
        raise AssertionError("no deal finished")

    return play


def current_deal(game: LiveGame):
    return selectors.live_game_state(fresh(game)).deals[-1]


def hidden_cards(game: LiveGame, seat: int) -> set[str]:
    """The other seats' cards, less the talon once it is turned up."""
    deal = current_deal(game)
    hidden = {
        CARD_NAMES[card]
        for other in range(deal.players)
        if other != seat
        for card in deal.hand(other)
    }
    if deal.talon_revealed:
        hidden -= {CARD_NAMES[card] for card in deal.talon_cards}
    return hidden


def page_view(response) -> dict:
    match = re.search(
        r'<script id="table-view" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert match, "the page carries no view"
    return json.loads(match.group(1))


# ---------------------------------------------------------------- the table page


def test_the_table_page_carries_my_view_labels_and_the_script(owner_client, game):
    response = owner_client.get(reverse("live-game", args=[game.pk]))

    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    view = page_view(response)
    assert view["game"] == game.pk
    assert view["seat"] == 0
    assert view["observation"]["hand"] == [CARD_NAMES[card] for card in current_deal(game).hand(0)]
    html = response.content.decode()
    assert 'id="table-labels"' in html
    assert 'id="table-config"' in html
    assert "js/table.js" in html
    assert "css/table.css" in html
    assert f"/ws/games/{game.pk}/" in html
    # A practice game offers another one once it is over (the script shows the form then).
    assert f'action="{reverse("practice-start")}"' in html


def test_the_table_page_never_shows_the_other_seats_cards(owner_client, owner, game):
    html = owner_client.get(reverse("live-game", args=[game.pk])).content.decode()

    hidden = hidden_cards(game, seat=0)
    assert len(hidden) >= 11
    assert not {card for card in hidden if f'"{card}"' in html}


def test_strangers_are_refused_and_visitors_asked_to_sign_in(client, game):
    url = reverse("live-game", args=[game.pk])

    response = client.get(url)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]

    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    assert client.get(reverse("live-game-state", args=[game.pk])).status_code == 403
    assert client.get(reverse("live-game", args=[game.pk + 1000])).status_code == 403


# ---------------------------------------------------------------- polling fallback


def test_the_state_endpoint_returns_my_view_as_json(owner_client, owner, game):
    response = owner_client.get(reverse("live-game-state", args=[game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == selectors.live_game_view(fresh(game), user=owner)


def post_act(client, game, action, sequence, **extra):
    return client.post(
        reverse("live-game-act", args=[game.pk]),
        data=json.dumps({"action": action, "sequence": sequence}),
        content_type="application/json",
        **extra,
    )


def test_a_legal_move_posted_is_made_and_the_new_view_returned(owner_client, owner, game):
    view = selectors.live_game_view(fresh(game), user=owner)

    response = post_act(owner_client, game, view["legal"][0], view["sequence"])

    assert response.status_code == 200
    body = response.json()
    assert "error" not in body
    assert body["view"]["sequence"] > view["sequence"]
    assert fresh(game).sequence == body["view"]["sequence"]


def test_an_illegal_or_stale_move_is_refused_with_a_message(owner_client, owner, game):
    view = selectors.live_game_view(fresh(game), user=owner)

    illegal = post_act(owner_client, game, {"seat": 0, "type": "bid", "value": 5}, view["sequence"])
    assert illegal.status_code == 400
    assert illegal.json()["error"]
    assert illegal.json()["view"]["sequence"] == view["sequence"]

    stale = post_act(owner_client, game, view["legal"][0], view["sequence"] + 7)
    assert stale.status_code in (400, 409)
    assert stale.json()["error"]
    assert fresh(game).sequence == view["sequence"]


@pytest.mark.parametrize(
    "body",
    ["not json", json.dumps([1]), json.dumps({"action": "pass", "sequence": 1}), "{}"],
)
def test_a_malformed_move_is_a_bad_request(owner_client, game, body):
    response = owner_client.post(
        reverse("live-game-act", args=[game.pk]), data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"]


def test_moves_need_a_post_with_the_csrf_token(owner, game):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    view = selectors.live_game_view(fresh(game), user=owner)

    assert client.get(reverse("live-game-act", args=[game.pk])).status_code == 405
    assert post_act(client, game, view["legal"][0], view["sequence"]).status_code == 403
    assert fresh(game).sequence == view["sequence"]


def test_a_stranger_may_not_move(client, owner, game):
    client.force_login(UserFactory())
    view = selectors.live_game_view(fresh(game), user=owner)

    response = post_act(client, game, view["legal"][0], view["sequence"])

    assert response.status_code == 403
    assert fresh(game).sequence == view["sequence"]


# ---------------------------------------------------------------- replay


def test_a_finished_deal_is_replayed_trick_by_trick_with_every_card(
    owner_client, owner, game, play_until_a_deal_is_finished
):
    view = play_until_a_deal_is_finished(owner, game)
    finished = view["deals"][0]
    url = reverse("live-deal-replay", args=[game.pk, finished["number"]])

    response = owner_client.get(url)

    assert response.status_code == 200
    html = response.content.decode()
    # Every card of the deck is shown (hands as dealt and the talon), with 10 for the ten.
    assert html.count('class="card suit-') >= 24
    assert ">T<" not in html
    assert finished["salt"] in html and finished["commitment"] in html
    deal = selectors.live_game_state(fresh(game)).deals[0]
    if deal.outcome != "conceded" and deal.tricks():
        assert "?trick=1" in html
        step = owner_client.get(url + "?trick=1").content.decode()
        assert 'aria-current="step">1<' in step
        last = len(deal.tricks())
        assert (
            f'aria-current="step">{last}<'
            in owner_client.get(f"{url}?trick={last}").content.decode()
        )
    # A step out of range shows the start of the play instead of failing.
    assert owner_client.get(url + "?trick=99").status_code == 200
    assert owner_client.get(url + "?trick=x").status_code == 200


def test_a_deal_in_progress_has_no_replay(owner_client, owner, game):
    view = selectors.live_game_view(fresh(game), user=owner)
    current = view["current_deal"]["number"]

    response = owner_client.get(reverse("live-deal-replay", args=[game.pk, current]))

    assert response.status_code == 404


def test_a_stranger_sees_no_replay(client, owner, game, play_until_a_deal_is_finished):
    view = play_until_a_deal_is_finished(owner, game)
    client.force_login(UserFactory())

    url = reverse("live-deal-replay", args=[game.pk, view["deals"][0]["number"]])

    assert client.get(url).status_code == 403
