"""The director's season pages: a new season, its rule and its tournaments, refused with the
reason when something is wrong."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from seasons import services
from seasons.models import Season, SeasonStandings
from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.models import Club
from web.forms.seasons import SeasonForm

pytestmark = pytest.mark.django_db


def rule_data(**changes):
    data = {
        "name": "Spring",
        "starts_on": "2026-01-01",
        "ends_on": "2026-06-30",
        "scoring": "placement_points",
        "best_count": "3",
        "placement_points": "10 6 4, 2",
        "precedence_1": "season_points",
        "precedence_2": "tournaments_played",
    }
    return data | changes


def test_a_director_creates_a_season_and_chooses_its_tournaments(client, director, club):
    client.force_login(director)
    assert client.get(reverse("director-seasons")).status_code == 200
    inside = TournamentFactory(club=club, date=datetime.date(2026, 3, 1))
    TournamentFactory(club=club, date=datetime.date(2026, 9, 1))

    created = client.post(reverse("director-seasons"), rule_data())

    season = Season.objects.get()
    assert created.status_code == 302 and created.url == reverse(
        "director-season", args=[season.pk]
    )
    assert season.placement_points == [10, 6, 4, 2] and season.best_count == 3
    assert season.precedence == ["season_points", "tournaments_played"]

    saved = client.post(
        reverse("director-season", args=[season.pk]), rule_data(tournaments=[inside.pk])
    )

    assert saved.status_code == 302
    assert list(season.tournaments.all()) == [inside]


def test_ticking_a_tournament_of_another_season_says_it_moves_it(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data(name="Winter"))
    client.post(reverse("director-seasons"), rule_data(name="Spring"))
    winter, spring = Season.objects.order_by("pk")
    cup = TournamentFactory(club=club, name="March Cup", date=datetime.date(2026, 3, 1))
    client.post(
        reverse("director-season", args=[winter.pk]), rule_data(name="Winter", tournaments=[cup.pk])
    )

    form = client.get(reverse("director-season", args=[spring.pk])).content.decode()
    assert "March Cup" in form and "now in Winter" in form

    saved = client.post(
        reverse("director-season", args=[spring.pk]), rule_data(tournaments=[cup.pk]), follow=True
    )

    assert "March Cup is no longer in Winter: it counts in this season." in saved.content.decode()
    assert list(spring.tournaments.all()) == [cup] and not winter.tournaments.exists()


def test_the_form_offers_the_tournaments_within_the_seasons_dates_and_those_in_it(
    client, director, club
):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    inside = TournamentFactory(club=club, name="March Cup", date=datetime.date(2026, 3, 1))
    ancient = TournamentFactory(club=club, name="Typo Cup", date=datetime.date(1, 1, 1))
    future = TournamentFactory(club=club, name="Far Cup", date=datetime.date(9999, 12, 31))
    autumn = TournamentFactory(club=club, name="Autumn Cup", date=datetime.date(2026, 9, 1))

    form = client.get(reverse("director-season", args=[season.pk])).context["form"]

    assert list(form.fields["tournaments"].queryset) == [inside]
    refused = client.post(
        reverse("director-season", args=[season.pk]),
        rule_data(tournaments=[inside.pk, ancient.pk, future.pk, autumn.pk]),
    )
    assert refused.status_code == 400 and not season.tournaments.exists()


def test_every_tournament_that_cannot_join_is_named(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    march = TournamentFactory(club=club, name="March Cup", date=datetime.date(2026, 3, 1))
    may = TournamentFactory(club=club, name="May Cup", date=datetime.date(2026, 5, 1))
    june = TournamentFactory(club=club, name="June Cup", date=datetime.date(2026, 6, 1))

    # The last day moves to April while March, May and June are ticked: May and June are named.
    refused = client.post(
        reverse("director-season", args=[season.pk]),
        rule_data(ends_on="2026-04-30", tournaments=[march.pk, may.pk, june.pk]),
    )

    assert refused.status_code == 400
    errors = refused.context["form"].errors["tournaments"]
    assert errors == [
        "May Cup (1 May 2026) is outside the dates of Spring (1 Jan 2026 to 30 Apr 2026).",
        "June Cup (1 Jun 2026) is outside the dates of Spring (1 Jan 2026 to 30 Apr 2026).",
    ]
    season.refresh_from_db()
    assert season.ends_on == datetime.date(2026, 6, 30) and not season.tournaments.exists()


def test_a_tournament_outside_the_dates_is_refused_with_the_reason(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    outside = TournamentFactory(club=club, date=datetime.date(2026, 9, 1))

    refused = client.post(
        reverse("director-season", args=[season.pk]), rule_data(tournaments=[outside.pk])
    )

    assert refused.status_code == 400
    assert refused.context["form"].errors["tournaments"]  # not one to choose
    assert not season.tournaments.exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"placement_points": "a lot"},
        {"placement_points": "1 5"},
        {"best_count": "0"},
        {"best_count": "99999999999"},
        {"ends_on": "2025-01-01"},
        {"precedence_1": "random"},
        {"name": ""},
    ],
)
def test_a_bad_season_is_a_400_with_the_form_again(client, director, club, changes):
    client.force_login(director)

    response = client.post(reverse("director-seasons"), rule_data(**changes))

    assert response.status_code == 400
    assert not Season.objects.exists()


def test_another_clubs_director_may_not_open_the_season(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    stranger = UserFactory()
    ClubFactory(directors=[stranger])
    client.force_login(stranger)

    assert client.get(reverse("director-season", args=[season.pk])).status_code == 403
    assert client.post(reverse("director-season", args=[season.pk]), rule_data()).status_code == 403


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"precedence_2": "season_points"},
            "precedence_2",
            "Season points is criterion 1 already: choose each criterion once.",
        ),
        (
            {"precedence_1": "", "precedence_2": ""},
            "precedence_1",
            "Choose at least one criterion.",
        ),
        (
            {"precedence_1": "random"},
            "precedence_1",
            "A random draw settles every tie, so it can only be the last criterion.",
        ),
        ({"placement_points": "nan"}, "placement_points", "Give numbers separated by spaces"),
        ({"placement_points": "10 inf"}, "placement_points", "Give numbers separated by spaces"),
        ({"placement_points": "10 -1"}, "placement_points", "Each number is from 0 to 10000."),
        ({"placement_points": "1e308"}, "placement_points", "Each number is from 0 to 10000."),
        ({"placement_points": "5 10"}, "placement_points", "may not get more points than"),
    ],
)
def test_a_bad_rule_is_shown_at_its_field_in_the_forms_words(
    client, director, club, changes, field, message
):
    client.force_login(director)

    response = client.post(reverse("director-seasons"), rule_data(**changes))

    assert response.status_code == 400
    form = response.context["form"]
    assert not form.non_field_errors()
    assert any(message in error for error in form.errors[field]), form.errors
    page = response.content.decode()
    errors = page.split(f'id="id_{field}_errors"', 1)[1].split("</div>", 1)[0]
    assert message in errors.replace("&#x27;", "'")
    assert "season_points" not in errors and "precedence" not in errors
    assert not Season.objects.exists()


def test_a_rule_the_service_refuses_is_shown_at_its_field(director, club):
    form = SeasonForm(rule_data(), clubs=Club.objects.filter(pk=club.pk))
    assert form.is_valid(), form.errors
    form.add_service_error(ValidationError({"precedence": "bad", "placement_points": "worse"}))

    assert form.errors["precedence_1"] == ["bad"]
    assert form.errors["placement_points"] == ["worse"]
    assert not form.non_field_errors()


def test_new_dates_and_unticking_the_tournament_they_leave_out_save_at_once(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    march = TournamentFactory(club=club, name="March Cup", date=datetime.date(2026, 3, 1))
    june = TournamentFactory(club=club, name="June Cup", date=datetime.date(2026, 6, 1))
    url = reverse("director-season", args=[season.pk])
    client.post(url, rule_data(tournaments=[march.pk, june.pk]))

    saved = client.post(url, rule_data(ends_on="2026-04-30", tournaments=[march.pk]))

    assert saved.status_code == 302
    season.refresh_from_db()
    assert season.ends_on == datetime.date(2026, 4, 30)
    assert list(season.tournaments.all()) == [march]


@pytest.mark.parametrize(
    ("dates", "field", "message"),
    [
        (
            {"ends_on": "2026-04-30"},
            "ends_on",
            "The tournament June Cup would fall after the season's last day.",
        ),
        (
            {"starts_on": "2026-04-01"},
            "starts_on",
            "The tournaments March Cup, Spring Cup would fall before the season's first day.",
        ),
    ],
)
def test_dates_that_leave_out_a_ticked_tournament_say_so_at_that_day(
    client, director, club, dates, field, message
):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    cups = [
        TournamentFactory(club=club, name=name, date=datetime.date(2026, month, 1))
        for name, month in (("March Cup", 3), ("Spring Cup", 3), ("June Cup", 6))
    ]
    url = reverse("director-season", args=[season.pk])
    client.post(url, rule_data(tournaments=[cup.pk for cup in cups]))

    refused = client.post(url, rule_data(tournaments=[cup.pk for cup in cups], **dates))

    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert errors[field] == [message] and set(errors) == {field}
    assert season.tournaments.count() == 3


def test_a_director_deletes_a_season_after_confirming_and_its_tournaments_stay(
    client, director, club, play_tournament, django_capture_on_commit_callbacks
):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data(name="rnd"))
    season = Season.objects.get()
    cup = play_tournament(season=season, date=datetime.date(2026, 3, 1), name="March Cup")
    with django_capture_on_commit_callbacks(execute=True):
        services.season_standings_recompute(season_id=season.pk)
    url = reverse("director-season-delete", args=[season.pk])
    form = client.get(reverse("director-season", args=[season.pk])).content.decode()
    assert url in form

    confirm = client.get(url)

    assert confirm.status_code == 200 and Season.objects.filter(pk=season.pk).exists()
    page = confirm.content.decode()
    assert "Delete the season rnd for good?" in page and "Its 1 tournament stays" in page

    deleted = client.post(url, follow=True)

    assert deleted.redirect_chain[-1][0] == reverse("director-seasons")
    assert "The season rnd is deleted." in deleted.content.decode()
    assert not Season.objects.exists() and not SeasonStandings.objects.exists()
    cup.refresh_from_db()
    assert cup.season is None and cup.status == "finished"
    assert cup.registrations.count() == 8
    public = client.get(reverse("public-season-list")).content.decode()
    assert "rnd" not in public
    assert client.get(reverse("public-season", args=[season.pk])).status_code == 404


def test_only_a_director_of_the_club_deletes_its_season(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data())
    season = Season.objects.get()
    url = reverse("director-season-delete", args=[season.pk])
    stranger = UserFactory()
    ClubFactory(directors=[stranger])

    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    client.logout()
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    assert Season.objects.filter(pk=season.pk).exists()


def test_the_tournament_page_names_its_season_with_a_link(client, director, club):
    client.force_login(director)
    client.post(reverse("director-seasons"), rule_data(name="Spring league"))
    season = Season.objects.get()
    cup = TournamentFactory(club=club, date=datetime.date(2026, 3, 1), season=season)
    loose = TournamentFactory(club=club, date=datetime.date(2026, 3, 2))

    page = client.get(reverse("director-tournament", args=[cup.pk])).content.decode()
    other = client.get(reverse("director-tournament", args=[loose.pk])).content.decode()

    link = f'<a href="{reverse("director-season", args=[season.pk])}">Spring league</a>'
    assert f"<dt>Season</dt><dd>{link}</dd>" in page
    assert "<dt>Season</dt><dd>—</dd>" in other
