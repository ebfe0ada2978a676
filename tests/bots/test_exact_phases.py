"""The exact level's bidding, giving and contract (bots.strong with `Budget.exact_samples`): the
contract chosen from exact outcomes, and hopeless contracts conceded where that scores better."""

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots import solver
from bots.knowledge import Knowledge
from bots.sampler import Sampler
from bots.strong import (
    BUDGETS,
    CONTRACT_RANGE,
    StrongBot,
    _auction,
    _best_contract,
    _compared,
    _declarer_utility,
    _defended,
    _defending,
    _own_bid_score,
    _Search,
    _solve_declarer,
)
from rules import Action, DealState, RuleSet
from rules import actions as A
from rules.cards import Card
from rules.deal import BIDDING, CONTRACT, deck_from_hands

from .conftest import TINY_EXACT

pytestmark = pytest.mark.skipif(not solver.COMPILED, reason="the exact level needs the core")


def contract_state(rng: random.Random, rules: RuleSet) -> DealState:
    """A deal of 3 at its contract, reached by random bids and gifts (no conceding)."""
    while True:
        deck = list(range(24))
        rng.shuffle(deck)
        state = DealState.deal(deck, players=3, dealer=rng.randrange(3), rules=rules)
        while state.phase < CONTRACT:
            codes = [c for c in state.legal_codes() if c != A.CONCEDE]
            state.step(rng.choice(codes))
        if state.phase == CONTRACT:
            return state


def knowledge_of(state: DealState) -> Knowledge:
    return Knowledge.from_observation(state.observation(state.to_act))


def test_the_contract_is_the_highest_that_every_outcome_makes():
    state = contract_state(random.Random(1), RuleSet())
    k = knowledge_of(state)
    outcomes = [(150, 0, 1.0), (155, 0, 2.0), (170, 0, 1.0)]
    value, contract = _best_contract(state.rules, k, outcomes, range(k.bid, 201, 5), concede=True)
    assert contract == 150
    expected = sum(w * _declarer_utility(150, points, 0) for points, _, w in outcomes) / 4
    assert value == pytest.approx(expected)
    # One outcome short of 155 costs more than the five points more of a 155 contract bring.
    assert _best_contract(state.rules, k, outcomes, [155], concede=False)[0] < value


def test_a_contract_that_fails_everywhere_is_conceded_only_when_that_costs_less():
    rules = RuleSet(concede_bonus=50)
    state = contract_state(random.Random(2), rules)
    k = knowledge_of(state)
    # Failing costs the bid and half of the card points the defenders take; conceding costs
    # the bid and the 50 each defender is given: 10 points taken concede, 30 play on.
    _, contract = _best_contract(rules, k, [(10, 0, 1.0)] * 3, [k.bid], concede=True)
    assert contract is None
    _, contract = _best_contract(rules, k, [(30, 0, 1.0)] * 3, [k.bid], concede=True)
    assert contract == k.bid
    _, contract = _best_contract(rules, k, [(10, 0, 1.0)] * 3, [k.bid], concede=False)
    assert contract == k.bid


def test_the_exact_level_concedes_a_deal_its_hand_cannot_make():
    rules = RuleSet(concede_bonus=0)
    rng = random.Random(3)
    checked = 0
    while checked < 3:
        state = contract_state(rng, rules)
        if state.forced:
            continue
        trial = state.clone()
        trial.step(A.CONTRACT + trial.bid // 5)
        # Hopeless even seeing every card: far below the bid.
        if _solve_declarer(trial, 0, 400) > state.bid - 50:
            continue
        bot = StrongBot(seed=checked, budget=TINY_EXACT)
        assert bot.choose_code(state.observation(state.to_act)) == A.CONCEDE
        checked += 1


def test_another_declarer_in_the_auction_model_concedes_what_he_cannot_make():
    # The auction model of exact bidding values another seat's declaring by his solved points:
    # the contract he plans, made or failed, or conceding where failing costs him more.
    rules = RuleSet(concede_bonus=50)
    state = contract_state(random.Random(4), rules)
    while state.forced:
        state = contract_state(random.Random(state.bid + 1), rules)
    bid = state.bid
    assert _defended(rules, state, bid + 5, 0, 0) == _declarer_utility(bid, bid + 5, 0)
    assert _defended(rules, state, bid + 5, 0, bid + 10) == _declarer_utility(
        -(bid + 10), bid + 5, 0
    )
    assert _defended(rules, state, 5, 0, 0) == -bid - 50
    assert _defended(rules, state, bid - 10, 0, 0) == _declarer_utility(-bid, bid - 10, 0)

    # A defender's own view (`Budget.own_defence`): his points, his partner's the card points
    # left, the declarer's score; conceded, both defenders score the bonus.
    me = next(seat for seat in state.active if seat != state.declarer)
    assert bid > 60  # the declarer's 60 points fail his bid; failing costs less than conceding
    assert _defending(rules, state, me, 60, 0, 0, 30) == 30 - (120 - 60 - 30) / 2 + bid / 2
    assert _defending(rules, state, me, 5, 0, 0, 30) == 50 - 50 / 2 - (-bid) / 2


def test_the_bidding_model_scores_its_own_bid_by_the_contract_it_would_name():
    rules = RuleSet()
    budget = replace(BUDGETS["hard"], own_bid_margin=0, own_raise_slack=20)

    # Made: the bid, or the contract its points carry (20 below them, rounded down to 5).
    assert _own_bid_score(rules, budget, 60, 64, 0) == 60
    assert _own_bid_score(rules, budget, 60, 97, 0) == 75
    # No more than its marriages allow: 120 without any, 120 + 40 with the spades'.
    assert _own_bid_score(rules, budget, 60, 158, 0) == 120
    assert _own_bid_score(rules, budget, 60, 158, 40) == 135
    # Failed: minus the bid, unless the points come within the margin.
    assert _own_bid_score(rules, budget, 60, 59, 0) == -60
    assert _own_bid_score(rules, replace(budget, own_bid_margin=10), 60, 52, 0) == 60
    # Without the raise, the bid the auction reached.
    assert _own_bid_score(rules, replace(budget, own_raise_slack=None), 60, 158, 40) == 60


@given(
    bid=st.integers(8, 60).map(lambda n: n * 5),
    points=st.integers(0, 340),
    marriages=st.sampled_from([0, 40, 60, 80, 100, 140, 240]),
    margin=st.integers(-30, 30),
    slack=st.one_of(st.none(), st.integers(0, 40)),
)
def test_the_own_bid_score_is_the_bid_lost_or_a_contract_it_may_name(
    bid, points, marriages, margin, slack
):
    rules = RuleSet()
    budget = replace(BUDGETS["hard"], own_bid_margin=margin, own_raise_slack=slack)

    score = _own_bid_score(rules, budget, bid, points, marriages)

    made = points + margin >= bid
    assert score == -bid if not made else score >= bid
    if made and score > bid:
        assert score % 5 == 0
        assert score <= min(rules.bid_ceiling(marriages), bid + CONTRACT_RANGE)
        assert score <= points - slack


def test_a_defender_takes_a_trick_himself_rather_than_leave_it_to_his_partner():
    """Each defender scores his own points. Trick 7: the declarer leads 9♠, the partner K♠, and
    the last defender holds A♠ and J♠; whichever he plays, the declarer takes nothing more (the
    last cards are nines), so the declarer's solve cannot tell the cards apart. A♠ wins this
    trick and the last one for him (17 points); J♠ leaves both to his partner."""
    declarer = ["9S", "9C", "AD", "TD", "KD", "QD", "JD"]
    partner = ["KS", "9H", "AC", "TC", "KC", "TH", "KH"]  # and AH, given
    me = ["AS", "JS", "QS", "TS", "QC", "JC", "JH"]  # and QH, given
    deck = deck_from_hands([declarer, partner, me], ["AH", "QH", "9D"])
    state = DealState.deal(deck, players=3, dealer=2, rules=RuleSet())
    d, p, m = state.active
    state.apply(Action("bid", seat=d, value=100))
    state.apply(Action("pass", seat=p))
    state.apply(Action("pass", seat=m))
    state.apply(Action("give", seat=d, card=Card.parse("AH"), to=p))
    state.apply(Action("give", seat=d, card=Card.parse("QH"), to=m))
    state.apply(Action("contract", seat=d, value=100))
    discards = {p: ["AC", "TC", "KC", "AH", "TH", "KH"], m: ["QS", "TS", "QC", "JC", "QH", "JH"]}
    for trick, lead in enumerate(["AD", "TD", "KD", "QD", "JD", "9D"]):
        state.apply(Action("play", seat=d, card=Card.parse(lead)))
        state.apply(Action("play", seat=p, card=Card.parse(discards[p][trick])))
        state.apply(Action("play", seat=m, card=Card.parse(discards[m][trick])))
    state.apply(Action("play", seat=d, card=Card.parse("9S")))
    state.apply(Action("play", seat=p, card=Card.parse("KS")))
    observation = state.observation(m)
    assert {a.card for a in observation.legal if a.type == "play"} == {
        Card.parse("AS"),
        Card.parse("JS"),
    }
    budget = replace(BUDGETS["hard"], deadline=float("inf"))
    assert StrongBot(seed=1, budget=budget).choose(observation).card == Card.parse("AS")
    # Counting the declarer's points alone, J♠ (the lower card) is as good: it gave the trick away.
    blind = replace(budget, own_points=False)
    assert StrongBot(seed=1, budget=blind).choose(observation).card == Card.parse("JS")


def bidding_search(state: DealState, budget) -> _Search:
    observation = state.observation(state.to_act)
    k = Knowledge.from_observation(observation)
    legal = tuple(action.code for action in observation.legal)
    return _Search(k, Sampler(k), random.Random(9), budget, legal)


def test_the_share_of_samples_its_declaring_makes_needs_only_to_know_whether_it_reaches_the_bid():
    """`Budget.make_share`: its own points after the talon and its best gifts are solved only
    as far as the bid needs; the share of samples that make it is the share a solve of the
    whole range finds, with rounded declarer's points too."""
    rng = random.Random(21)
    budget = replace(TINY_EXACT, bid_samples=4, make_share=0.5)
    checked = 0
    while checked < 12:
        rules = RuleSet(round_declarer_points=rng.random() < 0.5, rounding=rng.choice([5, 10]))
        deck = list(range(24))
        rng.shuffle(deck)
        state = DealState.deal(deck, players=3, dealer=rng.randrange(3), rules=rules)
        for _ in range(rng.randrange(3)):
            state.step(rng.choice([c for c in state.legal_codes() if c < A.CONTRACT]))
        bids = [c for c in state.legal_codes() if A.BID <= c < A.CONTRACT]
        if state.phase != BIDDING or not bids:
            continue
        low = (bids[0] - A.BID) * 5
        share = bidding_search(state, budget).make_share(low)
        whole = bidding_search(state, budget)
        made = total = 0.0
        for _, sample, weight in whole.samples(budget.bid_samples):
            _auction(sample, whole.seat, low, dict.fromkeys(whole.active, 0))
            points, _ = whole.own_declaring(sample, 0, 400)
            total += weight
            made += weight if _compared(rules, points) >= low else 0.0
        assert share == pytest.approx(made / total)
        checked += 1


def test_by_the_share_it_bids_a_hand_that_makes_the_bid_and_passes_one_that_cannot():
    budget = replace(TINY_EXACT, bid_samples=6, make_share=0.5)
    weak = ["9S", "JS", "9C", "JC", "9H", "JH", "9D"]
    strong = ["AS", "TS", "KS", "QS", "AC", "TC", "AH"]
    rest = ["KC", "QC", "TH", "KH", "QH", "AD", "TD"]
    for hand, other, expected in ((strong, weak, "bid"), (weak, strong, "pass")):
        deck = deck_from_hands([hand, other, rest], ["JD", "QD", "KD"])
        state = DealState.deal(deck, players=3, dealer=2, rules=RuleSet())
        assert state.to_act == 0
        search = bidding_search(state, budget)
        assert search.make_share(40) == (1.0 if expected == "bid" else 0.0)
        action = StrongBot(seed=2, budget=budget).choose(state.observation(0))
        assert action.type == expected
