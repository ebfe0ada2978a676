"""Archives of whole tournaments: one JSON document out, and the same tournament back in.

A club keeps the file so that it never loses a tournament. `tournament_export` writes everything a
tournament is: its settings, players, registrations, rounds, tables and seats, every version of
every score sheet (who submitted and who confirmed or disputed it, and when), and the live games
with their seats, seat changes, finished deals (deck, salt and commitment) and every action in
order.
`tournament_import` checks a whole document and recreates the tournament in a club, all or nothing:
exporting the imported tournament gives the same document again, apart from `exported_at`.

The document (format "thousand-one-tournament", version 1) refers to its objects by their own
keys, never by database ids, so it imports into any database: a player by his `key` in
"players", a registration (and a seat, by `start_number`) by its start number, a round, table,
result version or deal by its number, an action by its sequence number. Times are ISO 8601 with
their offset (UTC on export) and come back exactly, the automatic ones (`created_at` ...) too.
Keys the reader does not know are ignored; every key it knows is required (null where allowed).

Decisions:

- Logins are exported as usernames only, never with passwords. On import a username means the
  user of that name on this site; a name the site does not know gets a new user without a usable
  password, as the app itself makes for players who sign in with their personal link. So a club
  that restores its tournament on a new site finds its players (and the names of who entered and
  confirmed each sheet) again, and nobody gets a password from a file.
- A player whose login already belongs to a player of the importing club is that player (the
  club restores a tournament it lost): he is not created twice and keeps his current name; so is
  a player without a login whose name only one player of the club has, as when registering by
  names. An import never links a login the site already has to a new player: one that belongs
  to a player of another club stays with that player, and one that belongs to no player is its
  owner's (a site administrator, a visitor who practises) and must not become reachable through
  a personal link; the imported player is then created without a login. Only logins the import
  makes itself are linked to their players.
- Standings snapshots are not in the archive: they are computed from the confirmed results, the
  settings and the seed, so the import computes the latest one (as a confirmation would) instead
  of trusting numbers a file claims. Only a `random` tiebreak can order equal players differently,
  because its key is drawn from the registration's database id.
- A tournament has no slug of its own; it is known by the slug of its name and its date (the
  downloaded file is named so). An import whose name and date clash with a tournament of the club
  gets a numbered name, such as "Friday cup (2)".
- A deal still being played is never in the file: its deck, salt and actions (the declarer's
  give among them) are secret until it is over, and the director who downloads the file may sit
  at that table. The game is written as it stood when that deal was dealt. An unfinished live
  game comes back where it stood; one between deals is dealt its next deal anew (a new shuffle)
  at the import; if a bot is to act, its turn is enqueued once the import is committed, and the
  players carry on with their logins. Exporting the import again then differs in that deal.
"""

from __future__ import annotations

import datetime
import itertools
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connections, models, router, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.i18n import error_text, translate
from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange
from gameplay.services import enqueue_bot_turn, live_game_deal_on
from gameplay.shuffle import deck_commitment
from rules import Action, EngineError, Game, RuleSet
from scoring.models import ResultVersion, TableResult
from scoring.score_sheet import ScoreSheetError, ValidatedSheet, validate_score_sheet
from scoring.services import standings_recompute
from tournaments.models import (
    BotLevel,
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.names import name_key
from tournaments.selectors import is_director

# The tournament settings are judged as the settings form judges them.
from tournaments.services import _clean_tournament_options

ARCHIVE_FORMAT = "thousand-one-tournament"
ARCHIVE_VERSION = 1
# What the director's upload accepts; the command line reads archives of any size.
ARCHIVE_MAX_BYTES = 20 * 1024 * 1024

SMALL_MAX = 32767  # PositiveSmallIntegerField
INT_MAX = 2**31 - 1  # PositiveIntegerField
BIG_MAX = 2**63 - 1  # BigIntegerField
USERNAME_MAX = User._meta.get_field("username").max_length
HEX = re.compile(r"[0-9a-f]+")


# ----------------------------------------------------------------------------- export
def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The archive of a whole tournament as a JSON-ready dict (see the module's docstring)."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__user")
        .order_by("start_number")
    )
    start_numbers = {registration.pk: registration.start_number for registration in registrations}
    # A player's key is his place in the list, which follows the start numbers.
    keys = {registration.player_id: key for key, registration in enumerate(registrations, 1)}
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": _values(tournament),
        "players": [
            {"key": keys[registration.player_id]}
            | _values(registration.player)
            | {"username": registration.player.user.username if registration.player.user else None}
            for registration in registrations
        ],
        "registrations": [
            _values(registration) | {"player": keys[registration.player_id]}
            for registration in registrations
        ],
        "rounds": _rounds_export(tournament, start_numbers),
    }


# Columns that are not part of what a tournament is. A personal link signs its registration's
# id, which an import makes anew: links printed for the original never open the copy.
NOT_ARCHIVED = {(Registration, "personal_link_version")}


def _own(model: type[models.Model]) -> list[str]:
    """A model's own values: its columns but the id and the links to other rows.

    The links are written as the archive's own keys instead, beside these.
    """
    return [
        column.name
        for column in model._meta.concrete_fields
        if not column.primary_key
        and not column.is_relation
        and (model, column.name) not in NOT_ARCHIVED
    ]


def _values(row: models.Model) -> dict[str, Any]:
    return _plain({name: getattr(row, name) for name in _own(type(row))})


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its dates and times in ISO 8601, as JSON holds them."""
    return {
        key: value.isoformat() if isinstance(value, datetime.date) else value
        for key, value in row.items()
    }


def _grouped(rows: Iterable[dict[str, Any]], key: str) -> defaultdict[Any, list[dict[str, Any]]]:
    """The rows by the value of `key`, which is taken out of each row; order kept."""
    groups: defaultdict[Any, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        owner = row.pop(key)
        groups[owner].append(_plain(row))
    return groups


def _with_children(
    rows: Iterable[dict[str, Any]], **children: dict[int, list[dict[str, Any]]]
) -> Iterable[dict[str, Any]]:
    """Each row without its pk, with its children (listed by the row's pk) under their names."""
    for row in rows:
        pk = row.pop("pk")
        yield row | {name: groups[pk] for name, groups in children.items()}


def _single(rows: Iterable[dict[str, Any]], key: str) -> dict[Any, dict[str, Any]]:
    """The rows by the value of `key` (one row each), which is taken out of each row."""
    return {owner: row for owner, (row,) in _grouped(rows, key).items()}


def _rows(queryset: models.QuerySet, *keys: str, **logins: str) -> Iterable[dict[str, Any]]:
    """The own values of each row of the query, with the values named by `keys`.

    `logins` maps a key of the archive to a user field of the model, whose username it holds.
    """
    names = {f"{key}_login": key for key in logins}
    values = queryset.values(
        *keys,
        *_own(queryset.model),
        **{f"{key}_login": F(f"{column}__username") for key, column in logins.items()},
    )
    for row in values:
        # A query cannot name a value after a field of its model (submitted_by ...).
        yield {names.get(key, key): value for key, value in row.items()}


def _rounds_export(tournament: Tournament, start_numbers: dict[int, int]) -> list[dict[str, Any]]:
    in_tournament = {"round__tournament": tournament}
    seats = defaultdict(list)
    for row in _rows(
        Seat.objects.filter(**in_tournament).order_by("table_id", "position"),
        "table_id",
        "registration_id",
    ):
        table_id, registration_id = row.pop("table_id"), row.pop("registration_id")
        seats[table_id].append(row | {"start_number": start_numbers.get(registration_id)})
    results = _results_export(tournament)
    games = _live_games_export(tournament)
    tables = defaultdict(list)
    for row in _rows(
        Table.objects.filter(**in_tournament).order_by("round_id", "number"), "pk", "round_id"
    ):
        table_id, round_id = row.pop("pk"), row.pop("round_id")
        tables[round_id].append(
            row
            | {
                "seats": seats[table_id],
                "result": results.get(table_id),
                "live_game": games.get(table_id),
            }
        )
    rounds = _rows(Round.objects.filter(tournament=tournament).order_by("number"), "pk")
    return [_plain(row) for row in _with_children(rounds, tables=tables)]


def _results_export(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each table's result (by table id) with every version of its score sheet."""
    in_tournament = {"table__round__tournament": tournament}
    rows = list(
        _rows(
            ResultVersion.objects.filter(**in_tournament).order_by("table_id", "number"),
            "pk",
            "table_id",
            submitted_by="submitted_by",
            reviewed_by="reviewed_by",
        )
    )
    numbers = {row.pop("pk"): row["number"] for row in rows}
    versions = _grouped(rows, "table_id")
    results = _single(
        _rows(TableResult.objects.filter(**in_tournament), "table_id", "confirmed_id"), "table_id"
    )
    for table_id, row in results.items():
        row["confirmed"] = numbers.get(row.pop("confirmed_id"))
        row["versions"] = versions[table_id]
    return results


def _live_games_export(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each table's live game (by table id) with its seats, seat changes, deals and actions.

    A deal still being played is left out, with its deck, salt and actions: its hands and the
    talon are secret until it is over, and whoever downloads the file may sit at that table. The
    game is written as it stood when that deal was dealt (between deals); an import deals anew.
    """
    in_tournament = {"game__table__round__tournament": tournament}
    unfinished = LiveDeal.objects.filter(**in_tournament, finished_at__isnull=True)
    in_play = list(unfinished.values_list("pk", flat=True))
    # The game's sequence where its deal in play began, by game id.
    resumed_at = dict(unfinished.values_list("game_id", "start_sequence"))
    seats = _grouped(
        _rows(
            LiveSeat.objects.filter(**in_tournament).order_by("game_id", "position"),
            "game_id",
            username="user",
        ),
        "game_id",
    )
    changes = _grouped(
        _rows(
            LiveSeatChange.objects.filter(**in_tournament).order_by("game_id", "changed_at", "pk"),
            "game_id",
            from_username="from_user",
            changed_by="changed_by",
        ),
        "game_id",
    )
    for game_id, sequence in resumed_at.items():
        for change in changes.get(game_id, []):
            # A bot that took a seat during the deal left out plays from the new deal on.
            change["sequence"] = min(change["sequence"], sequence)
    actions = _grouped(
        _rows(
            LiveAction.objects.filter(**in_tournament)
            .exclude(deal_id__in=in_play)
            .order_by("sequence"),
            "deal_id",
        ),
        "deal_id",
    )
    deals = _grouped(
        _with_children(
            _rows(
                LiveDeal.objects.filter(**in_tournament)
                .exclude(pk__in=in_play)
                .order_by("game_id", "number"),
                "pk",
                "game_id",
            ),
            actions=actions,
        ),
        "game_id",
    )
    games = list(
        _rows(LiveGame.objects.filter(table__round__tournament=tournament), "pk", "table_id")
    )
    for game in games:
        if game["pk"] in resumed_at:
            game.update(sequence=resumed_at[game["pk"]], to_act=None)
    return _single(
        _with_children(games, seats=seats, seat_changes=changes, deals=deals), "table_id"
    )


def archive_dumps(data: dict[str, Any]) -> str:
    """The archive as JSON text (UTF-8 names kept readable)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def archive_loads(raw: bytes | str) -> Any:
    """The JSON value of an archive file; ValidationError saying what is wrong with the file."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(
                _("The file is not a tournament archive: it is not UTF-8 text."), code="not_json"
            ) from None
    try:
        return json.loads(raw.removeprefix("\ufeff"), parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ValidationError(
            _("The file is not valid JSON: %(problem)s (line %(line)d, column %(column)d).")
            % {"problem": error.msg, "line": error.lineno, "column": error.colno},
            code="not_json",
        ) from None
    except ValueError as error:
        raise ValidationError(str(error), code="not_json") from None
    except RecursionError:
        raise ValidationError(
            _("The file is not a tournament archive: it nests too deeply."), code="not_json"
        ) from None


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON, and PostgreSQL refuses them in a JSON column.
    raise ValueError(_("The file is not valid JSON: %(value)s is not a number.") % {"value": name})


def archive_filename(tournament: Tournament) -> str:
    """The archive's file name: the slug of the tournament's name and its date."""
    slug = slugify(tournament.name, allow_unicode=True) or f"tournament-{tournament.pk}"
    return f"{slug}-{tournament.date.isoformat()}.json"


# ----------------------------------------------------------------------------- reading values
Check = Callable[[Any, str], Any]


def _problem(path: str, message: str) -> ValidationError:
    """The error of one element of the document, named by its path, e.g. rounds[2].number."""
    return ValidationError(f"{path}: {message}", code="archive")


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _take(item: dict[str, Any], key: str, path: str, check: Check) -> Any:
    where = _child(path, key)
    if key not in item:
        raise _problem(where, _("this key is missing"))
    return check(item[key], where)


def _object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _problem(path, _("must be an object ({...})"))
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _problem(path, _("must be a list ([...])"))
    return value


def _items(value: Any, path: str) -> Iterable[tuple[int, str, dict[str, Any]]]:
    """(index, path, object) of each element of a list of objects."""
    for index, item in enumerate(_list(value, path)):
        where = f"{path}[{index}]"
        yield index, where, _object(item, where)


def _whole(low: int, high: int, *, null: bool = False) -> Check:
    def check(value: Any, path: str) -> int | None:
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise _problem(
                path, _("must be a whole number or null") if null else _("must be a whole number")
            )
        if not low <= value <= high:
            raise _problem(path, _("must be from %(low)d to %(high)d") % {"low": low, "high": high})
        return value

    return check


def _text(max_length: int, *, blank: bool = True) -> Check:
    def check(value: Any, path: str) -> str:
        if not isinstance(value, str) or len(value) > max_length:
            raise _problem(path, _("must be text of at most %(n)d characters") % {"n": max_length})
        if not blank and not value.strip():
            raise _problem(path, _("must not be empty"))
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _problem(path, _("must be valid Unicode text")) from None
        if "\x00" in value:
            raise _problem(path, _("must not hold the NUL character"))
        return value

    return check


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _problem(path, _("must be true or false"))
    return value


def _choice(choices: Iterable[str]) -> Check:
    allowed = list(choices)

    def check(value: Any, path: str) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _problem(
                path,
                _("must be one of: %(choices)s")
                % {"choices": ", ".join(repr(choice) for choice in allowed)},
            )
        return value

    return check


def _moment(*, null: bool = False) -> Check:
    def check(value: Any, path: str) -> datetime.datetime | None:
        if value is None and null:
            return None
        try:
            moment = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None or timezone.is_naive(moment):
            raise _problem(
                path, _("must be a time with its offset, such as 2026-12-04T18:30:00+00:00")
            )
        return moment

    return check


def _day(value: Any, path: str) -> datetime.date:
    try:
        day = parse_date(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None:
        raise _problem(path, _("must be a date such as 2026-12-04"))
    return day


def _username(value: Any, path: str) -> str | None:
    if value is None:
        return None
    try:
        User.username_validator(_text(USERNAME_MAX, blank=False)(value, path))
    except ValidationError:
        raise _problem(path, _("is not a valid login name")) from None
    return value


def _hex(length: int) -> Check:
    def check(value: Any, path: str) -> str:
        if not isinstance(value, str) or not 1 <= len(value) <= length or not HEX.fullmatch(value):
            raise _problem(
                path,
                _("must be up to %(n)d lowercase hexadecimal digits") % {"n": length},
            )
        return value

    return check


def _json(value: Any, path: str) -> Any:
    return value


def _expect_number(value: int, expected: int, path: str, what: str) -> None:
    """Numbers of rounds, tables, versions and deals count 1, 2, 3 ... in the order listed."""
    if value != expected:
        raise _problem(path, _("must be %(n)d: %(what)s") % {"n": expected, "what": _(what)})


# ----------------------------------------------------------------------------- reading a document
@dataclass
class _Plan:
    """The objects of a checked document, unsaved, with what is resolved only when writing."""

    tournament: Tournament
    players: list[tuple[Player, str | None]] = field(default_factory=list)
    # Each registration with the index of its player in `players`.
    registrations: list[tuple[Registration, int]] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    versions: list[ResultVersion] = field(default_factory=list)
    results: list[TableResult] = field(default_factory=list)
    games: list[LiveGame] = field(default_factory=list)
    live_seats: list[LiveSeat] = field(default_factory=list)
    seat_changes: list[LiveSeatChange] = field(default_factory=list)
    deals: list[LiveDeal] = field(default_factory=list)
    actions: list[LiveAction] = field(default_factory=list)
    # (object, field, username) of every login a row refers to.
    logins: list[tuple[models.Model, str, str]] = field(default_factory=list)
    # Unfinished games waiting for a bot, whose turn is enqueued after the commit.
    bot_turns: list[LiveGame] = field(default_factory=list)
    # Games between deals (the export left out their deal in play): dealt anew after the insert.
    deal_on: list[LiveGame] = field(default_factory=list)

    def login(self, row: models.Model, name: str, username: str | None) -> None:
        if username is not None:
            self.logins.append((row, name, username))


class _Reader:
    """Checks a document element by element and builds the plan of what to create."""

    def __init__(self, data: Any, club: Club) -> None:
        self.data = data
        self.club = club

    def read(self) -> _Plan:
        if not isinstance(self.data, dict):
            raise ValidationError(_("The archive must be a JSON object."), code="archive")
        document = self.data
        if document.get("format") != ARCHIVE_FORMAT:
            raise _problem(
                "format",
                _("must be %(format)s: this is not a tournament archive of this app")
                % {"format": ARCHIVE_FORMAT},
            )
        version = _take(document, "version", "", _whole(1, INT_MAX))
        if version != ARCHIVE_VERSION:
            raise _problem(
                "version",
                _("this site reads archives of version %(supported)d, not %(version)d")
                % {"supported": ARCHIVE_VERSION, "version": version},
            )
        self.plan = _Plan(tournament=self._tournament(_take(document, "tournament", "", _object)))
        keys = self._players(_take(document, "players", "", _json))
        self.registrations = self._registrations(_take(document, "registrations", "", _json), keys)
        rounds = _take(document, "rounds", "", _list)
        planned = self.plan.tournament.rounds_planned
        if len(rounds) > planned:
            raise _problem(
                "rounds",
                _("the tournament plans %(planned)d rounds, the archive has %(count)d")
                % {"planned": planned, "count": len(rounds)},
            )
        for index, path, item in _items(rounds, "rounds"):
            self._round(index, path, item)
        return self.plan

    # --------------------------------------------------------------------- the tournament
    def _tournament(self, item: dict[str, Any]) -> Tournament:
        path = "tournament"
        options = {
            "rounds_planned": _take(item, "rounds_planned", path, _whole(1, 60)),
            "table_size": _take(item, "table_size", path, _choice(Tournament.TableSize.values)),
            "bots_allowed": _take(item, "bots_allowed", path, _flag),
            "round_format": _take(
                item, "round_format", path, _choice(Tournament.RoundFormat.values)
            ),
            "deals_per_round": _take(item, "deals_per_round", path, _whole(1, 240, null=True)),
            "rules": _take(item, "rules", path, _object),
            "seating_mode": _take(
                item, "seating_mode", path, _choice(Tournament.SeatingMode.values)
            ),
            "standings_precedence": _take(item, "standings_precedence", path, _list),
            "placement_points": _take(item, "placement_points", path, _object),
            "quick_results_allowed": _take(item, "quick_results_allowed", path, _flag),
            "is_public": _take(item, "is_public", path, _flag),
        }
        try:
            options = _clean_tournament_options(options)
        except ValidationError as error:
            name, messages = next(iter(error.message_dict.items()))
            raise _problem(_child(path, name), messages[0]) from None
        tournament = Tournament(
            club=self.club,
            name=_take(item, "name", path, _text(160, blank=False)),
            date=_take(item, "date", path, _day),
            status=_take(item, "status", path, _choice(Tournament.Status.values)),
            seed=_take(item, "seed", path, _whole(-BIG_MAX - 1, BIG_MAX)),
            results_version=_take(item, "results_version", path, _whole(0, INT_MAX)),
            created_at=_take(item, "created_at", path, _moment()),
            **options,
        )
        self.rules = RuleSet.from_dict(tournament.rules)
        self.fixed_deals = tournament.fixed_deals
        return tournament

    def _players(self, players: Any) -> dict[int, int]:
        """The index in the plan of each player's key."""
        keys: dict[int, int] = {}
        usernames: dict[str, str] = {}
        for index, path, item in _items(players, "players"):
            key = _take(item, "key", path, _whole(1, INT_MAX))
            if key in keys:
                raise _problem(
                    _child(path, "key"), _("player %(key)d is listed twice") % {"key": key}
                )
            username = _take(item, "username", path, _username)
            if username is not None and username in usernames:
                raise _problem(
                    _child(path, "username"),
                    _("the login %(username)s belongs to %(other)s too")
                    % {"username": username, "other": usernames[username]},
                )
            if username is not None:
                usernames[username] = path
            keys[key] = index
            player = Player(
                club=self.club,
                name=_take(item, "name", path, _text(120, blank=False)),
                created_at=_take(item, "created_at", path, _moment()),
            )
            self.plan.players.append((player, username))
        return keys

    def _registrations(self, registrations: Any, keys: dict[int, int]) -> dict[int, Registration]:
        """The registrations by start number."""
        by_number: dict[int, Registration] = {}
        registered: dict[int, str] = {}
        for _index, path, item in _items(registrations, "registrations"):
            number = _take(item, "start_number", path, _whole(1, INT_MAX))
            if number in by_number:
                raise _problem(
                    _child(path, "start_number"),
                    _("start number %(n)d is given twice") % {"n": number},
                )
            key = _take(item, "player", path, _whole(1, INT_MAX))
            if key not in keys:
                raise _problem(_child(path, "player"), _("unknown player %(key)d") % {"key": key})
            if key in registered:
                raise _problem(
                    _child(path, "player"),
                    _("player %(key)d is registered twice, also at %(other)s")
                    % {"key": key, "other": registered[key]},
                )
            registered[key] = path
            registration = Registration(
                tournament=self.plan.tournament,
                start_number=number,
                status=_take(item, "status", path, _choice(Registration.Status.values)),
                first_round=_take(item, "first_round", path, _whole(1, SMALL_MAX)),
                withdrawn_after=_take(
                    item, "withdrawn_after", path, _whole(0, SMALL_MAX, null=True)
                ),
                created_at=_take(item, "created_at", path, _moment()),
            )
            by_number[number] = registration
            self.plan.registrations.append((registration, keys[key]))
        return by_number

    # --------------------------------------------------------------------- rounds and tables
    def _round(self, index: int, path: str, item: dict[str, Any]) -> None:
        number = _take(item, "number", path, _whole(1, SMALL_MAX))
        _expect_number(
            number,
            index + 1,
            _child(path, "number"),
            gettext_noop("rounds are numbered 1, 2, 3 ... in order"),
        )
        round_ = Round(
            tournament=self.plan.tournament,
            number=number,
            status=_take(item, "status", path, _choice(Round.Status.values)),
            seed=_take(item, "seed", path, _whole(-BIG_MAX - 1, BIG_MAX)),
            created_at=_take(item, "created_at", path, _moment()),
            published_at=_take(item, "published_at", path, _moment(null=True)),
        )
        self.plan.rounds.append(round_)
        seated: dict[int, str] = {}  # the path of each start number's seat in this round
        tables = _take(item, "tables", path, _list)
        for table_index, table_path, table_item in _items(tables, _child(path, "tables")):
            self._table(round_, table_index, table_path, table_item, seated)

    def _table(
        self,
        round_: Round,
        index: int,
        path: str,
        item: dict[str, Any],
        seated: dict[int, str],
    ) -> None:
        number = _take(item, "number", path, _whole(1, SMALL_MAX))
        _expect_number(
            number,
            index + 1,
            _child(path, "number"),
            gettext_noop("tables are numbered 1, 2, 3 ... in order"),
        )
        table = Table(round=round_, number=number)
        self.plan.tables.append(table)
        seats = _take(item, "seats", path, _list)
        if len(seats) not in (3, 4):
            raise _problem(_child(path, "seats"), _("a table has 3 or 4 seats"))
        for seat_index, seat_path, seat_item in _items(seats, _child(path, "seats")):
            self._seat(table, seat_index, seat_path, seat_item, seated)
        result = _take(item, "result", path, _json)
        if result is not None:
            result_path = _child(path, "result")
            if round_.status == Round.Status.DRAFT:
                raise _problem(result_path, _("a table of a draft round has no result yet"))
            self._result(table, len(seats), result_path, _object(result, result_path))
        game = _take(item, "live_game", path, _json)
        if game is not None:
            game_path = _child(path, "live_game")
            self._live_game(table, len(seats), game_path, _object(game, game_path))

    def _seat(
        self, table: Table, index: int, path: str, item: dict[str, Any], seated: dict[int, str]
    ) -> None:
        position = _take(item, "position", path, _whole(0, 3))
        _expect_number(
            position,
            index,
            _child(path, "position"),
            gettext_noop("seats are listed from 0 in order"),
        )
        number = _take(item, "start_number", path, _whole(1, INT_MAX, null=True))
        bot_level = _take(item, "bot_level", path, _choice(["", *BotLevel.values]))
        if (number is None) == (bot_level == ""):
            raise _problem(
                path, _("a seat holds a player (start_number) or a bot (bot_level), not both")
            )
        registration = None
        if number is not None:
            registration = self.registrations.get(number)
            if registration is None:
                raise _problem(
                    _child(path, "start_number"),
                    _("no registration has start number %(n)d") % {"n": number},
                )
            if number in seated:
                raise _problem(
                    _child(path, "start_number"),
                    _("start number %(n)d sits twice in this round, also at %(other)s")
                    % {"n": number, "other": seated[number]},
                )
            seated[number] = path
        self.plan.seats.append(
            Seat(
                table=table,
                round=table.round,
                position=position,
                registration=registration,
                bot_level=bot_level,
            )
        )

    # --------------------------------------------------------------------- results
    def _result(self, table: Table, players: int, path: str, item: dict[str, Any]) -> None:
        versions = _take(item, "versions", path, _list)
        count = _take(item, "version", path, _whole(0, INT_MAX))
        if count != len(versions):
            raise _problem(
                _child(path, "version"),
                _("must be %(n)d, the number of versions listed") % {"n": len(versions)},
            )
        by_number = {}
        for index, version_path, version_item in _items(versions, _child(path, "versions")):
            version = self._version(table, players, index, version_path, version_item)
            by_number[version.number] = version
        confirmed = _take(item, "confirmed", path, _whole(1, INT_MAX, null=True))
        if confirmed is not None and (
            confirmed not in by_number
            or by_number[confirmed].status != ResultVersion.Status.CONFIRMED
        ):
            raise _problem(
                _child(path, "confirmed"),
                _("no confirmed version %(n)d is listed") % {"n": confirmed},
            )
        self.plan.results.append(
            TableResult(
                table=table,
                status=_take(item, "status", path, _choice(TableResult.Status.values)),
                version=count,
                confirmed=by_number.get(confirmed),
                updated_at=_take(item, "updated_at", path, _moment()),
            )
        )

    def _version(
        self, table: Table, players: int, index: int, path: str, item: dict[str, Any]
    ) -> ResultVersion:
        number = _take(item, "number", path, _whole(1, INT_MAX))
        _expect_number(
            number,
            index + 1,
            _child(path, "number"),
            gettext_noop("versions are numbered 1, 2, 3 ... in order"),
        )
        validated = self._sheet(_take(item, "sheet", path, _json), players, _child(path, "sheet"))
        derived = (list(validated.totals), list(validated.placements), validated.winner)
        stored = (
            _take(item, "totals", path, _list),
            _take(item, "placements", path, _list),
            _take(item, "winner_position", path, _whole(0, 3, null=True)),
        )
        if stored != derived:
            raise _problem(
                path, _("the totals, placements and winner do not match the score sheet")
            )
        version = ResultVersion(
            table=table,
            number=number,
            status=_take(item, "status", path, _choice(ResultVersion.Status.values)),
            source=_take(item, "source", path, _choice(ResultVersion.Source.values)),
            # Stored as the app stores a sheet it accepts: normalized by the validation.
            sheet=validated.as_sheet(),
            totals=derived[0],
            placements=derived[1],
            winner_position=derived[2],
            submitted_at=_take(item, "submitted_at", path, _moment()),
            reviewed_at=_take(item, "reviewed_at", path, _moment(null=True)),
            note=_take(item, "note", path, _text(1000)),
        )
        self.plan.login(version, "submitted_by", _take(item, "submitted_by", path, _username))
        self.plan.login(version, "reviewed_by", _take(item, "reviewed_by", path, _username))
        self.plan.versions.append(version)
        return version

    def _sheet(self, sheet: Any, players: int, path: str) -> ValidatedSheet:
        # Every stored version was accepted once, final totals too, so they are allowed here
        # even if the tournament has stopped allowing them since.
        try:
            return validate_score_sheet(
                sheet,
                players=players,
                first_dealer=0,
                rules=self.rules,
                fixed_deals=self.fixed_deals,
                quick_allowed=True,
            )
        except ScoreSheetError as error:
            raise _problem(path, translate(error.messages[0])) from None
        except ValueError as error:
            raise _problem(path, error_text(error)) from None

    # --------------------------------------------------------------------- live games
    def _live_game(self, table: Table, players: int, path: str, item: dict[str, Any]) -> None:
        count = _take(item, "players", path, _whole(3, 4))
        if count != players:
            raise _problem(
                _child(path, "players"),
                _("must be %(n)d, the number of seats at the table") % {"n": players},
            )
        rules = _take(item, "rules", path, _object)
        try:
            engine_rules = RuleSet.from_dict(rules)
        except (EngineError, ValueError, TypeError) as error:
            raise _problem(_child(path, "rules"), error_text(error)) from None
        game = LiveGame(
            table=table,
            players=count,
            first_dealer=_take(item, "first_dealer", path, _whole(0, count - 1)),
            rules=rules,
            fixed_deals=_take(item, "fixed_deals", path, _whole(1, SMALL_MAX, null=True)),
            status=_take(item, "status", path, _choice(LiveGame.Status.values)),
            sequence=_take(item, "sequence", path, _whole(0, INT_MAX)),
            to_act=_take(item, "to_act", path, _whole(0, 3, null=True)),
            turn_started_at=_take(item, "turn_started_at", path, _moment(null=True)),
            winner=_take(item, "winner", path, _whole(0, 3, null=True)),
            created_at=_take(item, "created_at", path, _moment()),
            finished_at=_take(item, "finished_at", path, _moment(null=True)),
        )
        try:
            engine_game = Game(
                players=count,
                first_dealer=game.first_dealer,
                rules=engine_rules,
                fixed_deals=game.fixed_deals,
            )
        except ValueError as error:
            raise _problem(_child(path, "fixed_deals"), error_text(error)) from None
        self.plan.games.append(game)
        bots = self._live_seats(game, _take(item, "seats", path, _list), _child(path, "seats"))
        self._replay(game, engine_game, _take(item, "deals", path, _list), path)
        changes = _take(item, "seat_changes", path, _list)
        for _index, change_path, change in _items(changes, _child(path, "seat_changes")):
            self._seat_change(game, change_path, change)
        if game.status == LiveGame.Status.PLAYING and engine_game.current is None:
            self.plan.deal_on.append(game)  # its deal in play was left out of the file
        elif game.status != LiveGame.Status.FINISHED and game.to_act in bots:
            self.plan.bot_turns.append(game)

    def _live_seats(self, game: LiveGame, seats: list[Any], path: str) -> set[int]:
        """Store the seats of a live game; the positions of its bots."""
        if len(seats) != game.players:
            raise _problem(path, _("must list %(n)d seats") % {"n": game.players})
        bots = set()
        usernames: dict[str, str] = {}
        for index, seat_path, item in _items(seats, path):
            position = _take(item, "position", seat_path, _whole(0, 3))
            _expect_number(
                position,
                index,
                _child(seat_path, "position"),
                gettext_noop("seats are listed from 0 in order"),
            )
            username = _take(item, "username", seat_path, _username)
            bot_level = _take(item, "bot_level", seat_path, _choice(["", *BotLevel.values]))
            if (username is None) == (bot_level == ""):
                raise _problem(
                    seat_path,
                    _("a seat holds a player (username) or a bot (bot_level), not both"),
                )
            if username in usernames:
                raise _problem(
                    _child(seat_path, "username"),
                    _("the login %(username)s sits twice at this game, also at %(other)s")
                    % {"username": username, "other": usernames[username]},
                )
            if username is None:
                bots.add(position)
            else:
                usernames[username] = seat_path
            seat = LiveSeat(
                game=game,
                position=position,
                bot_level=bot_level,
                name=_take(item, "name", seat_path, _text(120, blank=False)),
            )
            self.plan.login(seat, "user", username)
            self.plan.live_seats.append(seat)
        return bots

    def _seat_change(self, game: LiveGame, path: str, item: dict[str, Any]) -> None:
        change = LiveSeatChange(
            game=game,
            position=_take(item, "position", path, _whole(0, game.players - 1)),
            from_name=_take(item, "from_name", path, _text(120)),
            to_bot_level=_take(item, "to_bot_level", path, _choice(BotLevel.values)),
            sequence=_take(item, "sequence", path, _whole(0, game.sequence)),
            changed_at=_take(item, "changed_at", path, _moment()),
        )
        self.plan.login(change, "from_user", _take(item, "from_username", path, _username))
        self.plan.login(change, "changed_by", _take(item, "changed_by", path, _username))
        self.plan.seat_changes.append(change)

    def _replay(self, game: LiveGame, engine_game: Game, deals: list[Any], path: str) -> None:
        """Check the deals and actions by replaying them with the engine, as the app does."""
        applied = 0
        for index, deal_path, item in _items(deals, _child(path, "deals")):
            number = _take(item, "number", deal_path, _whole(1, SMALL_MAX))
            _expect_number(
                number,
                index + 1,
                _child(deal_path, "number"),
                gettext_noop("deals are numbered 1, 2, 3 ... in order"),
            )
            deal = LiveDeal(
                game=game,
                number=number,
                dealer=_take(item, "dealer", deal_path, _whole(0, 3)),
                deck=_take(item, "deck", deal_path, _list),
                salt=_take(item, "salt", deal_path, _hex(64)),
                commitment=_take(item, "commitment", deal_path, _hex(64)),
                start_sequence=_take(item, "start_sequence", deal_path, _whole(0, INT_MAX)),
                started_at=_take(item, "started_at", deal_path, _moment()),
                finished_at=_take(item, "finished_at", deal_path, _moment(null=True)),
            )
            self.plan.deals.append(deal)
            self._deal(engine_game, deal, applied, deal_path)
            actions = _take(item, "actions", deal_path, _list)
            for _index, action_path, action in _items(actions, _child(deal_path, "actions")):
                applied += 1
                self._action(engine_game, deal, applied, action_path, action)
        if game.sequence != applied:
            raise _problem(
                _child(path, "sequence"),
                _("must be %(n)d, the number of actions in the deals") % {"n": applied},
            )
        over = engine_game.over
        if (game.status == LiveGame.Status.FINISHED) != over:
            raise _problem(
                _child(path, "status"),
                _("the actions end the game") if over else _("the actions do not end the game"),
            )
        current = engine_game.current
        expected = {
            "winner": engine_game.winner if over else None,
            "to_act": current.to_act if current is not None else None,
        }
        for name, value in expected.items():
            if getattr(game, name) != value:
                raise _problem(
                    _child(path, name),
                    _("must be %(value)s, as the actions say") % {"value": json.dumps(value)},
                )

    def _deal(self, engine_game: Game, deal: LiveDeal, applied: int, path: str) -> None:
        if deal.start_sequence != applied:
            raise _problem(
                _child(path, "start_sequence"),
                _("must be %(n)d: a deal is dealt after the actions before it") % {"n": applied},
            )
        if deal.dealer != engine_game.next_dealer:
            raise _problem(
                _child(path, "dealer"),
                _("must be %(n)d: the deal passes to the left") % {"n": engine_game.next_dealer},
            )
        deck = deal.deck
        if not all(isinstance(card, str) and card.isascii() for card in deck):
            raise _problem(_child(path, "deck"), _("must list the 24 cards by name, such as TH"))
        if deck_commitment(deck, deal.salt) != deal.commitment:
            raise _problem(_child(path, "commitment"), _("does not match the deck and the salt"))
        try:
            engine_game.start_deal(deck)
        except (EngineError, ValueError) as error:
            raise _problem(_child(path, "deck"), error_text(error)) from None

    def _action(
        self, engine_game: Game, deal: LiveDeal, applied: int, path: str, item: dict[str, Any]
    ) -> None:
        sequence = _take(item, "sequence", path, _whole(1, INT_MAX))
        _expect_number(
            sequence,
            applied,
            _child(path, "sequence"),
            gettext_noop("actions are numbered 1, 2, 3 ... through the game"),
        )
        seat = _take(item, "seat", path, _whole(0, 3))
        record = _take(item, "action", path, _object)
        try:
            action = Action.from_record(record)
            if action.seat != seat:
                raise _problem(_child(path, "seat"), _("must be the seat of the action"))
            engine_game.apply(action)
        except (EngineError, ValueError) as error:
            raise _problem(_child(path, "action"), error_text(error)) from None
        self.plan.actions.append(
            LiveAction(
                game=deal.game,
                deal=deal,
                sequence=sequence,
                seat=seat,
                action=action.to_record(),
                by_bot=_take(item, "by_bot", path, _flag),
                created_at=_take(item, "created_at", path, _moment()),
            )
        )


# ----------------------------------------------------------------------------- import
@transaction.atomic
def tournament_import(*, actor: User, club: Club, data: Any) -> Tournament:
    """Recreate an archived tournament in `club`; all of it, or nothing if anything is wrong.

    Raises PermissionDenied unless `actor` directs the club, and ValidationError naming the path
    of the first bad element of the document (e.g. "rounds[2].tables[0].seats[3].start_number:
    no registration has start number 17").
    """
    if not is_director(actor, club):
        raise PermissionDenied(_("Only a director of this club may do this."))
    # One import at a time per club, so two of one tournament get different names.
    club = Club.objects.select_for_update().get(pk=club.pk)
    plan = _Reader(data, club).read()
    tournament = plan.tournament
    tournament.name = _free_name(club, tournament.name, tournament.date)
    logins, made = _logins({username for *_row, username in plan.logins} | _player_logins(plan))
    for row, name, username in plan.logins:
        setattr(row, name, logins[username])
    players = _players_of_club(club, plan, logins, made)
    for registration, index in plan.registrations:
        registration.player = players[index]
    _insert(Tournament, [tournament])
    for model, rows in (
        (Registration, [registration for registration, _index in plan.registrations]),
        (Round, plan.rounds),
        (Table, plan.tables),
        (Seat, plan.seats),
        (ResultVersion, plan.versions),
        (TableResult, plan.results),
        (LiveGame, plan.games),
        (LiveSeat, plan.live_seats),
        (LiveSeatChange, plan.seat_changes),
        (LiveDeal, plan.deals),
        (LiveAction, plan.actions),
    ):
        _insert(model, rows)
    for game in plan.deal_on:
        live_game_deal_on(game=game)
    if tournament.results_version:
        standings_recompute(tournament_id=tournament.pk)
    waiting = [(game.pk, game.sequence) for game in plan.bot_turns]

    def bots_play_on() -> None:
        for game_id, sequence in waiting:
            enqueue_bot_turn(game_id, sequence)

    if waiting:
        transaction.on_commit(bots_play_on)
    return tournament


def _player_logins(plan: _Plan) -> set[str]:
    return {username for _player, username in plan.players if username is not None}


def _logins(usernames: set[str]) -> tuple[dict[str, User], set[str]]:
    """The users of these usernames, and the names of those the import made: missing ones are
    created without a usable password."""
    users = {user.username: user for user in User.objects.filter(username__in=usernames)}
    missing = []
    for username in sorted(usernames - set(users)):
        user = User(username=username)
        user.set_unusable_password()
        missing.append(user)
    User.objects.bulk_create(missing)
    users.update((user.username, user) for user in missing)
    return users, {user.username for user in missing}


def _players_of_club(
    club: Club, plan: _Plan, logins: dict[str, User], made: set[str]
) -> list[Player]:
    """The club's player for each archived player, as the club knows him, or a new player.

    A login names its player; without one, a name that only one player of the club without a
    login has (ignoring case and extra spaces, as registering by names does) is that player,
    unless two archived players share it. A new player gets his login only if the import made
    it: a login the site had already is its owner's, and linking it to a player would let that
    player's personal link sign in as him.
    """
    users = [logins[username] for username in _player_logins(plan)]
    owners = {player.user_id: player for player in Player.objects.filter(user__in=users)}
    namesakes: defaultdict[str, list[Player]] = defaultdict(list)
    for known in Player.objects.filter(club=club, user__isnull=True).order_by("pk"):
        namesakes[name_key(known.name)].append(known)
    archived = Counter(name_key(player.name) for player, username in plan.players if not username)
    chosen, new = [], []
    for player, username in plan.players:
        if username is not None:
            owner = owners.get(logins[username].pk)
            if owner is not None and owner.club_id == club.pk:
                chosen.append(owner)
                continue
            if owner is None and username in made:
                player.user = logins[username]
        else:
            key = name_key(player.name)
            if len(namesakes[key]) == 1 and archived[key] == 1:
                chosen.append(namesakes[key][0])
                continue
        chosen.append(player)
        new.append(player)
    _insert(Player, new)
    return chosen


def _free_name(club: Club, name: str, date: datetime.date) -> str:
    """The name, numbered if the club has a tournament of the same slug on that date."""
    taken = {
        slugify(other, allow_unicode=True)
        for other in Tournament.objects.filter(club=club, date=date).values_list("name", flat=True)
    }
    if slugify(name, allow_unicode=True) not in taken:
        return name
    for number in itertools.count(2):
        suffix = f" ({number})"
        candidate = name[: Tournament._meta.get_field("name").max_length - len(suffix)] + suffix
        if slugify(candidate, allow_unicode=True) not in taken:
            return candidate
    raise AssertionError("unreachable")


def _insert(model: type[models.Model], rows: list[models.Model]) -> None:
    """Insert the rows in bulk with every value as given, the archived times included.

    bulk_create() stamps `auto_now(_add)` fields with the time of the insert, and writing the
    archived times again afterwards (bulk_update) takes longer than the import itself. A raw
    insert, the one loaddata makes of a fixture (`save_base(raw=True)`), keeps the values as
    they are; like bulk_create it sets each row's foreign keys from the parents saved before it
    and reads back the new primary keys.
    """
    if not rows:
        return
    database = router.db_for_write(model)
    fields = [column for column in model._meta.concrete_fields if not column.primary_key]
    returning = model._meta.db_returning_fields
    size = connections[database].ops.bulk_batch_size(fields, rows) or len(rows)
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        for row in batch:
            row._prepare_related_fields_for_save(operation_name="bulk_create")
        returned = model._base_manager._insert(
            batch, fields=fields, returning_fields=returning, raw=True, using=database
        )
        for row, values in zip(batch, returned, strict=True):
            for column, value in zip(returning, values, strict=True):
                setattr(row, column.attname, value)
            row._state.adding = False
            row._state.db = database
