"""Creates the demo club, its players and two tournaments through the services; idempotent.

`make run` calls it on every start: the first run builds everything, later runs only print the
logins. The score sheets are games played by the engine's cautious random players, so every sheet
is a real, valid game of 1001.
"""

import datetime
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from draws import services as draw_services
from rules import RuleSet
from rules.simulate import cautious_game
from scoring import services as scoring_services
from scoring.score_sheet import sheet_from_game
from scoring.services import standings_recompute
from tournaments import services
from tournaments.models import Club, Round, Tournament

DIRECTOR = ("director", "director")
PLAYER_PASSWORD = "player"
CLUB_NAME = "Demo club"
PLAYER_NAMES = [
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
    "Марія Поліщук",
    "Дмитро Олійник",
    "Софія Кравчук",
    "Петро Марченко",
    "Галина Бойко",
    "Ярослав Ковальчук",
]


class Command(BaseCommand):
    help = (
        "Create the demo club with 16 players, a finished tournament and a running one with a "
        "round in progress, and print the logins. Safe to run again. Does nothing when DEBUG is "
        "off, because the demo passwords are public."
    )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo data loaded.")
            return
        if Club.objects.filter(name=CLUB_NAME).exists():
            self.stdout.write("The demo data is already there.")
        else:
            self._create()
            self.stdout.write(self.style.SUCCESS("Created the demo club and its tournaments."))
        self.stdout.write(
            f"Director login: {DIRECTOR[0]} / {DIRECTOR[1]}  (http://127.0.0.1:8000/admin/)\n"
            f"Player logins: player01 ... player16 / {PLAYER_PASSWORD}"
        )

    @transaction.atomic
    def _create(self) -> None:
        users = get_user_model()
        director = users.objects.filter(username=DIRECTOR[0]).first()
        if director is None:
            director = users.objects.create_superuser(
                username=DIRECTOR[0], email="", password=DIRECTOR[1]
            )
        club = services.club_create(actor=director, name=CLUB_NAME, directors=[director])
        players = []
        for number, name in enumerate(PLAYER_NAMES, start=1):
            login = users.objects.filter(username=f"player{number:02d}").first()
            if login is None:
                login = users.objects.create_user(
                    username=f"player{number:02d}", password=PLAYER_PASSWORD
                )
            players.append(services.player_create(actor=director, club=club, name=name, user=login))
        rng = random.Random(1001)
        finished = self._tournament(director, club, players, "Autumn Cup", days_ago=30)
        for _ in range(3):
            round_ = self._round(director, finished)
            self._play(director, round_, rng, confirm_tables=None)
        services.tournament_finish(actor=director, tournament=finished)
        running = self._tournament(director, club, players, "Winter League", days_ago=0)
        first = self._round(director, running)
        self._play(director, first, rng, confirm_tables=None)
        second = self._round(director, running)
        self._play(director, second, rng, confirm_tables=2)
        for tournament in (finished, running):
            standings_recompute(tournament_id=tournament.pk)

    def _tournament(self, director, club, players, name, *, days_ago: int) -> Tournament:
        tournament = services.tournament_create(
            actor=director,
            club=club,
            name=name,
            date=datetime.date.today() - datetime.timedelta(days=days_ago),
            rounds_planned=3,
            table_size=Tournament.TableSize.FOUR,
        )
        for player in players:
            services.registration_create(actor=director, tournament=tournament, player=player)
        return tournament

    def _round(self, director, tournament) -> Round:
        round_ = draw_services.round_draw(actor=director, tournament=tournament)
        return draw_services.round_publish(actor=director, round_=round_)

    def _play(self, director, round_, rng, *, confirm_tables: int | None) -> None:
        """Enter every table's result: confirmed by a table-mate, or (after `confirm_tables`
        tables) one submitted and waiting, the rest still open."""
        rules = RuleSet.from_dict(round_.tournament.rules)
        for index, table in enumerate(round_.tables.order_by("number")):
            if confirm_tables is not None and index > confirm_tables:
                return
            seats = list(table.seats.select_related("registration__player__user"))
            game = cautious_game(rng, players=len(seats), first_dealer=0, rules=rules)
            submitter = seats[0].registration.player.user
            version = scoring_services.result_submit(
                actor=submitter, table=table, sheet=sheet_from_game(game), expected_version=0
            )
            if confirm_tables is None or index < confirm_tables:
                scoring_services.result_confirm(
                    actor=seats[1].registration.player.user,
                    table=table,
                    version_number=version.number,
                )
