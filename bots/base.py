"""The interface every bot implements, and the seeding that makes a bot's decisions reproducible.

A bot is asked for one decision at a time: `choose(observation)` gets the observation of the seat
to act (never the full deal) and returns one of `observation.legal`. A bot keeps no memory between
decisions; its random choices come from `decision_rng`, seeded by the bot's seed and by the content
of the observation, so the same seed and the same observation always give the same action, in any
process, whatever was asked before.
"""

from __future__ import annotations

import hashlib
import random

from rules import Action, Observation


class Bot:
    """Base class: `name`, `seed`, and `choose(observation) -> Action`."""

    name = "bot"

    def __init__(self, *, seed: int = 0) -> None:
        self.seed = seed
        # Whether the last decision was cut short by a safety deadline (a searching bot sets
        # it; the arena counts them, so that strength measured on a loaded machine says so).
        self.last_cut = False

    def choose(self, observation: Observation) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def observation_key(obs: Observation) -> tuple[object, ...]:
    """Everything in an observation that a decision may depend on, as plain ints and strings."""
    return (
        obs.seat,
        obs.players,
        obs.dealer,
        obs.phase,
        tuple(int(c) for c in obs.hand),
        obs.bids,
        tuple(int(c) for c in obs.talon or ()),
        tuple((to, int(c)) for to, c in obs.given),
        -1 if obs.received is None else int(obs.received),
        obs.gives_done,
        obs.contract,
        tuple((t.leader, tuple(int(c) for c in t.cards)) for t in obs.tricks),
        tuple(tuple(m) for m in obs.marriages),
        tuple(sorted(obs.rules.to_dict().items())),
    )


def decision_rng(seed: int, obs: Observation, salt: str = "") -> random.Random:
    """A random generator fixed by the bot's seed and the observation (not by Python's hash)."""
    text = repr((seed, salt, observation_key(obs))).encode()
    return random.Random(int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big"))


def require_turn(obs: Observation) -> None:
    if obs.seat is None or obs.to_act != obs.seat or not obs.legal:
        raise ValueError("the observation is not of the seat to act")
