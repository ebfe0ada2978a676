"""Creates the demo club, its players and two tournaments through the services; idempotent.

`make run` calls it on every start, with the address the server is about to listen on: the first
run builds everything, saying what it creates step by step, and every run prints the logins and
the addresses to open (the club room's too when the server listens on the network). The score
sheets are games played by the engine's cautious random players, so every sheet is a real, valid
game of 1001.
"""

import datetime
import random
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse

from core.network import ListenAddress, is_local_only_url, lan_addresses
from draws import services as draw_services
from rules import RuleSet
from rules.simulate import cautious_game
from scoring import services as scoring_services
from scoring.score_sheet import sheet_from_game
from scoring.services import standings_recompute
from seasons import services as season_services
from tournaments import services
from tournaments.models import Club, Round, Tournament

DIRECTOR = ("director", "director")
PLAYER_PASSWORD = "player"
PLAYER_LOGINS = [f"player{number:02d}" for number in range(1, 17)]
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
        "off, because the demo passwords are public; on an address the club's network reaches, "
        "the published passwords are replaced (the director's new one is printed once)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            help=(
                "The address the server listens on, as runserver takes it (8000, "
                "127.0.0.1:8000, 0.0.0.0:8000); `make run` passes its ADDRESS. Without it the "
                "command prints paths only."
            ),
        )

    def handle(self, *args, **options) -> None:
        address = None
        if options["address"]:
            try:
                address = ListenAddress.parse(options["address"])
            except ValueError as error:
                raise CommandError(str(error)) from error
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: no demo data loaded.")
        elif Club.objects.filter(name=CLUB_NAME).exists():
            self.stdout.write("The demo data is already there.")
        else:
            self._progress("Creating the demo data (about a minute on the first run):")
            self._create()
            self.stdout.write(self.style.SUCCESS("Created the demo club and its tournaments."))
        if settings.DEBUG:
            if address is not None and address.reachable_from_network:
                self._close_published_passwords()
            self._logins()
        self._addresses(address)

    def _close_published_passwords(self) -> None:
        """On the club's network anyone in the room could sign in with the passwords this
        command prints (the director's login is a superuser, who can open every player's
        personal link and so his cards): each one still in use stops working. The director
        gets a new password, printed this once; the players sign in by their cards."""
        users = get_user_model()
        director = users.objects.filter(username=DIRECTOR[0]).first()
        if director is not None and director.check_password(DIRECTOR[1]):
            password = secrets.token_urlsafe(9)
            director.set_password(password)
            director.save(update_fields=["password"])
            self.stdout.write(
                self.style.WARNING(
                    f"The server is open to the club's network: the published password "
                    f"'{DIRECTOR[1]}' no longer signs in. Director login: {DIRECTOR[0]} / "
                    f"{password} (shown only now: write it down, or set your own with "
                    f".venv/bin/python manage.py changepassword {DIRECTOR[0]})."
                )
            )
        for login in users.objects.filter(username__in=PLAYER_LOGINS):
            if login.has_usable_password() and login.check_password(PLAYER_PASSWORD):
                login.set_unusable_password()
                login.save(update_fields=["password"])

    def _logins(self) -> None:
        """How to sign in: the published passwords while they work, else where they went."""
        users = get_user_model()
        director = users.objects.filter(username=DIRECTOR[0]).first()
        if director is None or director.check_password(DIRECTOR[1]):
            self.stdout.write(f"Director login: {DIRECTOR[0]} / {DIRECTOR[1]}")
        else:
            self.stdout.write(
                f"Director login: {DIRECTOR[0]}, with the password you were given or set "
                f"(.venv/bin/python manage.py changepassword {DIRECTOR[0]} sets a new one)."
            )
        player = users.objects.filter(username=PLAYER_LOGINS[0]).first()
        if player is None or player.check_password(PLAYER_PASSWORD):
            self.stdout.write(
                f"Player logins: {PLAYER_LOGINS[0]} ... {PLAYER_LOGINS[-1]} / {PLAYER_PASSWORD}"
            )
        else:
            self.stdout.write(
                "Players sign in with the entry code or the personal link of their player card "
                "(the tournament's Players page prints the cards)."
            )

    def _progress(self, line: str) -> None:
        """One step, shown at once (the first run takes a while)."""
        self.stdout.write(line)
        self.stdout.flush()

    def _addresses(self, address: ListenAddress | None) -> None:
        manage = reverse("director-home")
        if address is None:
            self.stdout.write(
                f"Open {manage} at the address the server prints, and sign in as the director."
            )
            return
        local = address.local_url().rstrip("/")
        self.stdout.write(f"Open {local}{manage} and sign in as the director (the site: {local}/).")
        room = address.room_urls(lan_addresses())
        if not room and address.all_interfaces:
            self.stdout.write("No network address found: phones cannot reach this computer.")
        elif not room:
            self.stdout.write(
                f"Phones in the room cannot reach a server on {address.host}: for the club room "
                f"run make run ADDRESS=0.0.0.0:{address.port} (docs/venue.md)."
            )
        if settings.PUBLIC_URL:
            self.stdout.write(f"QR codes and player cards carry PUBLIC_URL: {settings.PUBLIC_URL}/")
            if is_local_only_url(settings.PUBLIC_URL):
                self.stdout.write("Phones in the room cannot open that address: it is loopback.")
        elif room:
            self.stdout.write("Phones in the room: " + ", ".join(room))
            self.stdout.write(
                "Open the director's pages by that address too, so that the QR codes carry it, "
                "or set PUBLIC_URL (docs/venue.md)."
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
        self._progress(f"  {CLUB_NAME}, directed by {DIRECTOR[0]}")
        players = []
        for username, name in zip(PLAYER_LOGINS, PLAYER_NAMES, strict=True):
            login = users.objects.filter(username=username).first()
            if login is None:
                login = users.objects.create_user(username=username, password=PLAYER_PASSWORD)
            players.append(services.player_create(actor=director, club=club, name=name, user=login))
        self._progress(
            f"  {len(players)} players with logins player01 ... player{len(players):02d}"
        )
        rng = random.Random(1001)
        finished = self._tournament(director, club, players, "Autumn Cup", days_ago=30)
        for _ in range(3):
            round_ = self._round(director, finished)
            self._play(director, round_, rng, confirm_tables=None)
        services.tournament_finish(actor=director, tournament=finished)
        self._progress(f"  {finished.name}: finished")
        running = self._tournament(director, club, players, "Winter League", days_ago=0)
        first = self._round(director, running)
        self._play(director, first, rng, confirm_tables=None)
        second = self._round(director, running)
        self._play(director, second, rng, confirm_tables=2)
        self._progress(f"  {running.name}: round {second.number} in progress")
        self._progress("  the standings of both tournaments")
        for tournament in (finished, running):
            standings_recompute(tournament_id=tournament.pk)
        today = datetime.date.today()
        season = season_services.season_create(
            actor=director,
            club=club,
            name="Demo season",
            starts_on=today - datetime.timedelta(days=60),
            ends_on=today + datetime.timedelta(days=60),
        )
        Tournament.objects.filter(pk__in=[finished.pk, running.pk]).update(season=season)
        season_services.ratings_recompute(club_id=club.pk)
        season_services.season_standings_recompute(season_id=season.pk)
        self._progress("  the club's season and the players' ratings")

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
        self._progress(f"  {name}: a tournament of {len(players)} players")
        return tournament

    def _round(self, director, tournament) -> Round:
        round_ = draw_services.round_draw(actor=director, tournament=tournament)
        return draw_services.round_publish(actor=director, round_=round_)

    def _play(self, director, round_, rng, *, confirm_tables: int | None) -> None:
        """Enter every table's result: confirmed by a table-mate, or (after `confirm_tables`
        tables) one submitted and waiting, the rest still open."""
        rules = RuleSet.from_dict(round_.tournament.rules)
        tables = list(round_.tables.order_by("number"))
        self._progress(
            f"  {round_.tournament.name}: round {round_.number}, playing its {len(tables)} tables"
        )
        for index, table in enumerate(tables):
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
