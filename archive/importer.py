"""Imports of tournament archives: a checked document becomes the same tournament in a club.

`archive_loads` reads a file's JSON; `tournament_import` checks the whole document and recreates
the tournament in a club, all or nothing: exporting the imported tournament gives the same
document again, apart from `exported_at`. The document is checked against its declared schema
first (archive.schema: every key, type, bound and choice), then for what a schema cannot say:
the tournament's settings as a tournament's writes judge them, every score sheet through the
score-sheet validator, every live game replayed by the rules engine with its deck commitments, and
the references between the sections (players, start numbers, version and deal numbers). A refusal
names the path of the bad element (e.g. "rounds[2].tables[0].seats[1].start_number: no
registration has start number 17").

Decisions:

- Logins are in the file as usernames only, never with passwords. On import a username means the
  user of that name on this site; a name the site does not know gets a new user without a usable
  password, as the app itself makes for players who sign in with their personal link. So a club
  that restores its tournament on a new site finds its players (and the names of who entered and
  confirmed each sheet) again, and nobody gets a password from a file.
- A live game's seat, a seat change and a sheet's "entered by" and "confirmed by" keep a login
  only if it is of the importing club (one of the club's players or directors, the importing
  director) or a placeholder nobody signs in with (made by an import: no password, no player,
  no club); anyone else's login is left out (the seat keeps its name), so a file cannot seat
  another club's player or director, or anybody's own account, at this club's games, nor say
  that he entered or confirmed its results. A copy in another club keeps the names only.
- A player whose login already belongs to a player of the importing club is that player (the
  club restores a tournament it lost): he is not created twice and keeps his current name; so is
  a player of the club created at the same moment with the same name (an import keeps a player's
  creation time, so the tournaments of a season, or of another club imported one by one, are
  played by one player of the club per person, though his login, another club's, is not kept),
  and a player without a login whose name only one player of the club has, as when registering
  by names. An import never links a login the site already has to a new player: one that belongs
  to a player of another club stays with that player, and one that belongs to no player is its
  owner's (a site administrator, a visitor who practises) and must not become reachable through
  a personal link; the imported player is then created without a login. Only logins the import
  makes itself are linked to their players.
- People's names (of players, live seats and seat changes) follow the rule of a name typed on
  the registration form (tournaments.services.player_name_clean): stored in their one spelling
  (spaces trimmed and single, characters that show nothing dropped), and one with a control
  character or a direction override, which could show as another name, is refused.
- Standings snapshots are not in the archive: the import computes the latest one from the
  confirmed results, the settings and the seed (as a confirmation would) instead of trusting
  numbers a file claims.
- A tournament is known by its creation time and seed, which no write changes and an export
  and an import keep: an import into a club that has a tournament of the same creation time and
  seed (the original, or an earlier import of it) is refused, naming that tournament. A copy
  would count every table twice in the players' ratings and could not be deleted once played.
- An import of another tournament whose name and date clash with one of the club's gets a
  numbered name, such as "Friday cup (2)".
- A live game holds only finished deals, each replayed to its end by the engine, with the time
  it ended: a deal in play would go on with the cards of a deck the file's author chose, so he
  would know every hand, and a deal not over must not pass for a finished one (whose deck is
  shown and exported). The export leaves out the deal in play for the same reason. So an
  unfinished game stands between deals; the import deals its next deal from the server's own
  shuffle (live_game_deal_on), a bot whose turn it then is plays once the import is committed,
  and the players carry on with their logins.
- The rows are inserted with the archived times: those fields have defaults (not auto_now_add),
  so a plain bulk_create keeps them.
"""

from __future__ import annotations

import datetime
import itertools
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.db.models import Exists, OuterRef
from django.utils import formats
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from archive.schema import (
    ArchivedDeal,
    ArchivedLiveGame,
    ArchivedPlayer,
    ArchivedRegistration,
    ArchivedResult,
    ArchivedRound,
    ArchivedSeat,
    ArchivedTable,
    ArchivedTournament,
    ArchivedVersion,
    archive_document,
    problem,
)
from core.i18n import error_text, translate
from gameplay.models import LiveAction, LiveDeal, LiveGame, LiveSeat, LiveSeatChange
from gameplay.services import live_game_deal_on
from gameplay.shuffle import deck_commitment
from rules import Action, DealState, EngineError, Game, RuleSet
from scoring.models import ResultVersion, TableResult
from scoring.score_sheet import ScoreSheetError, ValidatedSheet, validate_score_sheet
from scoring.services import standings_recompute
from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament
from tournaments.names import name_key
from tournaments.selectors import is_director
from tournaments.services import (
    OPTION_FIELDS,
    player_name_clean,
    tournament_date_check,
    tournament_options_clean,
)

# What the director's upload accepts; the command line reads archives of any size.
ARCHIVE_MAX_BYTES = 20 * 1024 * 1024


# ----------------------------------------------------------------------------- reading a file
def archive_loads(raw: bytes | str) -> Any:
    """The JSON value of an archive file; ValidationError saying what is wrong with the file."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError(
                _("The file is not an archive of this app: it is not UTF-8 text."), code="not_json"
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
            _("The file is not an archive of this app: it nests too deeply."), code="not_json"
        ) from None


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON, and PostgreSQL refuses them in a JSON column.
    raise ValueError(_("The file is not valid JSON: %(value)s is not a number.") % {"value": name})


# ----------------------------------------------------------------------------- checks
def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _expect_number(value: int, expected: int, path: str, what: str) -> None:
    """Numbers of rounds, tables, versions and deals count 1, 2, 3 ... in the order listed."""
    if value != expected:
        raise problem(path, _("must be %(n)d: %(what)s") % {"n": expected, "what": _(what)})


def _at_most(value: int, high: int, path: str) -> None:
    """A bound that depends on another value (a seat of a game of 3 is 0 to 2)."""
    if value > high:
        raise problem(path, _("must be from %(low)d to %(high)d") % {"low": 0, "high": high})


def _person_name(name: str, path: str, *, blank: bool = False) -> str:
    """A person's name as the app stores one typed on its forms (in its one spelling; a name
    with control characters or direction overrides is refused), or "" if `blank` allows."""
    if blank and not name.strip():
        return ""
    try:
        return player_name_clean(name)
    except ValidationError as error:
        raise problem(path, error.messages[0]) from None


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
    # Unfinished games, between deals (only finished deals are in a file): the server deals
    # their next deal after the insert.
    deal_on: list[LiveGame] = field(default_factory=list)

    def login(self, row: models.Model, name: str, username: str | None) -> None:
        if username is not None:
            self.logins.append((row, name, username))


class _Reader:
    """Judges a document that fits the schema as a whole, and plans what to create."""

    def __init__(self, data: Any, club: Club) -> None:
        self.data = data
        self.club = club

    def read(self) -> _Plan:
        document = archive_document(self.data)
        self.plan = _Plan(tournament=self._tournament(document.tournament))
        keys = self._players(document.players)
        self.registrations = self._registrations(document.registrations, keys)
        planned = self.plan.tournament.rounds_planned
        if len(document.rounds) > planned:
            raise problem(
                "rounds",
                _("the tournament plans %(planned)d rounds, the archive has %(count)d")
                % {"planned": planned, "count": len(document.rounds)},
            )
        for index, round_ in enumerate(document.rounds):
            self._round(index, f"rounds[{index}]", round_)
        return self.plan

    # --------------------------------------------------------------------- the tournament
    def _tournament(self, item: ArchivedTournament) -> Tournament:
        path = "tournament"
        options = {name: getattr(item, name) for name in OPTION_FIELDS}
        options["rules"] = dict(options["rules"])
        options["standings_precedence"] = list(options["standings_precedence"])
        options["placement_points"] = dict(options["placement_points"])
        try:
            options = tournament_options_clean(options)
            tournament_date_check(item.date)
        except ValidationError as error:
            name, messages = next(iter(error.message_dict.items()))
            raise problem(_child(path, name), messages[0]) from None
        tournament = Tournament(
            club=self.club,
            name=item.name,
            date=item.date,
            status=item.status,
            seed=item.seed,
            results_version=item.results_version,
            created_at=item.created_at,
            **options,
        )
        self.rules = RuleSet.from_dict(tournament.rules)
        self.fixed_deals = tournament.fixed_deals
        return tournament

    def _players(self, players: list[ArchivedPlayer]) -> dict[int, int]:
        """The index in the plan of each player's key."""
        keys: dict[int, int] = {}
        usernames: dict[str, str] = {}
        for index, item in enumerate(players):
            path = f"players[{index}]"
            if item.key in keys:
                raise problem(
                    _child(path, "key"), _("player %(key)d is listed twice") % {"key": item.key}
                )
            username = item.username
            if username is not None and username in usernames:
                raise problem(
                    _child(path, "username"),
                    _("the login %(username)s belongs to %(other)s too")
                    % {"username": username, "other": usernames[username]},
                )
            if username is not None:
                usernames[username] = path
            keys[item.key] = index
            name = _person_name(item.name, _child(path, "name"))
            player = Player(club=self.club, name=name, created_at=item.created_at)
            self.plan.players.append((player, username))
        return keys

    def _registrations(
        self, registrations: list[ArchivedRegistration], keys: dict[int, int]
    ) -> dict[int, Registration]:
        """The registrations by start number."""
        by_number: dict[int, Registration] = {}
        registered: dict[int, str] = {}
        for index, item in enumerate(registrations):
            path = f"registrations[{index}]"
            number = item.start_number
            if number in by_number:
                raise problem(
                    _child(path, "start_number"),
                    _("start number %(n)d is given twice") % {"n": number},
                )
            key = item.player
            if key not in keys:
                raise problem(_child(path, "player"), _("unknown player %(key)d") % {"key": key})
            if key in registered:
                raise problem(
                    _child(path, "player"),
                    _("player %(key)d is registered twice, also at %(other)s")
                    % {"key": key, "other": registered[key]},
                )
            registered[key] = path
            registration = Registration(
                tournament=self.plan.tournament,
                start_number=number,
                status=item.status,
                first_round=item.first_round,
                withdrawn_after=item.withdrawn_after,
                created_at=item.created_at,
            )
            by_number[number] = registration
            self.plan.registrations.append((registration, keys[key]))
        return by_number

    # --------------------------------------------------------------------- rounds and tables
    def _round(self, index: int, path: str, item: ArchivedRound) -> None:
        _expect_number(
            item.number,
            index + 1,
            _child(path, "number"),
            gettext_noop("rounds are numbered 1, 2, 3 ... in order"),
        )
        round_ = Round(
            tournament=self.plan.tournament,
            number=item.number,
            status=item.status,
            seed=item.seed,
            created_at=item.created_at,
            published_at=item.published_at,
        )
        self.plan.rounds.append(round_)
        seated: dict[int, str] = {}  # the path of each start number's seat in this round
        for table_index, table in enumerate(item.tables):
            table_path = f"{path}.tables[{table_index}]"
            self._table(round_, table_index, table_path, table, seated)

    def _table(
        self, round_: Round, index: int, path: str, item: ArchivedTable, seated: dict[int, str]
    ) -> None:
        _expect_number(
            item.number,
            index + 1,
            _child(path, "number"),
            gettext_noop("tables are numbered 1, 2, 3 ... in order"),
        )
        table = Table(round=round_, number=item.number)
        self.plan.tables.append(table)
        for seat_index, seat in enumerate(item.seats):
            self._seat(table, seat_index, f"{path}.seats[{seat_index}]", seat, seated)
        if item.result is not None:
            result_path = _child(path, "result")
            if round_.status == Round.Status.DRAFT:
                raise problem(result_path, _("a table of a draft round has no result yet"))
            self._result(table, len(item.seats), result_path, item.result)
        if item.live_game is not None:
            self._live_game(table, len(item.seats), _child(path, "live_game"), item.live_game)

    def _seat(
        self, table: Table, index: int, path: str, item: ArchivedSeat, seated: dict[int, str]
    ) -> None:
        _expect_number(
            item.position,
            index,
            _child(path, "position"),
            gettext_noop("seats are listed from 0 in order"),
        )
        number = item.start_number
        if (number is None) == (item.bot_level == ""):
            raise problem(
                path, _("a seat holds a player (start_number) or a bot (bot_level), not both")
            )
        registration = None
        if number is not None:
            registration = self.registrations.get(number)
            if registration is None:
                raise problem(
                    _child(path, "start_number"),
                    _("no registration has start number %(n)d") % {"n": number},
                )
            if number in seated:
                raise problem(
                    _child(path, "start_number"),
                    _("start number %(n)d sits twice in this round, also at %(other)s")
                    % {"n": number, "other": seated[number]},
                )
            seated[number] = path
        self.plan.seats.append(
            Seat(
                table=table,
                round=table.round,
                position=item.position,
                registration=registration,
                bot_level=item.bot_level,
            )
        )

    # --------------------------------------------------------------------- results
    def _result(self, table: Table, players: int, path: str, item: ArchivedResult) -> None:
        if item.version != len(item.versions):
            raise problem(
                _child(path, "version"),
                _("must be %(n)d, the number of versions listed") % {"n": len(item.versions)},
            )
        by_number = {}
        for index, version_item in enumerate(item.versions):
            version_path = f"{path}.versions[{index}]"
            version = self._version(table, players, index, version_path, version_item)
            by_number[version.number] = version
        confirmed = item.confirmed
        if confirmed is not None and (
            confirmed not in by_number
            or by_number[confirmed].status != ResultVersion.Status.CONFIRMED
        ):
            raise problem(
                _child(path, "confirmed"),
                _("no confirmed version %(n)d is listed") % {"n": confirmed},
            )
        self.plan.results.append(
            TableResult(
                table=table,
                status=item.status,
                version=item.version,
                confirmed=by_number.get(confirmed),
                updated_at=item.updated_at,
            )
        )

    def _version(
        self, table: Table, players: int, index: int, path: str, item: ArchivedVersion
    ) -> ResultVersion:
        _expect_number(
            item.number,
            index + 1,
            _child(path, "number"),
            gettext_noop("versions are numbered 1, 2, 3 ... in order"),
        )
        validated = self._sheet(item.sheet, players, _child(path, "sheet"))
        derived = (list(validated.totals), list(validated.placements), validated.winner)
        if (item.totals, item.placements, item.winner_position) != derived:
            raise problem(path, _("the totals, placements and winner do not match the score sheet"))
        version = ResultVersion(
            table=table,
            number=item.number,
            status=item.status,
            source=item.source,
            # Stored as the app stores a sheet it accepts: normalized by the validation.
            sheet=validated.as_sheet(),
            totals=derived[0],
            placements=derived[1],
            winner_position=derived[2],
            submitted_at=item.submitted_at,
            reviewed_at=item.reviewed_at,
            note=item.note,
        )
        self.plan.login(version, "submitted_by", item.submitted_by)
        self.plan.login(version, "reviewed_by", item.reviewed_by)
        self.plan.versions.append(version)
        return version

    def _sheet(self, sheet: dict[str, Any], players: int, path: str) -> ValidatedSheet:
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
            raise problem(path, translate(error.messages[0])) from None
        except ValueError as error:
            raise problem(path, error_text(error)) from None

    # --------------------------------------------------------------------- live games
    def _live_game(self, table: Table, players: int, path: str, item: ArchivedLiveGame) -> None:
        if item.players != players:
            raise problem(
                _child(path, "players"),
                _("must be %(n)d, the number of seats at the table") % {"n": players},
            )
        _at_most(item.first_dealer, players - 1, _child(path, "first_dealer"))
        rules = dict(item.rules)
        try:
            engine_rules = RuleSet.from_dict(rules)
        except (EngineError, ValueError, TypeError) as error:
            raise problem(_child(path, "rules"), error_text(error)) from None
        game = LiveGame(
            table=table,
            players=players,
            first_dealer=item.first_dealer,
            rules=rules,
            fixed_deals=item.fixed_deals,
            status=item.status,
            sequence=item.sequence,
            to_act=item.to_act,
            turn_started_at=item.turn_started_at,
            winner=item.winner,
            created_at=item.created_at,
            finished_at=item.finished_at,
        )
        try:
            engine_game = Game(
                players=players,
                first_dealer=game.first_dealer,
                rules=engine_rules,
                fixed_deals=game.fixed_deals,
            )
        except ValueError as error:
            raise problem(_child(path, "fixed_deals"), error_text(error)) from None
        self.plan.games.append(game)
        self._live_seats(game, item, _child(path, "seats"))
        self._replay(game, engine_game, item.deals, path)
        for index, change in enumerate(item.seat_changes):
            change_path = f"{path}.seat_changes[{index}]"
            _at_most(change.position, players - 1, _child(change_path, "position"))
            _at_most(change.sequence, game.sequence, _child(change_path, "sequence"))
            seat_change = LiveSeatChange(
                game=game,
                position=change.position,
                from_name=_person_name(
                    change.from_name, _child(change_path, "from_name"), blank=True
                ),
                to_bot_level=change.to_bot_level,
                sequence=change.sequence,
                changed_at=change.changed_at,
            )
            self.plan.login(seat_change, "from_user", change.from_username)
            self.plan.login(seat_change, "changed_by", change.changed_by)
            self.plan.seat_changes.append(seat_change)
        if game.status == LiveGame.Status.PLAYING:
            self.plan.deal_on.append(game)  # its deal in play is not in the file

    def _live_seats(self, game: LiveGame, item: ArchivedLiveGame, path: str) -> None:
        """Store the seats of a live game."""
        if len(item.seats) != game.players:
            raise problem(path, _("must list %(n)d seats") % {"n": game.players})
        usernames: dict[str, str] = {}
        for index, seat in enumerate(item.seats):
            seat_path = f"{path}[{index}]"
            _expect_number(
                seat.position,
                index,
                _child(seat_path, "position"),
                gettext_noop("seats are listed from 0 in order"),
            )
            username = seat.username
            if (username is None) == (seat.bot_level == ""):
                raise problem(
                    seat_path,
                    _("a seat holds a player (username) or a bot (bot_level), not both"),
                )
            if username in usernames:
                raise problem(
                    _child(seat_path, "username"),
                    _("the login %(username)s sits twice at this game, also at %(other)s")
                    % {"username": username, "other": usernames[username]},
                )
            if username is not None:
                usernames[username] = seat_path
            # A bot's name is kept only for a human's stand-in (LiveSeat.name); files written
            # before names were shown in the reader's language stored every bot's name.
            stand_in = any(change.position == seat.position for change in item.seat_changes)
            name = seat.name if username is not None or stand_in else ""
            name = _person_name(name, _child(seat_path, "name"), blank=True)
            live_seat = LiveSeat(
                game=game, position=seat.position, bot_level=seat.bot_level, name=name
            )
            self.plan.login(live_seat, "user", username)
            self.plan.live_seats.append(live_seat)

    def _replay(
        self, game: LiveGame, engine_game: Game, deals: list[ArchivedDeal], path: str
    ) -> None:
        """Check the deals and actions by replaying them with the engine, as the app does."""
        applied = 0
        for index, item in enumerate(deals):
            deal_path = f"{path}.deals[{index}]"
            _expect_number(
                item.number,
                index + 1,
                _child(deal_path, "number"),
                gettext_noop("deals are numbered 1, 2, 3 ... in order"),
            )
            deal = LiveDeal(
                game=game,
                number=item.number,
                dealer=item.dealer,
                deck=list(item.deck),
                salt=item.salt,
                commitment=item.commitment,
                start_sequence=item.start_sequence,
                started_at=item.started_at,
                finished_at=item.finished_at,
            )
            self.plan.deals.append(deal)
            dealt = self._deal(engine_game, deal, applied, deal_path)
            for action_index, action in enumerate(item.actions):
                applied += 1
                action_path = f"{deal_path}.actions[{action_index}]"
                _expect_number(
                    action.sequence,
                    applied,
                    _child(action_path, "sequence"),
                    gettext_noop("actions are numbered 1, 2, 3 ... through the game"),
                )
                try:
                    played = Action.from_record(dict(action.action))
                    if played.seat != action.seat:
                        raise problem(
                            _child(action_path, "seat"), _("must be the seat of the action")
                        )
                    engine_game.apply(played)
                except (EngineError, ValueError) as error:
                    raise problem(_child(action_path, "action"), error_text(error)) from None
                self.plan.actions.append(
                    LiveAction(
                        game=game,
                        deal=deal,
                        sequence=action.sequence,
                        seat=action.seat,
                        action=played.to_record(),
                        by_bot=action.by_bot,
                        created_at=action.created_at,
                    )
                )
            # Only finished deals are in an archive: a deal in play would go on with cards the
            # file's author chose and knows, and a deal that is not over must not say it is
            # (its deck would be shown, and exported, as a finished deal's).
            if not dealt.done:
                raise problem(
                    deal_path,
                    _(
                        "the actions do not end this deal: an archive holds only finished "
                        "deals, never the deal in play"
                    ),
                )
            if deal.finished_at is None:
                raise problem(
                    _child(deal_path, "finished_at"),
                    _("must be the time the deal ended: the actions end it"),
                )
        if game.sequence != applied:
            raise problem(
                _child(path, "sequence"),
                _("must be %(n)d, the number of actions in the deals") % {"n": applied},
            )
        over = engine_game.over
        if (game.status == LiveGame.Status.FINISHED) != over:
            raise problem(
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
                raise problem(
                    _child(path, name),
                    _("must be %(value)s, as the actions say") % {"value": json.dumps(value)},
                )

    def _deal(self, engine_game: Game, deal: LiveDeal, applied: int, path: str) -> DealState:
        """Check a deal's place in the game and its commitment, and deal it in the engine."""
        if deal.start_sequence != applied:
            raise problem(
                _child(path, "start_sequence"),
                _("must be %(n)d: a deal is dealt after the actions before it") % {"n": applied},
            )
        if deal.dealer != engine_game.next_dealer:
            raise problem(
                _child(path, "dealer"),
                _("must be %(n)d: the deal passes to the left") % {"n": engine_game.next_dealer},
            )
        if deck_commitment(deal.deck, deal.salt) != deal.commitment:
            raise problem(_child(path, "commitment"), _("does not match the deck and the salt"))
        try:
            return engine_game.start_deal(deal.deck)
        except (EngineError, ValueError) as error:
            raise problem(_child(path, "deck"), error_text(error)) from None


# ----------------------------------------------------------------------------- import
@transaction.atomic
def tournament_import(*, actor: User, club: Club, data: Any) -> Tournament:
    """Recreate an archived tournament in `club`; all of it, or nothing if anything is wrong.

    Raises PermissionDenied unless `actor` directs the club, and ValidationError naming the path
    of the bad element of the document (e.g. "rounds[2].tables[0].seats[3].start_number: no
    registration has start number 17").
    """
    if not is_director(actor, club):
        raise PermissionDenied(_("Only a director of this club may do this."))
    # One import at a time per club, so two of one tournament get different names.
    club = Club.objects.select_for_update().get(pk=club.pk)
    plan = _Reader(data, club).read()
    tournament = plan.tournament
    _refuse_a_tournament_the_club_has(club, tournament)
    tournament.name = _free_name(club, tournament.name, tournament.date)
    logins, made = _logins({username for *_row, username in plan.logins} | _player_logins(plan))
    ours = _logins_of_club(club, actor, logins, made)
    for row, name, username in plan.logins:
        # Another club's login is not named here: its seat keeps the name, not the login.
        setattr(row, name, logins[username] if logins[username].pk in ours else None)
    players = _players_of_club(club, plan, logins, made)
    for registration, index in plan.registrations:
        registration.player = players[index]
    # Each bulk_create sets the rows' links from the parents saved before them and reads back
    # their ids; it keeps the archived times, which are defaults rather than automatic.
    for model, rows in (
        (Tournament, [tournament]),
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
        model.objects.bulk_create(rows)
    for game in plan.deal_on:
        # A new shuffle of the server's; a bot whose turn it is plays once this is committed.
        live_game_deal_on(game=game)
    if tournament.results_version:
        standings_recompute(tournament_id=tournament.pk)
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


def _logins_of_club(club: Club, actor: User, logins: dict[str, User], made: set[str]) -> set[int]:
    """The ids of the logins that seats, seat changes and sheets of this club may name: those of
    the club's players and directors, the importing director's, and the placeholders nobody
    signs in with (made by this import or an earlier one: no password, no player, no club)."""
    ids = {user.pk for user in logins.values()}
    players = Player.objects.filter(user_id=OuterRef("pk"))
    placeholders = (
        User.objects.filter(pk__in=ids, is_staff=False, is_superuser=False, directed_clubs=None)
        .exclude(Exists(players))
        .filter(password__startswith=UNUSABLE_PASSWORD_PREFIX)
    )
    return (
        set(Player.objects.filter(club=club, user__in=ids).values_list("user_id", flat=True))
        | set(club.directors.filter(pk__in=ids).values_list("pk", flat=True))
        | set(placeholders.values_list("pk", flat=True))
        | {actor.pk}
        | {logins[username].pk for username in made}
    )


def _players_of_club(
    club: Club, plan: _Plan, logins: dict[str, User], made: set[str]
) -> list[Player]:
    """The club's player for each archived player, as the club knows him, or a new player.

    The first that applies: a login names its player of the club; a player of the club created
    at the same moment and of the same name is that player (an import keeps a player's creation
    time, so the tournaments of a season, or of another club imported one by one, find again
    the player the first of them made, whose login, another club's, was not kept); a name that
    only one player of the club without a login has (ignoring case and extra spaces, as
    registering by names does) is that player, unless two archived players without a login
    share it. A player of the club stands for one archived player at most. A new player gets his
    login only if the import made it: a login the site had already is its owner's, and linking
    it to a player would let that player's personal link sign in as him.
    """
    users = [logins[username] for username in _player_logins(plan)]
    owners = {player.user_id: player for player in Player.objects.filter(user__in=users)}
    created = {player.created_at for player, _username in plan.players}
    same: defaultdict[tuple[datetime.datetime, str], list[Player]] = defaultdict(list)
    for known in Player.objects.filter(club=club, created_at__in=created).order_by("pk"):
        same[(known.created_at, name_key(known.name))].append(known)
    namesakes: defaultdict[str, list[Player]] = defaultdict(list)
    for known in Player.objects.filter(club=club, user__isnull=True).order_by("pk"):
        namesakes[name_key(known.name)].append(known)
    identities = Counter((player.created_at, name_key(player.name)) for player, _ in plan.players)
    archived = Counter(name_key(player.name) for player, username in plan.players if not username)
    chosen: list[Player] = []
    new: list[Player] = []
    taken: set[int] = set()

    def only(candidates: list[Player], archived_count: int) -> Player | None:
        """The one candidate for the one archived player, unless another has him already."""
        if len(candidates) == 1 and archived_count == 1 and candidates[0].pk not in taken:
            return candidates[0]
        return None

    for player, username in plan.players:
        found = None
        if username is not None:
            owner = owners.get(logins[username].pk)
            if owner is not None and owner.club_id == club.pk and owner.pk not in taken:
                found = owner
        identity = (player.created_at, name_key(player.name))
        found = found or only(same[identity], identities[identity])
        if username is None:
            key = name_key(player.name)
            found = found or only(namesakes[key], archived[key])
        if found is not None:
            taken.add(found.pk)
            chosen.append(found)
            continue
        if username is not None and username in made:
            player.user = logins[username]
        chosen.append(player)
        new.append(player)
    Player.objects.bulk_create(new)
    return chosen


def _refuse_a_tournament_the_club_has(club: Club, tournament: Tournament) -> None:
    """ValidationError if the club has this tournament: one of the same creation time and seed."""
    known = (
        Tournament.objects.filter(club=club, created_at=tournament.created_at, seed=tournament.seed)
        .order_by("pk")
        .first()
    )
    if known is not None:
        raise ValidationError(
            _("This club already has this tournament: %(name)s, %(date)s.")
            % {"name": known.name, "date": formats.date_format(known.date, "DATE_FORMAT")},
            code="imported_already",
        )


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
