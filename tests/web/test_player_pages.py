"""The player's pages: personal link, my table, score-sheet entry with checks, confirm, dispute."""

import datetime
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from draws import services as draw_services
from scoring import services as scoring_services
from scoring.models import ResultVersion, TableResult
from scoring.selectors import table_role
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tournaments import services
from tournaments.models import Player, Registration, Tournament
from tournaments.selectors import player_personal_link, registration_from_personal_link

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def tournament(director):
    """A running tournament of 8 players with logins; round 1 is published at two tables of 4."""
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Friday Cup", date=datetime.date(2026, 12, 4)
    )
    for number in range(8):
        player = PlayerFactory(club=club, name=f"Player {number}", user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=round_)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def table(tournament):
    return tournament.rounds.get(number=1).tables.get(number=1)


@pytest.fixture
def other_table(tournament):
    return tournament.rounds.get(number=1).tables.get(number=2)


def users_at(table):
    return [seat.registration.player.user for seat in table.seats.order_by("position")]


def client_of(client, user):
    client.force_login(user)
    return client


def form_data(sheet, *, version=0):
    """The sheet as the score-sheet form posts it."""
    rows = sheet["rows"]
    data = {
        "expected_version": version,
        "mode": "deals",
        "rows-TOTAL_FORMS": len(rows),
        "rows-INITIAL_FORMS": 0,
        "rows-MIN_NUM_FORMS": 0,
        "rows-MAX_NUM_FORMS": 200,
    }
    for index, row in enumerate(rows):
        prefix = f"rows-{index}-"
        data[prefix + "dealer"] = row["dealer"]
        data[prefix + "declarer"] = row["declarer"]
        data[prefix + "bid"] = row["bid"]
        data[prefix + "contract"] = "" if row["contract"] is None else row["contract"]
        data[prefix + "outcome"] = row["outcome"]
        if row["forced"]:
            data[prefix + "forced"] = "on"
        for seat, score in enumerate(row["scores"]):
            data[f"{prefix}score_{seat}"] = score
    return data


def broken_sheet():
    """A real game whose third deal gives the declarer a wrong score."""
    sheet = game_sheet(players=4, seed=3)
    row = sheet["rows"][2]
    row["scores"][row["declarer"]] += 5
    return sheet


def sheet_url(table):
    return reverse("table-sheet", args=[table.pk])


def check_url(table):
    return reverse("table-sheet-check", args=[table.pk])


# ----------------------------------------------------------------------------- signing in
def test_anonymous_visitors_are_sent_to_sign_in(client, table):
    # Players sign in with the code of their card, never with a password (issue 13): /me/ leads
    # to the code's entry, a table's pages to its "which seat is yours?".
    home = client.get(reverse("player-home"))
    assert home.status_code == 302
    assert home["Location"].startswith(reverse("player-enter") + "?next=")
    for response in (
        client.get(sheet_url(table)),
        client.post(check_url(table), form_data(game_sheet(players=4))),
        client.post(reverse("table-result-confirm", args=[table.pk, 1])),
    ):
        assert response.status_code == 302
        assert response["Location"] == reverse("table-seat", args=[table.pk])


def sign_in_by_link(client, link: str):
    """Open the personal link and press its button, as a player with the card would."""
    shown = client.get(link)
    assert shown.status_code == 200, shown.content[:300]
    assert "_auth_user_id" not in client.session  # opening the link alone signs nobody in
    return client.post(link)


def test_a_personal_link_signs_in_a_player_without_a_login_and_opens_his_page(
    client, tournament, director
):
    player = PlayerFactory(club=tournament.club, name="Newcomer Nina")
    registration = services.registration_create(
        actor=director, tournament=tournament, player=player
    )
    assert player.user is None

    shown = client.get(player_personal_link(registration))
    assert "Newcomer Nina" in shown.content.decode() and 'method="post"' in shown.content.decode()
    response = client.post(player_personal_link(registration))

    assert response.status_code == 302 and response["Location"] == reverse("player-home")
    player.refresh_from_db()
    assert player.user is not None and not player.user.has_usable_password()
    page = client.get(reverse("player-home")).content.decode()
    assert "Newcomer Nina" in page


def test_a_personal_link_signs_in_only_on_a_post_from_its_own_page(tournament):
    link = player_personal_link(tournament.registrations.get(start_number=1))
    client = Client(enforce_csrf_checks=True)

    forged = client.post(link)  # another site's form: no CSRF token

    assert forged.status_code == 403
    assert "_auth_user_id" not in client.session
    page = client.get(link).content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert client.post(link, {"csrfmiddlewaretoken": csrf}).status_code == 302
    assert "_auth_user_id" in client.session


def test_a_new_link_revokes_the_old_one(client, tournament, director):
    registration = tournament.registrations.get(start_number=1)
    old = player_personal_link(registration)

    renewed = services.personal_link_renew(actor=director, registration=registration)

    assert client.get(old).status_code == 400
    assert client.post(old).status_code == 400 and "_auth_user_id" not in client.session
    assert sign_in_by_link(client, player_personal_link(renewed)).status_code == 302


def test_a_new_link_signs_out_the_phones_the_old_card_signed_in(tournament, director):
    """The card was picked up by someone else: his phone, signed in by it, is out too."""
    player = PlayerFactory(club=tournament.club, name="Newcomer Nina")
    registration = services.registration_create(
        actor=director, tournament=tournament, player=player
    )
    finder, owner = Client(), Client()
    assert sign_in_by_link(finder, player_personal_link(registration)).status_code == 302
    registration.refresh_from_db()
    code = registration.entry_code
    assert owner.post(reverse("player-enter"), {"code": code}).status_code == 302
    assert "Newcomer Nina" in finder.get(reverse("player-home")).content.decode()
    desk = Client()
    desk.force_login(director)

    answer = desk.post(reverse("director-registration-new-link", args=[registration.pk]))

    assert answer.status_code == 302
    for phone in (finder, owner):
        phone.get(reverse("player-home"))
        assert "_auth_user_id" not in phone.session
    renewed = Registration.objects.get(pk=registration.pk)
    assert sign_in_by_link(owner, player_personal_link(renewed)).status_code == 302
    assert "Newcomer Nina" in owner.get(reverse("player-home")).content.decode()


def test_a_new_link_tells_the_director_a_player_with_a_password_stays_signed_in(
    tournament, director
):
    registration = tournament.registrations.get(start_number=1)  # his login has a password
    phone = Client()
    assert sign_in_by_link(phone, player_personal_link(registration)).status_code == 302
    desk = Client()
    desk.force_login(director)

    answer = desk.post(
        reverse("director-registration-new-link", args=[registration.pk]), follow=True
    )

    page = answer.content.decode()
    assert "has a new personal link" in page
    assert "stay signed in until the password is changed" in page
    phone.get(reverse("player-home"))
    assert "_auth_user_id" in phone.session  # his password is his: the app does not change it


def test_a_link_stops_signing_in_after_withdrawal_and_after_the_tournament(
    client, tournament, director
):
    first, second = tournament.registrations.order_by("start_number")[:2]
    services.registration_withdraw(actor=director, registration=first)

    withdrawn = client.post(player_personal_link(first))

    assert withdrawn.status_code == 400 and "withdrawn" in withdrawn.content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    over = client.post(player_personal_link(second))
    assert over.status_code == 400 and "tournament is over" in over.content.decode()
    assert "_auth_user_id" not in client.session


def test_only_a_director_of_the_club_makes_a_new_link(tournament, director):
    registration = tournament.registrations.get(start_number=1)

    with pytest.raises(PermissionDenied):
        services.personal_link_renew(actor=UserFactory(), registration=registration)


def test_a_personal_link_signs_in_the_players_own_login(client, table):
    seat = table.seats.get(position=2)
    player = seat.registration.player

    response = sign_in_by_link(client, player_personal_link(seat.registration))
    response = client.get(response["Location"])

    assert response.status_code == 200
    assert response.context["user"] == player.user
    assert User.objects.filter(player=player).count() == 1
    page = response.content.decode()
    assert "Table 1" in page and "Seat 3" in page  # position 2: people count seats from 1


def test_a_player_whose_table_is_played_live_is_sent_to_the_live_table(client, director, table):
    """The director pressed "Play live": the player's pages lead to the game, not to a sheet
    he may no longer submit."""
    from gameplay import services as gameplay_services

    seat = table.seats.get(position=1)
    client.force_login(seat.registration.player.user)
    play = reverse("table-play", args=[table.pk])
    assert play not in client.get(reverse("player-home")).content.decode()

    game = gameplay_services.live_game_create_for_table(actor=director, table=table)

    home = client.get(reverse("player-home")).content.decode()
    assert f'href="{play}"' in home and "Open the live table" in home
    assert "Open the score sheet" not in home
    sheet = client.get(reverse("table-sheet", args=[table.pk])).content.decode()
    assert "its result comes from the game" in sheet and f'href="{play}"' in sheet
    assert client.get(play)["Location"] == reverse("live-game", args=[game.pk])


@pytest.mark.parametrize(
    "spoil",
    [
        lambda link: link[:-2] + ("A/" if link[-2] != "A" else "B/"),  # signature changed
        lambda link: link.replace("/me/link/", "/me/link/9"),  # player id changed
        lambda link: "/me/link/not-a-token/",
        lambda link: "/me/link/abc:def:ghi/",
    ],
)
def test_a_tampered_personal_link_fails_cleanly(client, table, spoil):
    link = player_personal_link(table.seats.get(position=0).registration)

    response = client.get(spoil(link))

    assert response.status_code in (400, 404)
    assert "_auth_user_id" not in client.session
    if response.status_code == 400:
        assert "not valid or has expired" in response.content.decode()


def test_an_expired_personal_link_fails_cleanly(client, table, monkeypatch):
    link = player_personal_link(table.seats.get(position=0).registration)
    later = time.time() + 366 * 24 * 3600
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)

    response = client.get(link)

    assert response.status_code == 400
    assert "_auth_user_id" not in client.session


def test_a_personal_link_never_signs_in_a_director(client, tournament, director):
    player = PlayerFactory(club=tournament.club, user=director)
    registration = services.registration_create(
        actor=director, tournament=tournament, player=player
    )

    response = client.post(player_personal_link(registration))

    assert response.status_code == 400
    assert "cannot sign in a director" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_personal_link_selector_reads_back_only_its_own_links(table):
    registration = table.seats.get(position=0).registration
    token = player_personal_link(registration).split("/")[-2]

    assert registration_from_personal_link(token) == registration
    assert registration_from_personal_link(token + "x") is None
    assert registration_from_personal_link("") is None
    assert registration_from_personal_link("٣.1") is None


# ----------------------------------------------------------------------------- /me/
def test_my_page_shows_my_table_seat_opponents_and_the_result_status(client, table):
    seats = list(table.seats.select_related("registration__player__user").order_by("position"))
    me = seats[3].registration.player

    response = client_of(client, me.user).get(reverse("player-home"))

    page = response.content.decode()
    assert response.status_code == 200
    assert "Friday Cup" in page
    assert "Table 1" in page and "Seat 4" in page  # position 3: people count seats from 1
    assert "Seat 1 deals the first deal" in page
    assert "Seat 0" not in page
    for seat in seats[:3]:
        assert seat.registration.player.name in page
    assert "no result yet" in page
    assert f'href="{sheet_url(table)}"' in page


def test_my_page_leads_to_my_history_and_rating_once_i_played_in_public(client, table):
    me = table.seats.get(position=0).registration.player
    tournament = table.round.tournament
    profile = reverse("public-player-profile", args=[me.pk])

    tournament.is_public = True
    tournament.save()
    page = client_of(client, me.user).get(reverse("player-home")).content.decode()
    assert f'href="{profile}"' in page
    assert f'href="{reverse("public-season-list")}"' in page  # the seasons, from every page

    tournament.is_public = False
    tournament.save()
    page = client.get(reverse("player-home")).content.decode()
    assert f'href="{profile}"' not in page  # a private player has no public page


def test_the_first_dealer_is_told_that_he_deals_first(client, table):
    first = users_at(table)[0]

    page = client_of(client, first).get(reverse("player-home")).content.decode()

    assert "You deal first" in page


def test_my_page_asks_a_table_mate_to_confirm_a_submitted_sheet(client, table):
    first, second, *_ = users_at(table)
    scoring_services.result_submit(
        actor=first, table=table, sheet=game_sheet(players=4), expected_version=0
    )

    mine = client_of(client, first).get(reverse("player-home")).content.decode()
    theirs = client_of(client, second).get(reverse("player-home")).content.decode()

    assert "waiting for confirmation" in mine and "Check and confirm" not in mine
    assert "Check and confirm the result" in theirs


# ----------------------------------------------------------------------------- entering a sheet
def test_the_sheet_page_labels_scores_with_the_players_and_fills_in_the_dealer(client, table):
    first = users_at(table)[0]

    response = client_of(client, first).get(sheet_url(table))

    page = response.content.decode()
    assert response.status_code == 200
    for seat in table.seats.select_related("registration__player"):
        assert f'for="id_rows-0-score_{seat.position}"' in page
        assert seat.registration.player.name in page
    assert 'name="rows-0-dealer"' in page
    assert '<option value="0" selected>' in page  # seat 0 deals the first deal
    assert f'hx-post="{check_url(table)}"' in page
    assert 'name="expected_version" value="0"' in page
    assert "/static/js/sheet.js" in page


def test_the_check_shows_running_totals_and_the_same_messages_as_the_service(client, table):
    sheet = broken_sheet()
    with pytest.raises(ValidationError) as raised:
        scoring_services.validate_sheet_for_table(table, sheet)
    expected = raised.value.message_dict["sheet"]
    assert expected[0].startswith("row 3: ")

    response = client_of(client, users_at(table)[0]).post(
        check_url(table), form_data(sheet), headers={"HX-Request": "true"}
    )

    fragment = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in fragment
    for message in expected:
        assert escape(message) in fragment
    # Each deal's line is swapped in by id, with everyone's total after it.
    first_totals = sheet["rows"][0]["scores"]
    line = fragment.split('id="deal-check-0"', 1)[1].split("</div>", 1)[0]
    assert 'hx-swap-oob="true"' in fragment
    for total in first_totals:
        assert f'<span class="num">{total}</span>' in line
    third = fragment.split('id="deal-check-2"', 1)[1].split("</div>", 1)[0]
    assert escape(expected[0]) in third


def test_the_check_of_a_good_sheet_shows_totals_places_and_winner(client, table):
    sheet = game_sheet(players=4, seed=4)
    validated = scoring_services.validate_sheet_for_table(table, sheet)

    response = client_of(client, users_at(table)[1]).post(
        check_url(table), form_data(sheet), headers={"HX-Request": "true"}
    )

    fragment = response.content.decode()
    assert "follows the rules" in fragment
    assert "(winner)" in fragment
    for total in validated.totals:
        assert f'<td class="num">{total}</td>' in fragment


def test_the_check_without_javascript_returns_the_page_with_one_more_deal(client, table):
    sheet = game_sheet(players=4, seed=4)
    sheet["rows"] = sheet["rows"][:2]

    response = client_of(client, users_at(table)[0]).post(check_url(table), form_data(sheet))

    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" in page
    assert "the game is not over after the last row (2)" in page
    assert 'name="rows-2-declarer"' in page  # an empty third deal to fill in
    assert '<option value="2" selected>' in page.split('name="rows-2-dealer"', 1)[1]


def test_a_player_submits_and_a_table_mate_confirms_through_the_pages(client, table):
    first, second, *_ = users_at(table)
    sheet = game_sheet(players=4, seed=7)

    response = client_of(client, first).post(sheet_url(table), form_data(sheet), follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(sheet_url(table), 302)]
    assert "saved as version 1" in page
    assert "Waiting for a table-mate to confirm it" in page
    assert "Confirm this result" not in page
    version = ResultVersion.objects.get(table=table)
    assert version.submitted_by == first and version.sheet == sheet

    client.force_login(second)
    review = client.get(sheet_url(table)).content.decode()
    assert "Confirm this result" in review and "Dispute this result" in review
    assert first.player.name in review
    response = client.post(reverse("table-result-confirm", args=[table.pk, 1]), follow=True)

    assert "You confirmed the result of table 1" in response.content.decode()
    result = TableResult.objects.get(table=table)
    assert result.status == TableResult.Status.CONFIRMED and result.confirmed == version
    assert "Version 1 is confirmed" in response.content.decode()


def test_the_submitter_cannot_confirm_his_own_sheet(client, table):
    first = users_at(table)[0]
    client_of(client, first).post(sheet_url(table), form_data(game_sheet(players=4)))

    response = client.post(reverse("table-result-confirm", args=[table.pk, 1]), follow=True)

    assert "Another player at the table must confirm your sheet." in response.content.decode()
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED


def test_a_bad_sheet_is_not_stored_and_the_page_keeps_it_with_the_messages(client, table):
    sheet = broken_sheet()

    response = client_of(client, users_at(table)[0]).post(sheet_url(table), form_data(sheet))

    page = response.content.decode()
    assert response.status_code == 200
    assert escape("row 3: the declarer") in page
    assert f'name="rows-{len(sheet["rows"]) - 1}-bid"' in page
    assert not ResultVersion.objects.filter(table=table).exists()


def test_a_table_mate_disputes_with_a_note_and_can_then_submit_a_correction(client, table):
    first, second, *_ = users_at(table)
    scoring_services.result_submit(
        actor=first, table=table, sheet=game_sheet(players=4, seed=1), expected_version=0
    )
    dispute = reverse("table-result-dispute", args=[table.pk, 1])
    client.force_login(second)

    empty = client.post(dispute, {"note": "  "})
    assert empty.status_code == 400
    assert "Say what is wrong with the sheet." in empty.content.decode()
    assert TableResult.objects.get(table=table).status == TableResult.Status.SUBMITTED

    response = client.post(dispute, {"note": "Deal 5 was 120, not 100."}, follow=True)

    page = response.content.decode()
    assert "You disputed the result of table 1" in page
    assert TableResult.objects.get(table=table).status == TableResult.Status.DISPUTED
    assert "Deal 5 was 120, not 100." in page
    assert "Corrected score sheet" in page
    assert 'name="expected_version" value="1"' in page
    corrected = client.post(sheet_url(table), form_data(game_sheet(players=4, seed=2), version=1))
    assert corrected.status_code == 302
    assert TableResult.objects.get(table=table).version == 2


def test_a_player_of_another_table_is_refused(client, table, other_table):
    stranger = users_at(other_table)[0]
    client_of(client, stranger)
    sheet = game_sheet(players=4)

    page = client.get(sheet_url(table))
    submit = client.post(sheet_url(table), form_data(sheet))
    check = client.post(check_url(table), form_data(sheet), headers={"HX-Request": "true"})
    confirm = client.post(reverse("table-result-confirm", args=[table.pk, 1]))

    for response in (page, submit, check, confirm):
        assert response.status_code == 403
        assert "you do not sit at this table" in response.content.decode()
    assert not ResultVersion.objects.filter(table=table).exists()


def test_an_outsider_does_not_learn_of_a_private_tournaments_tables(client, table, director):
    services.tournament_update(actor=director, tournament=table.round.tournament, is_public=False)
    outsider = UserFactory()

    assert client_of(client, outsider).get(sheet_url(table)).status_code == 404
    client.force_login(users_at(table)[0])
    assert client.get(sheet_url(table)).status_code == 200


def test_a_stale_version_shows_a_conflict_and_the_newer_sheet(client, table):
    first, second, *_ = users_at(table)
    newer = game_sheet(players=4, seed=1)
    scoring_services.result_submit(actor=first, table=table, sheet=newer, expected_version=0)

    response = client_of(client, second).post(
        sheet_url(table), form_data(game_sheet(players=4, seed=2), version=0)
    )

    page = response.content.decode()
    assert response.status_code == 409
    assert "Version 1 of this result was saved meanwhile" in page
    assert "The newer version is shown below" in page
    assert f"Version 1, submitted by {first.player.name}" in page
    assert 'name="expected_version" value="1"' in page  # submitting again replaces the newer one
    assert ResultVersion.objects.filter(table=table).count() == 1


def test_final_totals_alone_only_when_the_tournament_allows_them(client, table, director):
    tournament = table.round.tournament
    first = users_at(table)[0]
    client_of(client, first)

    refused = client.get(sheet_url(table) + "?mode=totals").content.decode()
    assert 'name="total_0"' not in refused and 'name="rows-0-bid"' in refused

    services.tournament_update(actor=director, tournament=tournament, quick_results_allowed=True)
    page = client.get(sheet_url(table) + "?mode=totals").content.decode()
    assert 'name="total_0"' in page and 'name="rows-0-bid"' not in page
    data = {"expected_version": 0, "mode": "totals", "winner": ""}
    data.update({f"total_{seat}": total for seat, total in enumerate([1005, 420, -35, 0])})
    response = client.post(sheet_url(table), data)

    assert response.status_code == 302
    assert ResultVersion.objects.get(table=table).sheet == {
        "mode": "totals",
        "totals": [1005, 420, -35, 0],
        "winner": 0,
    }


def test_a_director_may_open_any_tables_sheet(client, table, director):
    page = client_of(client, director).get(sheet_url(table))

    assert page.status_code == 200
    assert "Enter the score sheet" in page.content.decode()


def test_players_do_not_see_a_draft_rounds_tables(client, tournament, director, finish_round):
    finish_round(tournament.rounds.get(number=1))
    draft = draw_services.round_draw(actor=director, tournament=tournament, seed=5)
    table = draft.tables.get(number=1)

    assert client_of(client, users_at(table)[0]).get(sheet_url(table)).status_code == 404


def test_players_cannot_correct_results_once_the_tournament_is_finished(
    client, table, director, finish_round
):
    finish_round(table.round)
    # Rounds are still to be drawn: finishing early takes a reason.
    services.tournament_finish(
        actor=director, tournament=table.round.tournament, note="The club closes for winter"
    )
    client_of(client, users_at(table)[0])

    page = client.get(sheet_url(table) + "?edit=1").content.decode()
    submit = client.post(sheet_url(table), form_data(game_sheet(players=4), version=1))

    assert "Version 1 is confirmed" in page
    assert "players can no longer enter or correct results" in page
    assert 'name="rows-0-bid"' not in page and "Enter a corrected score sheet" not in page
    assert "Ask the director for corrections." in submit.content.decode()
    assert TableResult.objects.get(table=table).version == 1


# ----------------------------------------------------------------------------- Ukrainian
def test_the_player_pages_render_in_ukrainian(client, table):
    first, second, *_ = users_at(table)
    scoring_services.result_submit(
        actor=first, table=table, sheet=game_sheet(players=4), expected_version=0
    )
    client_of(client, second)
    uk = {"accept-language": "uk"}

    for url in (reverse("player-home"), sheet_url(table)):
        response = client.get(url, headers=uk)
        assert response.status_code == 200
        assert '<html lang="uk">' in response.content.decode()
    # Dates go through Django's localization: 4 December 2026 in Ukrainian.
    assert "4 грудня 2026" in client.get(reverse("player-home"), headers=uk).content.decode()
    fragment = client.post(
        check_url(table), form_data(broken_sheet()), headers={"HX-Request": "true", **uk}
    )
    assert fragment.status_code == 200


# ----------------------------------------------------------------------------- selectors, services
def test_sheet_check_judges_like_the_submission_and_keeps_the_typed_totals(table):
    sheet = broken_sheet()
    sheet["rows"][5]["scores"][0] = "ten"

    check = scoring_services.sheet_check(table=table, sheet=sheet)

    assert not check.valid
    with pytest.raises(ValidationError) as raised:
        scoring_services.validate_sheet_for_table(table, sheet)
    assert check.messages == raised.value.message_dict["sheet"]
    assert set(check.row_messages) == {3, 6}
    assert check.running_totals[0] == tuple(sheet["rows"][0]["scores"])
    assert check.running_totals[4] is not None and check.running_totals[5] is None
    assert check.running_totals[-1] is None


def test_table_role_says_who_may_enter_a_tables_result(table, other_table, director):
    first = users_at(table)[0]

    assert table_role(first, table).may_submit
    assert not table_role(users_at(other_table)[0], table).may_enter
    assert table_role(director, table).may_submit and table_role(director, table).seat is None


def test_a_new_login_for_a_link_never_takes_an_existing_user_name(client, tournament):
    player = PlayerFactory(club=tournament.club)
    UserFactory(username=f"player-{player.pk}")
    registration = services.registration_create(
        actor=tournament.club.directors.first(), tournament=tournament, player=player
    )

    user = services.player_login_from_link(token=player_personal_link(registration).split("/")[-2])

    assert user.username.startswith(f"player-{player.pk}-")
    assert Player.objects.get(pk=player.pk).user == user
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_table_of_three_with_a_bot_has_three_score_fields_and_names_the_bot(client, director):
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Bots welcome",
        date=datetime.date(2026, 12, 4),
        table_size="3",
        bots_allowed=True,
    )
    for _ in range(5):
        player = PlayerFactory(club=club, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=3)
    draw_services.round_publish(actor=director, round_=round_)
    table = round_.tables.get(seats__registration__isnull=True)
    human = table.seats.filter(registration__isnull=False).first().registration.player.user

    page = client_of(client, human).get(sheet_url(table)).content.decode()
    home = client.get(reverse("player-home")).content.decode()

    # A table with a bot is played live: no sheet to type, and the page says why.
    assert 'name="rows-0-score_0"' not in page and "This table has a bot seat" in page
    assert "Bot (" in page and "Bot (" in home
    sheet = game_sheet(players=3, seed=2)
    # A table with a bot is played live: its paper sheet is refused.
    response = client.post(sheet_url(table), form_data(sheet))
    assert response.status_code == 200
    assert "This table has a bot seat" in response.content.decode()
    assert not ResultVersion.objects.filter(table=table).exists()
    # The other table of three, all humans, enters its sheet on paper.
    other = round_.tables.exclude(pk=table.pk).get()
    assert not other.seats.filter(registration__isnull=True).exists()
    human = other.seats.filter(registration__isnull=False).first().registration.player.user
    page = client_of(client, human).get(sheet_url(other)).content.decode()
    assert 'name="rows-0-score_2"' in page and 'name="rows-0-score_3"' not in page
    response = client.post(sheet_url(other), form_data(sheet))
    assert response.status_code == 302
    assert ResultVersion.objects.get(table=other).sheet == sheet
