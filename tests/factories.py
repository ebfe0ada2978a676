"""factory_boy factories of users, clubs, players, tournaments and registrations."""

import datetime
import random

import factory
from django.contrib.auth import get_user_model

from rules import DEFAULT_RULES, RuleSet
from rules.simulate import cautious_game
from scoring.score_sheet import sheet_from_game
from tournaments.models import Club, Player, Registration, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "secret-password")

    @factory.post_generation
    def saved(self, create, extracted, **kwargs):
        if create:
            self.save()


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")

    @factory.post_generation
    def directors(self, create, extracted, **kwargs):
        if create and extracted:
            self.directors.add(*extracted)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Tournament {n}")
    date = factory.LazyFunction(lambda: datetime.date(2026, 11, 30))
    seed = factory.Sequence(lambda n: 1000 + n)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory, club=factory.SelfAttribute("..tournament.club"))
    start_number = factory.Sequence(lambda n: n + 1)


def game_sheet(*, players: int, rules: RuleSet = DEFAULT_RULES, seed: int = 0) -> dict:
    """The score sheet of a whole game played by the engine's cautious random players."""
    game = cautious_game(random.Random(seed), players=players, first_dealer=0, rules=rules)
    return sheet_from_game(game)


def enter_confirmed_result(table, *, seed: int = 0):
    """A director enters a confirmed result for a table, as at the end of a round."""
    from scoring.models import TableResult
    from scoring.services import result_submit

    tournament = table.round.tournament
    return result_submit(
        actor=tournament.club.directors.first(),
        table=table,
        sheet=game_sheet(
            players=table.seats.count(), rules=RuleSet.from_dict(tournament.rules), seed=seed
        ),
        expected_version=TableResult.objects.get(table=table).version,
        confirm=True,
    )
