"""The `random` bot: a uniformly random legal action (a baseline and a test tool)."""

from __future__ import annotations

from rules import Action, Observation

from .base import Bot, decision_rng, require_turn


class RandomBot(Bot):
    name = "random"

    def choose(self, observation: Observation) -> Action:
        require_turn(observation)
        rng = decision_rng(self.seed, observation)
        return observation.legal[rng.randrange(len(observation.legal))]
