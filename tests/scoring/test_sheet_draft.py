"""A score sheet entered as the table plays: the scores a deal gives, a game not over yet told
apart from a broken rule, and the table's draft (saved after every deal, by the table's players
and the club's directors only, never overwritten silently)."""

import datetime
import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from core.exceptions import Conflict
from draws import services as draw_services
from rules import RuleSet
from scoring import selectors
from scoring.models import SheetDraft
from scoring.score_sheet import (
    ScoreSheetError,
    declarer_score,
    following_scores,
    validate_score_sheet,
)
from scoring.services import (
    DRAFT_MAX_DEALS,
    result_submit,
    sheet_check,
    sheet_draft_save,
    sheet_following_scores,
)
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services
from tournaments.models import Round

RULES = RuleSet()


# --------------------------------------------------------------------------- the pure rules
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_the_scores_a_deal_gives_are_those_the_engine_scores(players, seed):
    sheet = game_sheet(players=players, seed=seed)
    blanked = {
        "mode": "deals",
        "rows": [{**row, "scores": [None] * players} for row in sheet["rows"]],
    }

    given = following_scores(blanked, players=players, first_dealer=0, rules=RULES)

    assert len(given) == len(sheet["rows"])
    for row, scores in zip(sheet["rows"], given, strict=True):
        assert scores[row["declarer"]] == row["scores"][row["declarer"]]
        for seat, score in scores.items():
            assert row["scores"][seat] == score


@pytest.mark.parametrize(
    ("row", "score"),
    [
        ({"bid": 100, "contract": 120, "outcome": "made", "forced": False}, 120),
        ({"bid": 100, "contract": 120, "outcome": "failed", "forced": False}, -120),
        ({"bid": 100, "contract": 120, "outcome": "conceded", "forced": False}, -120),
        ({"bid": 100, "contract": None, "outcome": "conceded", "forced": False}, -100),
        ({"bid": 40, "contract": None, "outcome": "conceded", "forced": True}, 0),
        ({"bid": 100, "contract": None, "outcome": "made", "forced": False}, None),
        ({"bid": 100, "contract": 100, "outcome": "lost", "forced": False}, None),
    ],
    ids=["made", "failed", "conceded", "conceded unnamed", "forced conceded", "no contract", "?"],
)
def test_the_declarers_score_follows_rules_md(row, score):
    assert declarer_score(**row) == score


def test_a_conceded_deal_gives_the_defenders_the_bonus_but_not_the_dealer_who_sits_out():
    rules = RuleSet(concede_bonus=30)
    row = {"dealer": 1, "declarer": 3, "bid": 60, "contract": None, "outcome": "conceded"}
    sheet = {"mode": "deals", "rows": [{"dealer": 0}, row]}

    first, second = following_scores(sheet, players=4, first_dealer=0, rules=rules)

    assert first == {}
    assert second == {3: -60, 0: 30, 2: 30}  # seat 1 deals the second deal and sits out


@pytest.mark.parametrize(
    "row",
    [
        {"declarer": "me", "bid": 60, "contract": 60, "outcome": "made"},
        {"declarer": 7, "bid": 60, "contract": 60, "outcome": "made"},
        {"declarer": True, "bid": 60, "contract": 60, "outcome": "made"},
        {"declarer": 1, "bid": "60x", "contract": 60, "outcome": "made"},
        {"declarer": 1, "bid": 60, "contract": "sixty", "outcome": "made"},
        {"declarer": 1, "bid": 60, "contract": 60, "outcome": None},
        {"declarer": 1, "bid": 60, "contract": 60, "outcome": "made", "forced": "yes"},
    ],
)
def test_a_deal_that_cannot_be_read_gives_no_scores(row):
    sheet = {"mode": "deals", "rows": [row, "not a row"]}

    assert following_scores(sheet, players=3, first_dealer=0, rules=RULES) == [{}, {}]
    assert following_scores({"mode": "totals"}, players=3, first_dealer=0, rules=RULES) == []


def test_a_game_not_over_yet_is_unfinished_not_a_broken_rule():
    sheet = game_sheet(players=3, seed=4)
    sheet["rows"] = sheet["rows"][:2]

    with pytest.raises(ScoreSheetError) as short:
        validate_score_sheet(sheet, players=3, first_dealer=0, rules=RULES)
    with pytest.raises(ScoreSheetError) as empty:
        validate_score_sheet({"mode": "deals", "rows": []}, players=3, first_dealer=0, rules=RULES)
    sheet["rows"][1]["scores"][0] += 1
    with pytest.raises(ScoreSheetError) as broken:
        validate_score_sheet(sheet, players=3, first_dealer=0, rules=RULES)

    assert short.value.unfinished == short.value.messages
    assert "the game is not over after the last row (2)" in short.value.unfinished[0]
    assert empty.value.unfinished == empty.value.messages == ["the sheet has no rows"]
    assert len(broken.value.messages) == 2 and broken.value.messages[0].startswith("row 2:")
    assert broken.value.unfinished == broken.value.messages[1:]


def test_fewer_deals_than_a_fixed_game_plays_are_unfinished():
    sheet = game_sheet(players=3, seed=4)
    rows = sheet["rows"][:1]

    with pytest.raises(ScoreSheetError) as raised:
        validate_score_sheet(
            {"mode": "deals", "rows": rows}, players=3, first_dealer=0, rules=RULES, fixed_deals=6
        )

    assert raised.value.unfinished == raised.value.messages
    assert "has only 1 rows" in raised.value.unfinished[0]


# --------------------------------------------------------------------------- the table's draft


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def table(director):
    """Table 1 of a published round of 8 players with logins, at two tables of 4."""
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Friday", date=datetime.date(2026, 12, 4)
    )
    for _ in range(8):
        player = PlayerFactory(club=club, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get(number=1)


def players_at(table):
    return [seat.registration.player.user for seat in table.seats.order_by("position")]


def deals(count: int, seed: int = 3) -> list[dict]:
    return game_sheet(players=4, seed=seed)["rows"][:count]


@pytest.mark.django_db
def test_a_draft_is_saved_after_each_deal_and_read_back(table):
    first, second, *_ = players_at(table)

    one = sheet_draft_save(actor=first, table=table, rows=deals(1), expected_version=0)
    two = sheet_draft_save(actor=second, table=table, rows=deals(2), expected_version=1)

    assert (one.pk, one.version, two.version) == (two.pk, 1, 2)
    draft = selectors.sheet_draft(table)
    assert draft.rows == deals(2) and draft.updated_by == second


@pytest.mark.django_db
def test_a_phone_that_saw_an_older_draft_gets_a_conflict_not_an_overwrite(table):
    first, second, *_ = players_at(table)
    sheet_draft_save(actor=first, table=table, rows=deals(1), expected_version=0)
    sheet_draft_save(actor=first, table=table, rows=deals(2), expected_version=1)

    with pytest.raises(Conflict):
        sheet_draft_save(actor=second, table=table, rows=deals(2, seed=5), expected_version=1)
    with pytest.raises(Conflict):
        sheet_draft_save(actor=second, table=table, rows=deals(1, seed=5), expected_version=0)

    assert selectors.sheet_draft(table).rows == deals(2)
    assert selectors.sheet_draft(table).version == 2


@pytest.mark.django_db
def test_only_the_tables_players_and_the_clubs_directors_write_its_draft(table, director):
    other_table = table.round.tables.get(number=2)
    outsider = players_at(other_table)[0]
    stranger_director = UserFactory()
    ClubFactory(directors=[stranger_director])

    for actor in (outsider, stranger_director):
        with pytest.raises(PermissionDenied):
            sheet_draft_save(actor=actor, table=table, rows=deals(1), expected_version=0)
    assert not SheetDraft.objects.exists()

    draft = sheet_draft_save(actor=director, table=table, rows=deals(1), expected_version=0)
    assert draft.updated_by == director


@pytest.mark.django_db
def test_a_draft_round_or_a_bot_table_takes_no_draft(director):
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Bots",
        date=datetime.date(2026, 12, 4),
        table_size="3",
        bots_allowed=True,
    )
    for _ in range(5):
        player = PlayerFactory(club=club, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    unpublished = round_.tables.exclude(seats__registration__isnull=True).get()
    with pytest.raises(ValidationError, match="not published"):
        sheet_draft_save(actor=director, table=unpublished, rows=[], expected_version=0)

    draw_services.round_publish(actor=director, round_=round_)
    bot_table = round_.tables.get(seats__registration__isnull=True)
    with pytest.raises(ValidationError, match="bot seat"):
        sheet_draft_save(actor=director, table=bot_table, rows=[], expected_version=0)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED


@pytest.mark.django_db
@pytest.mark.parametrize(
    "rows",
    [
        "all of them",
        [{"dealer": 0}] * (DRAFT_MAX_DEALS + 1),
        [{"dealer": 0, "scores": [1, 2]}],
        [{"dealer": 0, "trump": "hearts"}],
        [{"bid": 10**12}],
        [{"bid": "x" * 21}],
        [{"bid": [100]}],
        [{"scores": [0, 0, 0, {"x": 1}]}],
        ["a row"],
    ],
    ids=[
        "text",
        "too many",
        "three scores",
        "unknown field",
        "huge",
        "long text",
        "list",
        "object",
        "row as text",
    ],
)
def test_a_forged_draft_is_refused(table, rows):
    first = players_at(table)[0]

    with pytest.raises(ValidationError):
        sheet_draft_save(actor=first, table=table, rows=rows, expected_version=0)
    with pytest.raises(ValidationError):
        sheet_draft_save(
            actor=first, table=table, rows=[], expected_version=0, removed={"index": 5, "row": {}}
        )
    assert not SheetDraft.objects.exists()


@pytest.mark.django_db
def test_the_removed_deal_is_kept_to_undo_until_the_next_save(table):
    first = players_at(table)[0]
    rows = deals(3)
    sheet_draft_save(actor=first, table=table, rows=rows, expected_version=0)

    removed = sheet_draft_save(
        actor=first,
        table=table,
        rows=[rows[0], rows[2]],
        expected_version=1,
        removed={"index": 1, "row": rows[1]},
    )
    assert removed.removed == {"index": 1, "row": rows[1]}
    again = sheet_draft_save(actor=first, table=table, rows=rows, expected_version=2)
    assert again.removed is None


@pytest.mark.django_db
def test_submitting_the_sheet_empties_the_draft_and_moves_its_version_on(table):
    first = players_at(table)[0]
    sheet = game_sheet(players=4, seed=3)
    sheet_draft_save(actor=first, table=table, rows=sheet["rows"][:2], expected_version=0)

    result_submit(actor=first, table=table, sheet=sheet, expected_version=0)

    draft = selectors.sheet_draft(table)
    assert draft.rows == [] and draft.version == 2
    with pytest.raises(Conflict):
        sheet_draft_save(actor=first, table=table, rows=sheet["rows"][:2], expected_version=1)


@pytest.mark.django_db
def test_the_check_tells_an_unfinished_sheet_from_a_broken_one(table):
    sheet = game_sheet(players=4, seed=3)
    sheet["rows"] = sheet["rows"][:2]

    check = sheet_check(table=table, sheet=sheet)

    assert not check.valid
    assert check.unfinished_messages == check.messages == check.sheet_messages
    assert sheet_following_scores(table=table, sheet=sheet)[0] == {
        sheet["rows"][0]["declarer"]: sheet["rows"][0]["scores"][sheet["rows"][0]["declarer"]]
    }


def test_random_sheets_read_back_the_same_scores_they_give():
    generator = random.Random(7)
    for _ in range(50):
        players = generator.choice([3, 4])
        sheet = game_sheet(players=players, seed=generator.randrange(10_000))
        given = following_scores(sheet, players=players, first_dealer=0, rules=RULES)
        for row, scores in zip(sheet["rows"], given, strict=True):
            assert all(row["scores"][seat] == score for seat, score in scores.items())
