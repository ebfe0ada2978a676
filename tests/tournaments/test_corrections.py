"""Corrections of registrations: rename a player, merge two club players, delete a registration
made by mistake; and the club players whose names are close to a new one ("did you mean")."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from draws import services as draw_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Player, Registration, TournamentEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


def tournament_with(director, club, names, name="Кубок"):
    tournament = services.tournament_create(
        actor=director, club=club, name=name, date=datetime.date(2026, 12, 5)
    )
    services.registration_create_from_names(actor=director, tournament=tournament, names=names)
    return tournament


def registration(tournament, name) -> Registration:
    return tournament.registrations.select_related("player").get(player__name=name)


FOUR = ["Олена Коваль", "Тарас Шевчук", "Андрій Мельник", "Наталія Ткачук"]


# --------------------------------------------------------------------------- rename
def test_a_typo_is_renamed_in_its_normal_spelling_and_recorded(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь"])
    typo = registration(tournament, "Ірина Бондарь")

    player = services.registration_player_rename(
        actor=director, registration=typo, name="  Ірина\u200b   Бондар "
    )

    assert Player.objects.get(pk=player.pk).name == "Ірина Бондар"
    event = tournament.events.get()
    assert event.kind == TournamentEvent.Kind.PLAYER_RENAMED
    assert event.details == {
        "player": player.pk,
        "before": "Ірина Бондарь",
        "after": "Ірина Бондар",
    }


def test_a_rename_to_another_club_players_name_is_refused_with_merge_suggested(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь", "Ірина Бондар"])

    with pytest.raises(ValidationError) as refused:
        services.registration_player_rename(
            actor=director,
            registration=registration(tournament, "Ірина Бондарь"),
            name="ірина бондар",
        )

    assert "merge the two players instead" in refused.value.message_dict["name"][0]
    assert not tournament.events.exists()


def test_a_rename_is_refused_for_bad_names_and_for_other_clubs_directors(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь"])
    typo = registration(tournament, "Ірина Бондарь")
    with pytest.raises(ValidationError):
        services.registration_player_rename(actor=director, registration=typo, name="x" * 121)
    with pytest.raises(ValidationError):
        services.registration_player_rename(actor=director, registration=typo, name="\u200b")
    outsider = UserFactory()
    ClubFactory(directors=[outsider])
    with pytest.raises(PermissionDenied):
        services.registration_player_rename(actor=outsider, registration=typo, name="Ірина")


# --------------------------------------------------------------------------- merge
def test_a_merge_moves_the_duplicates_registrations_and_login_and_is_recorded_everywhere(
    director, club
):
    earlier = tournament_with(director, club, ["Ірина Бондар", *FOUR], name="Осінь")
    tonight = tournament_with(director, club, ["Ірина Бондарь", *FOUR], name="Зима")
    kept = Player.objects.get(name="Ірина Бондар")
    duplicate = Player.objects.get(name="Ірина Бондарь")
    login = UserFactory()
    duplicate.user = login
    duplicate.save()
    moved = registration(tonight, "Ірина Бондарь")

    services.players_merge(actor=director, kept=kept, duplicate=duplicate)

    assert not Player.objects.filter(pk=duplicate.pk).exists()
    moved.refresh_from_db()
    assert moved.player == kept
    kept.refresh_from_db()
    assert kept.user == login
    for tournament in (earlier, tonight):
        event = tournament.events.get()
        assert event.kind == TournamentEvent.Kind.PLAYERS_MERGED
        assert event.details["kept"]["name"] == "Ірина Бондар"
        assert event.details["merged"]["name"] == "Ірина Бондарь"


def test_both_registered_where_only_one_has_seats_keeps_the_seated_registration(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь", "Тарас Шевчук", *FOUR[2:]])
    draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=tournament)
    )
    # A late entry of the right name: registered, but seated in no round yet.
    late = tournament_with(director, club, ["Ірина Бондар"], name="інший")
    kept = Player.objects.get(name="Ірина Бондар")
    services.registration_create(actor=director, tournament=tournament, player=kept)
    seated = registration(tournament, "Ірина Бондарь")

    services.players_merge(actor=director, kept=kept, duplicate=seated.player)

    seated.refresh_from_db()
    assert seated.player == kept
    assert tournament.registrations.filter(player=kept).count() == 1
    assert late.registrations.get().player == kept


def test_a_merge_is_refused_when_both_have_seats_in_one_tournament(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондар", "Ірина Бондарь", *FOUR[:2]])
    draw_services.round_draw(actor=director, tournament=tournament)
    kept, duplicate = (
        Player.objects.get(name="Ірина Бондар"),
        Player.objects.get(name="Ірина Бондарь"),
    )

    with pytest.raises(ValidationError) as refused:
        services.players_merge(actor=director, kept=kept, duplicate=duplicate)

    assert "both have seats drawn in Кубок" in refused.value.messages[0]
    assert Player.objects.filter(pk=duplicate.pk).exists()


def test_a_merge_is_refused_for_two_logins_one_player_or_another_club(director, club):
    first, second = (
        PlayerFactory(club=club, user=UserFactory()),
        PlayerFactory(club=club, user=UserFactory()),
    )
    with pytest.raises(ValidationError, match="both have a login"):
        services.players_merge(actor=director, kept=first, duplicate=second)
    with pytest.raises(ValidationError, match="two different players"):
        services.players_merge(actor=director, kept=first, duplicate=first)
    stranger = PlayerFactory()
    with pytest.raises(ValidationError, match="different clubs"):
        services.players_merge(actor=director, kept=PlayerFactory(club=club), duplicate=stranger)
    outsider = UserFactory()
    ClubFactory(directors=[outsider])
    with pytest.raises(PermissionDenied):
        services.players_merge(
            actor=outsider, kept=PlayerFactory(club=club), duplicate=PlayerFactory(club=club)
        )


# --------------------------------------------------------------------------- delete
def test_a_registration_by_mistake_is_deleted_with_its_new_player(director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь", *FOUR])
    typo = registration(tournament, "Ірина Бондарь")

    assert services.registration_delete(actor=director, registration=typo) is True

    assert not Registration.objects.filter(pk=typo.pk).exists()
    assert not Player.objects.filter(name="Ірина Бондарь").exists()
    event = tournament.events.get()
    assert event.kind == TournamentEvent.Kind.REGISTRATION_DELETED
    assert event.details["name"] == "Ірина Бондарь" and event.details["player_deleted"] is True


def test_a_deleted_registration_keeps_a_player_of_other_tournaments(director, club):
    tournament_with(director, club, ["Олена Коваль"], name="Осінь")
    tonight = tournament_with(director, club, ["Олена Коваль"], name="Зима")

    assert (
        services.registration_delete(
            actor=director, registration=registration(tonight, "Олена Коваль")
        )
        is False
    )
    assert Player.objects.filter(name="Олена Коваль").exists()


def test_a_registration_with_a_seat_is_not_deleted_but_withdrawn(director, club):
    tournament = tournament_with(director, club, FOUR)
    draw_services.round_draw(actor=director, tournament=tournament)  # a draft is drawn too

    with pytest.raises(ValidationError) as refused:
        services.registration_delete(actor=director, registration=registration(tournament, FOUR[0]))

    assert refused.value.messages == [
        "Олена Коваль has a seat in round 1, so the registration cannot be deleted: "
        "withdraw the player instead."
    ]
    outsider = UserFactory()
    ClubFactory(directors=[outsider])
    with pytest.raises(PermissionDenied):
        services.registration_delete(actor=outsider, registration=registration(tournament, FOUR[1]))


# --------------------------------------------------------------------------- did you mean
def test_close_club_players_are_found_for_new_names_only(director, club):
    tournament_with(director, club, ["Ірина Бондар", "Olena Koval", *FOUR])
    other_club = ClubFactory()
    PlayerFactory(club=other_club, name="Ірина Бондаренко")

    close = selectors.club_players_close_to(
        club, ["Ірина Бондарь", "Olena Kowal", "Олена Коваль", "Зоряна Лис"]
    )

    assert {name: [p.name for p in players] for name, players in close.items()} == {
        "Ірина Бондарь": ["Ірина Бондар"],
        "Olena Kowal": ["Olena Koval", "Олена Коваль"],
    }
