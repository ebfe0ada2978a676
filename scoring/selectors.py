"""Reads of table results, their audit trail and the stored standings snapshots."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from scoring.models import ResultVersion, SheetDraft, StandingsSnapshot, TableResult
from standings import ranking as standings_logic
from tournaments.models import BotLevel, Registration, Round, Seat, Table, Tournament
from tournaments.selectors import AnyUser, can_view_tournament, is_director, seat_of_user


def standings_latest(tournament: Tournament) -> StandingsSnapshot | None:
    return tournament.standings_snapshots.order_by("-version").first()


def standings_order(tournament: Tournament, players: list[int]) -> list[int]:
    """Registration ids best first by the latest standings; newcomers last by start number."""
    snapshot = standings_latest(tournament)
    ranked = [row["registration"] for row in snapshot.rows] if snapshot else []
    wanted = set(players)
    order = [player for player in ranked if player in wanted]
    seen = set(order)
    return order + [player for player in players if player not in seen]


def standings_inputs(
    tournament: Tournament,
) -> tuple[list[int], list[standings_logic.TableResult], dict[int, dict[str, Any]]]:
    """Everything `compute_standings` needs, from confirmed results only."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_number")
    )
    names = {
        r.pk: {
            "registration": r.pk,
            "start_number": r.start_number,
            "name": r.player.name,
            "player": r.player_id,
            "withdrawn": r.status == Registration.Status.WITHDRAWN,
        }
        for r in registrations
    }
    seats_by_table: dict[int, list[int | None]] = {}
    for table_id, registration_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "registration_id")
    ):
        seats_by_table.setdefault(table_id, []).append(registration_id)
    confirmed = (
        TableResult.objects.filter(table__round__tournament=tournament, confirmed__isnull=False)
        .select_related("confirmed", "table__round")
        .order_by("table__round__number", "table__number")
    )
    results = []
    for result in confirmed:
        version = result.confirmed
        seated = tuple(seats_by_table.get(result.table_id, ()))
        winner = seated[version.winner_position] if version.winner_position is not None else None
        results.append(
            standings_logic.TableResult(
                round_number=result.table.round.number,
                table_number=result.table.number,
                players=seated,
                totals=tuple(version.totals),
                placements=tuple(version.placements),
                winner=winner,
            )
        )
    return [r.pk for r in registrations], results, names


def results_of_round(round_: Round) -> QuerySet[TableResult]:
    return (
        TableResult.objects.filter(table__round=round_)
        .select_related("table", "confirmed")
        .order_by("table__number")
    )


def result_history(table: Table) -> QuerySet[ResultVersion]:
    """Every version of a table's score sheet, oldest first: who, when, what, and its fate."""
    return table.result_versions.select_related(
        "submitted_by__player", "reviewed_by__player", "table__round__tournament"
    ).order_by("number")


def latest_versions_of_round(round_: Round) -> dict[int, ResultVersion]:
    """The latest result version of each table of the round, by table id."""
    return {
        version.table_id: version
        for version in ResultVersion.objects.filter(table__round=round_).order_by("number")
    }


def table_result(table: Table) -> TableResult | None:
    return TableResult.objects.select_related("confirmed").filter(table=table).first()


# ----------------------------------------------------------------------------- public pages
# What spectators see of the tables: who sits where and, from the confirmed version only, each
# seat's total, place and tournament points. Submitted or disputed versions stay private.


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """Who sat in a seat and, once the table has a confirmed result, how he did there."""

    position: int
    registration: int | None  # None for a bot's seat
    start_number: int | None
    name: str
    bot_level: str
    total: int | None = None
    placement: int | None = None
    points: float | None = None
    won: bool = False

    @property
    def is_bot(self) -> bool:
        return self.registration is None

    @property
    def number(self) -> int:
        """The seat as people count it, from 1."""
        return self.position + 1

    @property
    def bot_level_label(self) -> str:
        return Seat.BotLevel(self.bot_level).label if self.bot_level else ""

    @property
    def display_name(self) -> str:
        """The player's name, or the bot's seat name."""
        return BotLevel(self.bot_level or BotLevel.NORMAL).seat_name if self.is_bot else self.name


@dataclass(frozen=True, slots=True)
class TableOutcome:
    """A table of a published round with its seats and, if confirmed, its result."""

    table_id: int
    round_number: int
    number: int
    status: str  # a TableResult.Status value
    confirmed: bool
    seats: tuple[SeatOutcome, ...]

    @property
    def status_label(self) -> str:
        return TableResult.Status(self.status).label

    def seat_of(self, registration_id: int) -> SeatOutcome | None:
        return next((s for s in self.seats if s.registration == registration_id), None)


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One published round as a player lived it; `table` is None for a round he sat out."""

    round_number: int
    round_finished: bool
    table: TableOutcome | None
    seat: SeatOutcome | None
    # Tournament points after this round; None while the round and his table are both open.
    running_points: float | None

    @property
    def opponents(self) -> tuple[SeatOutcome, ...]:
        if self.table is None:
            return ()
        return tuple(seat for seat in self.table.seats if seat is not self.seat)


@dataclass(frozen=True, slots=True)
class DealLine:
    """One deal of a confirmed score sheet, with everyone's running total after it."""

    number: int
    dealer: int | None
    declarer: int | None
    bid: int | None
    contract: int | None
    outcome: str
    forced: bool
    scores: tuple[int, ...]
    running: tuple[int, ...]

    @property
    def seats(self) -> tuple[tuple[int, int], ...]:
        """(score of the deal, running total) per seat."""
        return tuple(zip(self.scores, self.running, strict=True))


def standings_latest_version(tournament: Tournament) -> int | None:
    """The version of the latest stored standings, read without loading its rows."""
    return (
        StandingsSnapshot.objects.filter(tournament_id=tournament.pk)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )


def round_outcomes(round_: Round) -> list[TableOutcome]:
    """Every table of a round with its seats and confirmed results, by table number."""
    return _outcomes(Table.objects.filter(round=round_), round_.tournament.placement_points)


def confirmed_outcomes(tournament: Tournament) -> list[TableOutcome]:
    """Every table with a confirmed result in the tournament, by round and table."""
    tables = Table.objects.filter(
        round__tournament=tournament, result__confirmed__isnull=False
    ).exclude(round__status=Round.Status.DRAFT)
    return _outcomes(tables, tournament.placement_points)


def table_outcome(table: Table) -> TableOutcome:
    tournament = table.round.tournament
    return _outcomes(Table.objects.filter(pk=table.pk), tournament.placement_points)[0]


def player_progress(registration: Registration) -> list[PlayerRound]:
    """Each published round for one player: his table, seat, result and running points."""
    tournament = registration.tournament
    rounds = (
        tournament.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number")
        .values_list("number", "status")
    )
    seated_at = Seat.objects.filter(registration=registration).values("table_id")
    tables = Table.objects.filter(pk__in=seated_at).exclude(round__status=Round.Status.DRAFT)
    outcomes = _outcomes(tables, tournament.placement_points)
    by_round = {outcome.round_number: outcome for outcome in outcomes}
    progress = []
    running = 0.0
    for number, status in rounds:
        finished = status == Round.Status.FINISHED
        table = by_round.get(number)
        seat = table.seat_of(registration.pk) if table is not None else None
        done = finished or (table is not None and table.confirmed)
        if done and seat is not None and seat.points is not None:
            running += seat.points
        progress.append(
            PlayerRound(
                round_number=number,
                round_finished=finished,
                table=table,
                seat=seat,
                running_points=_tidy(running) if done else None,
            )
        )
    return progress


def confirmed_deals(table: Table) -> list[DealLine] | None:
    """The deals of a table's confirmed sheet; None if none is confirmed, [] for totals alone."""
    result = TableResult.objects.select_related("confirmed").filter(table=table).first()
    if result is None or result.confirmed is None:
        return None
    sheet = result.confirmed.sheet
    if not isinstance(sheet, dict) or sheet.get("mode") != "deals":
        return []
    lines = []
    players = len(result.confirmed.totals)
    for number, (row, running) in enumerate(
        zip(sheet.get("rows", []), sheet_running_totals(sheet, players), strict=True), start=1
    ):
        scores = tuple(int(score) for score in row.get("scores", ()))
        lines.append(
            DealLine(
                number=number,
                dealer=row.get("dealer"),
                declarer=row.get("declarer"),
                bid=row.get("bid"),
                contract=row.get("contract", row.get("bid")),
                outcome=str(row.get("outcome", "")),
                forced=bool(row.get("forced", False)),
                scores=scores,
                running=running or (),
            )
        )
    return lines


def _outcomes(tables: QuerySet[Table], placement_points: Any) -> list[TableOutcome]:
    # Plain values rather than model instances: a results file reads a thousand seats, and
    # building a seat, a registration and a player object for each costs more than the query.
    seats: dict[int, list[tuple]] = {}
    for table_id, *seat in (
        Seat.objects.filter(table__in=tables.values("pk"))
        .order_by("table_id", "position")
        .values_list(
            "table_id",
            "position",
            "registration_id",
            "registration__start_number",
            "registration__player__name",
            "bot_level",
        )
    ):
        seats.setdefault(table_id, []).append(seat)
    rows = tables.order_by("round__number", "number").values_list(
        "pk",
        "number",
        "round__number",
        "result__status",
        "result__confirmed_id",
        "result__confirmed__totals",
        "result__confirmed__placements",
        "result__confirmed__winner_position",
    )
    points_cache: dict[tuple[int, ...], tuple[float, ...]] = {}
    outcomes = []
    for pk, number, round_number, status, confirmed, totals, placements, winner in rows:
        points: tuple[float, ...] = ()
        if confirmed is not None:
            key = tuple(placements)
            if key not in points_cache:
                points_cache[key] = _seat_points(key, placement_points)
            points = points_cache[key]
        seats_out = []
        for position, registration, start_number, name, bot_level in seats.get(pk, ()):
            scored = confirmed is not None and position < len(totals)
            seats_out.append(
                SeatOutcome(
                    position=position,
                    registration=registration,
                    start_number=start_number,
                    name=name or "",
                    bot_level=bot_level,
                    total=totals[position] if scored else None,
                    placement=placements[position] if scored else None,
                    points=points[position] if scored else None,
                    won=scored and winner == position,
                )
            )
        outcomes.append(
            TableOutcome(
                table_id=pk,
                round_number=round_number,
                number=number,
                # A draft round's table has no result row yet.
                status=status or TableResult.Status.PENDING,
                confirmed=confirmed is not None,
                seats=tuple(seats_out),
            )
        )
    return outcomes


def _seat_points(placements: tuple[int, ...], placement_points: Any) -> tuple[float, ...]:
    size = len(placements)
    table = standings_logic.TableResult(
        round_number=0,
        table_number=0,
        players=(None,) * size,
        totals=(0,) * size,
        placements=placements,
        winner=None,
    )
    return tuple(_tidy(points) for points in standings_logic.table_points(table, placement_points))


def _tidy(value: float) -> float | int:
    """Whole numbers as ints and no float dust, so that a page shows 3 and 1.5, not 3.0."""
    value = round(value, 6)
    return int(value) if value.is_integer() else value


# ----------------------------------------------------------------------------- player pages
@dataclass(frozen=True)
class TableRole:
    """What a user may do with a table's result; the services check the same again on writes."""

    director: bool
    seat: Seat | None
    round_published: bool
    tournament_finished: bool
    # A bot sits at the table: it is played live, and its result comes only from the game.
    bot_table: bool = False
    # The table is played live in the app: the game gives its result, not a typed sheet.
    live_game: bool = False
    # The result that counts was entered or confirmed by a director: only one may replace it.
    confirmed_by_director: bool = False

    @property
    def visible(self) -> bool:
        """Players see a table once its round is published; directors see drafts too."""
        return self.director or self.round_published

    @property
    def at_table(self) -> bool:
        """A player at the table or a director: the people a table's result concerns."""
        return self.director or self.seat is not None

    @property
    def may_enter(self) -> bool:
        """A player at the table or a director enters, confirms and disputes its result."""
        return self.visible and self.at_table

    @property
    def closed_reason(self) -> str:
        """Why this user may not enter, confirm or dispute the sheet; "" when he may."""
        if self.bot_table:
            return _(
                "This table has a bot seat, so it is played live; "
                "its result comes from the live table."
            )
        if self.director:
            return ""
        if self.live_game:
            return _("This table is played live in the app; its result comes from the game.")
        if self.tournament_finished:
            return _(
                "The tournament is finished, so players can no longer enter or correct results. "
                "Ask the director for corrections."
            )
        return ""

    @property
    def played_live(self) -> bool:
        """The table is played at a live table in the app (a bot's seat, or the director
        started one): its players are sent there."""
        return self.bot_table or self.live_game

    @property
    def may_submit(self) -> bool:
        """Players stop entering sheets when the tournament finishes or the table is played
        live; directors still correct (but no typed sheet replaces a bot table's game)."""
        return self.may_enter and not self.closed_reason

    @property
    def may_review(self) -> bool:
        """Confirming or disputing a submitted sheet: open to the same people as entering."""
        return self.may_submit

    @property
    def may_confirm(self) -> bool:
        """A player may not confirm a correction of a result a director entered or confirmed."""
        return self.may_review and (self.director or not self.confirmed_by_director)


def _has_live_game(table: Table) -> bool:
    # The live game's reverse relation: scoring reads it without importing gameplay.
    return Table.objects.filter(pk=table.pk, live_game__isnull=False).exists()


def _has_bot_seat(table: Table) -> bool:
    return table.seats.filter(registration__isnull=True).exists()


def table_played_live(table: Table) -> bool:
    """The table is played at a live table in the app: a bot has a seat, or the director
    started one (TableRole.played_live)."""
    return _has_bot_seat(table) or _has_live_game(table)


def table_role(user: AnyUser | None, table: Table) -> TableRole:
    tournament = table.round.tournament
    confirmed = (
        TableResult.objects.filter(table=table, confirmed__isnull=False)
        .values("confirmed__source", "confirmed__reviewed_by")
        .first()
    )
    by_director = confirmed is not None and (
        confirmed["confirmed__source"] == ResultVersion.Source.DIRECTOR
        or tournament.club.directors.filter(pk=confirmed["confirmed__reviewed_by"]).exists()
    )
    return TableRole(
        director=is_director(user, tournament.club_id),
        seat=seat_of_user(user, table),
        round_published=table.round.status != Round.Status.DRAFT,
        tournament_finished=tournament.status == Tournament.Status.FINISHED,
        bot_table=_has_bot_seat(table),
        live_game=_has_live_game(table),
        confirmed_by_director=by_director,
    )


def table_for(user: AnyUser | None, table_id: int) -> tuple[Table, TableRole]:
    """The table and what `user` may do with its result, for the pages and the API alike.

    Http404 for a table he may not see: a draft round's (unless he directs the club) or a
    private tournament's (unless he directs it or plays in it), so that its id tells nothing.
    """
    table = Table.objects.select_related("round__tournament__club").filter(pk=table_id).first()
    if table is None:
        raise Http404
    role = table_role(user, table)
    if not role.visible or not can_view_tournament(user, table.round.tournament):
        raise Http404
    return table, role


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in order, with their players' names loaded."""
    return list(table.seats.select_related("registration__player").order_by("position"))


def result_latest_version(table: Table) -> ResultVersion | None:
    """The version the table's result stands at (the one to confirm or dispute), if any."""
    result = TableResult.objects.filter(table=table).only("version").first()
    if result is None or not result.version:
        return None
    return (
        ResultVersion.objects.select_related("submitted_by__player", "reviewed_by__player")
        .filter(table=table, number=result.version)
        .first()
    )


def sheet_running_totals(sheet: Any, players: int) -> list[tuple[int, ...] | None]:
    """Everyone's total after each row of a deal-by-deal sheet: a stored one, or one being typed.

    A typed sheet may be unfinished or wrong: a row with broken rules still adds its scores (the
    person sees where the totals go); once a row's scores are not whole numbers, one per seat,
    the totals after it are unknown (None). A sheet of final totals has no rows, so none.
    """
    rows = sheet.get("rows") if isinstance(sheet, dict) else None
    if not isinstance(rows, list):
        return []
    totals: list[int] | None = [0] * players
    running: list[tuple[int, ...] | None] = []
    for row in rows:
        scores = row.get("scores") if isinstance(row, dict) else None
        readable = (
            isinstance(scores, list | tuple)
            and len(scores) == players
            and all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        )
        if totals is None or not readable:
            totals = None
        else:
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
        running.append(None if totals is None else tuple(totals))
    return running


@dataclass(frozen=True)
class PlayerTable:
    """A player's place in one tournament: his table and seat in its current round, if any."""

    registration: Registration
    round: Round | None
    table: Table | None
    seat: Seat | None
    seats: list[Seat]
    result: TableResult | None
    # A table-mate's sheet waits for this player's confirmation.
    awaits_me: bool
    # The table is played at a live table in the app (TableRole.played_live).
    played_live: bool = False

    @property
    def tournament(self) -> Tournament:
        return self.registration.tournament

    @property
    def opponents(self) -> list[Seat]:
        return [seat for seat in self.seats if self.seat is None or seat.pk != self.seat.pk]


def player_tables(user: AnyUser | None) -> list[PlayerTable]:
    """The user's tournaments, running ones first, each with the latest published round's seat."""
    if user is None or not user.is_authenticated:
        return []
    registrations = Registration.objects.filter(player__user=user).select_related(
        "tournament__club", "player"
    )
    order = {Tournament.Status.RUNNING: 0, Tournament.Status.DRAFT: 1}
    ordered = sorted(
        registrations,
        key=lambda r: (order.get(r.tournament.status, 2), -r.tournament.date.toordinal(), -r.pk),
    )
    found = []
    for registration in ordered:
        round_ = (
            registration.tournament.rounds.exclude(status=Round.Status.DRAFT)
            .order_by("-number")
            .first()
        )
        seat = (
            Seat.objects.select_related("table").filter(round=round_, registration=registration)
        ).first()
        table = seat.table if seat is not None else None
        result = TableResult.objects.filter(table=table).first() if table is not None else None
        awaits_me = False
        if result is not None and result.status == TableResult.Status.SUBMITTED:
            awaits_me = (
                ResultVersion.objects.filter(table=table, number=result.version)
                .exclude(submitted_by=user)
                .exists()
            )
        seats = table_seats(table) if table is not None else []
        found.append(
            PlayerTable(
                registration=registration,
                round=round_,
                table=table,
                seat=seat,
                seats=seats,
                result=result,
                awaits_me=awaits_me,
                played_live=table is not None and table_played_live(table),
            )
        )
    return found


def sheet_draft(table: Table) -> SheetDraft | None:
    """The deals the table has entered so far (scoring.services.sheet_draft_save), if any."""
    return SheetDraft.objects.select_related("updated_by__player").filter(table=table).first()
