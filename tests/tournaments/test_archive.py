"""Tournament archives: a whole tournament to one JSON file and back, exactly, or not at all."""

from __future__ import annotations

import copy
import datetime
import io
import json
import random
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from django.db.models import F, Q
from django.test import Client, TestCase
from django.urls import reverse

from archive.exporter import archive_dumps, tournament_export
from archive.importer import archive_loads, tournament_import
from archive.schema import ARCHIVE_FORMAT, MAX_REPORTED, archive_schema_text
from draws import services as draw_services
from gameplay import selectors as gameplay_selectors
from gameplay import services as gameplay_services
from gameplay.models import LiveGame, LiveSeat
from gameplay.shuffle import deck_commitment
from rules import DEFAULT_RULES, DealState, Game, RuleSet
from rules.cards import CARD_NAMES
from rules.simulate import play_cautiously, shuffled_deck
from scoring import services as scoring_services
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from scoring.score_sheet import sheet_from_game
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.gameplay.conftest import play_as_human
from tournaments import services
from tournaments.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db

DEALS = 3
TOURNAMENT_DATE = datetime.date(2026, 12, 5)


# ----------------------------------------------------------------------------- a whole tournament
def committed(call, **kwargs):
    """Run a service and then its on-commit hooks (bot turns, standings), as a commit would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return call(**kwargs)


def fixed_deals_sheet(seed: int) -> dict:
    """The score sheet of three deals at a table of 3, played by the engine's cautious players."""
    rng = random.Random(seed)
    game = Game(players=3, first_dealer=0, rules=DEFAULT_RULES, fixed_deals=DEALS)
    while not game.over:
        deal = game.start_deal(shuffled_deck(rng))
        play_cautiously(deal, rng)
        game.close_deal(deal)
    return sheet_from_game(game)


def play_live(director, table, *, to_the_end: bool, seed: int) -> LiveGame:
    """Play a table live: humans choose at random, bots answer after every commit."""
    game = committed(gameplay_services.live_game_create_for_table, actor=director, table=table)
    rng = random.Random(seed)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == LiveGame.Status.FINISHED or (not to_the_end and game.sequence >= 12):
            return game
        user = game.seats.get(position=game.to_act).user
        committed(play_as_human, game=game, user=user, rng=rng)
    raise AssertionError("the live game did not end")


def enter_paper_result(director, table, *, seed: int, corrected: bool = False) -> None:
    """A confirmed sheet; a corrected one has a disputed and a superseded version before it."""
    submit = scoring_services.result_submit
    if corrected:
        submit(actor=director, table=table, sheet=fixed_deals_sheet(seed + 1), expected_version=0)
        scoring_services.result_dispute(
            actor=director, table=table, version_number=1, note="Deal 2 was scored wrongly."
        )
        committed(
            submit,
            actor=director,
            table=table,
            sheet=fixed_deals_sheet(seed + 2),
            expected_version=1,
            confirm=True,
        )
    version = TableResult.objects.get(table=table).version
    committed(
        submit,
        actor=director,
        table=table,
        sheet=fixed_deals_sheet(seed),
        expected_version=version,
        confirm=True,
        note="Checked by the director.",
    )


def play_round(director, tournament, number: int, *, last: bool) -> Round:
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=number)
    round_ = draw_services.round_publish(actor=director, round_=round_)
    for table in round_.tables.order_by("number"):
        if table.seats.filter(registration__isnull=True).exists():
            game = play_live(director, table, to_the_end=not last, seed=table.number)
            if last:
                # A player leaves the unfinished game and a bot takes his seat.
                human = game.seats.exclude(user=None).order_by("position").first()
                committed(
                    gameplay_services.live_seat_replace_with_bot,
                    actor=director,
                    game=game,
                    position=human.position,
                    level="easy",
                )
        elif not last:
            enter_paper_result(director, table, seed=number * 10 + table.number, corrected=True)
    return round_


def build_tournament() -> Tournament:
    """Three rounds at tables of 3 with bots and three deals a round: paper sheets (one corrected
    after a dispute), live tables played to the end, a withdrawal, and a last round in progress
    with an unfinished live game in which a bot replaced a player."""
    director = UserFactory(username="archive-director", password=None)
    club = ClubFactory(name="Archive club", slug="archive-club", directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Winter cup",
        date=TOURNAMENT_DATE,
        rounds_planned=3,
        table_size="3",
        bots_allowed=True,
        round_format="deals",
        deals_per_round=DEALS,
        quick_results_allowed=True,
    )
    for number in range(1, 9):
        user = UserFactory(username=f"archive-player-{number}", password=None)
        player = PlayerFactory(
            club=club, name=f"Гравець {number}", user=user if number % 2 else None
        )
        services.registration_create(actor=director, tournament=tournament, player=player)
    play_round(director, tournament, 1, last=False)
    services.registration_withdraw(
        actor=director, registration=tournament.registrations.get(start_number=8)
    )
    play_round(director, tournament, 2, last=False)
    play_round(director, tournament, 3, last=True)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture(scope="module")
def archive(django_db_setup, django_db_blocker):
    """The archive of a whole tournament, built once in a transaction that is rolled back."""
    with django_db_blocker.unblock(), transaction.atomic():
        tournament = build_tournament()
        document = tournament_export(tournament=tournament)
        document["standings"] = standings_without_ids(tournament)  # for the comparisons only
        transaction.set_rollback(True)
    return document


def standings_without_ids(tournament) -> list[dict]:
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).latest()
    ids = ("registration", "player", "random")
    return [{k: v for k, v in row.items() if k not in ids} for row in snapshot.rows]


def document_of(archive) -> dict:
    document = copy.deepcopy(archive)
    del document["standings"]
    return document


def same(document) -> dict:
    """The document without what may differ after a round trip: its export time, and when the
    turn began in a game in play (the import deals its deal in play anew, so the turn is new)."""
    document = copy.deepcopy(document)
    for _path, table in tables_of(document):
        if (table["live_game"] or {}).get("status") == LiveGame.Status.PLAYING:
            table["live_game"]["turn_started_at"] = None
    return {
        key: value for key, value in document.items() if key not in ("exported_at", "standings")
    }


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


def tables_of(document):
    for round_index, round_ in enumerate(document["rounds"]):
        for table_index, table in enumerate(round_["tables"]):
            yield f"rounds[{round_index}].tables[{table_index}]", table


def first_table(document, has) -> tuple[str, dict]:
    return next((path, table) for path, table in tables_of(document) if has(table))


def corrected_table(document):
    return first_table(document, lambda table: len((table["result"] or {}).get("versions", ())) > 2)


def live_table(document, status=LiveGame.Status.FINISHED):
    return first_table(
        document, lambda table: table["live_game"] and table["live_game"]["status"] == status
    )


# ----------------------------------------------------------------------------- what is archived
def test_the_archive_holds_the_whole_tournament(archive):
    document = document_of(archive)
    assert (document["format"], document["version"]) == (ARCHIVE_FORMAT, 1)
    assert document["tournament"]["name"] == "Winter cup"
    assert [round_["status"] for round_ in document["rounds"]] == [
        "finished",
        "finished",
        "published",
    ]
    assert [p["name"] for p in document["players"]] == [f"Гравець {n}" for n in range(1, 9)]
    withdrawn = document["registrations"][7]
    assert (withdrawn["status"], withdrawn["withdrawn_after"]) == ("withdrawn", 1)
    seated = {
        seat["start_number"]
        for _path, table in tables_of({"rounds": document["rounds"][1:]})
        for seat in table["seats"]
    }
    assert 8 not in seated and None in seated  # the withdrawn player no more; bots instead

    _path, table = corrected_table(document)
    versions = table["result"]["versions"]
    assert [v["status"] for v in versions] == ["disputed", "superseded", "confirmed"]
    assert versions[0]["note"] == "Deal 2 was scored wrongly."
    assert versions[0]["reviewed_by"] == "archive-director"
    assert table["result"]["confirmed"] == 3 and table["result"]["version"] == 3
    assert all(len(v["sheet"]["rows"]) == DEALS for v in versions)

    _path, table = live_table(document)
    game = table["live_game"]
    assert [seat["bot_level"] != "" for seat in game["seats"]].count(True) >= 1
    assert table["result"]["versions"][0]["source"] == "live"
    assert (
        len(game["deals"]) == DEALS
        and game["winner"] == table["result"]["versions"][0]["winner_position"]
    )
    actions = [action for deal in game["deals"] for action in deal["actions"]]
    assert [a["sequence"] for a in actions] == list(range(1, game["sequence"] + 1))
    assert {a["by_bot"] for a in actions} == {True, False}
    assert all(len(deal["deck"]) == 24 and len(deal["salt"]) == 64 for deal in game["deals"])

    # The game in play is written as it stood when its current deal was dealt: that deal's
    # cards are secret, so neither it nor its actions are in the file.
    _path, table = live_table(document, LiveGame.Status.PLAYING)
    game = table["live_game"]
    assert game["finished_at"] is None and game["to_act"] is None
    assert all(deal["finished_at"] is not None for deal in game["deals"])
    assert game["sequence"] == sum(len(deal["actions"]) for deal in game["deals"])
    (change,) = game["seat_changes"]
    assert change["changed_by"] == "archive-director" and change["to_bot_level"] == "easy"
    assert change["from_username"] is not None
    assert table["result"] == {
        "status": "pending",
        "version": 0,
        "confirmed": None,
        "updated_at": table["result"]["updated_at"],
        "versions": [],
    }
    # Logins by name only; never a password or a database id.
    text = archive_dumps(document)
    assert "password" not in text and '"id"' not in text and '"pk"' not in text


def test_an_imported_archive_exports_as_the_same_document(archive, director, club):
    tournament = tournament_import(actor=director, club=club, data=document_of(archive))

    again = tournament_export(tournament=tournament)
    assert same(again) == same(archive)
    assert tournament.club == club
    # The times are the archived ones, not the time of the import.
    assert tournament.created_at.isoformat() == archive["tournament"]["created_at"]
    # On a site that does not know the logins, they are made without a usable password.
    user = User.objects.get(username="archive-player-1")
    assert not user.has_usable_password() and not user.is_staff
    assert Player.objects.get(club=club, name="Гравець 1").user == user
    # The standings are computed again from the confirmed results.
    assert standings_without_ids(tournament) == archive["standings"]


def test_a_deal_in_play_is_never_in_the_archive_and_the_import_deals_it_anew(director, club):
    from gameplay.models import LiveDeal

    tournament = build_tournament()
    secrets = list(
        LiveDeal.objects.filter(game__table__round__tournament=tournament, finished_at=None)
    )
    assert secrets and all(deal.actions.exists() for deal in secrets)  # deals under way

    text = archive_dumps(tournament_export(tournament=tournament))

    for deal in secrets:
        assert deal.salt not in text and deal.commitment not in text
        assert json.dumps(deal.deck, separators=(",", ":")) not in text

    imported = tournament_import(actor=director, club=club, data=json.loads(text))

    dealt = LiveDeal.objects.filter(game__table__round__tournament=imported, finished_at=None)
    assert sorted(deal.number for deal in dealt) == sorted(deal.number for deal in secrets)
    assert not {deal.salt for deal in dealt} & {deal.salt for deal in secrets}
    for deal in dealt:
        game = deal.game
        assert game.status == LiveGame.Status.PLAYING and game.to_act is not None
        assert game.sequence >= deal.start_sequence  # bots may have played on already


def test_an_unfinished_live_game_goes_on_after_the_import(archive, director, club):
    # Committed: the bots act first if the new deal starts with them, until a person's turn.
    tournament = committed(tournament_import, actor=director, club=club, data=document_of(archive))
    game = LiveGame.objects.filter(
        table__round__tournament=tournament,
        status=LiveGame.Status.PLAYING,
        seats__position=F("to_act"),
        seats__user__isnull=False,
    ).first()
    user = game.seats.get(position=game.to_act).user
    view = gameplay_selectors.live_game_view(game, user=user)
    assert view["legal"]

    committed(
        gameplay_services.live_game_act,
        actor=user,
        game=game,
        action=view["legal"][0],
        expected_sequence=view["sequence"],
    )

    game.refresh_from_db()
    assert game.sequence > view["sequence"]


def test_a_bot_whose_turn_it_is_plays_once_the_import_is_committed(archive, director, club):
    document = document_of(archive)
    _path, table = live_table(document, LiveGame.Status.PLAYING)
    game = table["live_game"]
    # The players left before the export: bots sit in their seats now, so whoever is first to
    # act in the deal dealt at the import is a bot.
    for seat in game["seats"]:
        seat |= {"username": None, "bot_level": "easy", "name": "Bot"}

    tournament = committed(tournament_import, actor=director, club=club, data=document)

    imported = LiveGame.objects.get(
        table__round__tournament=tournament, created_at=game["created_at"]
    )
    assert imported.sequence > game["sequence"]
    assert imported.actions.filter(sequence=game["sequence"] + 1, by_bot=True).exists()


def test_a_tournament_lost_by_its_club_comes_back_with_the_same_players(director, club):
    tournament = build_tournament()
    tournament.club.directors.add(director)
    original = tournament_export(tournament=tournament)
    club = tournament.club
    players = set(Player.objects.filter(club=club))
    # Seats protect their registrations, so the rounds go first.
    tournament.rounds.all().delete()
    tournament.delete()

    restored = tournament_import(actor=director, club=club, data=copy.deepcopy(original))

    assert same(tournament_export(tournament=restored)) == same(original)
    # The club's players are found again, by login or by name, not created twice.
    assert set(Player.objects.filter(club=club)) == players
    assert {r.player for r in restored.registrations.all()} == players


LOGIN_KEYS = {"username", "submitted_by", "reviewed_by", "from_username", "changed_by"}


def names_only(document):
    """The document with no logins: what a copy in another club keeps (players, live seats,
    seat changes and sheets keep their names, not the original club's logins)."""
    if isinstance(document, dict):
        return {
            key: None if key in LOGIN_KEYS else names_only(value) for key, value in document.items()
        }
    if isinstance(document, list):
        return [names_only(item) for item in document]
    return document


def test_one_player_of_the_club_stands_for_one_archived_player(archive, director, club):
    first = tournament_import(actor=director, club=club, data=document_of(archive))
    # Another tournament, whose first player comes with his login (and another name), and whose
    # second player, without a login, claims the first one's creation time and name.
    document = document_of(archive)
    document["tournament"]["created_at"] = "2026-12-06T10:00:00+00:00"
    document["players"][1] |= {
        "name": document["players"][0]["name"],
        "created_at": document["players"][0]["created_at"],
        "username": None,
    }
    document["players"][0]["name"] = "Гравець Перший"

    second = tournament_import(actor=director, club=club, data=document)

    players = [r.player for r in second.registrations.order_by("start_number")]
    assert len(set(players)) == len(players) == 8
    assert players[0] == first.registrations.get(start_number=1).player
    assert players[1] not in {r.player for r in first.registrations.all()}


def test_a_copy_in_another_club_keeps_the_logins_with_their_players(director, club):
    tournament = build_tournament()
    original = tournament_export(tournament=tournament)
    logins = dict(Player.objects.filter(club=tournament.club).values_list("name", "user"))

    copied = tournament_import(actor=director, club=club, data=copy.deepcopy(original))

    assert copied.club == club and copied.name == "Winter cup"
    assert dict(Player.objects.filter(club=tournament.club).values_list("name", "user")) == logins
    # A login is one person's in one club: the copies in the other club have none, and its
    # live seats and sheets do not name the original club's players and director.
    assert not Player.objects.filter(club=club).exclude(user=None).exists()
    games = [t["live_game"] for r in original["rounds"] for t in r["tables"] if t["live_game"]]
    assert any(seat["username"] for game in games for seat in game["seats"])
    assert same(tournament_export(tournament=copied)) == same(names_only(original))
    assert (
        not LiveSeat.objects.filter(game__table__round__tournament=copied)
        .exclude(user=None)
        .exists()
    )
    assert LiveSeat.objects.filter(game__table__round__tournament=copied).exists()
    # The original is untouched.
    assert same(tournament_export(tournament=tournament)) == same(original)


def test_a_tournament_the_club_has_already_is_refused_and_named(archive, director, club):
    """Else it would be there twice, rated twice, and the copy could not be deleted."""
    tournament_import(actor=director, club=club, data=document_of(archive))
    # Renamed and moved to another day since: still the same tournament.
    Tournament.objects.filter(club=club).update(
        name="Winter cup, final", date=datetime.date(2026, 12, 6)
    )

    with pytest.raises(ValidationError) as refused:
        tournament_import(actor=director, club=club, data=document_of(archive))

    assert refused.value.messages == [
        "This club already has this tournament: Winter cup, final, 6 December 2026."
    ]
    assert Tournament.objects.filter(club=club).count() == 1
    # Another club may have its own copy.
    other = ClubFactory(directors=[director])
    assert tournament_import(actor=director, club=other, data=document_of(archive)).club == other


def test_a_club_importing_its_own_tournament_is_told_it_has_it(director):
    """The director downloads a tournament's archive and uploads it into the same club."""
    tournament = build_tournament()
    tournament.club.directors.add(director)
    client = Client()
    client.force_login(director)
    content = archive_dumps(tournament_export(tournament=tournament)).encode()

    response = client.post(
        reverse("director-tournament-import"), {"club": tournament.club.pk, "file": upload(content)}
    )

    assert response.status_code == 400
    assert "This club already has this tournament: Winter cup, 5 December 2026." in (
        response.content.decode()
    )
    assert Tournament.objects.filter(club=tournament.club).count() == 1


def test_another_tournament_whose_name_is_taken_that_day_gets_a_numbered_name(
    archive, director, club
):
    def another(number: int, **changes) -> dict:
        """Another club's tournament of the same name and day (created at another moment)."""
        document = document_of(archive)
        created = datetime.datetime.fromisoformat(document["tournament"]["created_at"])
        moment = (created + datetime.timedelta(minutes=number)).isoformat()
        document["tournament"] |= {"created_at": moment, **changes}
        return document

    first = tournament_import(actor=director, club=club, data=document_of(archive))
    second = tournament_import(actor=director, club=club, data=another(1))
    third = tournament_import(actor=director, club=club, data=another(2))

    assert [first.name, second.name, third.name] == [
        "Winter cup",
        "Winter cup (2)",
        "Winter cup (3)",
    ]
    assert same(tournament_export(tournament=second)) == same(
        another(1) | {"tournament": another(1)["tournament"] | {"name": "Winter cup (2)"}}
    )
    # Another day is another tournament.
    assert tournament_import(
        actor=director, club=club, data=another(3, date="2026-12-12")
    ).name == ("Winter cup")


def test_only_a_director_of_the_club_imports(archive, club):
    others = ClubFactory(directors=[UserFactory()]).directors.first()
    for outsider in (UserFactory(), others, None):
        with pytest.raises(PermissionDenied):
            tournament_import(actor=outsider, club=club, data=document_of(archive))
    assert not Tournament.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()


# ----------------------------------------------------------------------------- bad documents
# Each case breaks a copy of the archive and returns what the message must say: the path of the
# bad element first.
def _format(d):
    d["format"] = "something-else"
    return "format: must be thousand-one-tournament"


def _version(d):
    d["version"] = 2
    return "version: this site reads archives of version 1, not 2"


def _no_tournament(d):
    del d["tournament"]
    return "tournament: this key is missing"


def _blank_name(d):
    d["tournament"]["name"] = "   "
    return "tournament.name: must not be empty"


def _bad_rules(d):
    d["tournament"]["rules"] = {"no_such_option": True}
    return "tournament.rules: "


def _deals_format(d):
    d["tournament"]["deals_per_round"] = 4
    return "tournament.deals_per_round: With a fixed number of deals"


def _bad_date(d):
    d["tournament"]["date"] = "5.12.2026"
    return "tournament.date: must be a date such as 2026-12-04"


def _year_1900(d):
    d["tournament"]["date"] = "1900-01-01"
    return "tournament.date: A tournament's date is between 1 Jan 1950 and "


def _naive_time(d):
    d["players"][1]["created_at"] = "2026-12-05T10:00:00"
    return "players[1].created_at: must be a time with its offset"


def _bad_login(d):
    d["players"][0]["username"] = "no spaces allowed"
    return "players[0].username: is not a valid login name"


def _unknown_player(d):
    d["registrations"][0]["player"] = 999
    return "registrations[0].player: unknown player 999"


def _players_not_a_list(d):
    d["players"] = {"1": "Гравець 1"}
    return "players: must be a list"


def _round_numbers(d):
    d["rounds"][1]["number"] = 5
    return "rounds[1].number: must be 2"


def _too_many_rounds(d):
    d["rounds"].append(copy.deepcopy(d["rounds"][0]))
    return "rounds: the tournament plans 3 rounds, the archive has 4"


def _unknown_start_number(d):
    d["rounds"][2]["tables"][0]["seats"][1]["start_number"] = 17
    return "rounds[2].tables[0].seats[1].start_number: no registration has start number 17"


def _seat_twice(d):
    seats = d["rounds"][0]["tables"][0]["seats"]
    seats[1]["start_number"] = seats[0]["start_number"]
    return "rounds[0].tables[0].seats[1].start_number: start number"


def _player_and_bot(d):
    d["rounds"][0]["tables"][0]["seats"][0]["bot_level"] = "hard"
    return "rounds[0].tables[0].seats[0]: a seat holds a player (start_number) or a bot"


def _position_as_text(d):
    d["rounds"][0]["tables"][0]["seats"][0]["position"] = "0"
    return "rounds[0].tables[0].seats[0].position: must be a whole number"


def _flag_as_number(d):
    d["tournament"]["is_public"] = 1
    return "tournament.is_public: must be true or false"


def _broken_sheet(d):
    path, table = corrected_table(d)
    table["result"]["versions"][1]["sheet"] = {"mode": "deals", "rows": []}
    return f"{path}.result.versions[1].sheet: the sheet has no rows"


def _totals_mismatch(d):
    path, table = corrected_table(d)
    table["result"]["versions"][2]["totals"] = [1, 2, 3]
    return f"{path}.result.versions[2]: the totals, placements and winner do not match"


def _unknown_confirmed(d):
    path, table = corrected_table(d)
    table["result"]["confirmed"] = 1  # the disputed version
    return f"{path}.result.confirmed: no confirmed version 1 is listed"


def _nul_in_note(d):
    path, table = corrected_table(d)
    table["result"]["versions"][0]["note"] = "bad\x00note"
    return f"{path}.result.versions[0].note: must not hold the NUL character"


def _tampered_deck(d):
    path, table = live_table(d)
    deck = table["live_game"]["deals"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    return f"{path}.live_game.deals[0].commitment: does not match the deck and the salt"


def _illegal_action(d):
    path, table = live_table(d)
    actions = table["live_game"]["deals"][1]["actions"]
    actions[0]["action"] = {"seat": actions[0]["seat"], "type": "play", "card": "AS"}
    return f"{path}.live_game.deals[1].actions[0].action: "


def _action_numbers(d):
    path, table = live_table(d)
    table["live_game"]["deals"][0]["actions"][3]["sequence"] = 40
    return f"{path}.live_game.deals[0].actions[3].sequence: must be 4"


def _missing_deal(d):
    path, table = live_table(d)
    del table["live_game"]["deals"][-1]
    return f"{path}.live_game.sequence: must be "


def _finished_too_early(d):
    path, table = live_table(d, LiveGame.Status.PLAYING)
    table["live_game"]["status"] = "finished"
    return f"{path}.live_game.status: the actions do not end the game"


def _deal_in_play(d, *, finished_at=None):
    """A deal dealt from a deck the file's author chose, still to be played: he would know every
    hand of a game that goes on on the server."""
    path, table = live_table(d, LiveGame.Status.PLAYING)
    game = table["live_game"]
    deck, salt = list(CARD_NAMES), "ab" * 32
    dealer = (game["first_dealer"] + len(game["deals"])) % game["players"]
    dealt = DealState.deal(
        deck, players=game["players"], dealer=dealer, rules=RuleSet.from_dict(game["rules"])
    )
    game["deals"].append(
        {
            "number": len(game["deals"]) + 1,
            "dealer": dealer,
            "deck": deck,
            "salt": salt,
            "commitment": deck_commitment(deck, salt),
            "start_sequence": game["sequence"],
            "started_at": game["created_at"],
            "finished_at": finished_at,
            "actions": [],
        }
    )
    game["to_act"] = dealt.to_act
    return f"{path}.live_game.deals[{len(game['deals']) - 1}]: the actions do not end this deal"


def _deal_in_play_said_finished(d):
    path, table = live_table(d, LiveGame.Status.PLAYING)
    return _deal_in_play(d, finished_at=table["live_game"]["created_at"])


def _finished_deal_without_its_end(d):
    path, table = live_table(d)
    table["live_game"]["deals"][1]["finished_at"] = None
    return f"{path}.live_game.deals[1].finished_at: must be the time the deal ended"


def _name_turned_around(d):
    # Shown as "Evilexe.png": the direction override turns the text after it around.
    d["players"][0]["name"] = "Evil\u202egnp.exe\u200b\x07"
    return "players[0].name: The name has an invisible control character (U+202E)"


def _name_with_a_bell(d):
    d["players"][3]["name"] = "Гравець\x07 4"
    return "players[3].name: The name has an invisible control character (U+0007)"


def _name_of_nothing_visible(d):
    d["players"][2]["name"] = "\u200b\u3164"
    return "players[2].name: The name has no visible letters."


def _live_seat_name_turned_around(d):
    path, table = live_table(d)
    seats = table["live_game"]["seats"]
    index = next(index for index, seat in enumerate(seats) if seat["username"])
    seats[index]["name"] = "\u202eSomeone"
    return f"{path}.live_game.seats[{index}].name: The name has an invisible control character"


def _seat_change_name_turned_around(d):
    path, table = live_table(d, LiveGame.Status.PLAYING)
    table["live_game"]["seat_changes"][0]["from_name"] = "A\u2066B"
    return f"{path}.live_game.seat_changes[0].from_name: The name has an invisible control"


def _live_seat_twice(d):
    path, table = live_table(d)
    seats = table["live_game"]["seats"]
    humans = [seat for seat in seats if seat["username"]]
    humans[1]["username"] = humans[0]["username"]
    return f"{path}.live_game.seats[{seats.index(humans[1])}].username: the login"


def _deck_of_numbers(d):
    path, table = live_table(d)
    table["live_game"]["deals"][0]["deck"] = list(range(24))
    return f"{path}.live_game.deals[0].deck: must list the 24 cards by name"


def _huge_number(d):
    d["rounds"][0]["seed"] = 2**80
    return "rounds[0].seed: must be from"


BAD_DOCUMENTS = [
    _format,
    _version,
    _no_tournament,
    _blank_name,
    _bad_rules,
    _deals_format,
    _bad_date,
    _naive_time,
    _bad_login,
    _unknown_player,
    _players_not_a_list,
    _round_numbers,
    _too_many_rounds,
    _unknown_start_number,
    _seat_twice,
    _player_and_bot,
    _position_as_text,
    _flag_as_number,
    _broken_sheet,
    _totals_mismatch,
    _unknown_confirmed,
    _nul_in_note,
    _tampered_deck,
    _illegal_action,
    _action_numbers,
    _missing_deal,
    _finished_too_early,
    _deal_in_play,
    _deal_in_play_said_finished,
    _finished_deal_without_its_end,
    _name_turned_around,
    _name_with_a_bell,
    _name_of_nothing_visible,
    _live_seat_name_turned_around,
    _seat_change_name_turned_around,
    _live_seat_twice,
    _deck_of_numbers,
    _huge_number,
    _year_1900,
]


@pytest.mark.parametrize("change", BAD_DOCUMENTS, ids=lambda change: change.__name__[1:])
def test_a_bad_document_is_refused_with_the_path_of_the_bad_element(
    archive, director, club, change
):
    document = document_of(archive)
    message = change(document)

    with pytest.raises(ValidationError) as refused:
        tournament_import(actor=director, club=club, data=document)

    assert message in refused.value.messages[0]
    assert not Tournament.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()


def test_names_are_stored_as_the_registration_form_stores_them(archive, director, club):
    """Spaces and tabs around and inside a name and characters that show nothing go, as on the
    form (tournaments.services.player_name_clean); CSV files make a leading "=" inert."""
    document = document_of(archive)
    document["players"][0]["name"] = "\t=1+1"
    document["players"][1]["name"] = "  =cmd|  "
    document["players"][2]["name"] = "Олена \u200b  Коваль"
    _path, table = live_table(document)
    seat = next(seat for seat in table["live_game"]["seats"] if seat["username"])
    seat["name"] = " Гравець\t 1 "

    tournament = tournament_import(actor=director, club=club, data=document)

    names = [r.player.name for r in tournament.registrations.order_by("start_number")]
    assert names[:3] == ["=1+1", "=cmd|", "Олена Коваль"]
    assert LiveSeat.objects.filter(
        game__table__round__tournament=tournament, name="Гравець 1"
    ).exists()
    for name in names[:3]:
        assert services.player_name_clean(name) == name


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "The archive must be a JSON object."),
        ("archive", "The archive must be a JSON object."),
        ({}, "format: must be thousand-one-tournament"),
        ({"format": ARCHIVE_FORMAT}, "version: this key is missing"),
    ],
)
def test_what_is_no_archive_at_all_is_refused(director, club, data, message):
    with pytest.raises(ValidationError, match=message):
        tournament_import(actor=director, club=club, data=data)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe\x00garbage", "not UTF-8 text"),
        (b'{"format": ', "The file is not valid JSON: Expecting value (line 1, column 12)."),
        (b'{"seed": NaN}', "NaN is not a number"),
        (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    ],
    ids=["binary", "cut short", "NaN", "deep"],
)
def test_a_file_that_is_not_json_is_refused_clearly(raw, message):
    with pytest.raises(ValidationError) as refused:
        archive_loads(raw)
    assert message in refused.value.messages[0]


def test_an_archive_file_reads_back_as_the_document(archive):
    document = document_of(archive)
    assert archive_loads(archive_dumps(document).encode()) == document
    assert archive_loads("\ufeff" + archive_dumps(document)) == document


# ----------------------------------------------------------------------------- the declared schema
# Each case breaks a copy of the archive where the schema (archive/schema.py) refuses it, before
# any check of what the document means, and returns what the message must say.
def _unknown_key(d):
    d["rounds"][0]["tables"][0]["seats"][0]["colour"] = "red"
    return "rounds[0].tables[0].seats[0].colour: this key is not part of the archive format"


def _unknown_key_at_the_top(d):
    d["standings"] = []
    return "standings: this key is not part of the archive format"


def _number_as_text(d):
    d["tournament"]["rounds_planned"] = "3"
    return "tournament.rounds_planned: must be a whole number"


def _text_as_number(d):
    d["players"][2]["name"] = 12
    return "players[2].name: must be text of at most 120 characters"


def _list_for_an_object(d):
    path, table = live_table(d)
    table["live_game"]["deals"][0]["actions"][0]["action"] = ["pass"]
    return f"{path}.live_game.deals[0].actions[0].action: must be an object ({{...}})"


def _null_for_a_choice(d):
    d["registrations"][0]["status"] = None
    return "registrations[0].status: must be one of: 'active', 'withdrawn'"


def _unknown_choice(d):
    d["rounds"][1]["status"] = "cancelled"
    return "rounds[1].status: must be one of: 'draft', 'published', 'finished'"


def _position_out_of_bounds(d):
    d["rounds"][0]["tables"][0]["seats"][2]["position"] = 7
    return "rounds[0].tables[0].seats[2].position: must be from 0 to 3"


def _points_out_of_bounds(d):
    d["tournament"]["placement_points"]["4"][0] = 10**6
    return "tournament.placement_points.4[0]: must be a number from -10000 to 10000"


def _two_seats(d):
    del d["rounds"][0]["tables"][0]["seats"][2]
    return "rounds[0].tables[0].seats: a table has 3 or 4 seats"


def _too_many_players(d):
    d["players"] = d["players"] * 700
    return "players: must list at most 5000 elements"


def _long_salt(d):
    path, table = live_table(d)
    table["live_game"]["deals"][1]["salt"] = "ab" * 40
    return f"{path}.live_game.deals[1].salt: must be up to 64 lowercase hexadecimal digits"


def _unknown_card(d):
    path, table = live_table(d)
    deal, index, action = next(
        (deal, index, action)
        for deal, actions in enumerate(deal["actions"] for deal in table["live_game"]["deals"])
        for index, action in enumerate(actions)
        if action["action"]["type"] == "play"
    )
    action["action"]["card"] = "ZZ"
    return f"{path}.live_game.deals[{deal}].actions[{index}].action.card: must be one of: '9S'"


SCHEMA_REFUSALS = [
    _unknown_key,
    _unknown_key_at_the_top,
    _number_as_text,
    _text_as_number,
    _list_for_an_object,
    _null_for_a_choice,
    _unknown_choice,
    _position_out_of_bounds,
    _points_out_of_bounds,
    _two_seats,
    _too_many_players,
    _long_salt,
    _unknown_card,
]


@pytest.mark.parametrize("change", SCHEMA_REFUSALS, ids=lambda change: change.__name__[1:])
def test_the_schema_refuses_a_document_naming_the_path(archive, director, club, change):
    document = document_of(archive)
    message = change(document)

    with pytest.raises(ValidationError) as refused:
        tournament_import(actor=director, club=club, data=document)

    assert message in refused.value.messages[0]
    assert not Tournament.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()


def test_the_schema_names_the_first_problems_and_counts_the_others(archive, director, club):
    document = document_of(archive)
    for player in document["players"]:
        player["created_at"] = "yesterday"

    with pytest.raises(ValidationError) as refused:
        tournament_import(actor=director, club=club, data=document)

    assert refused.value.messages == [
        f"players[{n}].created_at: must be a time with its offset, such as "
        "2026-12-04T18:30:00+00:00"
        for n in range(MAX_REPORTED)
    ] + [f"{8 - MAX_REPORTED} more problems are not shown."]


def test_the_published_schema_is_generated_from_the_models():
    published = (settings.BASE_DIR / "docs" / "archive-schema.json").read_text(encoding="utf-8")
    assert published == archive_schema_text(), (
        "docs/archive-schema.json is out of date: "
        "python manage.py archive_schema -o docs/archive-schema.json"
    )
    out = io.StringIO()
    call_command("archive_schema", stdout=out)
    assert out.getvalue() == published


def test_an_export_fits_the_published_schema_and_a_stray_key_does_not(archive):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(archive_schema_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    document = document_of(archive)

    validator.validate(document)

    document["rounds"][0]["tables"][0]["seats"][0]["colour"] = "red"
    assert not validator.is_valid(document)


# ----------------------------------------------------------------------------- commands
def test_the_commands_import_and_export_through_files(archive, director, club, tmp_path):
    path = tmp_path / "winter.json"
    path.write_text(archive_dumps(document_of(archive)), encoding="utf-8")
    out = io.StringIO()
    call_command("import_tournament", str(path), "--club", club.slug, stdout=out)
    tournament = Tournament.objects.get(club=club)
    assert f"as tournament {tournament.pk}" in out.getvalue()

    again = tmp_path / "again.json"
    call_command("export_tournament", str(tournament.pk), "-o", str(again), stdout=io.StringIO())
    by_slug, by_file_name = io.StringIO(), io.StringIO()
    call_command("export_tournament", "winter-cup", stdout=by_slug)
    call_command("export_tournament", "winter-cup-2026-12-05.json", stdout=by_file_name)

    assert same(json.loads(again.read_text(encoding="utf-8"))) == same(archive)
    assert same(json.loads(by_slug.getvalue())) == same(archive)
    assert same(json.loads(by_file_name.getvalue())) == same(archive)


def test_the_import_command_acts_as_the_named_user(archive, director, club, tmp_path):
    path = tmp_path / "winter.json"
    path.write_text(archive_dumps(document_of(archive)), encoding="utf-8")
    outsider = UserFactory()

    with pytest.raises(CommandError, match="Only a director of this club"):
        call_command("import_tournament", str(path), "--club", club.slug, "--as", outsider.username)
    call_command(
        "import_tournament",
        str(path),
        "--club",
        club.slug,
        "--as",
        director.username,
        stdout=io.StringIO(),
    )
    assert Tournament.objects.filter(club=club).count() == 1


@pytest.mark.parametrize(
    ("content", "arguments", "message"),
    [
        ("{not json", [], "The file is not valid JSON"),
        ('{"format": "thousand-one-tournament", "version": 7}', [], "version: this site"),
        (None, [], "No such file"),
        ("{}", ["--club", "no-such-club"], "No club has the slug no-such-club"),
        ("{}", ["--as", "nobody-here"], "No user is called nobody-here"),
    ],
    ids=["not json", "newer version", "no file", "unknown club", "unknown user"],
)
def test_the_import_command_explains_what_is_wrong(club, tmp_path, content, arguments, message):
    path = tmp_path / "archive.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    options = {"--club": club.slug} | dict(zip(arguments[::2], arguments[1::2], strict=True))
    with pytest.raises(CommandError, match=message):
        call_command("import_tournament", str(path), *[a for kv in options.items() for a in kv])
    assert not Tournament.objects.exists()


def test_the_export_command_explains_an_unknown_tournament(club):
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_tournament", "424242")
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_tournament", "no-such-cup")


def test_a_failing_command_exits_with_a_message_and_no_traceback(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{broken", encoding="utf-8")
    finished = subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path), "--club", "any"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode != 0
    assert "The file is not valid JSON" in finished.stderr
    assert "Traceback" not in finished.stderr


# ----------------------------------------------------------------------------- director pages
@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def upload(content: bytes, name: str = "archive.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_a_director_downloads_the_archive_of_a_tournament(archive, desk, director, club):
    tournament = tournament_import(actor=director, club=club, data=document_of(archive))
    page = desk.get(reverse("director-tournament", args=[tournament.pk])).content.decode()
    url = reverse("director-tournament-archive", args=[tournament.pk])
    assert f'href="{url}"' in page

    response = desk.get(url)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="winter-cup-2026-12-05.json"'
    assert same(json.loads(response.content)) == same(archive)


def test_a_director_uploads_an_archive_and_gets_the_tournament(archive, desk, club):
    home = desk.get(reverse("director-home")).content.decode()
    assert reverse("director-tournament-import") in home and 'type="file"' in home

    content = archive_dumps(document_of(archive)).encode()
    response = desk.post(
        reverse("director-tournament-import"), {"club": club.pk, "file": upload(content)}
    )

    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert response["Location"] == reverse("director-tournament", args=[tournament.pk])
    assert same(tournament_export(tournament=tournament)) == same(archive)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text"),
        (b"[1, 2", "The file is not valid JSON"),
        (b'{"format": "thousand-one-tournament", "version": 1}', "tournament: this key is missing"),
        (b"", "The file is empty."),
    ],
    ids=["binary", "broken json", "incomplete", "empty"],
)
def test_a_bad_upload_is_answered_with_the_problem(desk, club, content, message):
    response = desk.post(
        reverse("director-tournament-import"), {"club": club.pk, "file": upload(content)}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_bad_element_of_an_upload_is_named(archive, desk, club):
    document = document_of(archive)
    message = _unknown_start_number(document)
    response = desk.post(
        reverse("director-tournament-import"),
        {"club": club.pk, "file": upload(archive_dumps(document).encode())},
    )
    assert response.status_code == 400
    assert message in response.content.decode()


def test_an_upload_too_large_is_refused(desk, club, monkeypatch):
    monkeypatch.setattr("web.views.director.ARCHIVE_MAX_BYTES", 100)
    response = desk.post(
        reverse("director-tournament-import"), {"club": club.pk, "file": upload(b" " * 200)}
    )
    assert response.status_code == 400
    assert "larger than" in response.content.decode()


def test_only_directors_of_the_club_download_or_import(archive, client, director, club):
    tournament = tournament_import(actor=director, club=club, data=document_of(archive))
    download = reverse("director-tournament-archive", args=[tournament.pk])
    importing = reverse("director-tournament-import")
    content = archive_dumps(document_of(archive)).encode()
    assert client.get(download).status_code == 302  # to sign in
    assert client.post(importing, {"club": club.pk, "file": upload(content)}).status_code == 302

    player = Player.objects.filter(club=club).exclude(user=None).first().user
    client.force_login(player)
    assert client.get(download).status_code == 403
    assert client.get(importing).status_code == 403
    assert client.post(importing, {"club": club.pk, "file": upload(content)}).status_code == 403

    other = UserFactory()
    ClubFactory(directors=[other])
    ClubFactory(directors=[other])
    client.force_login(other)
    assert client.get(download).status_code == 403
    response = client.post(importing, {"club": club.pk, "file": upload(content)})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_an_import_never_links_a_login_of_the_site_that_belongs_to_no_player(
    archive, director, club
):
    """Else a director could name any login in a file and sign in as it by a personal link."""
    from tournaments.selectors import player_personal_link

    document = document_of(archive)
    victim = UserFactory(username="site-admin", is_staff=True, is_superuser=True)
    visitor = UserFactory(username="practising-visitor")
    document["players"][0]["username"] = victim.username
    document["players"][2]["username"] = visitor.username

    tournament = tournament_import(actor=director, club=club, data=document)

    assert not Player.objects.filter(user__in=[victim, visitor]).exists()
    imported = tournament.registrations.get(start_number=1).player
    assert imported.user is None
    # His personal link makes him a login of his own, never the site's.
    client = Client()
    assert client.post(player_personal_link(tournament.registrations.get(start_number=1)))
    assert client.session.get("_auth_user_id") not in (None, str(victim.pk), str(visitor.pk))


def test_an_import_never_seats_another_clubs_login_nor_names_it_on_a_sheet(archive, director, club):
    """Else a director could seat another club's director at his live games from a file, or
    record that a stranger entered and confirmed his results."""
    document = document_of(archive)
    elsewhere = UserFactory(username="other-director")
    ClubFactory(directors=[elsewhere])
    visitor = UserFactory(username="practising-visitor")  # a password of his own
    tables = [table for round_ in document["rounds"] for table in round_["tables"]]
    game = next(table["live_game"] for table in tables if table["live_game"])
    seat = next(seat for seat in game["seats"] if seat["username"])
    seat["username"] = elsewhere.username
    version = next(table["result"] for table in tables if table["result"])["versions"][0]
    version["submitted_by"] = visitor.username
    version["reviewed_by"] = elsewhere.username

    tournament = tournament_import(actor=director, club=club, data=document)

    seats = LiveSeat.objects.filter(game__table__round__tournament=tournament)
    assert not seats.filter(user__in=[elsewhere, visitor]).exists()
    assert seats.get(user=None, name=seat["name"], position=seat["position"])
    assert not ResultVersion.objects.filter(
        Q(submitted_by__in=[elsewhere, visitor]) | Q(reviewed_by__in=[elsewhere, visitor])
    ).exists()
    # The logins the file's players have (made by the import) are kept.
    assert (
        seats.exclude(user=None).count()
        == sum(
            1
            for table in tables
            if table["live_game"]
            for s in table["live_game"]["seats"]
            if s["username"]
        )
        - 1
    )
