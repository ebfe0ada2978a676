"""In the admin a staff director reaches only the clubs he directs, and nobody reads a live deal's
secrets (its deck, salt and actions) before the deal is over.

Club B's director is staff with every model permission, so what keeps him out of club A is the
admin's code, not a missing permission. Club A is the security world of conftest.py; club B gets
a tournament of its own here, with a confirmed table, a live table and standings, so every page
also shows that he still sees his own club.
"""

from __future__ import annotations

import datetime
import json
import random
import re
from types import SimpleNamespace

import pytest
from django import forms
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from draws import services as draw_services
from gameplay import selectors as gameplay_selectors
from gameplay import services as gameplay_services
from gameplay.models import LiveAction, LiveDeal, LiveGame
from scoring.models import ResultVersion, StandingsSnapshot, TableResult
from scoring.services import standings_recompute
from tests.factories import PlayerFactory, UserFactory, enter_confirmed_result
from tests.gameplay.conftest import human_choice
from tests.security.conftest import PRIVATE_NAME, PRIVATE_PLAYER_NAME
from tournaments import services
from tournaments.models import Club, Player, Registration, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

HOME_NAME = "Home Club Cup"
HOME_PLAYER = "Home Player"
ADMIN_MODELS = [
    model
    for model in admin.site._registry
    if model._meta.app_label in ("tournaments", "scoring", "gameplay")
]


# ----------------------------------------------------------------------------- the worlds
def play_to_a_hidden_give(game: LiveGame, seated: dict, seed: int) -> None:
    """Play until a deal is over and, in the next deal, the declarer has given a card."""
    rng = random.Random(seed)
    for _step in range(3000):
        game = LiveGame.objects.get(pk=game.pk)
        deals = list(game.deals.order_by("number"))
        current = deals[-1]
        gave = any(a.action["type"] == "give" for a in current.actions.all())
        if len(deals) > 1 and current.finished_at is None and gave:
            return
        user = seated[game.to_act]
        view = gameplay_selectors.live_game_view(game, user=user)
        gameplay_services.live_game_act(
            actor=user,
            game=game,
            action=human_choice(view["legal"], rng),
            expected_sequence=view["sequence"],
        )
    raise AssertionError("the game never reached a give in a second deal")


def seated_users(game: LiveGame) -> dict:
    return {seat.position: seat.user for seat in game.seats.order_by("position")}


def build_home(world) -> SimpleNamespace:
    """Club B's tournament: table 1 confirmed, table 2 played live; both live games played on."""
    director, club = world.other_director, world.other_club
    home = services.tournament_create(
        actor=director, club=club, name=HOME_NAME, date=datetime.date(2026, 12, 5)
    )
    names = [f"{HOME_PLAYER} {number}" for number in range(1, 9)]
    for name in names:
        PlayerFactory(club=club, user=UserFactory(), name=name)
    registrations = services.registration_create_from_names(
        actor=director, tournament=home, names=names
    )
    round_ = draw_services.round_publish(
        actor=director, round_=draw_services.round_draw(actor=director, tournament=home, seed=3)
    )
    confirmed_table, live_table = round_.tables.order_by("number")
    enter_confirmed_result(confirmed_table, seed=4)
    standings_recompute(tournament_id=home.pk)
    live_game = gameplay_services.live_game_create_for_table(actor=director, table=live_table)
    play_to_a_hidden_give(live_game, seated_users(live_game), seed=1)
    play_to_a_hidden_give(world.live_game, world.live_seated, seed=2)
    return SimpleNamespace(
        club=club,
        tournament=home,
        registration=registrations[0],
        round=round_,
        table=confirmed_table,
        live_table=live_table,
        live_game=live_game,
    )


@pytest.fixture(scope="module")
def home_world(shared_world, django_db_blocker):
    # Built inside the security world's module transaction, so it is rolled back with it.
    with django_db_blocker.unblock():
        return build_home(shared_world)


@pytest.fixture
def home(home_world, world):
    return home_world


def make_staff(user):
    """Staff with every permission there is: only the admin's code can keep him confined."""
    user.is_staff = True
    user.save()
    user.user_permissions.set(Permission.objects.all())
    return user


def signed_in(user) -> Client:
    client = Client()
    client.raise_request_exception = False
    client.force_login(user)
    return client


@pytest.fixture
def b_admin(world, home) -> Client:
    return signed_in(make_staff(world.other_director))


@pytest.fixture
def superuser_admin() -> Client:
    return signed_in(UserFactory(is_staff=True, is_superuser=True))


# ----------------------------------------------------------------------------- helpers
def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def club_a_marks(world) -> list[re.Pattern]:
    """Texts that name club A's records (its club's name not as the start of another name)."""
    texts = [PRIVATE_NAME, PRIVATE_PLAYER_NAME, world.public.name, world.fresh.name]
    return [re.compile(re.escape(text) + r"(?!\d)") for text in [*texts, world.club.name]]


def assert_nothing_of_club_a(world, html: str) -> None:
    named = [mark.pattern for mark in club_a_marks(world) if mark.search(html)]
    assert not named, f"club A's records are named: {named}"


def form_data(response) -> dict:
    """The POST data of an admin change form as the browser would send it unchanged."""
    data = {}
    all_forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        all_forms += [inline.formset.management_form, *inline.formset.forms]
    for form in all_forms:
        for name, field in form.fields.items():
            value = form[name].value()
            if isinstance(field, forms.BooleanField):
                if value:
                    data[form.add_prefix(name)] = "on"
                continue
            value = field.prepare_value(value)
            data[form.add_prefix(name)] = "" if value is None else str(value)
    return data


def form_errors(response) -> dict:
    assert response.status_code == 200, response.status_code
    errors = dict(response.context["adminform"].form.errors)
    for inline in response.context["inline_admin_formsets"]:
        for number, errors_of_form in enumerate(inline.formset.errors):
            errors |= {
                f"{inline.formset.prefix}-{number}-{k}": v for k, v in errors_of_form.items()
            }
    return errors


def club_a_records(world) -> list:
    """One record of club A for every model of the admin."""
    live = world.live_game
    finished_action = LiveAction.objects.filter(game=live, deal__finished_at__isnull=False)
    return [
        world.club,
        world.private_player,
        world.private,
        world.private_registration,
        world.private_round,
        world.private_table,
        world.private_table.seats.first(),
        TableResult.objects.get(table=world.private_table),
        ResultVersion.objects.filter(table=world.private_table).first(),
        StandingsSnapshot.objects.filter(tournament=world.private).first(),
        live,
        finished_action.first(),
    ]


# ----------------------------------------------------------------------------- lists and pages
@pytest.mark.parametrize("model", ADMIN_MODELS, ids=lambda m: m.__name__)
def test_a_changelist_shows_a_director_only_his_own_club(world, home, b_admin, model):
    page = b_admin.get(url(model, "changelist"))

    assert page.status_code == 200
    html = page.content.decode()
    # Neither the rows nor the filters' choices name club A's records.
    assert_nothing_of_club_a(world, html)
    assert HOME_NAME in html or HOME_PLAYER in html or home.club.name in html


def test_every_club_a_record_is_out_of_reach_of_club_b_director(world, home, b_admin):
    for record in club_a_records(world):
        for view in ("change", "delete", "history"):
            response = b_admin.get(url(type(record), view, record.pk))
            if response.status_code == 403:  # a page that read-only records do not have
                assert view == "delete" and not admin.site.get_model_admin(
                    type(record)
                ).has_delete_permission(response.wsgi_request)
                continue
            # Django answers an unknown id with a redirect to the index and a message.
            assert response.status_code == 302, (record, view, response.status_code)
            assert response.url == reverse("admin:index")
            followed = b_admin.get(response.url)
            assert "doesn’t exist" in followed.content.decode()
            assert_nothing_of_club_a(world, followed.content.decode())


def test_the_director_opens_every_page_of_his_own_club(world, home, b_admin):
    own = [
        home.club,
        home.registration.player,
        home.tournament,
        home.registration,
        home.round,
        home.table,
        home.table.seats.first(),
        TableResult.objects.get(table=home.table),
        ResultVersion.objects.filter(table=home.table).first(),
        StandingsSnapshot.objects.filter(tournament=home.tournament).first(),
        home.live_game,
        LiveAction.objects.filter(game=home.live_game, deal__finished_at__isnull=False).first(),
    ]
    for record in own:
        page = b_admin.get(url(type(record), "change", record.pk))
        assert page.status_code == 200, (record, page.status_code)
        assert_nothing_of_club_a(world, page.content.decode())


# ----------------------------------------------------------------------------- forms
def test_a_tournament_is_added_only_into_his_own_club(world, home, b_admin):
    data = form_data(b_admin.get(url(Tournament, "add")))
    data |= {"name": "Planted Cup", "date": "2026-12-24", "club": str(world.club.pk)}

    refused = b_admin.post(url(Tournament, "add"), data)

    assert "club" in form_errors(refused)
    assert not Tournament.objects.filter(name="Planted Cup").exists()
    # The same form into his own club is saved: only the club was wrong.
    saved = b_admin.post(url(Tournament, "add"), data | {"club": str(home.club.pk)})
    assert saved.status_code == 302
    assert Tournament.objects.get(name="Planted Cup").club == home.club


def test_the_add_form_offers_only_his_own_clubs(world, home, b_admin):
    for model in (Tournament, Player):
        html = b_admin.get(url(model, "add")).content.decode()
        assert f'value="{home.club.pk}"' in html
        assert f'<option value="{world.club.pk}"' not in html


def test_a_player_is_added_only_into_his_own_club(world, home, b_admin):
    data = {"name": "Planted Player", "club": str(world.club.pk), "user": ""}

    refused = b_admin.post(url(Player, "add"), data)

    assert "club" in form_errors(refused)
    assert not Player.objects.filter(name="Planted Player").exists()
    saved = b_admin.post(url(Player, "add"), data | {"club": str(home.club.pk)})
    assert saved.status_code == 302
    assert Player.objects.get(name="Planted Player").club == home.club


def test_his_tournament_cannot_be_moved_into_club_a(world, home, b_admin):
    change = url(Tournament, "change", home.tournament.pk)
    data = form_data(b_admin.get(change))

    refused = b_admin.post(change, data | {"club": str(world.club.pk)})

    assert "club" in form_errors(refused)
    home.tournament.refresh_from_db()
    assert home.tournament.club == home.club


def test_a_club_a_player_cannot_be_registered_through_the_tournament_page(world, home, b_admin):
    change = url(Tournament, "change", home.tournament.pk)
    data = form_data(b_admin.get(change))
    new = int(data["registrations-TOTAL_FORMS"])
    row = {"start_number": "99", "player": str(world.private_player.pk), "status": "active"}
    data |= {f"registrations-{new}-{key}": value for key, value in row.items()}
    data |= {f"registrations-{new}-tournament": str(home.tournament.pk)}
    data["registrations-TOTAL_FORMS"] = str(new + 1)

    refused = b_admin.post(change, data)

    assert f"registrations-{new}-player" in form_errors(refused)
    assert not Registration.objects.filter(player=world.private_player, start_number=99).exists()


def test_his_seat_cannot_be_moved_onto_a_club_a_table_by_raw_id(world, home, b_admin):
    seat = home.table.seats.get(position=0)
    change = url(Seat, "change", seat.pk)
    data = form_data(b_admin.get(change))
    foreign = world.private_table.seats.get(position=0)
    club_a_ids = {
        "table": world.private_table.pk,
        "round": world.private_round.pk,
        "registration": foreign.registration_id,
    }

    for field, foreign_id in club_a_ids.items():
        refused = b_admin.post(change, data | {field: str(foreign_id)})

        assert field in form_errors(refused), field
        # The form comes back without naming the record behind the typed id.
        assert_nothing_of_club_a(world, refused.content.decode())
    seat.refresh_from_db()
    assert (seat.table, seat.round) == (home.table, home.round)
    assert b_admin.post(change, data).status_code == 302  # unchanged, it saves


def test_a_club_a_registration_cannot_be_seated_at_his_table(world, home, b_admin):
    change = url(Table, "change", home.table.pk)
    data = form_data(b_admin.get(change))
    seat = home.table.seats.get(position=0)
    number = next(
        n for n in range(4) if data[f"seats-{n}-id"] == str(seat.pk)
    )  # the inline row of seat 0

    refused = b_admin.post(
        change, data | {f"seats-{number}-registration": str(world.private_registration.pk)}
    )

    assert f"seats-{number}-registration" in form_errors(refused)
    assert_nothing_of_club_a(world, refused.content.decode())
    seat.refresh_from_db()
    assert seat.registration.tournament == home.tournament


def test_a_seat_added_at_his_table_takes_the_tables_round(world, home, b_admin):
    emptied = home.table.seats.get(position=3)
    registration = emptied.registration
    emptied.delete()
    seated_elsewhere = home.live_table.seats.get(position=0).registration
    change = url(Table, "change", home.table.pk)
    data = form_data(b_admin.get(change))
    new = int(data["seats-TOTAL_FORMS"])
    row = {"position": "3", "bot_level": "", "table": str(home.table.pk)}
    data |= {f"seats-{new}-{key}": value for key, value in row.items()}
    data["seats-TOTAL_FORMS"] = str(new + 1)

    # A player who sits at another table of the round is a form error, not a failed save.
    twice = b_admin.post(change, data | {f"seats-{new}-registration": str(seated_elsewhere.pk)})
    saved = b_admin.post(change, data | {f"seats-{new}-registration": str(registration.pk)})

    assert f"seats-{new}-registration" in form_errors(twice)
    assert saved.status_code == 302
    assert home.table.seats.get(position=3).round == home.round


def test_a_table_added_with_its_seats_gives_them_its_round(world, home, b_admin):
    data = form_data(b_admin.get(url(Table, "add")))
    row = {"position": "0", "registration": "", "bot_level": "easy"}
    data |= {"round": str(home.round.pk), "number": "3", "seats-TOTAL_FORMS": "1"}
    data |= {f"seats-0-{key}": value for key, value in row.items()}

    saved = b_admin.post(url(Table, "add"), data)

    assert saved.status_code == 302
    assert home.round.tables.get(number=3).seats.get().round == home.round


def test_a_typed_club_a_id_in_a_raw_id_field_is_not_named(world, home, b_admin):
    html = b_admin.get(
        url(Seat, "add") + f"?table={world.private_table.pk}&round={world.private_round.pk}"
        f"&registration={world.private_registration.pk}"
    ).content.decode()

    assert_nothing_of_club_a(world, html)


def test_the_raw_id_popup_lists_only_his_own_records(world, home, b_admin):
    for model, own in ((Table, home.table), (Round, home.round), (Registration, home.registration)):
        popup = b_admin.get(url(model, "changelist") + "?_to_field=id&_popup=1")

        assert popup.status_code == 200
        html = popup.content.decode()
        assert f'data-popup-opener="{own.pk}"' in html
        assert_nothing_of_club_a(world, html)


@pytest.mark.parametrize(
    ("model_name", "field_name"),
    [("registration", "player"), ("registration", "tournament")],
)
def test_the_autocomplete_offers_only_his_own_records(world, home, b_admin, model_name, field_name):
    response = b_admin.get(
        "/admin/autocomplete/",
        {"app_label": "tournaments", "model_name": model_name, "field_name": field_name},
    )

    assert response.status_code == 200
    texts = [result["text"] for result in response.json()["results"]]
    assert texts, "his own records are offered"
    assert_nothing_of_club_a(world, json.dumps(texts))


# ----------------------------------------------------------------------------- actions
def test_actions_posted_with_club_a_ids_change_nothing(world, home, b_admin):
    def act(model, action: str, *records, **extra):
        return b_admin.post(
            url(model, "changelist"),
            {"action": action, "_selected_action": [r.pk for r in records], **extra},
        )

    act(Tournament, "delete_selected", world.fresh, post="yes")
    act(LiveGame, "delete_selected", world.live_game, post="yes")
    act(Registration, "delete_selected", world.fresh_registration, post="yes")
    act(Round, "publish", world.fresh_round)
    act(Tournament, "draw_next_round", world.private)
    act(Registration, "withdraw", world.public_registration)
    act(TableResult, "confirm_latest", TableResult.objects.get(table=world.waiting_table))

    assert Tournament.objects.filter(pk=world.fresh.pk).exists()
    assert LiveGame.objects.filter(pk=world.live_game.pk).exists()
    assert Registration.objects.get(pk=world.fresh_registration.pk)
    assert Round.objects.get(pk=world.fresh_round.pk).status == Round.Status.DRAFT
    assert world.private.rounds.count() == 1
    assert Registration.objects.get(pk=world.public_registration.pk).status == "active"
    assert TableResult.objects.get(table=world.waiting_table).status == "submitted"


def test_an_action_on_his_own_records_works(world, home, b_admin):
    response = b_admin.post(
        url(LiveGame, "changelist"),
        {"action": "delete_selected", "_selected_action": [home.live_game.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert not LiveGame.objects.filter(pk=home.live_game.pk).exists()


# ----------------------------------------------------------------------------- live games
def deal_secrets(deal: LiveDeal) -> list[str]:
    """Ways the admin could print a deal's deck and salt."""
    shown = [json.dumps(deal.deck), str(deal.deck), " ".join(deal.deck), ", ".join(deal.deck)]
    return [deal.salt, *shown, *(escape(text) for text in shown)]


def unfinished_and_finished(game: LiveGame) -> tuple[LiveDeal, LiveDeal]:
    deals = list(game.deals.order_by("number"))
    assert deals[-1].finished_at is None and deals[0].finished_at is not None
    return deals[-1], deals[0]


@pytest.mark.parametrize("viewer", ["superuser", "club_director", "seated_superuser"])
def test_the_live_game_page_opens_and_keeps_the_deal_in_progress_secret(world, home, viewer):
    game = world.live_game
    if viewer == "superuser":
        user = UserFactory(is_staff=True, is_superuser=True)
    elif viewer == "club_director":
        user = make_staff(world.director)
    else:  # a superuser who plays at this very table
        user = world.live_seated[0]
        user.is_staff = user.is_superuser = True
        user.save()
    client = signed_in(user)
    in_progress, finished = unfinished_and_finished(game)

    page = client.get(url(LiveGame, "change", game.pk))

    assert page.status_code == 200
    html = page.content.decode()
    assert not [text for text in deal_secrets(in_progress) if text in html]
    # A finished deal's shuffle can be checked: its deck and salt are shown.
    assert finished.salt in html and " ".join(finished.deck) in html
    assert in_progress.commitment in html


@pytest.mark.parametrize("viewer", ["superuser", "club_director"])
def test_the_action_log_of_a_deal_in_progress_is_shown_to_nobody(world, home, viewer):
    user = (
        UserFactory(is_staff=True, is_superuser=True)
        if viewer == "superuser"
        else make_staff(world.director)
    )
    client = signed_in(user)
    in_progress, finished = unfinished_and_finished(world.live_game)
    give = next(a for a in in_progress.actions.all() if a.action["type"] == "give")

    listing = client.get(url(LiveAction, "changelist"), {"q": str(world.live_game.pk)})
    page = client.get(url(LiveAction, "change", give.pk))

    html = listing.content.decode()
    for action in in_progress.actions.all():
        assert url(LiveAction, "change", action.pk) not in html
    for action in finished.actions.all():
        assert url(LiveAction, "change", action.pk) in html
    assert page.status_code == 302


def test_practice_games_are_shown_only_to_their_owner_and_superusers(
    world, home, b_admin, superuser_admin
):
    someone = gameplay_services.practice_game_start(user=UserFactory())
    own = gameplay_services.practice_game_start(user=world.other_director)

    listing = b_admin.get(url(LiveGame, "changelist")).content.decode()

    assert url(LiveGame, "change", someone.pk) not in listing
    assert url(LiveGame, "change", own.pk) in listing
    assert b_admin.get(url(LiveGame, "change", someone.pk)).status_code == 302
    assert b_admin.get(url(LiveGame, "change", own.pk)).status_code == 200
    assert superuser_admin.get(url(LiveGame, "change", someone.pk)).status_code == 200


def test_a_club_with_no_director_rights_offers_nothing(world, home):
    """A staff member who directs no club sees empty lists and can add into no club."""
    client = signed_in(make_staff(UserFactory()))

    for model in (Club, Tournament, LiveGame, LiveAction, TableResult):
        html = client.get(url(model, "changelist")).content.decode()
        assert_nothing_of_club_a(world, html)
        assert HOME_NAME not in html
    html = client.get(url(Tournament, "add")).content.decode()
    assert f'<option value="{world.club.pk}"' not in html
    assert f'<option value="{home.club.pk}"' not in html


# --------------------------------------------------------------------------- logins
def test_a_staff_director_neither_reads_nor_changes_the_sites_logins(world, b_admin):
    director = world.other_director

    for path in (
        reverse("admin:auth_user_changelist"),
        reverse("admin:auth_user_change", args=[director.pk]),
        reverse("admin:auth_group_changelist"),
    ):
        assert b_admin.get(path).status_code == 403, path
    index = b_admin.get(reverse("admin:index")).content.decode()
    assert world.director.username not in index and "auth/user" not in index

    b_admin.post(
        reverse("admin:auth_user_change", args=[director.pk]),
        {"username": director.username, "is_superuser": "on", "is_staff": "on"},
    )
    director.refresh_from_db()
    assert not director.is_superuser


def test_a_player_can_be_linked_only_to_his_own_or_his_players_logins(world, home, b_admin):
    stranger = UserFactory(username="login-of-nobody")
    page = b_admin.get(url(Player, "add")).content.decode()
    assert "login-of-nobody" not in page and world.director.username not in page
    data = {"name": "Taken Over", "club": str(home.club.pk)}

    refused = b_admin.post(url(Player, "add"), data | {"user": str(stranger.pk)})

    assert "user" in form_errors(refused)
    assert not Player.objects.filter(user=stranger).exists()
    own = b_admin.post(url(Player, "add"), data | {"user": str(world.other_director.pk)})
    assert own.status_code == 302
    assert Player.objects.get(name="Taken Over").user == world.other_director
