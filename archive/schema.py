"""The tournament archive's document, declared: every key with its type, bounds and choices.

These models are the specification of the archive format ("thousand-one-tournament", version 1).
`docs/archive-schema.json` is their JSON Schema (`python manage.py archive_schema -o
docs/archive-schema.json` writes it again; a test checks that it is current). An import checks a
document against them first (`archive_document`), then judges what a schema cannot say
(archive.importer): the score sheets, the live games replayed by the rules engine, the deck
commitments and the references from one section to another.

The document refers to its objects by its own keys, never by database ids, so it imports into any
database: a player by his `key` in "players", a registration (and a seat, by `start_number`) by
its start number, a round, table, result version or deal by its number, an action by its sequence
number. Times are ISO 8601 with their offset (UTC on export) and come back exactly, the automatic
ones (`created_at` ...) too. Every key is required (null where allowed) and a key the format does
not know is refused, so that nothing in a file is silently lost. Lists are bounded, so that a file
cannot make an import hold more than any tournament has.
"""

import datetime
import json
from typing import Annotated, Any, Literal, NotRequired

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    WithJsonSchema,
    WrapValidator,
)
from pydantic import ValidationError as SchemaError
from pydantic.json_schema import GenerateJsonSchema
from pydantic_core import PydanticCustomError

# pydantic reads TypedDicts of typing_extensions only, on Python 3.11.
from typing_extensions import TypedDict

from gameplay.models import LiveGame
from rules.actions import ACTION_TYPES
from rules.cards import CARD_NAMES
from scoring.models import ResultVersion, TableResult
from standings.ranking import MAX_PLACEMENT_POINTS, METRICS
from tournaments.models import BotLevel, Registration, Round, Tournament

ARCHIVE_FORMAT = "thousand-one-tournament"
ARCHIVE_VERSION = 1
# The season archive's (archive.seasons), which holds tournament archives: each kind of import
# recognizes the other's file and says where it goes.
SEASON_ARCHIVE_FORMAT = "thousand-one-season"

SMALL_MAX = 32767  # PositiveSmallIntegerField
INT_MAX = 2**31 - 1  # PositiveIntegerField
BIG_MAX = 2**63 - 1  # BigIntegerField
USERNAME_MAX = User._meta.get_field("username").max_length
# More than any tournament has, so that a file cannot make an import build anything larger.
MAX_PLAYERS = 5000
MAX_ROUNDS = 60  # as many as a tournament may plan
MAX_TABLES = MAX_PLAYERS  # in a round
MAX_VERSIONS = 1000  # score sheets of a table
MAX_DEALS = 1000  # of a live game; a game to 1001 takes a few dozen
MAX_ACTIONS = 1000  # of a deal
MAX_SEAT_CHANGES = 1000  # of a live game
# How many problems of a document an import names at once.
MAX_REPORTED = 5


# ----------------------------------------------------------------------------- messages
# What is wrong with an element, by the kind of error: pydantic's own kinds, and the archive's,
# which the value types below raise (with the parameters their messages take).
MESSAGES = {
    "missing": gettext_noop("this key is missing"),
    "extra_forbidden": gettext_noop("this key is not part of the archive format"),
    "model_type": gettext_noop("must be an object ({...})"),
    "dict_type": gettext_noop("must be an object ({...})"),
    "list_type": gettext_noop("must be a list ([...])"),
    "bool_type": gettext_noop("must be true or false"),
    "whole": gettext_noop("must be a whole number"),
    "whole_or_null": gettext_noop("must be a whole number or null"),
    "range": gettext_noop("must be from %(low)d to %(high)d"),
    "number": gettext_noop("must be a number from %(low)d to %(high)d"),
    "text": gettext_noop("must be text of at most %(n)d characters"),
    "blank": gettext_noop("must not be empty"),
    "nul": gettext_noop("must not hold the NUL character"),
    "unicode": gettext_noop("must be valid Unicode text"),
    "string_unicode": gettext_noop("must be valid Unicode text"),  # a key of an object
    "choice": gettext_noop("must be one of: %(choices)s"),
    "moment": gettext_noop("must be a time with its offset, such as 2026-12-04T18:30:00+00:00"),
    "day": gettext_noop("must be a date such as 2026-12-04"),
    "login": gettext_noop("is not a valid login name"),
    "hex": gettext_noop("must be up to %(n)d lowercase hexadecimal digits"),
    "deck": gettext_noop("must list the 24 cards by name, such as TH"),
    "table_seats": gettext_noop("a table has 3 or 4 seats"),
}


def problem(path: str, message: str) -> ValidationError:
    """The error of one element of the document, named by its path, e.g. rounds[2].number."""
    return ValidationError(f"{path}: {message}", code="archive")


def path_of(location: tuple[int | str, ...]) -> str:
    """The path of an element from its keys and indexes: ("rounds", 2, "number") is
    rounds[2].number."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path = f"{path}.{part}" if path else str(part)
    return path


def _message(error: Any) -> str:
    """What is wrong, in the active language, for one error of pydantic's validation."""
    kind, params = error["type"], error.get("ctx") or {}
    if kind == "too_long":
        n = params["max_length"]
        return ngettext(
            "must list at most %(n)d element", "must list at most %(n)d elements", n
        ) % {"n": n}
    if kind == "too_short":
        n = params["min_length"]
        return ngettext(
            "must list at least %(n)d element", "must list at least %(n)d elements", n
        ) % {"n": n}
    if kind in MESSAGES:
        return _(MESSAGES[kind]) % params
    return error["msg"]  # none of the archive's types raises another, but say what pydantic says


def _refusal(errors: list[Any]) -> ValidationError:
    """The first problems of a document, each named by its path, and how many more there are."""
    messages = [problem(path_of(error["loc"]), _message(error)) for error in errors[:MAX_REPORTED]]
    more = len(errors) - MAX_REPORTED
    if more > 0:
        messages.append(
            ValidationError(
                ngettext(
                    "%(n)d more problem is not shown.", "%(n)d more problems are not shown.", more
                )
                % {"n": more},
                code="archive",
            )
        )
    return ValidationError(messages)


# ----------------------------------------------------------------------------- value types
def _reported_as(
    kind: str, *, deep: bool = False, of: set[str] | None = None, **params: Any
) -> WrapValidator:
    """Errors of the value itself (or of anything inside it, if `deep`) reported as one error of
    the archive's `kind`; only errors of pydantic's kinds `of`, if given."""

    def check(value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except SchemaError as error:
            if any(
                (deep or not item["loc"]) and (of is None or item["type"] in of)
                for item in error.errors()
            ):
                raise PydanticCustomError(kind, MESSAGES[kind], params) from None
            raise

    return WrapValidator(check)


def whole(low: int, high: int, *, null: bool = False) -> Any:
    """A whole number from `low` to `high` (never true or false, never "1" or 1.0), or null."""
    number = Annotated[int, Field(strict=True, ge=low, le=high)]

    def check(value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except SchemaError as error:
            kinds = {item["type"] for item in error.errors()}
            if kinds & {"greater_than_equal", "less_than_equal"}:
                raise PydanticCustomError(
                    "range", MESSAGES["range"], {"low": low, "high": high}
                ) from None
            kind = "whole_or_null" if null else "whole"
            raise PydanticCustomError(kind, MESSAGES[kind]) from None

    return Annotated[number | None if null else number, WrapValidator(check)]


def text(max_length: int, *, blank: bool = True) -> Any:
    """Text of at most `max_length` characters, without NUL (PostgreSQL refuses it) and, unless
    `blank`, with a character that is not a space."""
    pattern = r"^[^\x00]*$" if blank else r"^[^\x00]*\S[^\x00]*$"

    def check(value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except SchemaError as error:
            kinds = {item["type"] for item in error.errors()}
            if "string_unicode" in kinds:
                raise PydanticCustomError("unicode", MESSAGES["unicode"]) from None
            if "string_pattern_mismatch" in kinds:
                kind = "nul" if "\x00" in value else "blank"
                raise PydanticCustomError(kind, MESSAGES[kind]) from None
            raise PydanticCustomError("text", MESSAGES["text"], {"n": max_length}) from None

    return Annotated[
        str, Field(strict=True, max_length=max_length, pattern=pattern), WrapValidator(check)
    ]


def choice(values: Any) -> Any:
    """One of the given texts."""
    allowed = tuple(values)
    listed = ", ".join(repr(value) for value in allowed)
    return Annotated[Literal[allowed], _reported_as("choice", choices=listed)]


def _username(value: str) -> str:
    try:
        User.username_validator(value)
    except ValidationError:
        raise PydanticCustomError("login", MESSAGES["login"]) from None
    return value


def _moment(value: Any) -> datetime.datetime:
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or timezone.is_naive(moment):
        raise PydanticCustomError("moment", MESSAGES["moment"])
    return moment


def _day(value: Any) -> datetime.date:
    try:
        day = parse_date(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None:
        raise PydanticCustomError("day", MESSAGES["day"])
    return day


Position = whole(0, 3)
Count = whole(0, INT_MAX)
Positive = whole(1, INT_MAX)
Numbered = whole(1, SMALL_MAX)
Seed = whole(-BIG_MAX - 1, BIG_MAX)
Flag = Annotated[bool, Field(strict=True)]
Name = text(120, blank=False)
Moment = Annotated[
    datetime.datetime,
    PlainValidator(_moment),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
Day = Annotated[
    datetime.date, PlainValidator(_day), WithJsonSchema({"type": "string", "format": "date"})
]
Username = Annotated[
    str,
    Field(strict=True, min_length=1, max_length=USERNAME_MAX),
    AfterValidator(_username),
    _reported_as("login"),
]
Hex64 = Annotated[
    str,
    Field(strict=True, min_length=1, max_length=64, pattern=r"^[0-9a-f]+$"),
    _reported_as("hex", n=64),
]
Deck = Annotated[
    list[Literal[CARD_NAMES]], Field(min_length=24, max_length=24), _reported_as("deck", deep=True)
]
BotChoice = choice(["", *BotLevel.values])


def number(low: int, high: int) -> Any:
    """A number, whole or not, from `low` to `high` (never true or false, never "1")."""
    bounds = Field(strict=True, ge=low, le=high)
    return Annotated[
        Annotated[int, bounds] | Annotated[float, bounds],
        _reported_as("number", deep=True, low=low, high=high),
    ]


Number = number(-MAX_PLACEMENT_POINTS, MAX_PLACEMENT_POINTS)
# An object whose contents another judge checks: the rules engine, the score-sheet validator.
JsonObject = dict[str, Any]


# ----------------------------------------------------------------------------- the document
class _Part(BaseModel):
    """An object of the document: every key required, none other allowed."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True
    )


PlacementPoints = TypedDict(
    "PlacementPoints",
    {
        "3": Annotated[list[Number], Field(min_length=3, max_length=3)],
        "4": Annotated[list[Number], Field(min_length=4, max_length=4)],
    },
)
PlacementPoints.__doc__ = (
    "The tournament points of each place at a table of 3 and of 4, from the first place to the "
    "last; no place earns more than the one before it."
)
PlacementPoints.__pydantic_config__ = ConfigDict(extra="forbid", strict=True)


class ArchivedTournament(_Part):
    """The tournament's settings; the club is the one it is imported into."""

    name: text(160, blank=False)
    """Its name; an import gives it a number, "Winter cup (2)", if the club has another
    tournament of that name on that day."""
    date: Day
    status: choice(Tournament.Status.values)
    rounds_planned: whole(1, MAX_ROUNDS)
    table_size: choice(Tournament.TableSize.values)
    bots_allowed: Flag
    """Whether bots fill the empty seats of a round."""
    round_format: choice(Tournament.RoundFormat.values)
    """A full game to the target at each table ("game") or a fixed number of deals ("deals")."""
    deals_per_round: whole(1, 240, null=True)
    """The deals of a round of the "deals" format (a multiple of the table size, or of 12),
    null for the "game" format."""
    rules: JsonObject
    """The rule options that differ from docs/RULES.md by their names there, such as
    {"must_beat": true}; the rules engine judges them."""
    seating_mode: choice(Tournament.SeatingMode.values)
    standings_precedence: Annotated[
        list[choice(METRICS)], Field(min_length=1, max_length=len(METRICS))
    ]
    """The standings' metrics in the order they rank players; "random" only last."""
    placement_points: PlacementPoints
    quick_results_allowed: Flag
    """Whether a score sheet may give the final totals alone."""
    is_public: Flag
    rated: Flag = True
    """Whether its results change the players' ratings (absent in older archives: rated)."""
    seed: Seed
    """The seed of the tournament's random choices (the random tiebreak among them)."""
    results_version: Count
    """How many confirmations of results the tournament has had."""
    created_at: Moment
    """When it was created. With `seed`, what the tournament is known by: an import into a club
    that has a tournament of the same creation time and seed is refused (it has it already)."""


class ArchivedPlayer(_Part):
    """A player of the tournament."""

    key: Positive
    """The player's number in this file, by which registrations name him (the export numbers
    the players 1, 2, 3 ... by start number)."""
    name: Name
    created_at: Moment
    """When he became a player of his club. An import keeps it: with his name, it finds him
    again as a player of the importing club (the tournaments of a season, one after another)."""
    username: Username | None
    """His login, by name only; on import the site's user of that name, or a new one without a
    password. Null for a player without a login."""


class ArchivedRegistration(_Part):
    """A player's entry in the tournament."""

    start_number: Positive
    """Unique in the tournament; seats name the registration by it."""
    status: choice(Registration.Status.values)
    first_round: Numbered
    """The round a late entry plays from."""
    withdrawn_after: whole(0, SMALL_MAX, null=True)
    """The last round a withdrawn player played, null if he has not withdrawn."""
    created_at: Moment
    player: Positive
    """The `key` of the player in "players"."""


class ArchivedSeat(_Part):
    """A seat of a drawn table: a registration's, or a bot's."""

    position: Position
    """0 to 3, in order; seat 0 deals first."""
    bot_level: BotChoice
    """"" for a player's seat, else the level of the bot that plays it."""
    start_number: Positive | None
    """The registration of the player sitting here, null for a bot."""


class ArchivedVersion(_Part):
    """One version of a table's score sheet, as it was submitted."""

    number: Positive
    """1, 2, 3 ... in order."""
    status: choice(ResultVersion.Status.values)
    source: choice(ResultVersion.Source.values)
    """Who entered it: a player, a director, or the live table."""
    sheet: JsonObject
    """The score sheet ({"mode": "deals", "rows": [...]} or {"mode": "totals", ...}); the
    score-sheet validator judges it against the rules, as when it was entered."""
    totals: Annotated[list[Seed], Field(min_length=3, max_length=4)]
    """Each seat's total, as the sheet gives it."""
    placements: Annotated[list[whole(1, 4)], Field(min_length=3, max_length=4)]
    """Each seat's place, 1 the best, as the sheet gives it."""
    winner_position: Position | None
    """The seat of the winner, as the sheet gives it."""
    submitted_at: Moment
    reviewed_at: Moment | None
    """When it was confirmed or disputed."""
    note: text(1000)
    submitted_by: Username | None
    reviewed_by: Username | None


class ArchivedResult(_Part):
    """A table's result: the versions of its score sheet and the one that counts."""

    status: choice(TableResult.Status.values)
    version: Count
    """How many versions there are."""
    updated_at: Moment
    confirmed: Positive | None
    """The number of the confirmed version that counts, null if none does."""
    versions: Annotated[list[ArchivedVersion], Field(max_length=MAX_VERSIONS)]


class ActionRecord(TypedDict):
    """One action in the record notation of docs/RULES.md (section 9), such as
    {"seat": 1, "type": "bid", "value": 120}; the rules engine judges it."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

    seat: Position
    type: choice(ACTION_TYPES)
    value: NotRequired[whole(0, SMALL_MAX)]
    """The bid or the contract."""
    card: NotRequired[choice(CARD_NAMES)]
    """The card given or played."""
    to: NotRequired[Position]
    """The seat a card is given to."""
    marriage: NotRequired[Flag]
    """Whether the card played declares a marriage."""


class ArchivedAction(_Part):
    """An action of a live game."""

    sequence: Positive
    """1, 2, 3 ... through the whole game."""
    seat: Position
    action: ActionRecord
    by_bot: Flag
    created_at: Moment


class ArchivedDeal(_Part):
    """A finished deal of a live game; the deal being played is never in the file, and an
    import refuses a deal that its actions do not end."""

    number: Numbered
    """1, 2, 3 ... in order."""
    dealer: Position
    deck: Deck
    """The deck in deal order, by card names (rank 9 J Q K T A, then suit S C D H)."""
    salt: Hex64
    commitment: Hex64
    """The SHA-256 of the deck's names joined by commas, a colon and the salt, shown before the
    deal began; an import checks it."""
    start_sequence: Count
    """The number of the game's actions before this deal."""
    started_at: Moment
    finished_at: Moment | None
    """When its last action ended it; an import refuses null, as every deal in the file is
    finished."""
    actions: Annotated[list[ArchivedAction], Field(max_length=MAX_ACTIONS)]


class ArchivedLiveSeat(_Part):
    """A seat of a live game: a person by his login, or a bot."""

    position: Position
    bot_level: BotChoice
    """"" for a person's seat, else the level of the bot that plays it."""
    name: text(120)
    """The person's name; for a bot that took over a person's seat, that person's name; "" for a
    bot seated as a bot and for a guest (the pages name them in the reader's language). A file
    that names such a bot is accepted and the name left out."""
    username: Username | None


class ArchivedSeatChange(_Part):
    """A person of a live game replaced by a bot, as the director decided."""

    position: Position
    from_name: text(120)
    to_bot_level: choice(BotLevel.values)
    sequence: Count
    """The number of the game's actions when the bot took over."""
    changed_at: Moment
    from_username: Username | None
    changed_by: Username | None


class ArchivedLiveGame(_Part):
    """A table played live in the app. The engine replays its deals and actions on import; an
    unfinished game stands as it was when its deal in play was dealt (between deals), and the
    importing site deals that deal anew from its own shuffle."""

    players: whole(3, 4)
    first_dealer: Position
    rules: JsonObject
    """The game's rule options, as the tournament's."""
    fixed_deals: whole(1, SMALL_MAX, null=True)
    """The number of deals of a "deals" round, null for a game to the target."""
    status: choice(LiveGame.Status.values)
    sequence: Count
    """The number of actions applied."""
    to_act: Position | None
    turn_started_at: Moment | None
    winner: Position | None
    created_at: Moment
    finished_at: Moment | None
    seats: Annotated[list[ArchivedLiveSeat], Field(min_length=3, max_length=4)]
    seat_changes: Annotated[list[ArchivedSeatChange], Field(max_length=MAX_SEAT_CHANGES)]
    deals: Annotated[list[ArchivedDeal], Field(max_length=MAX_DEALS)]


class ArchivedTable(_Part):
    """A table of a round."""

    number: Numbered
    """1, 2, 3 ... in order."""
    seats: Annotated[
        list[ArchivedSeat],
        Field(min_length=3, max_length=4),
        _reported_as("table_seats", of={"too_short", "too_long"}),
    ]
    result: ArchivedResult | None
    """Null at a table of a draft round."""
    live_game: ArchivedLiveGame | None
    """Null unless the table was played live in the app."""


class ArchivedRound(_Part):
    """A drawn round."""

    number: Numbered
    """1, 2, 3 ... in order."""
    status: choice(Round.Status.values)
    seed: Seed
    """The seed of its seat draw."""
    created_at: Moment
    published_at: Moment | None
    tables: Annotated[list[ArchivedTable], Field(max_length=MAX_TABLES)]


class ArchiveDocument(_Part):
    """The archive of a whole tournament (format "thousand-one-tournament", version 1): its
    settings, players, registrations, rounds, tables and seats, every version of every score
    sheet (who submitted and who confirmed or disputed it, and when), and the live games with
    their seats, seat changes, finished deals and every action in order. Objects refer to each
    other by the file's own keys, never by database ids; times are ISO 8601 with their offset.
    Logins are usernames only, never passwords; standings are not in the file (an import
    computes them from the confirmed results)."""

    format: Literal[ARCHIVE_FORMAT]
    version: Literal[ARCHIVE_VERSION]
    exported_at: Moment
    """When the file was written."""
    tournament: ArchivedTournament
    players: Annotated[list[ArchivedPlayer], Field(max_length=MAX_PLAYERS)]
    """Listed by start number."""
    registrations: Annotated[list[ArchivedRegistration], Field(max_length=MAX_PLAYERS)]
    rounds: Annotated[list[ArchivedRound], Field(max_length=MAX_ROUNDS)]


class _Envelope(BaseModel):
    """What an archive of any version has."""

    model_config = ConfigDict(extra="ignore", strict=True)

    version: Positive


# ----------------------------------------------------------------------------- check, publish
def archive_document(data: Any) -> ArchiveDocument:
    """The document checked against the schema; ValidationError naming the first bad elements
    by their paths ("rounds[0].tables[1].seats[2].position: must be from 0 to 3")."""
    if not isinstance(data, dict):
        raise ValidationError(_("The archive must be a JSON object."), code="archive")
    if data.get("format") == SEASON_ARCHIVE_FORMAT:
        raise problem(
            "format",
            _(
                "this is the archive of a season, not of a tournament: import it with “Import a "
                "season” on the Seasons page, or with the command “manage.py import_season”"
            ),
        )
    if data.get("format") != ARCHIVE_FORMAT:
        raise problem(
            "format",
            _("must be %(format)s: this is not a tournament archive of this app")
            % {"format": ARCHIVE_FORMAT},
        )
    _check_version(data)
    return _validated(ArchiveDocument, data)


def _check_version(data: dict[str, Any]) -> None:
    """ValidationError unless the document (of any format of the app) is of the version this
    site reads."""
    version = _validated(_Envelope, data).version
    if version != ARCHIVE_VERSION:
        raise problem(
            "version",
            _("this site reads archives of version %(supported)d, not %(version)d")
            % {"supported": ARCHIVE_VERSION, "version": version},
        )


def _validated(model: type[BaseModel], data: dict[str, Any]) -> Any:
    try:
        return model.model_validate(data)
    except SchemaError as error:
        raise _refusal(error.errors(include_url=False, include_input=False)) from None


class _PublishedSchema(GenerateJsonSchema):
    """The JSON Schema as published: titles only on the objects, which are named by their
    classes; each key is described by its docstring."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def archive_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the archive document, from the models above."""
    schema = _one_line_descriptions(
        ArchiveDocument.model_json_schema(schema_generator=_PublishedSchema)
    )
    schema.pop("title")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tournament archive (thousand-one-tournament, version 1)",
        **schema,
    }


def _one_line_descriptions(schema: Any) -> Any:
    """The schema with each description (a docstring, cut into lines) on one line."""
    if isinstance(schema, list):
        return [_one_line_descriptions(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: " ".join(value.split())
        if key == "description" and isinstance(value, str)
        else _one_line_descriptions(value)
        for key, value in schema.items()
    }


def archive_schema_text() -> str:
    """The published schema file's text (docs/archive-schema.json)."""
    return json.dumps(archive_json_schema(), indent=2, ensure_ascii=False) + "\n"
