"""The score sheet entered as the table plays, on the director's result page and the player's
sheet page alike, without scripts (the pages' own buttons; the browser tests in
tests/e2e/test_score_sheet.py drive the same with them): one deal at a time, each saved to the
table's draft, the declarer's score filled in, a game not over yet said apart from the mistakes,
a removed deal brought back, and a phone that saw an older draft shown the newer one."""

import datetime
import re

import pytest
from django.urls import reverse

from draws import services as draw_services
from scoring import services as scoring_services
from scoring.models import ResultVersion, SheetDraft
from tests.factories import ClubFactory, PlayerFactory, UserFactory, game_sheet
from tests.web.test_player_pages import form_data
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def table(director):
    """A published table of four players with logins, with no result yet."""
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Entry Cup", date=datetime.date(2026, 12, 4)
    )
    for number in range(4):
        player = PlayerFactory(club=club, name=f"Player {number}", user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    round_ = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=round_)
    return round_.tables.get()


def player(table, position=0):
    return table.seats.get(position=position).registration.player.user


@pytest.fixture(params=["director", "player"])
def page_url(request, client, director, table):
    """The URL of one of the two pages that enter a sheet, its client signed in."""
    client.raise_request_exception = False
    if request.param == "director":
        client.force_login(director)
        return reverse("director-table-result", args=[table.pk])
    client.force_login(player(table))
    return reverse("table-sheet", args=[table.pk])


def rows(count, seed=3):
    return game_sheet(players=4, seed=seed)["rows"][:count]


def posted(deals, *, draft=0, without_declarer=False, **extra):
    """The sheet form as a browser without scripts posts it; the declarer's score left empty
    (as the page leaves it) with `without_declarer`."""
    data = form_data({"rows": deals}) | {"draft_version": draft, **extra}
    if without_declarer:
        for index, row in enumerate(deals):
            data[f"rows-{index}-score_{row['declarer']}"] = ""
    return data


def text(response) -> str:
    return response.content.decode()


def deal_count(page: str) -> int:
    """The deals on the page (the new deal's template left out)."""
    page = re.sub(r"<template\b.*?</template>", "", page, flags=re.S)
    return len(re.findall(r"<details class=\"deal[^\"]*\" data-deal", page))


def test_saving_a_deal_keeps_it_in_the_draft_and_opens_the_next(client, table, page_url):
    deals = rows(1)

    response = client.post(page_url, posted(deals, without_declarer=True, save_deal="1"))

    page = text(response)
    assert response.status_code == 200
    draft = SheetDraft.objects.get(table=table)
    assert draft.rows == deals and draft.version == 1  # the declarer's score filled in
    assert deal_count(page) == 2
    assert 'name="draft_version" value="1"' in page
    assert 'name="rows-1-declarer"' in page
    assert '<option value="1" selected>' in page.split('name="rows-1-dealer"', 1)[1]
    # The first deal is folded into its line, the second open to be entered.
    assert re.search(r'<details class="deal" data-deal>\s*<summary', page)
    assert re.search(r'<details class="deal" data-deal open data-current>', page)
    declarer = deals[0]["declarer"]
    field = re.search(rf'<input[^>]*name="rows-0-score_{declarer}"[^>]*>', page).group(0)
    assert f'value="{deals[0]["scores"][declarer]}"' in field
    assert "disabled" in field and "data-auto" in field
    assert ResultVersion.objects.count() == 0


def test_the_page_opens_on_the_draft_on_any_phone_at_the_table(client, table, director):
    deals = rows(3)
    scoring_services.sheet_draft_save(
        actor=player(table, 1), table=table, rows=deals, expected_version=0
    )

    for user, url in (
        (player(table, 0), reverse("table-sheet", args=[table.pk])),
        (player(table, 3), reverse("table-sheet", args=[table.pk])),
        (director, reverse("director-table-result", args=[table.pk])),
    ):
        client.force_login(user)
        page = text(client.get(url))
        assert deal_count(page) == 4  # the three deals and the fourth to enter
        assert f'name="rows-2-bid" value="{deals[2]["bid"]}"' in page
        assert 'name="draft_version" value="1"' in page
        assert f"Saved on the server: 3 deals, by {player(table, 1).player.name}" in page
        totals = [sum(row["scores"][seat] for row in deals) for seat in range(4)]
        bar = page.split('id="sheet-totals"', 1)[1].split("</div>", 1)[0]
        assert [int(n) for n in re.findall(r'<span class="num">(-?\d+)</span>', bar)] == totals


def test_a_game_not_over_yet_is_not_shown_as_a_mistake(client, table, page_url):
    check_url = page_url
    if "sheet" in page_url:
        check_url = reverse("table-sheet-check", args=[table.pk])

    fragment = text(
        client.post(
            check_url, posted(rows(2), without_declarer=True), headers={"HX-Request": "true"}
        )
    )

    assert 'class="check-wait"' in fragment
    assert "The game is not finished yet." in fragment
    assert "the game is not over after the last row (2)" in fragment
    assert 'class="check-bad"' not in fragment and 'class="check-messages"' not in fragment
    # The scores each deal gives, for the page to show in their fields.
    declarer = rows(2)[1]["declarer"]
    assert f'data-fill="{declarer}" value="{rows(2)[1]["scores"][declarer]}"' in fragment
    assert 'id="sheet-totals" hx-swap-oob="true"' in fragment


def test_a_mistake_is_still_a_mistake_next_to_an_unfinished_game(client, table):
    client.force_login(player(table))
    deals = rows(2)
    deals[1]["scores"][(deals[1]["declarer"] + 1) % 4] += 1

    fragment = text(
        client.post(
            reverse("table-sheet-check", args=[table.pk]),
            posted(deals),
            headers={"HX-Request": "true"},
        )
    )

    summary = fragment.split('class="check-bad"', 1)[1].split("</ul>", 1)[0]
    assert "row 2:" in summary and "not over" not in summary
    assert 'class="check-wait"' in fragment


def test_a_phone_that_saw_an_older_draft_is_shown_the_newer_one(client, table, page_url):
    newer = rows(2)
    scoring_services.sheet_draft_save(
        actor=player(table, 2), table=table, rows=newer[:1], expected_version=0
    )
    scoring_services.sheet_draft_save(
        actor=player(table, 2), table=table, rows=newer, expected_version=1
    )
    mine = rows(2, seed=5)

    response = client.post(page_url, posted(mine, draft=1, save_deal="1"))

    page = text(response)
    assert response.status_code == 409
    name = player(table, 2).player.name
    assert f"{name} saved this sheet elsewhere meanwhile" in page
    assert f'name="rows-1-bid" value="{newer[1]["bid"]}"' in page
    assert 'name="draft_version" value="2"' in page
    assert SheetDraft.objects.get(table=table).rows == newer


def test_a_removed_deal_can_be_brought_back(client, table, page_url):
    deals = rows(3)
    scoring_services.sheet_draft_save(
        actor=player(table), table=table, rows=deals, expected_version=0
    )

    removed = text(client.post(page_url, posted(deals, draft=1, remove_deal="2")))

    draft = SheetDraft.objects.get(table=table)
    assert [row["bid"] for row in draft.rows] == [deals[0]["bid"], deals[2]["bid"]]
    assert draft.rows[1]["dealer"] == 1  # the deal that moved up is dealt by its new dealer
    assert "Deal 2 was removed." in removed and 'name="restore_deal"' in removed

    restored = text(client.post(page_url, posted(draft.rows, draft=2, restore_deal="1")))

    draft = SheetDraft.objects.get(table=table)
    assert draft.rows == deals and draft.removed is None
    assert 'name="restore_deal"' not in restored
    assert f'name="rows-1-bid" value="{deals[1]["bid"]}"' in restored


def test_the_submitted_sheet_empties_the_draft(client, table):
    sheet = game_sheet(players=4, seed=3)
    client.force_login(player(table))
    url = reverse("table-sheet", args=[table.pk])
    client.post(url, posted(sheet["rows"][:2], without_declarer=True, save_deal="1"))

    response = client.post(url, posted(sheet["rows"], draft=1, without_declarer=True))

    assert response.status_code == 302
    assert ResultVersion.objects.get(table=table).sheet == sheet
    assert SheetDraft.objects.get(table=table).rows == []


def test_a_conceded_deal_fills_in_the_defenders_scores(client, table):
    conceded = {
        "dealer": 0,
        "declarer": 2,
        "bid": 70,
        "contract": None,
        "outcome": "conceded",
        "forced": False,
        "scores": [5, 50, -70, 50],
    }
    client.force_login(player(table))
    data = posted([conceded], save_deal="1")
    for seat in (1, 2, 3):
        data[f"rows-0-score_{seat}"] = ""

    client.post(reverse("table-sheet", args=[table.pk]), data)

    assert SheetDraft.objects.get(table=table).rows == [conceded]


def test_only_the_table_and_the_clubs_directors_save_its_draft(client, table):
    outsider = UserFactory()
    PlayerFactory(club=table.round.tournament.club, user=outsider)
    client.raise_request_exception = False
    client.force_login(outsider)

    response = client.post(reverse("table-sheet", args=[table.pk]), posted(rows(1), save_deal="1"))
    director_page = client.post(
        reverse("director-table-result", args=[table.pk]), posted(rows(1), save_deal="1")
    )

    assert response.status_code in (403, 404) and director_page.status_code in (403, 404)
    assert not SheetDraft.objects.exists()


def test_the_first_deal_of_a_fixed_game_is_entered_alone(client, table, director):
    tournament = table.round.tournament
    tournament.round_format = tournament.RoundFormat.DEALS
    tournament.deals_per_round = 8
    tournament.save()
    client.force_login(player(table))

    page = text(client.get(reverse("table-sheet", args=[table.pk])))

    assert deal_count(page) == 1 and 'name="rows-TOTAL_FORMS" value="1"' in page


@pytest.mark.parametrize(
    "fields",
    [
        {"rows-TOTAL_FORMS": "many"},
        {"draft_version": "latest"},
        {"draft_version": "9" * 40},
        {"remove_deal": "first"},
        {"remove_deal": "٣"},
        {"remove_deal": "100000"},
        {"restore_deal": "<script>"},
        {"mode": "totals"},
        {"rows-0-bid": "9" * 400},
    ],
    ids=[
        "damaged rows",
        "version as text",
        "huge version",
        "deal as text",
        "arabic digit",
        "huge deal",
        "restore garbage",
        "totals",
        "huge bid",
    ],
)
def test_a_forged_save_is_answered_without_a_server_error(client, table, page_url, fields):
    data = {**posted(rows(1), save_deal="1"), **fields}

    response = client.post(page_url, data)

    assert response.status_code in (200, 400, 409), text(response)[:300]
    assert ResultVersion.objects.count() == 0


def test_an_open_sheet_hears_of_deals_a_table_mate_saved_on_another_phone(client, table):
    client.force_login(player(table, 0))
    page = client.get(reverse("table-sheet", args=[table.pk]))
    key = page.context["live_key"]
    status = reverse("table-sheet-status", args=[table.pk])
    held = {"v": key, "form": "1", "draft": "0"}
    assert 'name="draft_version"' in text(page)
    assert client.get(status, held).status_code == 204

    scoring_services.sheet_draft_save(
        actor=player(table, 2), table=table, rows=rows(2), expected_version=0
    )

    news = client.get(status, held)
    assert news.status_code == 200
    assert (
        f"{player(table, 2).player.name} saved the table's sheet on another phone: 2 deals now."
        in text(news)
    )
    assert f'href="{reverse("table-sheet", args=[table.pk])}#sheet-entry"' in text(news)
    # The page's own save (its form holds draft 1 after it) brings no notice; nonsense is none.
    for seen in ("1", "-1", "x" * 20, ""):
        again = client.get(status, {"v": key, "form": "1", "draft": seen})
        assert again.status_code == 200 and "another phone" not in text(again)
    assert client.get(status, {"v": news.context["live_key"], "form": "1"}).status_code == 204
