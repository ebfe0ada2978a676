"""The director's pages for finishing, reopening and deleting a tournament, and for correcting
its registrations (rename, merge, delete, "did you mean"), used as a director would."""

import datetime
import html

import pytest
from django.urls import reverse

from draws import services as draw_services
from tests.factories import ClubFactory, UserFactory, enter_confirmed_result
from tournaments import services
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db

FOUR = ["Олена Коваль", "Тарас Шевчук", "Андрій Мельник", "Наталія Ткачук"]


@pytest.fixture
def director():
    return UserFactory(first_name="Марко", last_name="Директор")


@pytest.fixture
def club(director):
    return ClubFactory(directors=[director])


@pytest.fixture
def desk(client, director):
    client.force_login(director)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def tournament_with(director, club, names=(), *, rounds=1, name="Friday cup"):
    tournament = services.tournament_create(
        actor=director, club=club, name=name, date=datetime.date(2026, 12, 4), rounds_planned=rounds
    )
    if names:
        services.registration_create_from_names(
            actor=director, tournament=tournament, names=list(names)
        )
    return tournament


def played_round(director, tournament, *, confirm=True):
    round_ = draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=tournament)
    )
    if confirm:
        for table in round_.tables.all():
            enter_confirmed_result(table, seed=table.pk)
    return round_


# --------------------------------------------------------------------------- finish
def test_an_empty_tournament_is_not_finished_but_deleted_and_leaves_the_home_page(
    desk, client, director, club
):
    tournament = tournament_with(director, club, rounds=5)
    finish = reverse("director-tournament-finish", args=[tournament.pk])

    page = text(desk.get(finish))
    assert "Nothing was played in this tournament yet" in page
    assert reverse("director-tournament-delete", args=[tournament.pk]) in page
    response = desk.post(finish, {"note": "done"})
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT

    delete = reverse("director-tournament-delete", args=[tournament.pk])
    assert "Delete the tournament Friday cup" in text(desk.get(delete))
    response = desk.post(delete, follow=True)
    assert "The tournament Friday cup" in text(response) and "is deleted" in text(response)
    assert not Tournament.objects.filter(pk=tournament.pk).exists()


def test_an_empty_tournament_finished_in_the_past_is_not_on_the_home_page(client, director, club):
    Tournament.objects.filter(pk=tournament_with(director, club, name="Empty cup").pk).update(
        status=Tournament.Status.FINISHED
    )
    played = tournament_with(director, club, FOUR, name="Played cup")
    played_round(director, played)
    services.tournament_finish(actor=director, tournament=played)

    page = text(client.get(reverse("home")))

    assert "Played cup" in page
    assert "Empty cup" not in page


def test_finishing_early_names_what_is_missing_asks_why_and_shows_it_in_the_history(
    desk, director, club
):
    tournament = tournament_with(
        director,
        club,
        [*FOUR, "Ірина Бондар", "Богдан Кравець", "Оксана Лисенко", "Юлія Савчук"],
        rounds=5,
    )
    round_ = played_round(director, tournament, confirm=False)
    enter_confirmed_result(round_.tables.get(number=1), seed=1)
    finish = reverse("director-tournament-finish", args=[tournament.pk])

    page = text(desk.get(finish))
    assert "The tournament is not complete: 3 things are not done yet." in page
    assert "4 rounds of 5 are not drawn (rounds 2 to 5)." in page
    assert "Table 2 of round 1 has no confirmed result." in page
    response = desk.post(finish, {"note": ""})
    assert response.status_code == 400
    assert "say why you finish it now" in text(response)
    assert desk.post(finish, {"note": "x" * 1001}).status_code == 400

    response = desk.post(finish, {"note": "The hall closes early"}, follow=True)

    assert "The tournament is finished." in text(response)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    history = text(desk.get(reverse("director-tournament", args=[tournament.pk])))
    assert "The hall closes early" in history
    assert "Марко Директор" in history
    assert "finished early: 3 things not done" in history


def test_a_complete_tournament_finishes_with_a_plain_confirmation(desk, director, club):
    tournament = tournament_with(director, club, FOUR)
    played_round(director, tournament)
    finish = reverse("director-tournament-finish", args=[tournament.pk])

    page = text(desk.get(finish))
    assert "every table has a confirmed result" in page
    assert 'name="note"' not in page
    assert desk.post(finish).status_code == 302

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.events.get().kind == "finished"


def test_a_finished_tournament_is_reopened_with_a_reason(desk, director, club):
    tournament = tournament_with(director, club, FOUR)
    played_round(director, tournament)
    services.tournament_finish(actor=director, tournament=tournament)
    page = text(desk.get(reverse("director-tournament", args=[tournament.pk])))
    reopen = reverse("director-tournament-reopen", args=[tournament.pk])
    assert reopen in page

    response = desk.post(reopen, {"note": "  "})
    assert response.status_code == 400
    assert "Say why you reopen the tournament." in text(response)
    response = desk.post(reopen, {"note": "Wrong button"}, follow=True)

    assert "The tournament is running again" in text(response)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert "Wrong button" in text(response)


def test_a_played_tournament_is_not_deleted(desk, director, club):
    tournament = tournament_with(director, club, FOUR)
    played_round(director, tournament)
    delete = reverse("director-tournament-delete", args=[tournament.pk])

    assert "cannot be deleted" in text(desk.get(delete))
    response = desk.post(delete)

    assert response.status_code == 400
    assert "Finish it instead" in text(response)
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_other_clubs_directors_may_not_use_these_pages(client, director, club):
    tournament = tournament_with(director, club, FOUR)
    outsider = UserFactory()
    ClubFactory(directors=[outsider])
    client.force_login(outsider)
    registration = tournament.registrations.first()
    for name, pk in [
        ("director-tournament-finish", tournament.pk),
        ("director-tournament-reopen", tournament.pk),
        ("director-tournament-delete", tournament.pk),
        ("director-registration-fix", registration.pk),
    ]:
        assert client.get(reverse(name, args=[pk])).status_code == 403
    for name in ("rename", "merge", "delete"):
        url = reverse(f"director-registration-{name}", args=[registration.pk])
        assert client.post(url, {"name": "X"}).status_code == 403
    assert Tournament.objects.filter(pk=tournament.pk).exists()


# --------------------------------------------------------------------------- registrations
def test_a_typo_is_renamed_from_the_registrations_correction_page(desk, director, club):
    tournament = tournament_with(director, club, ["Ірина Бондарь"])
    typo = tournament.registrations.get()
    listing = text(desk.get(reverse("director-registrations", args=[tournament.pk])))
    fix = reverse("director-registration-fix", args=[typo.pk])
    assert fix in listing

    page = text(desk.get(fix))
    assert "every tournament he plays in" in page
    assert (
        desk.post(reverse("director-registration-rename", args=[typo.pk]), {"name": ""}).status_code
        == 400
    )
    response = desk.post(
        reverse("director-registration-rename", args=[typo.pk]),
        {"name": "Ірина  Бондар"},
        follow=True,
    )

    assert "Ірина Бондарь is called Ірина Бондар now" in text(response)
    assert Player.objects.get(pk=typo.player_id).name == "Ірина Бондар"
    history = text(desk.get(reverse("director-tournament", args=[tournament.pk])))
    assert "Ірина Бондарь → Ірина Бондар" in history


def test_two_players_are_merged_from_the_correction_page(desk, director, club):
    earlier = tournament_with(director, club, ["Ірина Бондар"], name="Autumn")
    tonight = tournament_with(director, club, ["Ірина Бондарь"], name="Winter")
    typo = tonight.registrations.get()
    kept = earlier.registrations.get().player
    merge = reverse("director-registration-merge", args=[typo.pk])

    assert "Ірина Бондар" in text(desk.get(reverse("director-registration-fix", args=[typo.pk])))
    assert desk.post(merge, {"other": "999999", "keep": "other"}).status_code == 400
    assert desk.post(merge, {"other": kept.pk, "keep": "neither"}).status_code == 400
    response = desk.post(merge, {"other": kept.pk, "keep": "other"}, follow=True)

    assert "are one player now, Ірина Бондар" in text(response)
    typo.refresh_from_db()
    assert typo.player == kept
    assert not Player.objects.filter(name="Ірина Бондарь").exists()


def test_a_merge_refused_by_the_rules_says_why(desk, director, club):
    tournament = tournament_with(director, club, ["Ірина Бондар", "Ірина Бондарь", *FOUR[:2]])
    draw_services.round_draw(actor=director, tournament=tournament)
    typo = tournament.registrations.get(player__name="Ірина Бондарь")
    kept = Player.objects.get(name="Ірина Бондар")

    response = desk.post(
        reverse("director-registration-merge", args=[typo.pk]), {"other": kept.pk, "keep": "other"}
    )

    assert response.status_code == 400
    assert "both have seats drawn in Friday cup" in text(response)


def test_a_registration_by_mistake_is_deleted_one_with_a_seat_is_not(desk, director, club):
    tournament = tournament_with(director, club, FOUR)
    seated = tournament.registrations.get(player__name=FOUR[0])
    draw_services.round_draw(actor=director, tournament=tournament)
    page = text(desk.get(reverse("director-registration-fix", args=[seated.pk])))
    assert "has a seat in round 1" in page and "withdraw the player instead" in page

    response = desk.post(reverse("director-registration-delete", args=[seated.pk]))
    assert response.status_code == 400
    assert Registration.objects.filter(pk=seated.pk).exists()

    other = tournament_with(director, club, ["Зоряна Помилка"], name="Other cup")
    mistake = other.registrations.get()
    response = desk.post(reverse("director-registration-delete", args=[mistake.pk]), follow=True)
    assert "The registration of Зоряна Помилка is deleted, and so is the player" in text(response)
    assert not Registration.objects.filter(pk=mistake.pk).exists()


# --------------------------------------------------------------------------- did you mean
def test_a_name_close_to_a_club_player_asks_did_you_mean_and_registers_the_pick(
    desk, director, club
):
    tournament_with(director, club, ["Ірина Бондар"], name="Autumn")
    tonight = tournament_with(director, club, FOUR)
    add = reverse("director-registration-add", args=[tonight.pk])

    response = desk.post(add, {"name": "Ірина Бондарь"})

    assert response.status_code == 200
    page = text(response)
    assert "Did you mean a club player?" in page
    assert "Yes: register Ірина Бондар" in page
    assert "No: register Ірина Бондарь as a new player" in page
    assert not Player.objects.filter(name="Ірина Бондарь").exists()

    kept = Player.objects.get(name="Ірина Бондар")
    response = desk.post(add, {"player": kept.pk}, follow=True)
    assert "Ірина Бондар is registered with start number 5." in text(response)
    assert tonight.registrations.filter(player=kept).exists()
    assert desk.post(add, {"player": "nonsense"}).status_code == 400


def test_a_new_name_close_to_a_club_player_is_registered_once_confirmed(desk, director, club):
    tournament_with(director, club, ["Ірина Бондар"], name="Autumn")
    tonight = tournament_with(director, club, FOUR)
    add = reverse("director-registration-add", args=[tonight.pk])

    response = desk.post(add, {"name": "Ірина Бондарь", "new_name_confirmed": "on"}, follow=True)

    assert "Ірина Бондарь is registered" in text(response)
    assert Player.objects.filter(name="Ірина Бондарь").exists()


def test_a_pasted_list_is_registered_and_names_the_new_players_close_to_club_players(
    desk, director, club
):
    tournament_with(director, club, ["Ірина Бондар"], name="Autumn")
    tonight = tournament_with(director, club)

    response = desk.post(
        reverse("director-registration-bulk", args=[tonight.pk]),
        {"names": "Ірина Бондарь\nОлена Коваль\nТарас Шевчук"},
        follow=True,
    )

    page = text(response)
    assert "3 players are registered." in page
    assert "Check this new player" in page and "Ірина Бондарь (like Ірина Бондар)" in page
    assert tonight.registrations.count() == 3
