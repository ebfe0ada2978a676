"""Players' ratings from table results: OpenSkill's Plackett-Luce model over a club's history.

The model (the `openskill` library, which holds all the mathematics) rates a table of 3 or 4 as
one multi-player result, ties included. Ratings are derived, never edited: `recompute_ratings`
replays every rated table from the start in date order, so a correction in an old tournament
gives the same numbers as if it had been right from the beginning.

Bot seats do not rate: a bot is not a person with a strength that changes, and its level says
little about how it plays against a given field. A table with bots rates its people by their
order among themselves (a table of three people and a bot is a three-player result).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

# The library's defaults: a newcomer is 25 +- 25/3, and the conservative rating mu - 3 sigma
# (its `ordinal`) starts at 0 and grows as the player's results pile up.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
CONSERVATIVE_SIGMAS = 3.0


def model() -> Any:
    """The rating model every recomputation uses (the same parameters every time)."""
    return PlackettLuce(mu=START_MU, sigma=START_SIGMA)


@dataclass(frozen=True, slots=True)
class RatedTable:
    """One confirmed table of a rated tournament.

    `when` orders the history (the tournament's date, then any tie-breaking keys: tournament,
    round, table); `event` names the tournament, the rating history records one point per
    event. `players` in seat order, None for a bot's seat; `placements` per seat, 1 the best,
    tied seats share a value.
    """

    when: tuple[Any, ...]
    event: Hashable
    players: tuple[Hashable | None, ...]
    placements: tuple[int | float, ...]

    def __post_init__(self) -> None:
        if len(self.players) != len(self.placements):
            raise ValueError("a rated table needs one placement per seat")
        seated = [player for player in self.players if player is not None]
        if len(set(seated)) != len(seated):
            raise ValueError("a player sits at a rated table twice")


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: the model's mean and uncertainty, and how many tables made it."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    tables: int = 0

    @property
    def conservative(self) -> float:
        """What is shown and ranked: mu - 3 sigma, a rating the player very likely has at
        least (the library's ordinal)."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after an event (his last table in it)."""

    event: Hashable
    player: Hashable
    rating: Rating


@dataclass
class RatingHistory:
    ratings: dict[Hashable, Rating] = field(default_factory=dict)
    # In the order of the events, one per player and event he played a rated table in.
    points: list[RatingPoint] = field(default_factory=list)


def table_ranks(placements: Iterable[int | float]) -> list[int]:
    """Placements as the model's ranks: 1 the best, ties equal, the next rank after a tie of k
    skips k - 1 (1, 2, 2, 4)."""
    values = list(placements)
    return [1 + sum(other < value for other in values) for value in values]


def recompute_ratings(tables: Iterable[RatedTable]) -> RatingHistory:
    """Every player's rating after replaying `tables` in the order of their `when` (the given
    order between equal keys); deterministic. Tables with fewer than two people do not rate."""
    rater = model()
    current: dict[Hashable, Any] = {}
    counts: dict[Hashable, int] = {}
    history = RatingHistory()
    event_players: dict[Hashable, None] = {}
    event: Hashable = None
    started = False

    def close_event() -> None:
        for player in event_players:
            history.points.append(
                RatingPoint(event, player, _rating(current[player], counts[player]))
            )
        event_players.clear()

    for table in sorted(tables, key=lambda table: table.when):
        if started and table.event != event:
            close_event()
        event, started = table.event, True
        people = [
            (player, place)
            for player, place in zip(table.players, table.placements, strict=True)
            if player is not None
        ]
        if len(people) < 2:
            continue
        teams = []
        for player, _place in people:
            rating = current.get(player)
            if rating is None:
                rating = current[player] = rater.rating()
            teams.append([rating])
        ranks = table_ranks(place for _player, place in people)
        rated = rater.rate(teams, ranks=ranks)
        for (player, _place), (new,) in zip(people, rated, strict=True):
            current[player] = new
            counts[player] = counts.get(player, 0) + 1
            event_players[player] = None
    if started:
        close_event()
    history.ratings = {
        player: _rating(rating, counts[player]) for player, rating in current.items()
    }
    return history


def _rating(rating: Any, tables: int) -> Rating:
    return Rating(mu=float(rating.mu), sigma=float(rating.sigma), tables=tables)
