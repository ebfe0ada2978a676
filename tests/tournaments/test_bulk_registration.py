"""Registering a list of names at once, and the repeat meetings a draft draw shows."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from draws import selectors as draw_selectors
from draws import services as draw_services
from scoring.models import TableResult
from tests.factories import ClubFactory, PlayerFactory, UserFactory, enter_confirmed_result
from tournaments import services
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def tournament(director, club):
    return services.tournament_create(
        actor=director, club=club, name="Cup", date=datetime.date(2026, 12, 5), rounds_planned=3
    )


def register(director, tournament, names):
    return services.registration_create_from_names(
        actor=director, tournament=tournament, names=names
    )


def messages_of(excinfo) -> list[str]:
    return excinfo.value.messages


def test_new_names_become_players_registered_in_the_order_of_the_list(director, tournament):
    registrations = register(director, tournament, ["Olena", "", "  Taras   Shevchuk ", "Iryna"])

    assert [r.player.name for r in registrations] == ["Olena", "Taras Shevchuk", "Iryna"]
    assert [r.start_number for r in registrations] == [1, 2, 3]
    assert Player.objects.filter(club=tournament.club).count() == 3


def test_a_name_of_a_club_player_registers_that_player(director, club, tournament):
    known = PlayerFactory(club=club, name="Olena Koval")
    PlayerFactory(name="Olena Koval")  # another club's player is not a candidate

    (registration,) = register(director, tournament, ["OLENA  koval"])

    assert registration.player == known
    assert Player.objects.filter(club=club).count() == 1


def test_a_name_twice_on_the_list_registers_nobody(director, tournament):
    with pytest.raises(ValidationError) as excinfo:
        register(director, tournament, ["Olena", "Taras", "", "olena"])

    assert messages_of(excinfo) == ["Line 4: olena is already on line 1."]
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_a_repeated_name_and_other_bad_lines_are_all_named_at_once(director, tournament):
    with pytest.raises(ValidationError) as excinfo:
        register(director, tournament, ["Olena", "OLENA", "x" * 121])

    assert messages_of(excinfo) == [
        "Line 2: OLENA is already on line 1.",
        # A name too long is quoted by its beginning.
        f"Line 3 ({'x' * 39}…): A name has at most 120 characters.",
    ]
    assert not Player.objects.exists()


def test_one_bad_line_rolls_back_the_good_ones_and_every_bad_line_is_named(
    director, club, tournament
):
    register(director, tournament, ["Taras"])
    with pytest.raises(ValidationError) as excinfo:
        register(director, tournament, ["Olena", "Taras", "x" * 121, "Iryna"])

    assert messages_of(excinfo) == [
        "Line 2 (Taras): The player is already registered.",
        # A name too long is quoted by its beginning.
        f"Line 3 ({'x' * 39}…): A name has at most 120 characters.",
    ]
    assert list(tournament.registrations.values_list("player__name", flat=True)) == ["Taras"]
    assert not Player.objects.filter(name__in=["Olena", "Iryna"]).exists()


def test_a_list_of_one_name_keeps_the_services_own_words(director, tournament):
    register(director, tournament, ["Taras"])
    with pytest.raises(ValidationError) as excinfo:
        register(director, tournament, ["Taras"])

    assert messages_of(excinfo) == ["The player is already registered."]


def test_two_club_players_of_one_name_are_not_guessed_between(director, club, tournament):
    PlayerFactory.create_batch(2, club=club, name="Ivan")

    with pytest.raises(ValidationError) as excinfo:
        register(director, tournament, ["Ivan", "Olena"])

    assert "the club has 2 players named Ivan" in messages_of(excinfo)[0]
    assert not tournament.registrations.exists()


@pytest.mark.parametrize("names", [[], ["", "   "]])
def test_a_list_without_names_is_refused(director, tournament, names):
    with pytest.raises(ValidationError, match="The list has no names."):
        register(director, tournament, names)


def test_a_list_longer_than_the_limit_is_refused(director, tournament):
    names = [f"Player {n}" for n in range(services.BULK_NAMES_LIMIT + 1)]
    with pytest.raises(ValidationError, match="at most 500 lines"):
        register(director, tournament, names)
    assert not Player.objects.exists()


def test_a_withdrawn_player_on_the_list_rejoins(director, tournament):
    (registration,) = register(director, tournament, ["Olena"])
    services.registration_withdraw(actor=director, registration=registration)

    (again,) = register(director, tournament, ["Olena"])

    assert again.pk == registration.pk and again.status == Registration.Status.ACTIVE


def test_late_entries_from_a_list_play_from_the_next_round(director, tournament):
    register(director, tournament, [f"Player {n}" for n in range(8)])
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=1)

    with pytest.raises(ValidationError, match="drawn but not published") as excinfo:
        register(director, tournament, ["Late", "Later"])
    assert len(messages_of(excinfo)) == 1  # said once, not once per line

    draw_services.round_publish(actor=director, round_=round_)
    late = register(director, tournament, ["Late", "Later"])
    assert [r.first_round for r in late] == [2, 2]


def test_only_a_director_of_the_club_registers_a_list(tournament):
    outsider = UserFactory()
    ClubFactory(directors=[outsider])

    with pytest.raises(PermissionDenied):
        register(outsider, tournament, ["Olena"])
    assert not Player.objects.exists()


def test_repeat_meetings_count_the_pairs_at_a_table_who_met_before(director, tournament):
    register(director, tournament, [f"Player {n}" for n in range(8)])
    first = draw_services.round_draw(actor=director, tournament=tournament, seed=1)
    draw_services.round_publish(actor=director, round_=first)
    assert set(draw_selectors.repeat_meetings_by_table(first).values()) == {0}
    for table in first.tables.all():
        enter_confirmed_result(table, seed=table.pk)
    assert not TableResult.objects.exclude(status="confirmed").exists()

    second = draw_services.round_draw(actor=director, tournament=tournament, seed=2)
    # Put round 1's table 1 back together at round 2's table 1 by swapping seats.
    wanted = [s.registration_id for s in first.tables.get(number=1).seats.order_by("position")]
    for position, registration_id in enumerate(wanted):
        seat = second.seats.get(table__number=1, position=position)
        other = second.seats.get(registration_id=registration_id)
        if seat.pk != other.pk:
            draw_services.round_swap_seats(actor=director, round_=second, first=seat, second=other)

    repeats = draw_selectors.repeat_meetings_by_table(second)
    table_one = second.tables.get(number=1)
    assert repeats[table_one.pk] == 6  # four players, six pairs, all met in round 1


@pytest.mark.parametrize(
    "look_alike",
    [
        "Ірина\u200b Бондар",  # a zero-width space pasted from a chat
        "\u200eІрина Бондар\u200f",  # direction marks
        "\ufeffІрина Бондар",  # a byte order mark from a spreadsheet
        "Iрина Бондар",  # a Latin I on the wrong keyboard layout
        "ІРИНА   бондар",
    ],
)
def test_a_name_that_looks_the_same_is_the_same_player(director, tournament, club, look_alike):
    known = PlayerFactory(club=club, name="Ірина Бондар")

    (registration,) = register(director, tournament, [look_alike])

    assert registration.player == known
    assert Player.objects.filter(club=club).count() == 1


def test_look_alikes_in_one_list_are_one_name(director, tournament):
    with pytest.raises(ValidationError) as refused:
        register(director, tournament, ["Мар'яна Кос", "Марʼяна Кос", "Олена"])

    assert messages_of(refused) == ["Line 2: Марʼяна Кос is already on line 1."]


def test_a_new_players_name_is_stored_in_its_one_spelling(director, club):
    player = services.player_create(actor=director, club=club, name=" Мар'яна\u200b Kос ")

    assert player.name == "Мар'яна Кос"
    with pytest.raises(ValidationError, match="direction|control"):
        services.player_create(actor=director, club=club, name="Ivan \u202eokhcnep")
