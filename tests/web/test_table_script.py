"""The live table's script knows no rule of its own: the page gives it the engine's facts of the
cards, the view says who played each card, and its modules load one another by relative paths
that the production storage rewrites to their hashed names."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.urls import reverse
from django.utils import translation

from gameplay import selectors, services
from gameplay.models import LiveGame
from rules import Rank, Suit
from rules.cards import MARRIAGE_VALUE, RANK_POINTS
from rules.deal import TALON_POSITIONS
from tests.factories import UserFactory

STATIC_DIR = Path(settings.BASE_DIR) / "static"
ENTRY = "js/table.js"
MODULES_DIR = "js/table"
# A static import or re-export with its path, as written in the modules.
IMPORT = re.compile(r"""^(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']\s*;""", re.M)


def script_names() -> list[str]:
    """The entry module and the modules it is made of, as static file names."""
    modules = sorted((STATIC_DIR / MODULES_DIR).glob("*.js"))
    return [ENTRY, *(f"{MODULES_DIR}/{path.name}" for path in modules)]


def script_text(name: str) -> str:
    return (STATIC_DIR / name).read_text(encoding="utf-8")


def imports_in(text: str, name: str) -> list[str]:
    """The static file names the module `name` with this text imports (paths resolved)."""
    return [(Path(name).parent / path).as_posix() for path in IMPORT.findall(text)]


def imports_of(name: str) -> list[str]:
    return imports_in(script_text(name), name)


def page_json(html: str, element_id: str):
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S
    )
    assert match, f"the page carries no {element_id}"
    return json.loads(match.group(1))


# ---------------------------------------------------------------- what the page gives the script


@pytest.fixture
def owner():
    return UserFactory()


@pytest.fixture
def game(owner) -> LiveGame:
    return services.practice_game_start(owner=owner, bot_level="easy")


@pytest.mark.django_db
def test_the_page_gives_the_script_the_engines_suits_ranks_points_and_marriages(
    client, owner, game
):
    client.force_login(owner)

    html = client.get(reverse("live-game", args=[game.pk])).content.decode()

    cards = page_json(html, "table-cards")
    assert [suit["letter"] for suit in cards["suits"]] == [suit.letter for suit in Suit]
    assert [suit["symbol"] for suit in cards["suits"]] == [suit.symbol for suit in Suit]
    assert [suit["marriage"] for suit in cards["suits"]] == list(MARRIAGE_VALUE)
    assert [suit["name"] for suit in cards["suits"]] == ["spades", "clubs", "diamonds", "hearts"]
    assert [rank["letter"] for rank in cards["ranks"]] == [rank.letter for rank in Rank]
    assert [rank["points"] for rank in cards["ranks"]] == list(RANK_POINTS)
    # What a card shows: the ten as 10, the others by their initial in the reader's language.
    assert [rank["face"] for rank in cards["ranks"]] == ["9", "J", "Q", "K", "10", "A"]
    assert [rank["name"] for rank in cards["ranks"]] == [
        "nine",
        "jack",
        "queen",
        "king",
        "ten",
        "ace",
    ]
    assert cards["card"] == "%(rank)s of %(suit)s"
    assert cards["talon"] == len(TALON_POSITIONS) == 3
    # The labels are words only; the cards' names moved to the facts above.
    labels = page_json(html, "table-labels")
    assert not {"suits", "ranks", "card"} & set(labels)


@pytest.mark.django_db
def test_the_facts_of_the_cards_are_named_in_the_readers_language(client, owner, game):
    client.force_login(owner)

    html = client.get(
        reverse("live-game", args=[game.pk]), headers={"accept-language": "uk"}
    ).content.decode()

    cards = page_json(html, "table-cards")
    with translation.override("uk"):
        spades, ace = translation.gettext("spades"), translation.pgettext("card", "ace")
    assert cards["suits"][0]["name"] == spades != "spades"
    assert cards["ranks"][-1]["name"] == ace != "ace"
    assert [suit["marriage"] for suit in cards["suits"]] == list(MARRIAGE_VALUE)


@pytest.mark.django_db
def test_the_view_says_who_played_each_card_of_every_trick(
    owner, game, django_capture_on_commit_callbacks
):
    """The engine's own log is the truth: the seat of every play, in order."""
    rng = random.Random(3)
    tricks_seen = 0
    for _ in range(200):
        game.refresh_from_db()
        view = selectors.live_game_view(game, user=owner)
        deal = selectors.live_game_state(game).deals[-1]
        plays = [action.seat for action in deal.history() if action.type == "play"]
        tricks = view["observation"]["tricks"]
        assert [seat for trick in tricks for seat in trick["seats"]] == plays
        for trick in tricks:
            assert trick["seats"][0] == trick["leader"]
            assert len(trick["seats"]) == len(trick["cards"])
        tricks_seen += len(tricks)
        if tricks_seen >= 20 or not view["legal"]:
            break
        moves = [action for action in view["legal"] if action["type"] != "concede"]
        # The bots answer from on-commit hooks (eager Celery), run here as after a commit.
        with django_capture_on_commit_callbacks(execute=True):
            services.live_game_act(
                actor=owner,
                game=game,
                action=rng.choice(moves or view["legal"]),
                expected_sequence=view["sequence"],
            )
    assert tricks_seen >= 20


# ---------------------------------------------------------------- no rule in the script


def test_the_table_script_restates_no_rule_of_the_cards():
    for name in script_names():
        text = script_text(name)
        code = re.sub(r"//[^\n]*", "", text)
        # The marriage values, the ace's 11 points and the bid cap of 120 are the engine's,
        # given by the page or applied by the server; none is a number in the script.
        numbers = {int(number) for number in re.findall(r"(?<![\w.])\d+(?![\w.])", code)}
        assert not numbers & {11, 40, 60, 80, 100, 120}, (name, sorted(numbers))
        # Nor the order of suits and ranks, the suit symbols, or the ten written as 10.
        for restated in ("SCDH", "9JQKTA", '"10"', "\u2660", "\u2663", "\u2665", "\u2666"):
            assert restated not in code, (name, restated)
        assert not re.search(r"\\u266[0-6]", code), name


def test_the_number_scan_would_catch_a_restated_marriage_value():
    code = "const MARRIAGE_VALUE = { S: 40, C: 60, D: 80, H: 100 };"
    numbers = {int(number) for number in re.findall(r"(?<![\w.])\d+(?![\w.])", code)}
    assert numbers == {40, 60, 80, 100}


# ---------------------------------------------------------------- modules and hashed names


def test_the_table_modules_load_each_other_by_relative_paths_in_no_cycle():
    names = set(script_names())
    graph = {name: imports_of(name) for name in names}
    for name, targets in graph.items():
        text = script_text(name)
        # Every import is a static one with a relative path and a semicolon, the form the
        # manifest storage rewrites; nothing is loaded by a dynamic import().
        statements = re.findall(r"^(?:import|export)\s[^;]*?\sfrom\s", text, re.M)
        assert len(statements) == len(targets), name
        assert "import(" not in text, name
        for path in IMPORT.findall(text):
            assert path.startswith("./") and path.endswith(".js"), (name, path)
        assert set(targets) <= names, (name, targets)

    # From the entry every module is reached, and none imports itself back (the manifest
    # storage cannot hash a cycle).
    reached: list[str] = []

    def visit(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, f"an import cycle: {' -> '.join((*trail, name))}"
        if name not in reached:
            reached.append(name)
        for target in graph[name]:
            visit(target, (*trail, name))

    visit(ENTRY, ())
    assert set(reached) == names


def test_collected_modules_import_each_other_by_their_hashed_names(tmp_path, settings):
    """The production storage on the table's modules alone, as `collectstatic` runs it."""
    from core.static_files import ModuleManifestStaticFilesStorage

    settings.STATIC_ROOT = tmp_path
    source = FileSystemStorage(location=STATIC_DIR)
    storage = ModuleManifestStaticFilesStorage(location=tmp_path, base_url="/static/")
    names = script_names()
    for name in names:
        with source.open(name) as original:
            storage.save(name, original)

    results = list(storage.post_process({name: (source, name) for name in names}))

    assert not [result for result in results if isinstance(result[2], Exception)]
    manifest = json.loads((tmp_path / storage.manifest_name).read_text())["paths"]
    for name in names:
        hashed = manifest[name]
        assert re.fullmatch(rf"{re.escape(name[:-3])}\.[0-9a-f]{{12}}\.js", hashed), hashed
        collected = imports_in((tmp_path / hashed).read_text(), hashed)
        assert collected == [manifest[target] for target in imports_of(name)], name
