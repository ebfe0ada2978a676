"""A season exports with its tournaments and imports into another club as the same season; the
ratings and the season table are recomputed there and come out the same (issue 18)."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from archive.exporter import tournament_export
from archive.importer import tournament_import
from archive.seasons import season_export, season_import, season_schema_text
from seasons import services
from seasons.models import PlayerRating, SeasonStandings
from tests.factories import ClubFactory, UserFactory
from tests.tournaments.test_archive import names_only

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(director, club, play_tournament, django_capture_on_commit_callbacks):
    season = services.season_create(
        actor=director,
        club=club,
        name="Spring",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
        best_count=1,
    )
    play_tournament(season=season, date=datetime.date(2026, 2, 1))
    play_tournament(season=season, date=datetime.date(2026, 3, 1), rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.season_standings_recompute(season_id=season.pk)
    return season


def ratings_by_name(club):
    return {
        rating.player.name: (round(rating.mu, 9), round(rating.sigma, 9), rating.tables)
        for rating in PlayerRating.objects.filter(player__club=club).select_related("player")
    }


def test_an_imported_season_has_the_same_tournaments_ratings_and_table(
    season, club, django_capture_on_commit_callbacks
):
    document = json.loads(json.dumps(season_export(season=season)))
    other_director = UserFactory()
    other_club = ClubFactory(directors=[other_director])

    with django_capture_on_commit_callbacks(execute=True):
        copy = season_import(actor=other_director, club=other_club, data=document)

    assert copy.name == "Spring" and copy.best_count == 1 and copy.club == other_club
    assert [t.name for t in copy.tournaments.order_by("date")] == [
        t.name for t in season.tournaments.order_by("date")
    ]
    assert ratings_by_name(other_club) == ratings_by_name(club)
    original = SeasonStandings.objects.get(season=season).rows
    imported = SeasonStandings.objects.get(season=copy).rows
    assert [(r["name"], r["rank"], r["season_points"]) for r in imported] == [
        (r["name"], r["rank"], r["season_points"]) for r in original
    ]
    # Exported again, it is the same document (but for the times of export).
    again = season_export(season=copy)
    for archive in (document, again):
        archive.pop("exported_at")
        for tournament in archive["tournaments"]:
            tournament.pop("exported_at")
    # The copy's sheets and seats do not name the other club's logins (tournaments' archive).
    assert json.loads(json.dumps(again)) == names_only(document)


def test_a_bad_season_archive_changes_nothing_and_names_the_element(season, director, club):
    document = season_export(season=season)
    document["tournaments"][1]["rounds"][0]["tables"][0]["seats"][0]["start_number"] = 999
    other_club = ClubFactory(directors=[director])

    with pytest.raises(ValidationError) as refused:
        season_import(actor=director, club=other_club, data=document)

    assert "tournaments[1]" in " ".join(refused.value.messages)
    assert not other_club.seasons.exists() and not other_club.tournaments.exists()


def test_only_a_director_of_the_club_imports(season):
    with pytest.raises(PermissionDenied):
        season_import(actor=UserFactory(), club=season.club, data=season_export(season=season))


def test_the_published_season_schema_is_generated_from_the_models():
    path = settings.BASE_DIR / "docs" / "season-archive-schema.json"
    published = path.read_text(encoding="utf-8")
    assert published == season_schema_text(), (
        "docs/season-archive-schema.json is out of date: "
        "python manage.py archive_schema --season -o docs/season-archive-schema.json"
    )
    out = io.StringIO()
    call_command("archive_schema", "--season", stdout=out)
    assert out.getvalue() == published


def test_a_season_whose_tournaments_the_club_has_is_refused(season, director, club):
    """Importing a season into its own club would put every tournament there twice."""
    document = season_export(season=season)
    first = season.tournaments.order_by("date", "pk").first()

    with pytest.raises(ValidationError) as refused:
        season_import(actor=director, club=club, data=document)

    assert refused.value.messages == [
        f"tournaments[0]: This club already has this tournament: {first.name}, 1 February 2026."
    ]
    assert club.seasons.count() == 1 and club.tournaments.count() == 2


@pytest.fixture
def players_with_logins(players):
    """Most of the club's players sign in with logins of their own; two are namesakes."""
    for number, player in enumerate(players[:-1], start=1):
        player.user = UserFactory(username=f"season-player-{number}")
        player.save(update_fields=["user"])
    for player in players[:2]:
        player.name = "Олена Коваль"
        player.save(update_fields=["name"])
    return players


def ratings_of(club) -> list[tuple]:
    """Each player's name and rating, namesakes each on his own."""
    return sorted(
        (rating.player.name, round(rating.mu, 9), round(rating.sigma, 9), rating.tables)
        for rating in PlayerRating.objects.filter(player__club=club).select_related("player")
    )


def season_table(season) -> list[tuple]:
    """The season table's rows without database ids, in order."""
    rows = SeasonStandings.objects.get(season=season).rows
    return [
        tuple(value for key, value in sorted(row.items()) if key not in ("player", "random"))
        for row in rows
    ]


def test_a_season_into_another_club_of_the_site_keeps_one_player_per_person(
    players_with_logins, season, club, tmp_path, django_capture_on_commit_callbacks
):
    """export_season, then import_season into another club: the players' logins are the first
    club's, so the copies get none, and each person is still one player of the importing club in
    every tournament of the season, with the same season table and ratings."""
    path = tmp_path / "spring.json"
    call_command("export_season", str(season.pk), "-o", str(path), stdout=io.StringIO())
    other_club = ClubFactory(directors=[UserFactory()])

    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_season", str(path), "--club", other_club.slug, stdout=io.StringIO())

    copy = other_club.seasons.get()
    assert other_club.players.count() == club.players.count() == 8
    assert not other_club.players.exclude(user=None).exists()
    assert len(season_table(copy)) == 8
    assert season_table(copy) == season_table(season)
    assert ratings_of(other_club) == ratings_of(club)
    # The player of each start number is the same in both tournaments, as in the original.
    first, second = (t.registrations.all() for t in other_club.tournaments.order_by("date"))
    by_number = {registration.start_number: registration.player_id for registration in first}
    assert {r.start_number: r.player_id for r in second} == by_number


def test_tournaments_of_another_club_imported_one_by_one_keep_one_player_per_person(
    players_with_logins, season, club
):
    other_director = UserFactory()
    other_club = ClubFactory(directors=[other_director])

    for tournament in season.tournaments.order_by("date"):
        tournament_import(
            actor=other_director, club=other_club, data=tournament_export(tournament=tournament)
        )

    assert sorted(other_club.players.values_list("name", flat=True)) == sorted(
        club.players.values_list("name", flat=True)
    )


def _season_version(d):
    d["version"] = 2
    return "version: this site reads archives of version 1, not 2"


def _season_version_as_flag(d):
    d["version"] = True
    return "version: must be a whole number"


def _season_points_as_text(d):
    d["season"]["placement_points"][0] = "ten"
    return "season.placement_points[0]: must be a number from 0 to 10000"


def _season_points_too_many(d):
    d["season"]["placement_points"][1] = 10**6
    return "season.placement_points[1]: must be a number from 0 to 10000"


def _season_points_below_zero(d):
    d["season"]["placement_points"][2] = -1
    return "season.placement_points[2]: must be a number from 0 to 10000"


@pytest.mark.parametrize(
    "change",
    [
        _season_version,
        _season_version_as_flag,
        _season_points_as_text,
        _season_points_too_many,
        _season_points_below_zero,
    ],
    ids=lambda change: change.__name__[8:],
)
def test_a_bad_season_value_is_named_in_words_of_the_archive(season, director, change):
    """Not in pydantic's words ("Input should be 1"), which the site does not translate."""
    document = json.loads(json.dumps(season_export(season=season)))
    message = change(document)
    other_club = ClubFactory(directors=[director])

    with pytest.raises(ValidationError) as refused:
        season_import(actor=director, club=other_club, data=document)

    assert refused.value.messages == [message]
    assert not other_club.seasons.exists()


def test_each_kind_of_archive_imported_as_the_other_says_what_it_is_and_where_it_goes(
    season, director
):
    other_club = ClubFactory(directors=[director])
    season_document = season_export(season=season)
    tournament_document = season_document["tournaments"][0]

    with pytest.raises(ValidationError) as as_a_tournament:
        tournament_import(actor=director, club=other_club, data=season_document)
    with pytest.raises(ValidationError) as as_a_season:
        season_import(actor=director, club=other_club, data=tournament_document)

    assert as_a_tournament.value.messages == [
        "format: this is the archive of a season, not of a tournament: import it with “Import "
        "a season” on the Seasons page, or with the command “manage.py import_season”"
    ]
    assert as_a_season.value.messages == [
        "format: this is the archive of a tournament, not of a season: import it with “Import "
        "a tournament” on the director's home page, or with the command "
        "“manage.py import_tournament”"
    ]
    assert not other_club.tournaments.exists() and not other_club.seasons.exists()


# ----------------------------------------------------------------------------- director pages
def upload(document) -> SimpleUploadedFile:
    content = json.dumps(document).encode() if not isinstance(document, bytes) else document
    return SimpleUploadedFile("archive.json", content, content_type="application/json")


def test_a_director_downloads_a_seasons_archive_from_its_page(client, season, director):
    client.force_login(director)
    page = client.get(reverse("director-season", args=[season.pk])).content.decode()
    url = reverse("director-season-archive", args=[season.pk])
    assert f'href="{url}"' in page

    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == (
        'attachment; filename="spring-season-2026-01-01.json"'
    )
    downloaded = json.loads(response.content)
    expected = json.loads(json.dumps(season_export(season=season)))
    for document in (downloaded, expected):
        document.pop("exported_at")
        for tournament in document["tournaments"]:
            tournament.pop("exported_at")
    assert downloaded == expected


def test_a_director_imports_a_season_on_the_seasons_page(
    client, season, director, django_capture_on_commit_callbacks
):
    other_club = ClubFactory(name="Other club", directors=[director])
    client.force_login(director)
    page = client.get(reverse("director-seasons")).content.decode()
    assert reverse("director-season-import") in page and 'name="import-file"' in page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("director-season-import"),
            {"import-club": other_club.pk, "import-file": upload(season_export(season=season))},
            follow=True,
        )

    copy = other_club.seasons.get()
    assert response.redirect_chain == [(reverse("director-season", args=[copy.pk]), 302)]
    assert "The season Spring is imported into Other club with 2 tournaments." in (
        response.content.decode()
    )
    assert copy.tournaments.count() == 2
    assert season_table(copy) == season_table(season)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n", "not UTF-8 text"),
        (b"{broken", "The file is not valid JSON"),
        ("tournament", "format: this is the archive of a tournament, not of a season"),
        ("same club", "tournaments[0]: This club already has this tournament"),
    ],
    ids=["binary", "broken json", "a tournament's", "into its own club"],
)
def test_a_bad_season_upload_is_answered_on_the_seasons_page(
    client, season, director, club, content, message
):
    document = season_export(season=season)
    if content == "tournament":
        content = document["tournaments"][0]
    elif content == "same club":
        content = document
    client.force_login(director)

    response = client.post(
        reverse("director-season-import"), {"import-club": club.pk, "import-file": upload(content)}
    )

    assert response.status_code == 400
    assert message in response.content.decode()
    assert club.seasons.count() == 1 and club.tournaments.count() == 2


def test_a_season_upload_too_large_names_the_command_for_it(client, director, club, monkeypatch):
    monkeypatch.setattr("web.views.director.ARCHIVE_MAX_BYTES", 100)
    client.force_login(director)

    response = client.post(reverse("director-season-import"), {"import-file": upload(b" " * 200)})

    assert response.status_code == 400
    assert "import it with the command “manage.py import_season” instead" in (
        response.content.decode()
    )


def test_a_season_archive_uploaded_as_a_tournament_says_where_it_goes(client, season, director):
    other_club = ClubFactory(directors=[director])
    client.force_login(director)

    response = client.post(
        reverse("director-tournament-import"),
        {"club": other_club.pk, "file": upload(season_export(season=season))},
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "this is the archive of a season, not of a tournament" in page
    assert "manage.py import_season" in page
    assert not other_club.tournaments.exists()


def test_a_season_import_is_only_into_a_club_of_the_director(client, season, director):
    ClubFactory(directors=[director])  # two clubs of his own to choose from
    elsewhere = ClubFactory(directors=[UserFactory()])
    client.force_login(director)

    response = client.post(
        reverse("director-season-import"),
        {"import-club": elsewhere.pk, "import-file": upload(season_export(season=season))},
    )

    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not elsewhere.seasons.exists()
