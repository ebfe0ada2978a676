"""Getting in without a password (issue 13): the table's QR code opens "which seat is yours?",
where the code of the player card signs the phone in; the home page's entry takes the code alone;
a director hands a phone to a player. And the player's pages' live status: a poll answers 204
until what the page shows has changed.
"""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from draws import services as draw_services
from scoring import services as scoring_services
from tests.factories import ClubFactory, PlayerFactory, UserFactory, enter_confirmed_result
from tests.factories import game_sheet as engine_game_sheet
from tournaments import services
from tournaments.models import ENTRY_CODE_ALPHABET, Registration, Tournament
from tournaments.selectors import entry_code_clean, player_personal_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


def running_tournament(director, *, name="Friday Cup", players=8, is_public=True, logins=False):
    """A tournament with round 1 published at tables of four; players without logins unless
    `logins` (as when a director pastes a list of names)."""
    club = director.directed_clubs.first() or ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name=name,
        date=datetime.date(2026, 12, 4),
        is_public=is_public,
    )
    for number in range(players):
        user = UserFactory() if logins else None
        player = PlayerFactory(club=club, name=f"{name} player {number}", user=user)
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=round_)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def tournament(director):
    return running_tournament(director)


@pytest.fixture
def table(tournament):
    return tournament.rounds.get(number=1).tables.get(number=1)


def seat_url(table):
    return reverse("table-seat", args=[table.pk])


def sheet_url(table):
    return reverse("table-sheet", args=[table.pk])


def registration_at(table, position):
    return table.seats.select_related("registration__player").get(position=position).registration


def signed_in_user(client):
    from django.contrib.auth import get_user

    return get_user(client)


# ----------------------------------------------------------------------------- the code itself
def test_every_registration_gets_its_own_code_from_the_unambiguous_alphabet(tournament):
    codes = list(tournament.registrations.values_list("entry_code", flat=True))

    assert len(set(codes)) == len(codes) == 8
    for code in codes:
        assert len(code) == 6 and set(code) <= set(ENTRY_CODE_ALPHABET)
    assert not set("01OILU") & set(ENTRY_CODE_ALPHABET)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("k7m4px", "K7M4PX"),
        (" K7M 4PX ", "K7M4PX"),
        ("k7m-4px", "K7M4PX"),
        ("К7М 4РХ", "K7M4PX"),  # typed on a Ukrainian keyboard: Cyrillic look-alikes
        ("K7M4P", None),
        ("K7M4PXX", None),
        ("O7M4PX", None),  # no O in the alphabet
        ("K7M4P\ud800", None),
        ("x" * 5000, None),
        (None, None),
    ],
)
def test_a_typed_code_is_read_in_any_case_with_spaces_and_cyrillic_look_alikes(typed, read):
    assert entry_code_clean(typed) == read


# ----------------------------------------------------------------------------- which seat is yours
def test_the_table_qr_code_opens_which_seat_is_yours_for_a_visitor(client, table):
    response = client.get(sheet_url(table), follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(seat_url(table), 302)]
    assert "Which seat is yours?" in page
    for seat in table.seats.select_related("registration__player"):
        assert seat.registration.player.name in page
        assert seat.registration.entry_code not in page  # the codes are on the cards only
    assert 'type="password"' not in page
    assert reverse("login") not in page.split('id="content"', 1)[1].split("Tournament director")[0]


def test_a_private_tournaments_seat_page_names_nobody(client, director):
    private = running_tournament(director, name="Secret Cup", players=4, is_public=False)
    table = private.rounds.get(number=1).tables.get()

    page = client.get(seat_url(table)).content.decode()

    assert "Seat 1" in page and "Seat 4" in page
    assert "Secret Cup" not in page
    assert "player" not in page.split("<fieldset", 1)[1].split("</fieldset>")[0]


def test_a_draft_tables_seat_page_is_not_found(client, director, tournament):
    fresh = services.tournament_create(
        actor=director, club=tournament.club, name="Later Cup", date=datetime.date(2026, 12, 5)
    )
    for number in range(4):
        player = PlayerFactory(club=tournament.club, name=f"Later {number}")
        services.registration_create(actor=director, tournament=fresh, player=player)
    draft = draw_services.round_draw(actor=director, tournament=fresh, seed=3)

    assert client.get(seat_url(draft.tables.get())).status_code == 404
    client.force_login(director)
    assert client.get(seat_url(draft.tables.get())).status_code == 302  # on to the sheet


def test_the_code_of_the_chosen_seat_signs_in_a_player_without_a_login(client, table):
    registration = registration_at(table, 2)
    assert registration.player.user is None

    response = client.post(
        seat_url(table), {"seat": 2, "code": registration.entry_code.lower()}, follow=True
    )

    assert response.redirect_chain == [(sheet_url(table), 302)]
    registration.player.refresh_from_db()
    user = registration.player.user
    assert user is not None and not user.has_usable_password()
    assert signed_in_user(client) == user
    page = response.content.decode()
    assert f"This phone is signed in as {registration.player.name}" in page
    assert "Enter the score sheet" in page
    # The phone now goes straight to the sheet from the table's QR code.
    assert client.get(seat_url(table))["Location"] == sheet_url(table)


def test_a_wrong_code_is_refused_on_the_page_and_signs_nobody_in(client, table):
    first, second = registration_at(table, 0), registration_at(table, 1)

    response = client.post(seat_url(table), {"seat": 0, "code": second.entry_code})

    assert response.status_code == 400
    assert "This is not the code of this seat" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.post(seat_url(table), {"seat": 0, "code": ""}).status_code == 400
    assert client.post(seat_url(table), {"seat": 9, "code": first.entry_code}).status_code == 400
    assert client.post(seat_url(table), {"seat": "x", "code": "Z" * 5000}).status_code == 400


def test_guessing_a_seats_code_is_limited_like_a_password(table, settings):
    settings.LOGIN_RATE_LIMIT = {
        "window": 900,
        "per_user_and_address": 5,
        "per_user": 20,
        "per_address": 50,
    }
    registration = registration_at(table, 1)
    client = Client(REMOTE_ADDR="203.0.113.7")
    for guess in range(5):
        assert (
            client.post(seat_url(table), {"seat": 1, "code": f"AAAA{guess + 2}2"}).status_code
            == 400
        )

    refused = client.post(seat_url(table), {"seat": 1, "code": registration.entry_code})

    assert refused.status_code == 429 and refused["Retry-After"] == "900"
    assert "Too many failed sign-in attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    # Another seat, and the same seat from another address, are not locked out.
    other = registration_at(table, 2)
    assert client.post(seat_url(table), {"seat": 2, "code": other.entry_code}).status_code == 302
    elsewhere = Client(REMOTE_ADDR="198.51.100.9")
    assert (
        elsewhere.post(seat_url(table), {"seat": 1, "code": registration.entry_code}).status_code
        == 302
    )


def test_a_code_of_another_tournament_never_opens_this_one(client, director, table):
    other = running_tournament(director, name="Other Cup", players=4)
    stranger = other.registrations.first()

    response = client.post(seat_url(table), {"seat": 0, "code": stranger.entry_code})

    assert response.status_code == 400 and "_auth_user_id" not in client.session


def test_a_seat_taken_by_a_signed_in_player_is_not_stolen(table):
    """The code authenticates the registration, not the seat: a table-mate without the seat's
    code cannot take it, and the phone already signed in as its player stays signed in."""
    mine, theirs = registration_at(table, 0), registration_at(table, 1)
    owner = Client()
    assert owner.post(seat_url(table), {"seat": 0, "code": mine.entry_code}).status_code == 302
    mate = Client()

    taken = mate.post(seat_url(table), {"seat": 0, "code": theirs.entry_code})

    assert taken.status_code == 400 and "_auth_user_id" not in mate.session
    # With the right code the player signs in on a second phone too; the first one stays in.
    assert mate.post(seat_url(table), {"seat": 0, "code": mine.entry_code}).status_code == 302
    mine.player.refresh_from_db()
    assert signed_in_user(owner) == signed_in_user(mate) == mine.player.user


def test_a_phone_signed_in_as_a_table_mate_can_be_handed_over(client, table):
    first, second = registration_at(table, 0), registration_at(table, 1)
    client.post(seat_url(table), {"seat": 0, "code": first.entry_code})

    switch = client.get(seat_url(table) + "?switch=1")
    assert switch.status_code == 200 and "Which seat is yours?" in switch.content.decode()
    client.post(seat_url(table), {"seat": 1, "code": second.entry_code})

    second.player.refresh_from_db()
    assert signed_in_user(client) == second.player.user


def test_a_code_does_not_sign_in_a_withdrawn_player_a_finished_tournament_or_a_director(
    client, director, tournament, table
):
    seated = registration_at(table, 0)
    services.registration_withdraw(actor=director, registration=seated)
    withdrawn = client.post(seat_url(table), {"seat": 0, "code": seated.entry_code})
    assert withdrawn.status_code == 400 and "withdrawn" in withdrawn.content.decode()

    boss = registration_at(table, 1)
    boss.player.user = UserFactory()
    boss.player.save()
    tournament.club.directors.add(boss.player.user)
    refused = client.post(seat_url(table), {"seat": 1, "code": boss.entry_code})
    assert refused.status_code == 400 and "cannot sign in a director" in refused.content.decode()

    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    late = registration_at(table, 2)
    over = client.post(seat_url(table), {"seat": 2, "code": late.entry_code})
    assert over.status_code == 400 and "tournament is over" in over.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_new_link_gives_a_new_code_and_the_old_one_stops(client, director, table):
    registration = registration_at(table, 0)
    old = registration.entry_code

    renewed = services.personal_link_renew(actor=director, registration=registration)

    assert renewed.entry_code != old
    assert client.post(seat_url(table), {"seat": 0, "code": old}).status_code == 400
    assert client.post(seat_url(table), {"seat": 0, "code": renewed.entry_code}).status_code == 302


# ----------------------------------------------------------------------------- the director
def test_a_director_on_the_phone_opens_the_sheet_or_hands_the_phone_to_a_player(
    client, director, table
):
    client.force_login(director)
    assert client.get(seat_url(table))["Location"] == sheet_url(table)
    page = client.get(seat_url(table) + "?switch=1").content.decode()
    registration = registration_at(table, 3)
    assert f"sign this phone in as {registration.player.name}" in page

    response = client.post(reverse("table-seat-hand-over", args=[table.pk, 3]))

    assert response["Location"] == sheet_url(table)
    registration.player.refresh_from_db()
    assert signed_in_user(client) == registration.player.user


def test_only_a_director_hands_a_phone_over(client, table):
    client.force_login(UserFactory())

    assert client.post(reverse("table-seat-hand-over", args=[table.pk, 0])).status_code == 403
    assert client.post(reverse("table-seat-hand-over", args=[table.pk, 7])).status_code == 404


# ----------------------------------------------------------------------------- home page entry
def test_for_players_on_the_home_page_leads_to_the_code_entry(client):
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("player-enter")}"' in home

    response = client.get(reverse("player-home"), follow=True)

    page = response.content.decode()
    assert response.redirect_chain[-1][0].startswith(reverse("player-enter"))
    assert "The code on your player card" in page and 'type="password"' not in page


def test_the_code_alone_signs_in_from_the_home_page(client, table):
    registration = registration_at(table, 1)

    response = client.post(
        reverse("player-enter"), {"code": registration.entry_code_display}, follow=True
    )

    page = response.content.decode()
    assert response.redirect_chain == [(reverse("player-home"), 302)]
    assert "Table 1" in page and "Seat 2" in page
    wrong = client.post(reverse("player-enter"), {"code": "ZZZZZZ"})
    assert wrong.status_code == 400 and "No player has this code" in wrong.content.decode()


def test_the_entry_goes_back_only_to_a_page_of_this_site(client, table):
    registration = registration_at(table, 1)

    kept = client.post(
        reverse("player-enter"), {"code": registration.entry_code, "next": sheet_url(table)}
    )
    client.logout()
    foreign = client.post(
        reverse("player-enter"),
        {"code": registration.entry_code, "next": "https://evil.example/"},
    )

    assert kept["Location"] == sheet_url(table)
    assert foreign["Location"] == reverse("player-home")


def test_guessing_codes_on_the_home_page_is_limited_by_address(settings):
    settings.LOGIN_RATE_LIMIT = {
        "window": 900,
        "per_user_and_address": 5,
        "per_user": 20,
        "per_address": 3,
    }
    client = Client(REMOTE_ADDR="203.0.113.8")
    for guess in "234":
        assert client.post(reverse("player-enter"), {"code": f"ZZZZZ{guess}"}).status_code == 400

    assert client.post(reverse("player-enter"), {"code": "ZZZZZ5"}).status_code == 429


def test_codes_guessed_from_the_rooms_address_do_not_lock_out_the_directors_password(
    settings, director, tournament
):
    # The whole room shares one address behind the club's router.
    settings.LOGIN_RATE_LIMIT = {
        "window": 900,
        "per_user_and_address": 5,
        "per_user": 20,
        "per_address": 3,
    }
    director.set_password("a long director's password")
    director.save()
    guesser, desk = Client(REMOTE_ADDR="203.0.113.9"), Client(REMOTE_ADDR="203.0.113.9")
    for guess in "2345":
        guesser.post(reverse("player-enter"), {"code": f"ZZZZZ{guess}"})
    assert guesser.post(reverse("player-enter"), {"code": "ZZZZZ6"}).status_code == 429

    signed_in = desk.post(
        reverse("login"),
        {"username": director.username, "password": "a long director's password"},
    )

    assert signed_in.status_code == 302 and "_auth_user_id" in desk.session
    # Nor does a password guesser (in another room) lock the players' codes there.
    sprayer, other = Client(REMOTE_ADDR="203.0.113.10"), Client(REMOTE_ADDR="203.0.113.10")
    for guess in range(4):
        sprayer.post(reverse("login"), {"username": f"nobody{guess}", "password": "wrong"})
    assert sprayer.post(reverse("login"), {"username": "x", "password": "y"}).status_code == 429
    registration = tournament.registrations.first()
    assert other.post(reverse("player-enter"), {"code": registration.entry_code}).status_code == 302


# ----------------------------------------------------------------------------- cards
def test_the_player_cards_print_the_code_and_the_table_cards_do_not(client, director, table):
    client.force_login(director)
    tournament = table.round.tournament

    cards = client.get(reverse("director-player-cards", args=[tournament.pk])).content.decode()
    tables = client.get(reverse("director-round-print", args=[table.round.pk])).content.decode()

    for registration in tournament.registrations.all():
        assert registration.entry_code_display in cards
        assert registration.entry_code not in tables
        assert registration.entry_code_display not in tables
    assert "type the code from your player card" in tables
    assert f"http://testserver{sheet_url(table)}" in tables  # the QR code's address


# ----------------------------------------------------------------------------- personal links
def test_personal_links_work_per_tournament(client, director):
    first = running_tournament(director, name="Autumn Cup", players=4)
    second = running_tournament(director, name="Winter Cup", players=4)
    player = first.registrations.first().player
    in_second = services.registration_create(actor=director, tournament=second, player=player)
    in_first = first.registrations.get(player=player)

    services.personal_link_renew(actor=director, registration=in_first)
    Tournament.objects.filter(pk=first.pk).update(status=Tournament.Status.FINISHED)

    assert client.post(player_personal_link(in_first)).status_code == 400
    response = client.post(player_personal_link(in_second))
    assert response.status_code == 302
    page = client.get(reverse("player-home")).content.decode()
    assert "Winter Cup" in page and "Autumn Cup" in page  # one player, both his tournaments
    assert Registration.objects.get(pk=in_first.pk).entry_code != in_second.entry_code


# ----------------------------------------------------------------------------- live status
def test_my_page_polls_and_hears_of_a_sheet_that_waits_for_me(client, director):
    tournament = running_tournament(director, players=4, logins=True)
    table = tournament.rounds.get(number=1).tables.get()
    first, second = (registration_at(table, p).player.user for p in (0, 1))
    client.force_login(second)
    page = client.get(reverse("player-home"))
    key = page.context["live_key"]
    status = reverse("player-status")
    assert f'hx-get="{status}?v={key}"' in page.content.decode()
    assert client.get(status, {"v": key}).status_code == 204

    scoring_services.result_submit(
        actor=first, table=table, sheet=engine_game_sheet(players=4), expected_version=0
    )

    news = client.get(status, {"v": key})
    assert news.status_code == 200
    fragment = news.content.decode()
    assert "waiting for your confirmation" in fragment and "<html" not in fragment
    assert 'id="player-live"' in fragment and key not in fragment
    assert client.get(status, {"v": news.context["live_key"]}).status_code == 204


def test_the_sheet_page_polls_and_hears_of_the_confirmation_and_the_next_round(client, director):
    tournament = running_tournament(director, players=4, logins=True)
    table = tournament.rounds.get(number=1).tables.get()
    first, second = (registration_at(table, p).player.user for p in (0, 1))
    scoring_services.result_submit(
        actor=first, table=table, sheet=engine_game_sheet(players=4), expected_version=0
    )
    client.force_login(first)
    page = client.get(sheet_url(table))
    key = page.context["live_key"]
    status = reverse("table-sheet-status", args=[table.pk])
    assert "Waiting for a table-mate to confirm it" in page.content.decode()
    assert client.get(status, {"v": key}).status_code == 204

    scoring_services.result_confirm(actor=second, table=table, version_number=1)

    news = client.get(status, {"v": key})
    assert news.status_code == 200 and "Version 1 is confirmed" in news.content.decode()
    key = news.context["live_key"]
    assert client.get(status, {"v": key}).status_code == 204

    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=4)
    draw_services.round_publish(actor=director, round_=round_)

    drawn = client.get(status, {"v": key})
    seat = round_.seats.select_related("table").get(registration__player__user=first)
    assert drawn.status_code == 200
    assert (
        f"Round 2 is drawn: you play at table {seat.table.number}, seat {seat.number}."
        in drawn.content.decode()
    )


def test_the_status_polls_tell_nothing_to_others(client, table):
    status = reverse("table-sheet-status", args=[table.pk])
    assert client.get(reverse("player-status")).status_code == 403
    assert client.get(status).status_code == 403
    client.force_login(UserFactory())
    assert client.get(status).status_code == 403
    assert client.post(status).status_code == 405


def test_a_finished_round_on_my_page_shows_the_next_draw_after_a_poll(client, director):
    tournament = running_tournament(director, players=4, logins=True)
    table = tournament.rounds.get(number=1).tables.get()
    me = registration_at(table, 0).player.user
    client.force_login(me)
    key = client.get(reverse("player-home")).context["live_key"]
    enter_confirmed_result(table, seed=2)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=4)
    draw_services.round_publish(actor=director, round_=round_)

    news = client.get(reverse("player-status"), {"v": key})

    assert news.status_code == 200 and "Round 2" in news.content.decode()


def test_a_player_who_scans_another_tables_code_is_shown_his_own_table(client, tournament):
    round_ = tournament.rounds.get(number=1)
    mine, other = round_.tables.order_by("number")
    registration = registration_at(mine, 0)
    client.post(seat_url(mine), {"seat": 0, "code": registration.entry_code})

    page = client.get(seat_url(other)).content.decode()

    assert f"who plays at table {mine.number}, seat 1" in page
    assert f'href="{sheet_url(mine)}"' in page
