"""Hypothesis strategies for random decks, rule sets and random legal play."""

from hypothesis import strategies as st

from rules import DealState, RuleSet

rule_sets = st.builds(
    RuleSet,
    bid_jumps=st.booleans(),
    bid_cap=st.sampled_from(["held_marriages", "none"]),
    must_beat=st.booleans(),
    marriage_on_first_trick=st.booleans(),
    round_declarer_points=st.booleans(),
    rounding=st.sampled_from([5, 10]),
    concede_bonus=st.sampled_from([0, 50]),
)


@st.composite
def fresh_deals(draw, rules=rule_sets):
    players = draw(st.sampled_from([3, 4]))
    return DealState.deal(
        draw(st.permutations(range(24))),
        players=players,
        dealer=draw(st.integers(0, players - 1)),
        rules=draw(rules),
    )
