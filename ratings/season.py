"""A season's table: players ranked over a club's series of tournaments by the club's rule.

Each tournament of the season gives a player a value: his tournament points (the sum of the
table points of his places) or placement points for his final rank in it. The season adds the
values of every tournament, or of his best N. Players are then ranked by an ordered list of
metrics (`precedence`), as a tournament's standings are (standings.ranking): equal figures share
a rank unless a random draw, the same every time, settles them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from rules.messages import Message, _
from standings.ranking import RANDOM_DRAW, Metric, random_key, shared_ranks

SCORING_TOURNAMENT_POINTS = "tournament_points"
SCORING_PLACEMENT_POINTS = "placement_points"
SCORINGS = (SCORING_TOURNAMENT_POINTS, SCORING_PLACEMENT_POINTS)

# Placement points per final rank of a tournament (the first value to the winner); ranks
# beyond the list score 0. Formula-1-like: a win is worth clearly more than a second place.
DEFAULT_SEASON_PLACEMENT_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
MAX_BEST_COUNT = 200
MAX_PLACEMENT_VALUES = 200
MAX_SEASON_POINTS = 10_000

SEASON_METRIC_REGISTRY: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        Metric(
            "season_points",
            True,
            Message(_("Season points")),
            Message(_("Points")),
            Message(_("Season points by the club's rule")),
            2,
            phrase=Message(_("season points")),
        ),
        Metric(
            "tournaments_played",
            True,
            Message(_("Tournaments played")),
            Message(_("Played")),
            Message(_("Tournaments played in the season (attendance)")),
            0,
            phrase=Message(_("attendance (tournaments played)")),
        ),
        Metric(
            "tournament_wins",
            True,
            Message(_("Tournaments won")),
            Message(_("Wins")),
            Message(_("Tournaments won (first place, shared or not)")),
            0,
            phrase=Message(_("tournaments won")),
        ),
        Metric(
            "best_rank",
            False,
            Message(_("Best final rank")),
            Message(_("Best")),
            Message(_("Best final rank in a tournament of the season")),
            0,
            phrase=Message(_("the best final rank in a tournament")),
            needs_games=True,
        ),
        Metric(
            "all_points",
            True,
            Message(_("Tournament points, every tournament")),
            Message(_("All pts.")),
            Message(_("Tournament points of every tournament, none left out")),
            2,
            phrase=Message(_("the tournament points of every tournament")),
        ),
        RANDOM_DRAW,
    )
}
SEASON_METRICS: dict[str, bool] = {
    key: bool(metric.higher_is_better) for key, metric in SEASON_METRIC_REGISTRY.items()
}
DEFAULT_SEASON_PRECEDENCE = ("season_points", "tournament_wins", "best_rank", "tournaments_played")


@dataclass(frozen=True, slots=True)
class TournamentFinish:
    """A player's final line in one tournament of the season (its standings snapshot)."""

    event: Hashable
    player: Hashable
    rank: int
    points: float


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How the club ranks its season (validated by `validate_season_rule`)."""

    scoring: str = SCORING_TOURNAMENT_POINTS
    # Only the best N tournaments of each player count; None: all of them.
    best_count: int | None = None
    placement_points: tuple[float, ...] = DEFAULT_SEASON_PLACEMENT_POINTS
    precedence: tuple[str, ...] = DEFAULT_SEASON_PRECEDENCE


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int
    tied: bool
    player: Hashable
    season_points: float
    tournaments_played: int
    tournament_wins: int
    best_rank: int
    all_points: float
    # The value each tournament gave, by event, and the events that counted (best N).
    values: dict[Hashable, float]
    counted: tuple[Hashable, ...]
    random: float

    def as_dict(self) -> dict[str, Any]:
        row = asdict(self)
        row["counted"] = list(self.counted)
        return row


class SeasonRuleError(ValueError):
    """A refused season rule: its `Message`, and the rule's field it is about (a SeasonRule
    field's name), so that a form can show it next to that field."""

    def __init__(self, message: Message, *, field: str) -> None:
        super().__init__(message)
        self.field = field


def validate_season_rule(rule: SeasonRule) -> SeasonRule:
    """The rule itself; SeasonRuleError (a ValueError) with a `Message` naming the problem and
    the field it is about if it is invalid."""
    if rule.scoring not in SCORINGS:
        raise SeasonRuleError(
            Message(
                _("unknown season scoring %(scoring)s; the scorings are %(scorings)s"),
                scoring=repr(rule.scoring),
                scorings=", ".join(SCORINGS),
            ),
            field="scoring",
        )
    count = rule.best_count
    if count is not None and (
        isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BEST_COUNT
    ):
        raise SeasonRuleError(
            Message(_("the number of best tournaments is from 1 to %(most)s"), most=MAX_BEST_COUNT),
            field="best_count",
        )
    points = tuple(rule.placement_points)
    if not 1 <= len(points) <= MAX_PLACEMENT_VALUES or not all(
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0 <= value <= MAX_SEASON_POINTS
        for value in points
    ):
        raise SeasonRuleError(
            Message(
                _("season placement points are 1 to %(count)s numbers, each from 0 to %(most)s"),
                count=MAX_PLACEMENT_VALUES,
                most=MAX_SEASON_POINTS,
            ),
            field="placement_points",
        )
    if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        raise SeasonRuleError(
            Message(_("season placement points may not grow with the rank")),
            field="placement_points",
        )
    validate_season_precedence(rule.precedence)
    return rule


def validate_season_precedence(precedence: Sequence[str]) -> tuple[str, ...]:
    def refused(message: Message) -> SeasonRuleError:
        return SeasonRuleError(message, field="precedence")

    if isinstance(precedence, str):
        raise refused(Message(_("the precedence is a list of metric names, not one name")))
    names = tuple(precedence)
    if not names:
        raise refused(Message(_("the precedence needs at least one metric")))
    for name in names:
        if name not in SEASON_METRICS:
            raise refused(
                Message(
                    _("unknown standings metric %(metric)s; the metrics are %(metrics)s"),
                    metric=repr(name),
                    metrics=", ".join(SEASON_METRICS),
                )
            )
        if names.count(name) > 1:
            raise refused(
                Message(_("metric %(metric)s appears twice in the precedence"), metric=repr(name))
            )
    if "random" in names and names[-1] != "random":
        raise refused(Message(_("'random' settles every tie, so it can only be the last metric")))
    return names


def placement_value(rank: int, tied: int, points: Sequence[float]) -> Fraction:
    """The placement points of a final rank shared by `tied` players: the average of the points
    of the ranks they occupy (a shared second place of two: (18 + 15) / 2)."""
    values = [
        _exact(points[r - 1]) if r <= len(points) else Fraction(0) for r in range(rank, rank + tied)
    ]
    return sum(values, Fraction(0)) / tied


def compute_season(
    players: Iterable[Hashable],
    finishes: Iterable[TournamentFinish],
    *,
    rule: SeasonRule,
    seed: int | str,
) -> list[SeasonRow]:
    """Rank `players` (every one listed appears, with zeros if he played nothing) by their
    `finishes` in the season's tournaments; the first row is the leader."""
    validate_season_rule(rule)
    order = validate_season_precedence(rule.precedence)
    ids = list(dict.fromkeys(players))
    known = set(ids)
    finishes = list(finishes)
    tied_at: dict[tuple[Hashable, int], int] = {}
    for finish in finishes:
        if finish.player not in known:
            raise ValueError(f"player {finish.player!r} is not in the list")
        key = (finish.event, finish.rank)
        tied_at[key] = tied_at.get(key, 0) + 1
    values: dict[Hashable, dict[Hashable, Fraction]] = {player: {} for player in ids}
    points: dict[Hashable, dict[Hashable, Fraction]] = {player: {} for player in ids}
    wins = dict.fromkeys(ids, 0)
    best: dict[Hashable, int | None] = dict.fromkeys(ids)
    for finish in finishes:
        if finish.event in values[finish.player]:
            raise ValueError(f"player {finish.player!r} finishes {finish.event!r} twice")
        exact_points = _exact(finish.points)
        points[finish.player][finish.event] = exact_points
        if rule.scoring == SCORING_PLACEMENT_POINTS:
            tied = tied_at[(finish.event, finish.rank)]
            value = placement_value(finish.rank, tied, rule.placement_points)
        else:
            value = exact_points
        values[finish.player][finish.event] = value
        if finish.rank == 1:
            wins[finish.player] += 1
        previous = best[finish.player]
        best[finish.player] = finish.rank if previous is None else min(previous, finish.rank)

    counted: dict[Hashable, tuple[Hashable, ...]] = {}
    season_points: dict[Hashable, Fraction] = {}
    for player in ids:
        # Best first; equal values in the order the tournaments were handed in.
        ranked = sorted(values[player].items(), key=lambda item: -item[1])
        if rule.best_count is not None:
            ranked = ranked[: rule.best_count]
        counted[player] = tuple(event for event, _value in ranked)
        season_points[player] = sum((value for _event, value in ranked), Fraction(0))

    columns: dict[str, dict[Hashable, Any]] = {
        "season_points": season_points,
        "tournaments_played": {player: len(values[player]) for player in ids},
        "tournament_wins": wins,
        "all_points": {player: sum(points[player].values(), Fraction(0)) for player in ids},
        "random": {player: random_key(seed, player) for player in ids},
    }

    def sort_key(player: Hashable) -> tuple[Any, ...]:
        key: list[Any] = []
        for name in order:
            if name == "best_rank":
                rank = best[player]
                key.append((0, rank) if rank is not None else (1, 0))
            elif SEASON_METRICS[name]:
                key.append(-columns[name][player])
            else:
                key.append(columns[name][player])
        return tuple(key)

    keys = {player: sort_key(player) for player in ids}
    position = {player: number for number, player in enumerate(ids)}
    ranked_players = sorted(ids, key=lambda player: (keys[player], position[player]))
    ranks = shared_ranks([keys[p] for p in ranked_players], strict="random" in order)
    rank_counts: dict[int, int] = {}
    for rank in ranks:
        rank_counts[rank] = rank_counts.get(rank, 0) + 1
    return [
        SeasonRow(
            rank=rank,
            tied=rank_counts[rank] > 1,
            player=player,
            season_points=float(season_points[player]),
            tournaments_played=len(values[player]),
            tournament_wins=wins[player],
            best_rank=best[player] or 0,
            all_points=float(columns["all_points"][player]),
            values={event: float(value) for event, value in values[player].items()},
            counted=counted[player],
            random=columns["random"][player] / 2**64,
        )
        for player, rank in zip(ranked_players, ranks, strict=True)
    ]


def _exact(value: float | int) -> Fraction:
    # repr: the decimal a person typed (1.5, 0.1), not the binary float's expansion.
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
