"""Translations: the Ukrainian catalogue is complete and well formed, and the pages speak Ukrainian.

The catalogue checks read locale/uk/LC_MESSAGES/django.po with a small reader of their own, so an
empty or fuzzy entry, a lost placeholder or a wrong plural form fails `make test`. The page checks
render the main pages in Ukrainian and look for English left in what a person reads.
"""

from __future__ import annotations

import ast
import datetime
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from core.i18n import error_text, translate
from draws import seating
from draws import services as draw_services
from rules import RuleOptionError, RuleSet
from rules.messages import Message, ngettext, pgettext
from scoring import services as scoring_services
from scoring.score_sheet import ScoreSheetError, validate_score_sheet
from standings.ranking import validate_placement_points, validate_precedence
from tests.factories import ClubFactory, PlayerFactory, UserFactory, enter_confirmed_result
from tests.factories import game_sheet as engine_game_sheet
from tournaments import services

PO_FILE = Path(settings.BASE_DIR) / "locale" / "uk" / "LC_MESSAGES" / "django.po"
UKRAINIAN_PLURALS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);"
)
# The modules that explain themselves without Django (their messages are `Message`s).
PURE_MODULES = [
    "rules/options.py",
    "scoring/score_sheet.py",
    "standings/ranking.py",
    "ratings/season.py",
    *sorted(
        str(path.relative_to(settings.BASE_DIR))
        for path in (Path(settings.BASE_DIR) / "tournaments" / "seating").glob("*.py")
    ),
]


# ----------------------------------------------------------------------------- a .po reader
@dataclass
class Entry:
    line: int
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    msgstrs: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    def __str__(self) -> str:
        where = f"{PO_FILE.name}:{self.line}"
        return f"{where} {self.context + ' | ' if self.context else ''}{self.msgid!r}"


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    return re.sub(r"\\(.)", lambda m: _ESCAPES[m.group(1)], text[1:-1])


def read_po(path: Path) -> tuple[str, list[Entry]]:
    """The header and the entries of a .po file; obsolete (#~) entries are left out."""
    entries: list[Entry] = []
    entry: Entry | None = None
    target: tuple[str, int] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, target = None, None
            continue
        if line.startswith("#~"):
            continue
        if entry is None:
            entry = Entry(line=number)
            entries.append(entry)
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            entry.context, target = _unquote(line[8:]), ("context", 0)
        elif line.startswith("msgid_plural "):
            entry.plural, target = _unquote(line[13:]), ("plural", 0)
        elif line.startswith("msgid "):
            entry.msgid, target = _unquote(line[6:]), ("msgid", 0)
        elif line.startswith("msgstr["):
            index = int(line[7 : line.index("]")])
            entry.msgstrs[index] = _unquote(line[line.index("]") + 1 :])
            target = ("msgstr", index)
        elif line.startswith("msgstr "):
            entry.msgstrs[0], target = _unquote(line[7:]), ("msgstr", 0)
        elif line.startswith('"'):
            kind, index = target
            if kind == "msgstr":
                entry.msgstrs[index] += _unquote(line)
            else:
                setattr(entry, kind, getattr(entry, kind) + _unquote(line))
        else:
            raise AssertionError(f"{PO_FILE.name}:{number}: cannot read {raw!r}")
    header = next(e for e in entries if e.msgid == "" and e.context is None)
    return header.msgstrs[0], [e for e in entries if e is not header]


_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def placeholders(text: str) -> list[str]:
    """The printf placeholders of a text, `%%` left out, sorted (named by name, others by kind)."""
    found = []
    for match in _PLACEHOLDER.finditer(text):
        if match.group(0) == "%%":
            continue
        found.append(match.group(1) or match.group(0)[-1])
    return sorted(found)


def tags(text: str) -> list[str]:
    return sorted(re.findall(r"</?[a-z]+", text))


@pytest.fixture(scope="module")
def catalogue() -> tuple[str, list[Entry]]:
    return read_po(PO_FILE)


# ----------------------------------------------------------------------------- the catalogue
def test_the_catalogue_is_ukrainian_with_three_plural_forms(catalogue):
    header, entries = catalogue
    assert "Language: uk\n" in header
    assert "Content-Type: text/plain; charset=UTF-8\n" in header
    assert f"Plural-Forms: {UKRAINIAN_PLURALS}\n" in header
    assert len(entries) > 600
    plurals = [entry for entry in entries if entry.plural is not None]
    assert plurals
    assert [str(e) for e in plurals if sorted(e.msgstrs) != [0, 1, 2]] == []
    singles = [entry for entry in entries if entry.plural is None]
    assert [str(e) for e in singles if sorted(e.msgstrs) != [0]] == []


def test_every_entry_is_translated_and_none_is_fuzzy(catalogue):
    _, entries = catalogue
    assert [str(e) for e in entries if "fuzzy" in e.flags] == []
    assert [str(e) for e in entries if not all(text.strip() for text in e.msgstrs.values())] == []


def test_every_translation_keeps_the_placeholders_and_the_markup(catalogue):
    _, entries = catalogue
    wrong = []
    for entry in entries:
        sources = [entry.msgid] + ([entry.plural] if entry.plural is not None else [])
        wanted = sorted(set(placeholders(" ".join(sources))))
        for text in entry.msgstrs.values():
            if sorted(set(placeholders(text))) != wanted or tags(text) != tags(entry.msgid):
                wrong.append(f"{entry}: {text!r}")
        if "python-format" in entry.flags or wanted:
            # Each form on its own is a template: it must format without errors.
            values = {name: 1 for name in wanted if name.isidentifier()}
            for text in entry.msgstrs.values():
                try:
                    text % values if values else text
                except (KeyError, ValueError, TypeError) as error:
                    wrong.append(f"{entry}: {text!r} ({error})")
    assert wrong == []


def test_the_game_terms_are_the_ukrainian_ones(catalogue):
    _, entries = catalogue
    by_id = {(e.context, e.msgid): e.msgstrs for e in entries}
    terms = {
        (None, "Standings"): "Турнірна таблиця",
        (None, "Tournament points"): "Турнірні очки",
        (None, "Round %(n)s"): "Тур %(n)s",
        (None, "Seat"): "Місце за столом",
        (None, "Deal"): "Роздача",
        (None, "Dealer"): "Здавач",
        (None, "Declarer"): "Розігруючий",
        (None, "Bid"): "Заявка",
        (None, "Contract"): "Замовлення",
        (None, "Forced (both passed)"): "Вимушений прикуп (обидва спасували)",
        (None, "Marriage on the first trick"): "Мар'яж на першій взятці",
        ("deal outcome", "conceded"): "здався",
    }
    assert {key: by_id[key][0] for key in terms} == terms
    talon = by_id[(None, "At a table of four the dealer sits out the deal and scores the talon.")]
    assert "прикуп" in talon[0]


def _marked_templates(path: Path) -> list[tuple[str | None, str]]:
    """The (context, template) of every `_`, `gettext_noop`, `ngettext` and `pgettext` call."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        name = node.func.id
        if name in ("_", "gettext_noop") and args or name == "ngettext" and len(args) >= 2:
            found.append((None, args[0]))
        elif name == "pgettext" and len(args) >= 2:
            found.append((args[0], args[1]))
    return found


def test_the_messages_of_the_pure_modules_are_in_the_catalogue(catalogue):
    _, entries = catalogue
    translated = {(e.context, e.msgid) for e in entries if all(e.msgstrs.values())}
    marked = {
        key
        for module in PURE_MODULES
        for key in _marked_templates(Path(settings.BASE_DIR) / module)
    }
    assert len(marked) > 80
    assert sorted(marked - translated, key=str) == []


# ----------------------------------------------------------------------------- messages
def test_a_message_is_its_english_text_and_translates_with_its_values():
    message = Message("row %(row)s: %(problem)s", row=3, problem=Message("the sheet has no rows"))
    assert message == "row 3: the sheet has no rows"
    assert str(message) == "row 3: the sheet has no rows"
    assert message.params["row"] == 3
    with translation.override("uk"):
        assert translate(message) == "рядок 3: у записі немає жодного рядка"
    with translation.override("en"):
        assert translate(message) == "row 3: the sheet has no rows"
    assert translate("plain text") == "plain text"


@pytest.mark.parametrize(
    ("count", "english", "ukrainian"),
    [
        (1, "1 player cannot", "1 гравця не можна"),
        (3, "3 players cannot", "3 гравців не можна"),
        (5, "5 players cannot", "5 гравців не можна"),
    ],
)
def test_a_message_about_a_count_takes_the_plural_form_of_the_language(count, english, ukrainian):
    message = ngettext(
        "%(count)s player cannot be split into tables of 3 and 4; seat them with bots",
        "%(count)s players cannot be split into tables of 3 and 4; seat them with bots",
        count,
    )
    assert message.startswith(english)
    with translation.override("uk"):
        assert translate(message).startswith(ukrainian)


def test_the_three_ukrainian_plural_forms_are_told_apart():
    singular = "'scores' must list %(count)s whole number, one per seat"
    plural = "'scores' must list %(count)s whole numbers, one per seat"
    with translation.override("uk"):
        texts = {n: translate(ngettext(singular, plural, n)) for n in (1, 3, 5, 21, 22, 11)}
    assert "1 ціле число" in texts[1] and "21 ціле число" in texts[21]
    assert "3 цілі числа" in texts[3] and "22 цілі числа" in texts[22]
    assert "5 цілих чисел" in texts[5] and "11 цілих чисел" in texts[11]


def test_a_word_with_a_context_is_translated_in_that_context():
    with translation.override("uk"):
        assert translate(pgettext("score sheet field", "bid")) == "заявка"
        assert translate(Message("'%(field)s' is missing", field=pgettext("x", "bid"))) == (
            "не заповнено поле «bid»"
        )


def test_the_errors_of_the_pure_modules_are_translated():
    with translation.override("uk"), pytest.raises(RuleOptionError) as rules:
        RuleSet(min_bid=42)
    assert rules.value.option == "min_bid"
    with translation.override("uk"):
        assert error_text(rules.value) == (
            "параметр правил min_bid має бути кратним 5, від 5 до 120"
        )
    with pytest.raises(ValueError) as precedence:
        validate_precedence(["games_won", "games_won"])
    with pytest.raises(ValueError) as points:
        validate_placement_points({"4": [0, 1, 2, 3]})
    with pytest.raises(seating.SeatingError) as draw:
        seating.plan_tables(5, table_size=4, fill="mixed")
    with translation.override("uk"):
        assert error_text(precedence.value).startswith("показник 'games_won' двічі")
        assert error_text(points.value).startswith(
            "очки за позиції для столів на 4 гравці не можуть зростати"
        )
        assert error_text(draw.value) == (
            "5 гравців не можна розсадити за столи на 3 і 4; посадіть їх із ботами"
        )
    assert error_text(ValueError("not a message")) == "not a message"


def test_score_sheet_messages_count_seats_from_one_and_translate():
    rows = [
        {
            "dealer": 1,
            "declarer": 1,
            "bid": 100,
            "contract": 100,
            "outcome": "made",
            "scores": [0, 100, 0],
        }
    ]
    with pytest.raises(ScoreSheetError) as caught:
        validate_score_sheet(
            {"mode": "deals", "rows": rows}, players=3, first_dealer=0, rules=RuleSet()
        )
    first = caught.value.messages[0]
    assert first == (
        "row 1: the dealer must be seat 1, not seat 2 "
        "(the deal passes to the left after every deal)"
    )
    assert first.params["row"] == 1
    with translation.override("uk"):
        assert translate(first) == (
            "рядок 1: здавати має місце 1, а не місце 2 "
            "(після кожної роздачі здає наступний гравець ліворуч)"
        )


# ----------------------------------------------------------------------------- pages
# Words that may stay in Latin letters on a Ukrainian page: the brand, file formats, RULES.md's
# option names (shown as code beside their Ukrainian help) and the values of the bid cap.
LATIN_ALLOWED = {
    "english",
    "excel",
    "csv",
    "json",
    "rules",
    "md",
    "utf",
    "windows",
    "qr",
    "name",
    "none",
    "held_marriages",
    "min_bid",
    "bid_step",
    "bid_jumps",
    "bid_cap",
    "concede_bonus",
    "must_beat",
    "marriage_on_first_trick",
    "round_declarer_points",
    "rounding",
    "target",
    "true",
    "false",
}
# English sentences of the pages that must not survive in Ukrainian.
ENGLISH_SENTENCES = [
    "Standings",
    "Tournament points",
    "Sign in",
    "Score sheet",
    "Round 1",
    "Table 1",
    "Seat",
    "deals first",
    "Skip to content",
    "No results are confirmed yet",
    "The sheet is not finished yet",
]


def visible_text(response) -> str:
    """What a person reads (or hears) on a page: text, and the attributes that are shown."""
    page = response.content.decode()
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"__\w+__", "1", page)  # a <template>'s placeholders, filled in when shown
    shown = re.findall(r'\b(?:title|placeholder|aria-label|alt|data-confirm)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *shown]))


def without_addresses(text: str) -> str:
    return re.sub(r"https?://\S+", " ", text)


def english_left(response) -> list[str]:
    text = without_addresses(visible_text(response))
    words = re.findall(r"[A-Za-z][A-Za-z_']+", text)
    return sorted({word for word in words if word.lower() not in LATIN_ALLOWED})


@pytest.fixture
def director():
    return UserFactory(username="суддя")


@pytest.fixture
def world(director, django_capture_on_commit_callbacks):
    """A Ukrainian club's tournament: round 1 finished and confirmed, round 2 being played."""
    club = ClubFactory(name="Клуб «Козир»", slug="kozyr", directors=[director])
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Кубок Тисячі",
        date=datetime.date(2026, 12, 4),
        rounds_planned=3,
        quick_results_allowed=True,
    )
    names = ["Олена", "Богдан", "Ярина", "Тарас", "Мирослава", "Остап", "Зоряна", "Устим"]
    for name in names:
        player = PlayerFactory(club=club, name=name, user=UserFactory())
        services.registration_create(actor=director, tournament=tournament, player=player)
    first = draw_services.round_draw(actor=director, tournament=tournament, seed=11)
    draw_services.round_publish(actor=director, round_=first)
    for table in first.tables.order_by("number"):
        with django_capture_on_commit_callbacks(execute=True):
            enter_confirmed_result(table, seed=table.pk)
    second = draw_services.round_draw(actor=director, tournament=tournament, seed=12)
    draw_services.round_publish(actor=director, round_=second)
    tournament.refresh_from_db()
    table = second.tables.get(number=1)
    return {"tournament": tournament, "first": first, "second": second, "table": table}


def ukrainian(client, url):
    response = client.get(url, headers={"accept-language": "uk"})
    assert response.status_code == 200, url
    assert '<html lang="uk">' in response.content.decode(), url
    return response


@pytest.mark.django_db
def test_the_main_pages_speak_ukrainian(client, director, world):
    tournament, first, table = world["tournament"], world["first"], world["table"]
    player = table.seats.get(position=2).registration.player
    public = {
        reverse("home"): "Зараз тривають",
        reverse("public-tournament-list"): "Усі турніри",
        reverse("public-tournament", args=[tournament.pk]): "Турнірна таблиця",
        reverse("public-standings", args=[tournament.pk]): "Турнірні очки",
        reverse("public-round", args=[tournament.pk, 1]): "Тур завершено",
        reverse("public-table", args=[tournament.pk, 1, 1]): "Запис гри",
        reverse("public-player", args=[tournament.pk, 1]): "По турах",
        reverse("public-wall", args=[tournament.pk]): "Вийти з табло",
        reverse("login"): "Ім'я користувача",
    }
    director_pages = {
        reverse("director-home"): "Керування турнірами",
        reverse("director-tournament", args=[tournament.pk]): "Завершити турнір",
        reverse("director-tournament-edit", args=[tournament.pk]): "Параметри правил",
        reverse("director-registrations", args=[tournament.pk]): "Додати гравця",
        reverse("director-round", args=[first.pk]): "Результати",
        reverse("director-round-print", args=[first.pk]): "Картки столів",
        reverse("director-table-result", args=[table.pk]): "Внести запис гри",
    }
    player_pages = {
        reverse("player-home"): "Ваші суперники",
        reverse("table-sheet", args=[table.pk]): "Подати запис гри",
    }
    pages = [(None, public), (director, director_pages), (player.user, player_pages)]
    for user, urls in pages:
        if user is not None:
            client.force_login(user)
        for url, phrase in urls.items():
            response = ukrainian(client, url)
            text = visible_text(response)
            assert phrase in text, url
            assert 'name="language"' in response.content.decode(), url  # the switch
            assert [s for s in ENGLISH_SENTENCES if s in text] == [], url
            assert english_left(response) == [], url


@pytest.mark.django_db
def test_the_player_pages_count_seats_from_one(client, world):
    table = world["table"]
    me = table.seats.get(position=0).registration.player
    client.force_login(me.user)

    home = visible_text(ukrainian(client, reverse("player-home")))
    sheet = ukrainian(client, reverse("table-sheet", args=[table.pk])).content.decode()

    assert "Місце за столом 1" in home and "Перша роздача — ваша" in home
    assert "Місце 0" not in home
    # The options name the seats from 1; their values stay the records' indexes.
    assert re.search(r'<option value="0"[^>]*>1 · ', sheet)
    assert not re.search(r">0 · ", sheet)


@pytest.mark.django_db
def test_a_score_sheet_error_on_the_ukrainian_sheet_page_is_ukrainian(client, world):
    table = world["table"]
    me = table.seats.get(position=1).registration.player
    client.force_login(me.user)
    sheet = engine_game_sheet(players=table.seats.count(), seed=3)
    declarer = sheet["rows"][0]["declarer"]
    sheet["rows"][0]["scores"][declarer] += 5  # not what the contract scores
    data = {
        "expected_version": 0,
        "mode": "deals",
        "rows-TOTAL_FORMS": len(sheet["rows"]),
        "rows-INITIAL_FORMS": 0,
    }
    for index, row in enumerate(sheet["rows"]):
        prefix = f"rows-{index}-"
        data |= {
            prefix + "dealer": row["dealer"],
            prefix + "declarer": row["declarer"],
            prefix + "bid": row["bid"],
            prefix + "contract": "" if row["contract"] is None else row["contract"],
            prefix + "outcome": row["outcome"],
        }
        if row["forced"]:
            data[prefix + "forced"] = "on"
        data |= {f"{prefix}score_{seat}": score for seat, score in enumerate(row["scores"])}

    url = reverse("table-sheet", args=[table.pk])
    page = client.post(url, data, headers={"accept-language": "uk"})
    fragment = client.post(
        reverse("table-sheet-check", args=[table.pk]),
        data,
        headers={"accept-language": "uk", "HX-Request": "true"},
    )

    expected = f"рядок 1: розігруючий (місце {declarer + 1}) "
    for response in (page, fragment):
        assert response.status_code == 200
        text = visible_text(response)
        assert expected in text
        assert "row 1:" not in text and "the declarer" not in text
    # The message about row 1 is shown under deal 1 too (htmx swaps it in by the deal's id).
    assert re.search(r'id="deal-check-0".*?' + re.escape(expected), fragment.content.decode(), re.S)
    # The same sheet in English keeps the English message.
    english = visible_text(client.post(url, data, headers={"accept-language": "en"}))
    assert f"row 1: the declarer (seat {declarer + 1}) " in english


@pytest.mark.django_db
def test_the_directors_sheet_page_marks_the_row_in_ukrainian(client, director, world):
    table = world["table"]
    client.force_login(director)
    sheet = engine_game_sheet(players=table.seats.count(), seed=4)
    sheet["rows"][1]["dealer"] = (sheet["rows"][1]["dealer"] + 1) % table.seats.count()
    data = {
        "mode": "deals",
        "expected_version": 0,
        "note": "",
        "rows-TOTAL_FORMS": len(sheet["rows"]),
        "rows-INITIAL_FORMS": 0,
    }
    for index, row in enumerate(sheet["rows"]):
        prefix = f"rows-{index}-"
        data |= {
            prefix + "dealer": row["dealer"],
            prefix + "declarer": row["declarer"],
            prefix + "bid": row["bid"],
            prefix + "contract": "" if row["contract"] is None else row["contract"],
            prefix + "outcome": row["outcome"],
        }
        if row["forced"]:
            data[prefix + "forced"] = "on"
        data |= {f"{prefix}score_{seat}": score for seat, score in enumerate(row["scores"])}

    response = client.post(
        reverse("director-table-result", args=[table.pk]), data, headers={"accept-language": "uk"}
    )

    page = response.content.decode()
    assert "Результат не збережено: запис порушує такі правила." in visible_text(response)
    # The message about row 2 is at the top, in the summary and in the row's own error line.
    assert page.count("рядок 2: здавати має місце 2, а не місце 3") == 3
    line = page.split('id="deal-check-1"', 1)[1].split("</div>", 1)[0]
    assert "рядок 2: здавати має місце 2, а не місце 3" in line


@pytest.mark.django_db
def test_the_tournament_form_shows_a_rule_option_error_in_ukrainian(client, director, world):
    client.force_login(director)
    url = reverse("director-tournament-create")
    form = {
        "club": world["tournament"].club_id,
        "name": "Зимовий турнір",
        "date": "2026-12-20",
        "is_public": "on",
        "rounds_planned": "4",
        "table_size": "4",
        "round_format": "game",
        "seating_mode": "balanced",
        "precedence_1": "tournament_points",
        "precedence_2": "tournament_points",
        "rule_min_bid": "42",
        "rule_bid_step": "5",
        "rule_bid_jumps": "on",
        "rule_bid_cap": "held_marriages",
        "rule_concede_bonus": "50",
        "rule_rounding": "5",
        "rule_target": "1001",
    }
    for size, points in ((3, ["3", "1,5", "0"]), (4, ["3", "2", "1", "0"])):
        form |= {f"points_{size}_{place}": value for place, value in enumerate(points, start=1)}

    response = client.post(url, form, headers={"accept-language": "uk"})

    assert response.status_code == 400
    page = response.content.decode()
    # The option's error sits by its field.
    assert re.search(
        r"id_rule_min_bid.*?параметр правил min_bid має бути кратним 5, від 5 до 120", page, re.S
    )
    assert "rule option" not in page

    del form["precedence_2"]
    form["rule_min_bid"] = "40"
    response = client.post(url, form, headers={"accept-language": "uk"})
    assert response.status_code == 302  # 1,5 is read with the Ukrainian decimal comma


@pytest.mark.django_db
def test_a_seat_draw_error_reaches_the_director_in_ukrainian(director):
    club = ClubFactory(directors=[director])
    tournament = services.tournament_create(
        actor=director, club=club, name="Турнір", date=datetime.date(2026, 12, 4)
    )
    for number in range(5):
        player = PlayerFactory(club=club, name=f"Гравець {number + 1}")
        services.registration_create(actor=director, tournament=tournament, player=player)

    with translation.override("uk"), pytest.raises(ValidationError) as refused:
        draw_services.round_draw(actor=director, tournament=tournament, seed=1)

    assert refused.value.messages == [
        "5 гравців не можна розсадити за столи на 3 і 4; посадіть їх із ботами"
    ]


@pytest.mark.django_db
def test_the_standings_settings_errors_are_ukrainian(director):
    club = ClubFactory(directors=[director])
    with translation.override("uk"), pytest.raises(ValidationError) as refused:
        services.tournament_create(
            actor=director,
            club=club,
            name="Турнір",
            date=datetime.date(2026, 12, 4),
            standings_precedence=["random", "games_won"],
            placement_points={"3": [3, 1]},
        )
    assert refused.value.message_dict == {
        "standings_precedence": [
            "'random' (жереб) розв'язує будь-яку рівність, тож може бути лише останнім показником"
        ],
        "placement_points": ["для столу на 3 гравці потрібно 3 числа очок за позиції"],
    }


@pytest.mark.django_db
def test_the_sheet_check_groups_the_translated_messages_by_row(world):
    table = world["table"]
    sheet = engine_game_sheet(players=table.seats.count(), seed=5)
    sheet["rows"][2]["bid"] = 42
    with translation.override("uk"):
        check = scoring_services.sheet_check(table=table, sheet=sheet)
    assert list(check.row_messages) == [3]
    assert check.row_messages[3][0].startswith("рядок 3: заявка має бути кратною 5")


@pytest.mark.django_db
def test_the_language_switch_is_remembered(client, world):
    response = client.post(reverse("set_language"), {"language": "uk", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "uk"

    for url in (reverse("home"), reverse("public-standings", args=[world["tournament"].pk])):
        page = client.get(url).content.decode()
        assert '<html lang="uk">' in page
        assert "Турніри" in page

    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get(reverse("home")).content.decode()


def test_a_ukrainian_date_is_written_without_a_leading_zero():
    import datetime

    from django.utils import formats, translation

    with translation.override("uk"):
        assert formats.date_format(datetime.date(2026, 12, 1)) == "1 грудня 2026 р."
        assert formats.date_format(datetime.date(2026, 3, 9), "MONTH_DAY_FORMAT") == "9 березня"


def test_djangos_own_form_messages_read_as_correct_ukrainian():
    def refusal(field, value):
        with translation.override("uk"):
            with pytest.raises(ValidationError) as refused:
                field.clean(value)
            return refused.value.messages[0]

    choice = refusal(forms.ChoiceField(choices=[("a", "A")]), "zz")
    digits = refusal(forms.DecimalField(max_digits=7, decimal_places=2), "123456789")
    places = refusal(forms.DecimalField(max_digits=7, decimal_places=2), "1.234")

    # Django's catalogue has "Зробить" (for "Зробіть") and "цифер" (for "цифр").
    assert choice.startswith("Виберіть один із запропонованих варіантів")
    assert digits == "Тут може бути щонайбільше 7 цифр."
    assert places == "Після коми може бути щонайбільше 2 цифри."
