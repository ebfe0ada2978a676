"""Bots for 1001 in pure Python: they see only an observation and return a legal action.

    from bots import make_bot
    bot = make_bot("normal", seed=7)
    action = bot.choose(state.observation(seat))   # an engine Action with its seat set

Names: `random` (uniform legal action), `heuristic` (rule-based), `strong` (search over
determinizations). Levels for tournaments: `easy` (heuristic), `normal` (strong, by playouts),
`hard` (strong, every phase by exact solves in its sampled deals). `pimc`, the `hard` before
issue 16 (playouts with a larger budget), stays a name for the arena's comparisons. A bot is
deterministic for its seed and the observation.
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .strong import StrongBot

LEVELS = {"easy": "heuristic", "normal": "normal", "hard": "hard"}
# `pimc`: the `hard` before issue 16, for the arena's comparisons; seats take the LEVELS.
BOT_NAMES = ("random", "heuristic", "strong", "easy", "normal", "hard", "pimc")


def make_bot(level_or_name: str, *, seed: int) -> Bot:
    """A bot by name (random, heuristic, strong, pimc) or level (easy, normal, hard)."""
    name = level_or_name
    if name == "random":
        return RandomBot(seed=seed)
    if name in ("heuristic", "easy"):
        return HeuristicBot(seed=seed)
    if name in ("strong", "normal", "hard", "pimc"):
        return StrongBot(seed=seed, level="normal" if name == "strong" else name)
    raise ValueError(f"unknown bot {level_or_name!r}; known: {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "LEVELS", "Bot", "HeuristicBot", "RandomBot", "StrongBot", "make_bot"]
