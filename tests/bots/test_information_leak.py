"""The bots' strength does not come from seeing hidden cards: swap the hidden cards of the true
deal for another layout consistent with the bot's observation, and its decision stays the same.

Two ways of building the other deal: the sampler (any consistent layout, checked by comparing the
observations) and, independently of it, swapping two hidden cards of the true deal and replaying
every recorded action with the engine's checked `apply`.
"""

import random

from bots import make_bot
from bots.knowledge import Knowledge
from bots.sampler import Sampler
from bots.strong import StrongBot
from rules import DealState, IllegalActionError

from .conftest import NO_DEADLINE, TINY_EXACT, random_state


def hidden(state: DealState, seat: int) -> tuple[int, ...]:
    others = tuple(state.hands[s] for s in state.active if s != seat)
    return (*others, state.talon if not state.talon_revealed else 0)


def swapped_deals(state: DealState, seat: int, rng: random.Random, count: int):
    """Deals made from `state` by swapping two cards this seat cannot see, still legal."""
    unseen = [
        i
        for i, card in enumerate(state.deck)
        if not (state.hands[seat] | state.played) >> card & 1
        and not (state.talon_revealed and state.talon >> card & 1)
    ]
    found = []
    for _ in range(200):
        if len(found) >= count or len(unseen) < 2:
            break
        i, j = rng.sample(unseen, 2)
        deck = list(state.deck)
        deck[i], deck[j] = deck[j], deck[i]
        other = DealState.deal(deck, players=state.players, dealer=state.dealer, rules=state.rules)
        try:
            for action in state.history():
                other.apply(action)
        except IllegalActionError:
            continue
        if hidden(other, seat) != hidden(state, seat):
            found.append(other)
    return found


def interesting_states(count: int, seed: int):
    rng = random.Random(seed)
    states = []
    phases = {}
    while len(states) < count:
        state = random_state(rng)
        phase = state.phase_name
        if len(state.legal_codes()) < 2 or phases.get(phase, 0) >= count // 3:
            continue
        phases[phase] = phases.get(phase, 0) + 1
        states.append(state)
    return states


def test_decisions_do_not_change_when_hidden_cards_are_swapped():
    rng = random.Random(7)
    bots = [
        StrongBot(seed=3, budget=NO_DEADLINE["normal"]),
        StrongBot(seed=3, budget=TINY_EXACT),
        make_bot("heuristic", seed=3),
    ]
    checked = 0
    for state in interesting_states(12, 11):
        seat = state.to_act
        observation = state.observation(seat)
        for other in swapped_deals(state, seat, rng, 1):
            assert other.observation(seat) == observation
            for bot in bots:
                assert bot.choose(other.observation(seat)) == bot.choose(observation)
            checked += 1
    assert checked >= 6


def test_decisions_do_not_change_on_sampled_layouts():
    rng = random.Random(8)
    bot = StrongBot(seed=5, budget=NO_DEADLINE["normal"])
    changed_layouts = 0
    for state in interesting_states(9, 12):
        seat = state.to_act
        observation = state.observation(seat)
        decision = bot.choose(observation)
        sampler = Sampler(Knowledge.from_observation(observation))
        for _ in range(2):
            other = sampler.sample(rng)
            assert other.observation(seat) == observation
            changed_layouts += hidden(other, seat) != hidden(state, seat)
            assert bot.choose(other.observation(seat)) == decision
    assert changed_layouts >= 9


def test_hard_decides_every_phase_without_seeing_hidden_cards():
    """`hard` at its own budget (exact solves in every phase), in a state of each phase: the
    same decision on another layout of the hidden cards, swapped or sampled."""
    rng = random.Random(13)
    bot = StrongBot(seed=6, budget=NO_DEADLINE["hard"])
    checked: dict[str, int] = {}
    while len(checked) < 4:
        state = random_state(rng)
        phase = state.phase_name
        if phase in checked or len(state.legal_codes()) < 2:
            continue
        seat = state.to_act
        observation = state.observation(seat)
        sampled = Sampler(Knowledge.from_observation(observation)).sample(rng)
        others = [*swapped_deals(state, seat, rng, 1), sampled]
        if not any(hidden(other, seat) != hidden(state, seat) for other in others):
            continue
        decision = bot.choose(observation)
        for other in others:
            assert other.observation(seat) == observation
            assert bot.choose(other.observation(seat)) == decision
        checked[phase] = len(others)
    assert set(checked) == {"bidding", "giving", "contract", "play"}
