"""Properties of random legal play over random decks, dealers and rule options."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Game, RuleSet
from rules.cards import CARD_POINTS, FULL_DECK, mask_of
from rules.records import (
    deal_record,
    game_record,
    replay_deal,
    replay_game,
    summarize_deal,
)
from rules.simulate import play_cautiously, shuffled_deck
from tests.hypothesis_profiles import examples

from .strategies import fresh_deals


def accounted_cards(state) -> list[int]:
    """Every place a card can be: hands, the talon while nobody holds it, the tricks played."""
    places = list(state.hands) + [state.played]
    if not state.talon_revealed:
        places.append(state.talon)
    return places


def play_out(state, data, *, avoid_concede: bool):
    """Play random legal actions, checking the invariants before every step."""
    while not state.done:
        places = accounted_cards(state)
        assert sum(p.bit_count() for p in places) == 24
        union = 0
        for place in places:
            union |= place
        assert union == FULL_DECK
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase_name}"
        choices = [a for a in legal if a.type != "concede"] if avoid_concede else legal
        state.apply(data.draw(st.sampled_from(choices or legal)))
    return state


@settings(max_examples=examples(150), deadline=None)
@given(state=fresh_deals(), data=st.data())
def test_random_play_keeps_every_card_and_ends_scored(state, data):
    play_out(state, data, avoid_concede=True)
    assert state.scores is not None and len(state.scores) == state.players
    tricks = state.tricks()
    assert len(tricks) == 8
    assert sum(CARD_POINTS[c] for t in tricks for c in t.cards) == 120
    assert sum(state.won) == 120
    assert mask_of(c for t in tricks for c in t.cards) == state.played
    assert state.outcome in ("made", "failed")
    declarer_score = state.scores[state.declarer]
    assert declarer_score in (state.contract, -state.contract)
    for seat in state.active:
        if seat != state.declarer:
            assert state.scores[seat] % state.rules.rounding == 0
            assert state.scores[seat] >= 0


@settings(max_examples=examples(150), deadline=None)
@given(state=fresh_deals(), data=st.data())
def test_replaying_the_record_gives_the_same_deal(state, data):
    play_out(state, data, avoid_concede=data.draw(st.booleans()))
    record = json.loads(json.dumps(deal_record(state)))
    again = replay_deal(record)
    assert again.codes() == state.codes()
    assert summarize_deal(again) == summarize_deal(state)
    assert deal_record(again) == record


@settings(max_examples=examples(100), deadline=None)
@given(state=fresh_deals(), data=st.data(), cut=st.integers(0, 40))
def test_replaying_part_of_a_record_stops_where_it_was(state, data, cut):
    play_out(state, data, avoid_concede=True)
    record = deal_record(state)
    record["actions"] = record["actions"][:cut]
    partial = replay_deal(record)
    summary = summarize_deal(partial)
    assert summary["complete"] == (cut >= len(deal_record(state)["actions"]))
    if not summary["complete"]:
        assert summary["to_act"] == partial.to_act
        assert summary["legal"]


@settings(max_examples=examples(100), deadline=None)
@given(state=fresh_deals(), data=st.data())
def test_a_clone_is_independent_of_its_original(state, data):
    while not state.done:
        copy = state.clone()
        before = deal_record(state)
        legal = copy.legal_codes()
        copy.step(data.draw(st.sampled_from(legal)))
        assert deal_record(state) == before
        assert copy.codes()[:-1] == state.codes()
        state = copy


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4]),
    first_dealer=st.integers(0, 3),
    target=st.sampled_from([100, 200, 300]),
)
def test_random_games_end_by_the_winner_rule_and_replay(seed, players, first_dealer, target):
    rng = random.Random(seed)
    game = Game(players=players, first_dealer=first_dealer % players, rules=RuleSet(target=target))
    while not game.over and len(game.deals) < 500:
        deal = game.start_deal(shuffled_deck(rng))
        assert deal.dealer == (first_dealer % players + len(game.deals) - 1) % players
        play_cautiously(deal, rng)
        game.close_deal(deal)
    assert game.over, "random games with a low target end"
    assert game.totals == [sum(d.scores[s] for d in game.deals) for s in range(players)]
    last = game.deals[-1]
    assert max(game.totals) >= target
    if game.totals[last.declarer] >= target:
        assert game.winner == last.declarer
    else:
        assert game.totals[game.winner] == max(game.totals)
        assert game.totals.count(max(game.totals)) == 1
    for earlier in range(1, len(game.deals)):
        totals = [sum(d.scores[s] for d in game.deals[:earlier]) for s in range(players)]
        declarer = game.deals[earlier - 1].declarer
        ended = max(totals) >= target and (
            totals[declarer] >= target or totals.count(max(totals)) == 1
        )
        assert not ended, f"the game should have ended after deal {earlier}"
    again = replay_game(json.loads(json.dumps(game_record(game))))
    assert (again.totals, again.winner, again.over) == (game.totals, game.winner, True)
