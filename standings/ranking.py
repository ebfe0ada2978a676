"""Tournament standings from confirmed table results: a pure function whose rows a snapshot stores.

Each table gives its players tournament points by their place at the table (`placement_points`,
with tied places sharing the average of the points of the places they occupy), and the players are
ranked by an ordered list of metrics chosen per tournament (`precedence`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rules.messages import Message, _


@dataclass(frozen=True)
class Metric:
    """A figure of the standings: whether it ranks (and which way) and how people read it.

    The one place for each: the ranking, the tournament form's criteria, the standings page's
    columns and the CSV all take their metrics, names and order from `METRIC_REGISTRY`.
    """

    key: str
    # True: more is better; False: less is better; None: shown, never ranks (tables played).
    higher_is_better: bool | None
    name: Message  # in full: the form's criteria, the CSV's headers
    # The column of the standings page (its head, what it means, decimals shown at most);
    # None for a metric that only breaks ties (the random draw).
    short: Message | None = None
    description: Message | None = None
    places: int = 0
    # How the sentence under the standings names it ("Ranked by ..., then ..."): what it is and,
    # where the name alone does not say it, what it means.
    phrase: Message | None = None
    # True: the figure does not exist until a player has played (an average of no places).
    needs_games: bool = False

    @property
    def ranks(self) -> bool:
        return self.higher_is_better is not None

    @property
    def shown(self) -> bool:
        return self.short is not None

    def value_of(self, row: Mapping[str, Any]) -> Any:
        """The figure of a standings row (a snapshot's dict), None where it does not exist."""
        if self.needs_games and not row.get("games_played"):
            return None
        return row.get(self.key)


# The last tiebreak of any ranking, the tournament's and the season's: a draw, the same every time.
RANDOM_DRAW = Metric(
    "random",
    False,
    Message(_("Random draw")),
    phrase=Message(_("a random draw (the same every time)")),
)

METRIC_REGISTRY: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        Metric(
            "games_played",
            None,
            Message(_("Tables played")),
            Message(_("Played")),
            Message(_("Tables played")),
            0,
        ),
        Metric(
            "tournament_points",
            True,
            Message(_("Tournament points")),
            Message(_("Points")),
            Message(_("Tournament points for places at the tables")),
            2,
            phrase=Message(_("tournament points")),
        ),
        Metric(
            "total_score",
            True,
            Message(_("Total score")),
            Message(_("Score")),
            Message(_("Sum of the game totals")),
            0,
            phrase=Message(_("total score (the sum of the game totals)")),
        ),
        Metric(
            "opponent_strength",
            True,
            Message(_("Opponents' strength")),
            Message(_("Opp.")),
            Message(_("Opponents' strength: the tournament points of everyone met at a table")),
            2,
            phrase=Message(
                _("opponents' strength (the tournament points of everyone met at a table)")
            ),
        ),
        Metric(
            "games_won",
            True,
            Message(_("Games won")),
            Message(_("Wins")),
            Message(_("Games won")),
            0,
            phrase=Message(_("games won")),
        ),
        Metric(
            "average_placement",
            False,
            Message(_("Average place at the table")),
            Message(_("Avg. place")),
            Message(_("Average place at the table (lower is better)")),
            2,
            phrase=Message(_("average place at the table (lower is better)")),
            needs_games=True,
        ),
        RANDOM_DRAW,
    )
}
# Metric name -> whether a higher value is better, for the metrics that rank.
METRICS: dict[str, bool] = {
    key: metric.higher_is_better
    for key, metric in METRIC_REGISTRY.items()
    if metric.higher_is_better is not None
}
DEFAULT_PRECEDENCE = (
    "tournament_points",
    "total_score",
    "opponent_strength",
    "games_won",
    "average_placement",
)
DEFAULT_PLACEMENT_POINTS: Mapping[int, tuple[float, ...]] = {4: (3, 2, 1, 0), 3: (3, 1.5, 0)}

# Every value of a placement points scheme lies within plus or minus this: far beyond any real
# scheme (3, 2, 1, 0), and small enough that a whole tournament's points stay far within a float.
MAX_PLACEMENT_POINTS = 10_000

# Points are kept as integers scaled by this factor times the schemes' denominators, so that sums
# and ties are exact: a tie of k players (k <= 4) divides by k, and 12 is divisible by 1, 2, 3, 4.
_TIE_SCALE = 12


@dataclass(frozen=True, slots=True)
class TableResult:
    """A confirmed result of one table; seats in order, None for a bot's seat.

    `placements` are per seat, 1 the best; tied seats share a value (1, 2, 2, 4 or 1, 2.5, 2.5, 4:
    only the order matters). `winner` is the winning player, None when a bot won or nobody did.
    """

    round_number: int
    table_number: int
    players: tuple[Hashable | None, ...]
    totals: tuple[int, ...]
    placements: tuple[int | float, ...]
    winner: Hashable | None

    def __post_init__(self) -> None:
        for name in ("players", "totals", "placements"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        where = f"round {self.round_number}, table {self.table_number}"
        size = len(self.players)
        if size not in (3, 4):
            raise ValueError(f"{where}: a table has 3 or 4 seats, not {size}")
        if len(self.totals) != size or len(self.placements) != size:
            raise ValueError(f"{where}: totals and placements need one value per seat")
        if not all(isinstance(t, int) and not isinstance(t, bool) for t in self.totals):
            raise ValueError(f"{where}: totals must be whole numbers")
        for place in self.placements:
            if not _is_number(place) or not 1 <= place <= size:
                raise ValueError(f"{where}: a placement is a number from 1 to {size}")
        seated = [player for player in self.players if player is not None]
        if len(set(seated)) != len(seated):
            raise ValueError(f"{where}: a player sits at the table twice")
        if self.winner is not None and self.winner not in seated:
            raise ValueError(f"{where}: the winner must be one of the table's players")


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line of the standings; `tied` marks a rank shared with another player."""

    rank: int
    tied: bool
    player: Hashable
    tournament_points: float
    total_score: int
    average_placement: float
    games_won: int
    opponent_strength: float
    games_played: int
    random: float

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict for a standings snapshot (the player id as given)."""
        return asdict(self)


def row_to_dict(row: StandingRow) -> dict[str, Any]:
    """A standings row as a JSON-ready dict, as a snapshot stores it."""
    return row.as_dict()


def compute_standings(
    players: Iterable[Hashable],
    results: Iterable[TableResult],
    *,
    precedence: Sequence[str] = DEFAULT_PRECEDENCE,
    placement_points: Mapping[Any, Sequence[Any]] | None = None,
    seed: int | str,
    draw_keys: Mapping[Hashable, Hashable] | None = None,
) -> list[StandingRow]:
    """Rank `players` by their confirmed `results`; the first row is the leader.

    Every player listed appears, with zeros if he has no result (his average placement is 0 but
    counts as the worst for ranking). Equal keys share a rank (1, 2, 2, 4) unless "random" is in
    the precedence: the random key, drawn from `seed` and the player id alone (or the player's
    entry in `draw_keys`, such as a start number that survives an export and import), stays the
    same when results are added, and makes the ranks strict. Players who share a rank keep the
    order of `players`. Raises ValueError for an invalid precedence, placement points or results.
    """
    order = validate_precedence(precedence)
    scheme, scale = _scaled_scheme(
        DEFAULT_PLACEMENT_POINTS if placement_points is None else placement_points
    )
    ids = list(players)
    index: dict[Hashable, int] = {}
    for i, player in enumerate(ids):
        if player is None:
            raise ValueError("None is a bot's seat, not a player")
        if player in index:
            raise ValueError(f"player {player!r} is listed twice")
        index[player] = i
    count = len(ids)
    points = [0] * count
    total_score = [0] * count
    place_sum = [0] * count  # places times _TIE_SCALE
    games_won = [0] * count
    games_played = [0] * count
    tables: list[list[int]] = []
    seen_tables: set[tuple[int, int]] = set()
    seen_seats: set[tuple[int, int]] = set()
    table_cache: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    for result in results:
        where = (result.round_number, result.table_number)
        if where in seen_tables:
            raise ValueError(f"round {where[0]}, table {where[1]} has two results")
        seen_tables.add(where)
        shares = table_cache.get(result.placements)
        if shares is None:
            shares = table_cache[result.placements] = _table_shares(result.placements, scheme)
        seat_points, seat_places = shares
        members = []
        for seat, player in enumerate(result.players):
            if player is None:
                continue
            position = index.get(player)
            if position is None:
                raise ValueError(
                    f"round {where[0]}, table {where[1]}: player {player!r} is not in the list"
                )
            if (result.round_number, position) in seen_seats:
                raise ValueError(f"player {player!r} plays twice in round {result.round_number}")
            seen_seats.add((result.round_number, position))
            points[position] += seat_points[seat]
            total_score[position] += result.totals[seat]
            place_sum[position] += seat_places[seat]
            games_played[position] += 1
            if player == result.winner:
                games_won[position] += 1
            members.append(position)
        tables.append(members)

    # Opponent strength needs every player's final points, hence a second pass over the tables.
    opponents = [0] * count
    for members in tables:
        table_sum = sum(points[position] for position in members)
        for position in members:
            opponents[position] += table_sum - points[position]

    given_keys = draw_keys or {}
    random_keys = [random_key(seed, given_keys.get(player, player)) for player in ids]
    columns = {
        "tournament_points": points,
        "total_score": total_score,
        "opponent_strength": opponents,
        "games_won": games_won,
        "random": random_keys,
    }

    def sort_key(position: int) -> tuple[Any, ...]:
        key: list[Any] = []
        for name in order:
            if name == "average_placement":
                played = games_played[position]
                # Exact comparison; a player with no game is the worst, not the best, placed.
                key.append((0, Fraction(place_sum[position], played)) if played else (1, 0))
            elif METRICS[name]:
                key.append(-columns[name][position])
            else:
                key.append(columns[name][position])
        return tuple(key)

    keys = [sort_key(position) for position in range(count)]
    ranked = sorted(range(count), key=lambda position: (keys[position], position))
    ranks = [0] * count
    for position, rank in zip(
        ranked, shared_ranks([keys[p] for p in ranked], strict="random" in order), strict=True
    ):
        ranks[position] = rank
    rank_counts: dict[int, int] = {}
    for rank in ranks:
        rank_counts[rank] = rank_counts.get(rank, 0) + 1

    return [
        StandingRow(
            rank=ranks[position],
            tied=rank_counts[ranks[position]] > 1,
            player=ids[position],
            tournament_points=points[position] / scale,
            total_score=total_score[position],
            average_placement=(
                place_sum[position] / (_TIE_SCALE * games_played[position])
                if games_played[position]
                else 0.0
            ),
            games_won=games_won[position],
            opponent_strength=opponents[position] / scale,
            games_played=games_played[position],
            random=random_keys[position] / 2**64,
        )
        for position in ranked
    ]


def table_points(
    result: TableResult, placement_points: Mapping[Any, Sequence[Any]] | None = None
) -> tuple[float, ...]:
    """The tournament points each seat of a table earns (bots' seats included)."""
    scheme, scale = _scaled_scheme(
        DEFAULT_PLACEMENT_POINTS if placement_points is None else placement_points
    )
    seat_points, _ = _table_shares(result.placements, scheme)
    return tuple(value / scale for value in seat_points)


def validate_precedence(precedence: Sequence[str]) -> tuple[str, ...]:
    """The precedence as a tuple of metric names; ValueError naming the problem if it is invalid.

    The error's message is a `Message`, so that a page can show it in its own language.
    """
    if isinstance(precedence, str) or not isinstance(precedence, Iterable):
        raise ValueError(Message(_("the precedence is a list of metric names, not one name")))
    names = tuple(precedence)
    if not names:
        raise ValueError(Message(_("the precedence needs at least one metric")))
    for name in names:
        if name not in METRICS:
            raise ValueError(
                Message(
                    _("unknown standings metric %(metric)s; the metrics are %(metrics)s"),
                    metric=repr(name),
                    metrics=", ".join(METRICS),
                )
            )
    for name in names:
        if names.count(name) > 1:
            raise ValueError(
                Message(_("metric %(metric)s appears twice in the precedence"), metric=repr(name))
            )
    if "random" in names and names[-1] != "random":
        raise ValueError(
            Message(_("'random' settles every tie, so it can only be the last metric"))
        )
    return names


def validate_placement_points(
    placement_points: Mapping[Any, Sequence[Any]],
) -> dict[int, tuple[Fraction, ...]]:
    """The points per place by table size, exact; ValueError naming the problem if invalid.

    Keys are 3 and 4 (or "3" and "4", as JSON stores them); each value lists the points from the
    first place to the last and may not grow with the place. Messages are `Message`s.
    """
    if not isinstance(placement_points, Mapping):
        raise ValueError(
            Message(_("placement points map a table size (3 or 4) to the points per place"))
        )
    exact: dict[int, tuple[Fraction, ...]] = {}
    for key, values in placement_points.items():
        # JSON objects have string keys, so a stored scheme says "3" and "4".
        size = {3: 3, 4: 4, "3": 3, "4": 4}.get(key) if isinstance(key, int | str) else None
        if size is None or isinstance(key, bool):
            raise ValueError(
                Message(
                    _("placement points are for tables of 3 or 4, not %(size)s"), size=repr(key)
                )
            )
        if size in exact:
            raise ValueError(
                Message(_("placement points for tables of %(size)s are given twice"), size=size)
            )
        values = tuple(values) if isinstance(values, Sequence) else ()
        if len(values) != size or not all(_is_number(value) for value in values):
            raise ValueError(
                Message(
                    _("a table of %(size)s needs %(size)s numbers of placement points"), size=size
                )
            )
        if any(abs(value) > MAX_PLACEMENT_POINTS for value in values):
            raise ValueError(
                Message(
                    _("placement points are from %(least)s to %(most)s each"),
                    least=-MAX_PLACEMENT_POINTS,
                    most=MAX_PLACEMENT_POINTS,
                )
            )
        fractions = tuple(_as_fraction(value) for value in values)
        if any(later > earlier for earlier, later in zip(fractions, fractions[1:], strict=False)):
            raise ValueError(
                Message(
                    _(
                        "placement points for tables of %(size)s may not grow with the place: "
                        "%(points)s"
                    ),
                    size=size,
                    points=", ".join(str(value) for value in values),
                )
            )
        exact[size] = fractions
    return exact


def _scaled_scheme(
    placement_points: Mapping[Any, Sequence[Any]],
) -> tuple[dict[int, tuple[int, ...]], int]:
    """The points per place as integers, and the factor they are scaled by."""
    exact = validate_placement_points(_held_within_bounds(placement_points))
    denominators = math.lcm(*(value.denominator for values in exact.values() for value in values))
    scale = _TIE_SCALE * denominators
    scaled = {size: tuple(int(value * scale) for value in values) for size, values in exact.items()}
    return scaled, scale


def _held_within_bounds(placement_points: Any) -> Any:
    """A scheme with every number held within plus or minus MAX_PLACEMENT_POINTS.

    New schemes are refused beyond the bound (`validate_placement_points`); one stored before the
    bound existed is scored as if its numbers had been capped, so that its tournament's pages
    still show. Capping keeps the order of the places.
    """
    if not isinstance(placement_points, Mapping):
        return placement_points
    return {
        key: tuple(_capped(value) for value in values)
        if isinstance(values, Sequence) and not isinstance(values, str)
        else values
        for key, values in placement_points.items()
    }


def _capped(value: Any) -> Any:
    if not _is_number(value):
        return value
    return max(-MAX_PLACEMENT_POINTS, min(MAX_PLACEMENT_POINTS, value))


def _table_shares(
    placements: tuple[int | float, ...], scheme: Mapping[int, tuple[int, ...]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scaled points and scaled places per seat; tied seats share the places they occupy."""
    size = len(placements)
    values = scheme.get(size)
    if values is None:
        raise ValueError(f"no placement points are set for tables of {size}")
    order = sorted(range(size), key=lambda seat: placements[seat])
    seat_points = [0] * size
    seat_places = [0] * size
    start = 0
    while start < size:
        end = start
        while end + 1 < size and placements[order[end + 1]] == placements[order[start]]:
            end += 1
        tied = end - start + 1
        group_points = sum(values[start : end + 1]) // tied
        group_place = _TIE_SCALE * sum(range(start + 1, end + 2)) // tied
        for seat in order[start : end + 1]:
            seat_points[seat] = group_points
            seat_places[seat] = group_place
        start = end + 1
    return tuple(seat_points), tuple(seat_places)


def shared_ranks(sorted_keys: Sequence[Any], *, strict: bool) -> list[int]:
    """The ranks of rows sorted by their keys: equal keys share a rank (1, 2, 2, 4), unless
    `strict` (a random draw settled every tie) numbers them 1, 2, 3, 4. The season table of the
    ratings package ranks the same way."""
    ranks: list[int] = []
    for number, key in enumerate(sorted_keys):
        if not strict and number and sorted_keys[number - 1] == key:
            ranks.append(ranks[-1])
        else:
            ranks.append(number + 1)
    return ranks


def random_key(seed: int | str, player: Hashable) -> int:
    """A 64-bit key from the seed and the player alone: the same on every recomputation."""
    digest = hashlib.blake2b(f"{seed}\x1f{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _as_fraction(value: Any) -> Fraction:
    # repr gives the decimal the organizer typed (1.5, 0.1), not the binary float's expansion.
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int | Fraction | Decimal)
