"""The sampler deals hidden cards consistently with everything the seat knows."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.heuristic import bid_limit
from bots.knowledge import UNKNOWN_GIVE, Knowledge
from bots.policy import playout_code
from bots.sampler import Sampler
from bots.strong import _judge
from rules import DealState, RuleSet
from rules import actions as A
from rules.cards import SUIT_MASK, Card
from rules.deal import BIDDING, PLAY
from rules.records import deal_record, replay_deal
from tests.engine.conftest import MARRIAGE_TRICKS, marriage_deal, must_beat_deal
from tests.hypothesis_profiles import examples

from .conftest import random_state


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_samples_agree_with_every_active_seats_observation(seed):
    rng = random.Random(seed)
    state = random_state(rng)
    for seat in state.active:
        observation = state.observation(seat)
        knowledge = Knowledge.from_observation(observation)
        sampler = Sampler(knowledge)
        for _ in range(4):
            sample = sampler.sample(rng)
            # Own hand, talon, bids, gives, tricks, marriages, points: all as observed.
            assert sample.observation(seat) == observation
            for other in knowledge.others():
                assert not sample.hands[other] & knowledge.forbidden[other]
                assert sample.hands[other] & knowledge.required[other] == (
                    knowledge.required[other] & ~sample.played
                )
            # The sampled deal is a legal deal: its record replays through the checked engine.
            assert replay_deal(deal_record(sample)).codes() == sample.codes()


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bids=st.integers(0, 1))
def test_a_talon_given_to_the_sampler_is_the_talon_of_every_sample_while_it_is_face_down(
    seed, bids
):
    # Only the oracle's measurement of the talon's worth in the auction gives it.
    rng = random.Random(seed)
    state = DealState.deal(rng.sample(range(24), 24))
    for _ in range(bids):
        state.step(A.PASS)  # the next seat to bid knows of it
    seat = state.to_act
    observation = state.observation(seat)
    sampler = Sampler(Knowledge.from_observation(observation), talon=state.talon)
    for _ in range(5):
        sample = sampler.sample(rng)
        assert sample.talon == state.talon
        assert sample.observation(seat) == observation
    other = next(s for s in state.active if s != seat)
    others = {sampler.sample(rng).hands[other] for _ in range(20)}
    assert len(others) > 1  # the others' hands are still unseen


def test_samples_vary_the_hidden_cards():
    rng = random.Random(1)
    state = random_state(random.Random(5))
    while state.phase_name != "bidding":
        state = random_state(rng)
    seat = state.to_act
    sampler = Sampler(Knowledge.from_observation(state.observation(seat)))
    layouts = {tuple(sampler.sample(rng).hands) for _ in range(30)}
    assert len(layouts) > 20


def test_void_shown_and_marriage_declared_are_respected():
    # Trick 3: seat 2 trumps the diamond lead (void in diamonds); trick 4: seat 2 leads KC and
    # declares the club marriage, so it must still hold QC. Seat 0 is to play.
    state = marriage_deal([*MARRIAGE_TRICKS[:3], "2:KC*"])
    assert state.to_act == 0
    knowledge = Knowledge.from_observation(state.observation(0))
    qc = Card.parse("QC")
    assert knowledge.forbidden[2] & SUIT_MASK[2] == SUIT_MASK[2]
    assert knowledge.required[2] >> qc & 1
    sampler = Sampler(knowledge)
    rng = random.Random(2)
    for _ in range(100):
        sample = sampler.sample(rng)
        assert not sample.hands[2] & SUIT_MASK[2]
        assert sample.hands[2] >> qc & 1


def test_must_beat_limits_are_respected():
    # must_beat on: seat 1 leads KC; seats 2 and 0 follow with QC and 9C, below the king, so
    # neither holds a club above it. Seat 2 cannot see TC and AC, so they must be seat 1's.
    state = must_beat_deal(["1:KC 2:QC 0:9C"])
    knowledge = Knowledge.from_observation(state.observation(2))
    above_king = (1 << Card.parse("TC")) | (1 << Card.parse("AC"))
    assert knowledge.forbidden[0] & above_king == above_king
    sampler = Sampler(knowledge)
    rng = random.Random(3)
    for _ in range(50):
        sample = sampler.sample(rng)
        assert sample.hands[1] & above_king == above_king
        assert sample.observation(2) == state.observation(2)


@settings(max_examples=examples(100), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_knowledge_rebuilds_the_action_sequence_from_the_observation(seed):
    state = random_state(random.Random(seed))
    for seat in state.active:
        knowledge = Knowledge.from_observation(state.observation(seat))
        true_codes = state.codes()
        assert len(knowledge.codes) == len(true_codes)
        for (seat_k, code_k), (seat_t, code_t) in zip(knowledge.codes, true_codes, strict=True):
            assert seat_k == seat_t
            # Only a give this seat could not see is left open.
            assert code_k == code_t or (code_k == UNKNOWN_GIVE and seat != state.declarer)


def test_the_inference_weighs_a_layout_by_the_factors_of_the_budget():
    """`hard`'s judge (`Budget.misfit_bid`, `Budget.misfit_play`): a pass with a hand the
    heuristic would bid with, or a card the rule-based policy would not play, makes a sampled
    layout that much less likely; what the model would have done keeps its weight."""
    rng = random.Random(5)
    judged = {"pass": False, "card": False}
    while not all(judged.values()):
        deck = list(range(24))
        rng.shuffle(deck)
        state = DealState.deal(deck, players=3, dealer=rng.randrange(3), rules=RuleSet())
        while not state.done:
            seat = state.to_act
            if (
                state.phase == BIDDING
                and not state.bid
                and bid_limit(state.hands[seat]) >= state.rules.min_bid + 40
            ):
                assert _judge(state, seat, A.PASS, play=0.9, bid=0.25) == 0.25
                judged["pass"] = True
            if state.phase == PLAY and state.trick:
                legal = [c for c in state.legal_codes() if c < A.GIVE]
                policy = playout_code(state)
                others = [c for c in legal if c != policy]
                if others:
                    assert _judge(state, seat, others[0], play=0.3, bid=0.9) == 0.3
                    assert _judge(state, seat, policy, play=0.3, bid=0.9) == 1.0
                    judged["card"] = True
            state.step(rng.choice([c for c in state.legal_codes() if c != A.CONCEDE]))
