"""The director's pages, used as a director would: a whole tournament, permissions, bad input."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from draws import services as draw_services
from rules import RuleSet
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    game_sheet,
)
from tournaments import selectors, services
from tournaments.models import Player, Registration, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

NAMES = [
    "Олена Коваль",
    "Тарас Шевчук",
    "Ірина Бондар",
    "Андрій Мельник",
    "Наталія Ткачук",
    "Богдан Кравець",
    "Оксана Лисенко",
    "Михайло Гончар",
    "Юлія Савчук",
    "Василь Руденко",
]


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def tournament_data(**changes) -> dict:
    """A filled-in tournament settings form: every field with the RULES.md defaults."""
    data = {
        "name": "Friday cup",
        "date": "2026-12-04",
        "is_public": "on",
        "rounds_planned": "1",
        "table_size": "4",
        "round_format": "game",
        "deals_per_round": "",
        "seating_mode": "balanced",
        "precedence_1": "tournament_points",
        "precedence_2": "total_score",
        "precedence_3": "opponent_strength",
        "precedence_4": "games_won",
        "precedence_5": "average_placement",
        "precedence_6": "",
        "points_3_1": "3",
        "points_3_2": "1.5",
        "points_3_3": "0",
        "points_4_1": "3",
        "points_4_2": "2",
        "points_4_3": "1",
        "points_4_4": "0",
        "rule_min_bid": "40",
        "rule_bid_step": "5",
        "rule_bid_jumps": "on",
        "rule_bid_cap": "held_marriages",
        "rule_concede_bonus": "50",
        "rule_rounding": "5",
        "rule_target": "1001",
    }
    data.update(changes)
    return {name: value for name, value in data.items() if value is not None}


def sheet_data(sheet: dict, *, expected_version: int, note: str = "") -> dict:
    """The result entry form filled in with a deal-by-deal score sheet."""
    rows = sheet["rows"]
    data = {
        "mode": "deals",
        "expected_version": str(expected_version),
        "note": note,
        "rows-TOTAL_FORMS": str(len(rows) + 2),
        "rows-INITIAL_FORMS": "0",
    }
    for index, row in enumerate(rows):
        prefix = f"rows-{index}-"
        data[prefix + "dealer"] = str(row["dealer"])
        data[prefix + "declarer"] = str(row["declarer"])
        data[prefix + "bid"] = str(row["bid"])
        data[prefix + "contract"] = "" if row["contract"] is None else str(row["contract"])
        data[prefix + "outcome"] = row["outcome"]
        if row["forced"]:
            data[prefix + "forced"] = "on"
        for seat, score in enumerate(row["scores"]):
            data[prefix + f"score_{seat}"] = str(score)
    # Two blank rows at the end, as the page sends them: they are left out of the sheet.
    for index in (len(rows), len(rows) + 1):
        data[f"rows-{index}-dealer"] = str(index % len(rows[0]["scores"]))
    return data


def table_sheet_url(table: Table) -> str:
    return f"http://testserver{reverse('table-sheet', args=[table.pk])}"


def seated(round_: Round) -> list[list[int | None]]:
    return [
        [seat.registration_id for seat in table.seats.order_by("position")]
        for table in round_.tables.order_by("number")
    ]


def page(response) -> str:
    return response.content.decode()


def give_login(registration: Registration):
    user = UserFactory()
    registration.player.user = user
    registration.player.save(update_fields=["user"])
    return user


# --------------------------------------------------------------------------- the whole flow
def test_a_tournament_from_creation_to_the_end_through_the_directors_pages(
    desk, director, club, django_capture_on_commit_callbacks
):
    home = desk.get(reverse("director-home"))
    assert home.status_code == 200
    assert reverse("director-tournament-create") in page(home)

    # Create a tournament with a rule option of its own.
    form = desk.get(reverse("director-tournament-create"))
    assert form.status_code == 200
    for option in RuleSet.__dataclass_fields__:
        assert f"<code>{option}</code>" in page(form)
    response = desk.post(
        reverse("director-tournament-create"),
        tournament_data(rule_must_beat="on", rule_concede_bonus="40"),
    )
    tournament = Tournament.objects.get(name="Friday cup")
    assert response.status_code == 302
    assert response["Location"] == reverse("director-registrations", args=[tournament.pk])
    assert tournament.club == club
    assert tournament.rules == {"must_beat": True, "concede_bonus": 40}

    # Ten players pasted as a numbered list, two more from a spreadsheet's CSV.
    pasted = "\n".join(f"{n}. {name}" for n, name in enumerate(NAMES, start=1)) + "\n\n"
    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]), {"names": pasted}
    )
    assert response.status_code == 302
    assert sorted(tournament.registrations.values_list("player__name", flat=True)) == sorted(NAMES)
    upload = SimpleUploadedFile(
        "players.csv",
        "Name;Town\nМарія Поліщук;Львів\nДмитро Олійник;Київ\n".encode(),
        content_type="text/csv",
    )
    response = desk.post(
        reverse("director-registration-csv", args=[tournament.pk]), {"file": upload}
    )
    assert response.status_code == 302
    listing = page(desk.get(reverse("director-registrations", args=[tournament.pk])))
    assert "12 registrations" in listing
    assert "Дмитро Олійник" in listing and "Львів" not in listing
    assert list(
        tournament.registrations.order_by("start_number").values_list("start_number", flat=True)
    ) == list(range(1, 13))

    # Draw round 1: a preview only directors see, then another seed, a swap, and publish.
    response = desk.post(reverse("director-round-draw", args=[tournament.pk]), {"seed": "7"})
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert response["Location"] == reverse("director-round", args=[round_.pk])
    assert (round_.status, round_.seed) == (Round.Status.DRAFT, 7)
    preview = page(desk.get(reverse("director-round", args=[round_.pk])))
    assert "preview" in preview
    assert preview.count('class="table-card') == 3
    for name in NAMES:
        assert name in preview

    response = desk.post(reverse("director-round-redraw", args=[round_.pk]), {"seed": "8"})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.seed == 8
    before = seated(round_)

    first = Seat.objects.get(table__round=round_, table__number=1, position=0)
    second = Seat.objects.get(table__round=round_, table__number=2, position=3)
    response = desk.post(
        reverse("director-round-swap", args=[round_.pk]),
        {"first": first.pk, "second": second.pk},
    )
    assert response.status_code == 302
    after = seated(round_)
    assert after[0][0] == before[1][3] and after[1][3] == before[0][0]

    response = desk.post(reverse("director-round-publish", args=[round_.pk]))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED

    # Print: one page per table, each with the QR code of that table's result entry.
    tables = list(round_.tables.order_by("number"))
    printed = page(desk.get(reverse("director-round-print", args=[round_.pk])))
    assert printed.count("<svg") == len(tables) == 3
    assert printed.count('class="print-sheet"') == len(tables)
    for table in tables:
        assert table_sheet_url(table) in printed
    css = (Path(settings.BASE_DIR) / "static/css/director.css").read_text()
    rule = re.search(r"@media print \{.*?\.print-sheet \{(.*?)\}", css, re.S).group(1)
    assert "break-after: page" in rule

    # Results come in: table 2 waits for confirmation, table 3 is disputed, table 1 has none.
    rules = RuleSet.from_dict(tournament.rules)
    for table in tables[1:]:
        seats = list(table.seats.select_related("registration__player").order_by("position"))
        submitter, other = give_login(seats[0].registration), give_login(seats[1].registration)
        version = scoring_services.result_submit(
            actor=submitter,
            table=table,
            sheet=game_sheet(players=4, rules=rules, seed=table.number),
            expected_version=0,
        )
        if table.number == 3:
            scoring_services.result_dispute(
                actor=other, table=table, version_number=version.number, note="Deal 4 is wrong."
            )
    overview = page(desk.get(reverse("director-round", args=[round_.pk])))
    cards = dict(re.findall(r'data-table="(\d)">.*?class="badge status-(\w+)"', overview, re.S))
    assert cards == {"1": "pending", "2": "submitted", "3": "disputed"}
    assert "Deal 4 is wrong." in overview
    partial = desk.get(reverse("director-round-results", args=[round_.pk]))
    assert partial.status_code == 200 and 'hx-trigger="every 20s"' in page(partial)

    # The director enters table 1's sheet, then corrects it.
    entry = reverse("director-table-result", args=[tables[0].pk])
    assert desk.get(entry).status_code == 200
    first_sheet = game_sheet(players=4, rules=rules, seed=11)
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(entry, sheet_data(first_sheet, expected_version=0))
    assert response.status_code == 302, page(response)
    result = TableResult.objects.get(table=tables[0])
    assert (result.status, result.version) == (TableResult.Status.CONFIRMED, 1)
    assert result.confirmed.source == ResultVersion.Source.DIRECTOR

    corrected = game_sheet(players=4, rules=rules, seed=12)
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            entry, sheet_data(corrected, expected_version=1, note="Typed from the paper sheet.")
        )
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.version == 2 and result.confirmed.number == 2
    assert result.confirmed.sheet["rows"] == corrected["rows"]
    assert ResultVersion.objects.get(table=tables[0], number=1).status == "superseded"

    # The director confirms table 2 as submitted and decides table 3 with his own sheet.
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            reverse("director-table-confirm", args=[tables[1].pk]), {"version": "1"}
        )
    assert response.status_code == 302
    third_page = page(desk.get(reverse("director-table-result", args=[tables[2].pk])))
    assert "Deal 4 is wrong." in third_page
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            reverse("director-table-result", args=[tables[2].pk]),
            sheet_data(game_sheet(players=4, rules=rules, seed=3), expected_version=1),
        )
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    overview = page(desk.get(reverse("director-round", args=[round_.pk])))
    assert overview.count("badge status-confirmed") == 3 + 1  # three cards and the count

    # The only planned round is over: finish the tournament.
    response = desk.post(reverse("director-tournament-finish", args=[tournament.pk]), follow=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "The tournament is finished." in page(response)


def test_late_entry_withdrawal_and_return_between_rounds(desk, director, club, finish_round):
    tournament = TournamentFactory(club=club, rounds_planned=3)
    for name in NAMES[:8]:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(club=club, name=name))
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=1)
    players_page = reverse("director-registrations", args=[tournament.pk])

    # While the round is a draft, entries wait: the service says why.
    response = desk.post(
        reverse("director-registration-add", args=[tournament.pk]), {"name": "Петро Марченко"}
    )
    assert response.status_code == 400
    assert "so no player can be added now" in page(response)

    draw_services.round_publish(actor=director, round_=round_)
    response = desk.post(
        reverse("director-registration-add", args=[tournament.pk]),
        {"name": "Петро Марченко"},
        follow=True,
    )
    assert "plays from round 2" in page(response)
    late = Registration.objects.get(tournament=tournament, player__name="Петро Марченко")
    # The next start number after the eight (the factory numbers them across the whole run).
    highest = tournament.registrations.exclude(pk=late.pk).order_by("-start_number").first()
    assert late.first_round == 2 and late.start_number == highest.start_number + 1

    leaving = Registration.objects.get(tournament=tournament, player__name=NAMES[0])
    response = desk.post(reverse("director-registration-withdraw", args=[leaving.pk]))
    assert response["Location"] == players_page
    leaving.refresh_from_db()
    assert (leaving.status, leaving.withdrawn_after) == ("withdrawn", 1)
    assert "withdrawn after round 1" in page(desk.get(players_page))

    desk.post(reverse("director-registration-rejoin", args=[leaving.pk]))
    leaving.refresh_from_db()
    assert leaving.status == "active"

    finish_round(round_)
    response = desk.post(reverse("director-round-draw", args=[tournament.pk]), {"seed": ""})
    second = Round.objects.get(tournament=tournament, number=2)
    assert response["Location"] == reverse("director-round", args=[second.pk])
    assert late.pk in {seat.registration_id for seat in second.seats.all()}


def test_player_cards_carry_each_active_players_personal_link(desk, director, club):
    tournament = TournamentFactory(club=club)
    registrations = RegistrationFactory.create_batch(3, tournament=tournament)
    services.registration_withdraw(actor=director, registration=registrations[2])

    cards = page(desk.get(reverse("director-player-cards", args=[tournament.pk])))

    assert cards.count("<svg") == 2
    tokens = re.findall(r"http://testserver/me/link/([^/\s<]+)/", cards)
    linked = {selectors.registration_from_personal_link(token) for token in tokens}
    assert linked == set(registrations[:2])
    assert registrations[2].player.name not in cards


def test_settings_can_be_edited_and_the_format_is_locked_once_a_round_is_drawn(
    desk, director, club
):
    tournament = services.tournament_create(
        actor=director, club=club, name="Cup", date="2026-12-04", rounds_planned=2
    )
    edit = reverse("director-tournament-edit", args=[tournament.pk])
    response = desk.post(
        edit,
        tournament_data(
            name="Winter cup",
            rounds_planned="3",
            table_size="3",
            rule_rounding="10",
            precedence_1="total_score",
            precedence_2="tournament_points",
            precedence_6="random",
            points_3_2="1.25",
        ),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.rounds_planned, tournament.table_size) == (
        "Winter cup",
        3,
        "3",
    )
    assert tournament.rules == {"rounding": 10}
    assert tournament.standings_precedence[:2] == ["total_score", "tournament_points"]
    assert tournament.standings_precedence[-1] == "random"

    RegistrationFactory.create_batch(6, tournament=tournament)
    draw_services.round_draw(actor=director, tournament=tournament)
    form = page(desk.get(edit))
    assert 'name="table_size"' in form and "disabled" in form
    assert "the format and the rule options are fixed" in form
    # A changed rule option is ignored (the field is disabled); the name can still change.
    response = desk.post(
        edit, tournament_data(name="Renamed", table_size="4", rule_rounding="5", rounds_planned="2")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.table_size, tournament.rules) == (
        "Renamed",
        "3",
        {"rounding": 10},
    )


# --------------------------------------------------------------------------- permissions
@pytest.fixture
def world(director, club):
    """A tournament of the club with a published round and its tables."""
    tournament = TournamentFactory(club=club, rounds_planned=2)
    registrations = RegistrationFactory.create_batch(8, tournament=tournament)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    draw_services.round_publish(actor=director, round_=round_)
    return {
        "tournament": tournament,
        "round": round_,
        "table": round_.tables.order_by("number").first(),
        "registration": registrations[0],
    }


PAGES = [
    ("director-home", None),
    ("director-tournament-create", None),
    ("director-tournament", "tournament"),
    ("director-tournament-edit", "tournament"),
    ("director-registrations", "tournament"),
    ("director-player-cards", "tournament"),
    ("director-round", "round"),
    ("director-round-results", "round"),
    ("director-round-print", "round"),
    ("director-table-result", "table"),
]
ACTIONS = [
    ("director-tournament-create", None),
    ("director-tournament-edit", "tournament"),
    ("director-tournament-finish", "tournament"),
    ("director-registration-add", "tournament"),
    ("director-registration-bulk", "tournament"),
    ("director-registration-csv", "tournament"),
    ("director-registration-withdraw", "registration"),
    ("director-registration-rejoin", "registration"),
    ("director-round-draw", "tournament"),
    ("director-round-redraw", "round"),
    ("director-round-swap", "round"),
    ("director-round-publish", "round"),
    ("director-round-delete", "round"),
    ("director-table-result", "table"),
    ("director-table-confirm", "table"),
]
POSTED = {"names": "Intruder", "name": "Intruder", "seed": "5", "version": "1"}


def url_of(name, key, world):
    return reverse(name, args=[world[key].pk] if key else [])


@pytest.mark.parametrize(("name", "key"), PAGES + ACTIONS)
def test_anonymous_visitors_are_sent_to_sign_in(client, world, name, key):
    url = url_of(name, key, world)
    response = client.post(url, POSTED) if (name, key) in ACTIONS else client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def assert_refused(client, world, name, key):
    url = url_of(name, key, world)
    response = client.post(url, POSTED) if (name, key) in ACTIONS else client.get(url)
    assert response.status_code in (403, 404)
    assert not Player.objects.filter(name="Intruder").exists()
    assert Round.objects.filter(tournament=world["tournament"]).count() == 1
    assert world["tournament"].registrations.filter(status="active").count() == 8
    assert ResultVersion.objects.count() == 0


@pytest.mark.parametrize(("name", "key"), [(n, k) for n, k in PAGES + ACTIONS if k])
def test_a_director_of_another_club_is_refused(client, world, name, key):
    other = UserFactory()
    ClubFactory(directors=[other])
    client.force_login(other)
    assert_refused(client, world, name, key)


@pytest.mark.parametrize(("name", "key"), PAGES + ACTIONS)
def test_a_player_is_refused(client, world, name, key):
    client.force_login(give_login(world["registration"]))
    assert_refused(client, world, name, key)


def test_a_director_sees_and_creates_tournaments_of_his_own_clubs_only(client, world):
    other = UserFactory()
    own = ClubFactory(directors=[other])
    client.force_login(other)
    home = page(client.get(reverse("director-home")))
    assert world["tournament"].name not in home
    form = page(client.get(reverse("director-tournament-create")))
    assert f'value="{own.pk}"' in form and world["tournament"].club.name not in form
    client.post(
        reverse("director-tournament-create"), tournament_data(club=world["tournament"].club_id)
    )
    assert Tournament.objects.get(name="Friday cup").club == own


@pytest.mark.parametrize("data", [{}, {"rows-TOTAL_FORMS": "100000", "mode": "x", "seed": "1e9"}])
@pytest.mark.parametrize(("name", "key"), ACTIONS)
def test_empty_or_garbled_posts_are_answered_without_a_server_error(desk, world, name, key, data):
    response = desk.post(url_of(name, key, world), data)
    assert response.status_code in (200, 302, 400)


def test_a_post_without_the_csrf_token_is_refused(director, world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.post(
        reverse("director-registration-bulk", args=[world["tournament"].pk]), {"names": "X"}
    )
    assert response.status_code == 403
    assert not Player.objects.filter(name="X").exists()


def test_a_superuser_manages_every_club(client, world):
    client.force_login(UserFactory(is_superuser=True))
    assert client.get(url_of("director-round", "round", world)).status_code == 200


# --------------------------------------------------------------------------- bad input
@pytest.fixture
def tournament(director, club):
    return services.tournament_create(
        actor=director, club=club, name="Cup", date="2026-12-04", rounds_planned=2
    )


def registered_names(tournament) -> list[str]:
    return sorted(tournament.registrations.values_list("player__name", flat=True))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "This is not a CSV text file."),
        (b"", "The file is empty."),
        (b"   \n\n", "The file is empty."),
        (b"name;club\n;Lviv\n", "The file has no names."),
        (b'"Olena' + b"x" * 140_000, "The file is not valid CSV"),
        (b"x" * (600 * 1024), "The file is larger than 512 KB"),
    ],
    ids=["binary", "empty", "blank", "no names", "broken quotes", "too big"],
)
def test_a_bad_csv_file_is_refused_with_a_clear_message(desk, tournament, content, message):
    upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    response = desk.post(
        reverse("director-registration-csv", args=[tournament.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert message in page(response)
    assert registered_names(tournament) == []


def test_a_csv_file_from_excel_in_windows_1251_is_read(desk, tournament):
    upload = SimpleUploadedFile(
        "players.csv", "Ірина Бондар\nАндрій Мельник\n".encode("cp1251"), content_type="text/csv"
    )
    desk.post(reverse("director-registration-csv", args=[tournament.pk]), {"file": upload})
    assert set(registered_names(tournament)) == {"Андрій Мельник", "Ірина Бондар"}


def test_a_csv_row_breaking_a_rule_names_its_line_and_registers_nobody(desk, tournament):
    content = "name\nIryna\n" + "x" * 130 + "\n"
    upload = SimpleUploadedFile("players.csv", content.encode(), content_type="text/csv")
    response = desk.post(
        reverse("director-registration-csv", args=[tournament.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "Line 3 (" in page(response) and "at most 120 characters" in page(response)
    assert registered_names(tournament) == []
    assert not Player.objects.filter(name="Iryna").exists()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("", "Paste at least one name, one name per line."),
        ("   \n \n", "The list has no names."),
        ("Olena\nTaras\nolena \n", "Line 3: olena is already on line 1."),
    ],
    ids=["empty", "blank lines", "twice on the list"],
)
def test_a_bad_list_of_names_is_shown_again_with_a_message(desk, tournament, names, message):
    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]), {"names": names}
    )
    assert response.status_code == 400
    assert message in page(response)
    assert registered_names(tournament) == []
    if names.strip():
        assert names in page(response)  # the director fixes the list rather than retyping it


def test_names_of_club_players_register_them_and_registered_ones_are_reported(
    desk, club, tournament
):
    known = PlayerFactory(club=club, name="Olena Koval")
    desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]),
        {"names": "olena  KOVAL\nTaras"},
    )
    assert Player.objects.filter(club=club, name__iexact="olena koval").count() == 1
    assert tournament.registrations.filter(player=known).exists()

    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]),
        {"names": "Iryna\nOlena Koval"},
    )
    assert "Line 2 (Olena Koval): The player is already registered." in page(response)
    assert registered_names(tournament) == ["Olena Koval", "Taras"]

    response = desk.post(
        reverse("director-registration-add", args=[tournament.pk]), {"name": "Taras"}
    )
    assert "The player is already registered." in page(response)
    assert "Line 1" not in page(response)
    response = desk.post(reverse("director-registration-add", args=[tournament.pk]), {"name": " "})
    assert "Enter the player&#x27;s name." in page(response)


def test_two_club_players_of_one_name_must_be_registered_apart(desk, club, tournament):
    PlayerFactory.create_batch(2, club=club, name="Ivan Bilyk")
    response = desk.post(
        reverse("director-registration-bulk", args=[tournament.pk]), {"names": "Ivan Bilyk"}
    )
    assert "the club has 2 players named Ivan Bilyk" in page(response)
    assert registered_names(tournament) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rule_min_bid": "42"}, "rule option min_bid must be a multiple of 5"),
        ({"rule_rounding": "7"}, "Select a valid choice."),
        ({"rule_target": "50"}, "rule option target must be from 100 to 100000"),
        ({"rule_bid_step": "five"}, "Enter a whole number."),
        ({"precedence_1": "random"}, "so it can only be the last criterion"),
        ({"precedence_2": "tournament_points"}, "Tournament points is criterion 1 already"),
        ({"points_4_4": "5"}, "may not grow with the place"),
        ({"round_format": "deals", "deals_per_round": "7"}, "positive multiple of 12"),
        ({"rounds_planned": "0"}, "A tournament has from 1 to 60 rounds."),
        ({"name": "   "}, "This field is required."),
        ({"date": "31.02.2026"}, "Enter a valid date."),
        ({"date": "0001-01-01"}, "A tournament's date is between 1 Jan 1950 and "),
        ({"date": "9999-12-31"}, "A tournament's date is between 1 Jan 1950 and "),
    ],
)
def test_bad_settings_show_the_form_again_with_the_services_message(desk, club, changes, message):
    response = desk.post(reverse("director-tournament-create"), tournament_data(**changes))
    assert response.status_code == 400
    assert message in page(response).replace("&#x27;", "'")
    assert "The form was not saved." in page(response)
    assert not Tournament.objects.exists()


def test_bad_draw_input_is_explained(desk, director, tournament):
    draw = reverse("director-round-draw", args=[tournament.pk])
    response = desk.post(draw, {"seed": ""}, follow=True)
    assert "At least two players are needed for a round." in page(response)

    RegistrationFactory.create_batch(8, tournament=tournament)
    desk.post(draw, {"seed": "9"})
    round_ = Round.objects.get(tournament=tournament)
    response = desk.post(reverse("director-round-redraw", args=[round_.pk]), {"seed": "9"})
    assert response.status_code == 400
    assert "A redraw needs another seed." in page(response)
    response = desk.post(reverse("director-round-redraw", args=[round_.pk]), {"seed": "-1"})
    assert "greater than or equal to 0" in page(response)
    seat = round_.seats.first()
    response = desk.post(
        reverse("director-round-swap", args=[round_.pk]), {"first": seat.pk, "second": seat.pk}
    )
    assert response.status_code == 400
    assert "Pick two different seats of this round." in page(response)
    response = desk.post(
        reverse("director-round-swap", args=[round_.pk]), {"first": "nonsense", "second": ""}
    )
    assert response.status_code == 400
    assert "Select a valid choice." in page(response)
    response = desk.post(draw, {"seed": "1"}, follow=True)
    assert "Round 1 is drawn already: publish or redraw it." in page(response)
    response = desk.post(reverse("director-tournament-finish", args=[tournament.pk]))
    assert response.status_code == 400
    assert "Nothing was played in this tournament yet" in page(response)

    desk.post(reverse("director-round-delete", args=[round_.pk]))
    assert not Round.objects.filter(tournament=tournament).exists()


@pytest.fixture
def playing(director, club):
    tournament = TournamentFactory(club=club, rounds_planned=1)
    RegistrationFactory.create_batch(4, tournament=tournament)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get()


def test_a_sheet_that_breaks_a_rule_is_shown_again_with_the_row_and_the_rule(desk, playing):
    sheet = game_sheet(players=4, seed=1)
    sheet["rows"][2]["scores"][sheet["rows"][2]["declarer"]] += 5
    response = desk.post(
        reverse("director-table-result", args=[playing.pk]), sheet_data(sheet, expected_version=0)
    )
    assert response.status_code == 200
    text = page(response)
    assert "The result was not saved" in text
    assert re.search(r"row 3: the declarer \(seat [1-4]\) (made|failed) the contract", text)
    assert TableResult.objects.get(table=playing).version == 0
    # The rows come back as entered, to be fixed rather than typed again.
    assert f'value="{sheet["rows"][2]["bid"]}"' in text


def test_a_row_with_missing_fields_is_marked(desk, playing):
    data = sheet_data(game_sheet(players=4, seed=1), expected_version=0)
    data["rows-1-bid"] = ""
    data["rows-1-score_2"] = "abc"
    response = desk.post(reverse("director-table-result", args=[playing.pk]), data)
    assert response.status_code == 200
    assert "Row 2, Bid: Enter the bid." in page(response)
    assert "Row 2, Seat 3" in page(response)  # score_2: seats count from 1 on the page
    assert TableResult.objects.get(table=playing).version == 0


def test_a_result_saved_meanwhile_is_a_conflict_not_an_overwrite(desk, director, playing):
    sheet = game_sheet(players=4, seed=1)
    scoring_services.result_submit(
        actor=director, table=playing, sheet=game_sheet(players=4, seed=2), expected_version=0
    )
    response = desk.post(
        reverse("director-table-result", args=[playing.pk]), sheet_data(sheet, expected_version=0)
    )
    assert response.status_code == 409
    assert "Version 1 of this result was saved meanwhile" in page(response)
    assert 'name="expected_version" value="1"' in page(response)
    assert TableResult.objects.get(table=playing).version == 1


def test_final_totals_only_when_the_tournament_allows_them(desk, playing):
    url = reverse("director-table-result", args=[playing.pk])
    data = {"mode": "totals", "expected_version": "0", "note": ""}
    data.update(total_0="1005", total_1="420", total_2="-35", total_3="300", winner="")
    response = desk.post(url, data)
    assert response.status_code == 200
    assert "does not accept final totals only" in page(response)
    assert "Final totals only" not in page(desk.get(url))

    tournament = playing.round.tournament
    tournament.quick_results_allowed = True
    tournament.save()
    assert "Final totals only" in page(desk.get(url + "?mode=totals"))
    response = desk.post(url, data)
    assert response.status_code == 302
    result = TableResult.objects.get(table=playing)
    assert result.confirmed.totals == [1005, 420, -35, 300]


def test_a_correction_of_the_totals_names_the_new_highest_total_the_winner(desk, playing):
    tournament = playing.round.tournament
    tournament.quick_results_allowed = True
    tournament.save()
    url = reverse("director-table-result", args=[playing.pk])
    data = {"mode": "totals", "expected_version": "0", "note": ""}
    data.update(total_0="1005", total_1="500", total_2="300", total_3="100", winner="")
    assert desk.post(url, data).status_code == 302

    form = page(desk.get(url + "?mode=totals"))
    # The winner the highest total named is offered as "the highest total", not as seat 1.
    selected = re.search(r'<select name="winner"[^>]*>(.*?)</select>', form, re.S)[1]
    assert re.search(r'<option value="" selected>', selected)
    corrected = data | {"expected_version": "1", "winner": ""}
    corrected.update(total_0="100", total_3="1005")
    assert desk.post(url, corrected).status_code == 302
    result = TableResult.objects.get(table=playing)
    assert result.confirmed.totals == [100, 500, 300, 1005]
    assert result.confirmed.winner_position == 3


def test_more_rows_can_be_added_to_a_long_sheet(desk, playing):
    url = reverse("director-table-result", args=[playing.pk])
    data = sheet_data(game_sheet(players=4, seed=1), expected_version=0)
    rows = int(data["rows-TOTAL_FORMS"])
    response = desk.post(url, data | {"add_rows": "1"})
    assert response.status_code == 200
    assert f'name="rows-TOTAL_FORMS" value="{rows + 10}"' in page(response)
    assert TableResult.objects.get(table=playing).version == 0


def test_a_draft_round_has_no_result_to_enter(desk, director, club):
    tournament = TournamentFactory(club=club)
    RegistrationFactory.create_batch(4, tournament=tournament)
    table = draw_services.round_draw(actor=director, tournament=tournament).tables.get()
    url = reverse("director-table-result", args=[table.pk])
    assert "not published yet" in page(desk.get(url))
    response = desk.post(url, sheet_data(game_sheet(players=4, seed=1), expected_version=0))
    assert response.status_code == 200
    assert "The round of this table is not published yet." in page(response)


def test_the_pages_render_in_ukrainian_too(desk, world):
    desk.cookies[settings.LANGUAGE_COOKIE_NAME] = "uk"
    for name, key in PAGES:
        response = desk.get(url_of(name, key, world))
        assert response.status_code == 200
        assert name == "director-round-results" or '<html lang="uk">' in page(response)


def test_a_new_personal_link_replaces_a_lost_card(desk, director, club):
    tournament = TournamentFactory(club=club)
    lost, kept = RegistrationFactory.create_batch(2, tournament=tournament)
    old = selectors.player_personal_link(lost)
    listing = page(desk.get(reverse("director-registrations", args=[tournament.pk])))
    assert reverse("director-registration-new-link", args=[lost.pk]) in listing

    response = desk.post(reverse("director-registration-new-link", args=[lost.pk]), follow=True)

    cards = page(response)
    assert "new personal link" in cards and cards.count("<svg") == 1
    assert lost.player.name in cards and kept.player.name not in cards
    (token,) = re.findall(r"http://testserver/me/link/([^/\s<]+)/", cards)
    assert selectors.registration_from_personal_link(token) == lost
    assert selectors.registration_from_personal_link(old.split("/")[-2]) is None
    # The other players' cards still work.
    assert (
        selectors.registration_from_personal_link(
            selectors.player_personal_link(kept).split("/")[-2]
        )
        == kept
    )
