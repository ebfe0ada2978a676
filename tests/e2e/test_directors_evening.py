"""The director's evening in a real browser (issue 14's proof), from an empty database (one
director and his club, one club player) to a finished tournament: he creates the tournament,
pastes 13 names (a typo beside a club player's name is flagged and merged away on the Correct
page, another typo is renamed), takes the roll call, draws round 1 without the absent player,
prints the draft (DRAFT across it), publishes, starts the round clock (ticking on the wall
screen beside the seat numbers and the find-your-seat list), enters the tables' final totals,
corrects one, takes a late entry and a withdrawal, plays rounds 2 and 3, finishes and prints the
final ranking in the standings' order.

Locators use ids, names, form actions and data attributes, so the same test runs in English and
Ukrainian; names and numbers are the values read. A few pages are looked at on a 360px phone too
(nothing wider than the screen). In the Ukrainian run no English word is left on the pages.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tournament_flow import sign_in
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.models import Player, Registration, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
CLUB_PLAYER = "Ірина Бондар"  # in the club before the evening
TYPO = "Ірина Бондарь"  # pasted tonight: close to the club player's name
MISSPELT, SPELT = "Михайло Гончарр", "Михайло Гончар"  # a typo with no club player near it
NAMES = [
    "Олена Коваль",
    "Тарас Шевчук",
    TYPO,
    "Андрій Мельник",
    "Наталія Ткачук",
    "Богдан Кравець",
    "Оксана Лисенко",
    MISSPELT,
    "Юлія Савчук",
    "Василь Руденко",
    "Софія Марченко",
    "Петро Захарчук",
    "Галина Пономаренко",
]
ABSENT = "Петро Захарчук"  # marked absent for round 1, present again from round 2
WITHDRAWN = "Василь Руденко"  # withdraws after round 1
LATE = "Дмитро Остапчук"  # a late entry after round 1
NOTE = "Суму переписано з аркуша ще раз"  # the correction's reason
# Final totals of a game to 1001 (multiples of 5, one seat past the target); each table's are
# turned by its number so that different seats win.
TOTALS = {4: [1005, 420, -35, 300], 3: [1010, 415, 250]}
CORRECTED_FROM, CORRECTED_TO = 420, 455
# Latin words a Ukrainian page may show: abbreviations and the addresses' parts.
LOGIN = "director-evening"
LATIN_ALLOWED = {"QR", "CSV", "JSON", "PDF", "URL", "UTF", "Excel", "Windows"}


# --------------------------------------------------------------------------- helpers
def submit(page, form_selector: str, button: str = "button[type=submit]") -> None:
    """Send a form by its button, as a click does, and wait for the next page."""
    form = page.locator(form_selector).first
    with page.expect_navigation():
        form.locator(button).first.click()


def shot(screenshot, page, language: str, number: int, step: str) -> None:
    screenshot(page, f"evening-{language}-{number:02d}-{step}")


def names_in(locator) -> list[str]:
    return [text.strip() for text in locator.all_inner_texts()]


UKRAINIAN_ALPHABET = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя"


def alphabetical(name: str) -> list[int]:
    """In the order of the Ukrainian alphabet (І after И, not before А as in Unicode)."""
    return [UKRAINIAN_ALPHABET.find(letter) for letter in name.casefold()]


def row_names(locator) -> list[str]:
    """The names of rows' headers without their badges (a name, or its link, comes first)."""
    return locator.evaluate_all("els => els.map(el => el.childNodes[0].textContent.trim())")


def latin_words(page) -> set[str]:
    """The words in Latin letters on the page, hidden ones too, outside addresses and what is
    meant to stay as it is: RULES.md's option names and setting names (in code, or as a
    select's values), the CSV header «name» the upload reads, the language switcher (each
    language in its own name) and the director's login."""
    text = page.evaluate(
        """() => {
            const body = document.body.cloneNode(true);
            body.querySelectorAll("code, script, noscript, style, template, select#language")
                .forEach(element => element.remove());
            return body.textContent;
        }"""
    )
    text = re.sub(r"\S*(https?://|localhost|127\.0\.0\.1)\S*", " ", text)
    text = re.sub(
        r"\b[A-Za-z]+(_[A-Za-z]+)+\b|\bnone(?=:)|«name»|RULES\.md|" + re.escape(LOGIN), " ", text
    )
    return {word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in LATIN_ALLOWED}


def wider(page) -> list[str]:
    """The elements that stick out of the screen, as tag.class and their right edge: the
    outermost ones, and those placed absolutely (which a scrolling box does not hold in)."""
    return page.evaluate(
        """() => {
            const out = [];
            const width = document.documentElement.clientWidth;
            for (const el of document.body.querySelectorAll("*")) {
                const box = el.getBoundingClientRect();
                const parent = el.parentElement.getBoundingClientRect();
                const absolute = getComputedStyle(el).position === "absolute";
                if (box.right > width + 1 && (absolute || parent.right <= width + 1)) {
                    out.push(el.tagName.toLowerCase() + "." + [...el.classList].join(".") +
                             " " + Math.round(box.right) + "px");
                }
            }
            return out.slice(0, 8);
        }"""
    )


class Evening:
    """The director's laptop, the phone he looks with, and what the pages showed."""

    def __init__(self, base, open_page, screenshot, language):
        self.base, self.open_page, self.screenshot, self.language = (
            base,
            open_page,
            screenshot,
            language,
        )
        self.desk = open_page(viewport=LAPTOP, language=language)
        self.desk.on("dialog", lambda dialog: dialog.accept())  # the data-confirm questions
        self.phone = None
        self.english: dict[str, set[str]] = {}
        self.too_wide: list[str] = []
        self.step = 0

    def go(self, path: str, page=None):
        page = page or self.desk
        page.goto(self.base + path)
        return page

    def look(self, name: str, page=None) -> None:
        """A screenshot of the step, and in Ukrainian a note of any English on the page."""
        page = page or self.desk
        self.step += 1
        shot(self.screenshot, page, self.language, self.step, name)
        assert page.locator("html").get_attribute("lang") == self.language
        if self.language == "uk":
            words = latin_words(page)
            if words:
                self.english[f"{self.step:02d}-{name}"] = words

    def on_phone(self, path: str, name: str):
        """The page on the director's phone (the same session): nothing wider than the screen.
        A page that is wider is noted (known bugs, see the end of the test) and the evening
        goes on."""
        if self.phone is None:
            self.phone = self.open_page(viewport=PHONE, language=self.language)
            self.phone.context.add_cookies(self.desk.context.cookies())
        self.go(path, self.phone)
        width = self.phone.evaluate("document.documentElement.scrollWidth")
        self.look(f"{name}-phone", self.phone)
        if width > PHONE["width"]:
            self.too_wide.append(f"{path} is {width}px wide: {', '.join(wider(self.phone))}")


def enter_totals(evening: Evening, table, totals: list[int], note: str = "") -> None:
    """The director's table result page, final totals only, saved and confirmed at once."""
    page = evening.desk
    page.goto(f"{evening.base}/manage/rounds/{table.round_id}/")
    card = page.locator(f"#round-results li.table-card[data-table='{table.number}']")
    with page.expect_navigation():
        card.locator(f"a[href$='/manage/tables/{table.pk}/result/']").click()
    if page.locator("input[name=total_0]").count() == 0:
        with page.expect_navigation():
            page.click(".mode-switch a[href='?mode=totals']")
    for seat, total in enumerate(totals):
        page.fill(f"#sheet-form input[name=total_{seat}]", str(total))
    if note:
        page.fill("#sheet-form [name=note]", note)
    submit(page, "#sheet-form", "button.submit-sheet")
    expect(page).to_have_url(re.compile(rf"/manage/rounds/{table.round_id}/$"))
    expect(page.locator("ul.messages li.success")).to_be_visible()


def table_totals(table) -> list[int]:
    base = TOTALS[table.seats.count()]
    turn = table.number % len(base)
    return base[-turn:] + base[:-turn] if turn else list(base)


def enter_round(evening: Evening, round_) -> None:
    for table in round_.tables.order_by("number"):
        enter_totals(evening, table, table_totals(table))
    round_.refresh_from_db()
    assert round_.status == "finished"


def draw_and_publish(evening: Evening, tournament: Tournament, number: int):
    page = evening.desk
    evening.go(f"/manage/tournaments/{tournament.pk}/")
    expect(
        page.locator(f"form[action$='/manage/tournaments/{tournament.pk}/draw/']")
    ).to_be_visible()
    submit(page, f"form[action$='/manage/tournaments/{tournament.pk}/draw/']")
    round_ = tournament.rounds.get(number=number)
    expect(page).to_have_url(re.compile(rf"/manage/rounds/{round_.pk}/$"))
    return round_


def publish(evening: Evening, round_) -> None:
    submit(evening.desk, f"form[action$='/manage/rounds/{round_.pk}/publish/']")
    round_.refresh_from_db()
    assert round_.status == "published"
    expect(evening.desk.locator("#round-results")).to_be_visible()


def seated_names(round_) -> set[str]:
    return {
        seat.registration.player.name
        for table in round_.tables.all()
        for seat in table.seats.select_related("registration__player")
    }


# --------------------------------------------------------------------------- the evening
@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_directors_evening_from_an_empty_database_to_the_prize_list(
    live_server, open_page, screenshot, language
):
    director = UserFactory(username=LOGIN)
    director.set_password("director-password")
    director.save()
    club = ClubFactory(name="Клуб «Козир»", directors=[director])
    PlayerFactory(club=club, name=CLUB_PLAYER, user=None)
    evening = Evening(live_server.url, open_page, screenshot, language)
    desk = evening.desk
    sign_in(desk, live_server.url, LOGIN, "director-password")

    # 1. The tournament: 13 players at tables of 4 (3 where needed), 3 rounds, final totals.
    evening.go("/manage/tournaments/new/")
    desk.fill("input[name=name]", "Вечірній кубок")
    desk.fill("input[name=date]", "2026-12-04")
    desk.fill("input[name=rounds_planned]", "3")
    desk.select_option("select[name=table_size]", "4")
    desk.select_option("select[name=round_format]", "game")
    desk.check("input[name=quick_results_allowed]")
    evening.look("new-tournament")
    submit(desk, "form[method=post]:has(input[name=rounds_planned])")
    tournament = Tournament.objects.get(name="Вечірній кубок")
    assert (tournament.rounds_planned, tournament.table_size) == (3, "4")
    assert tournament.quick_results_allowed
    expect(desk).to_have_url(re.compile(rf"/manage/tournaments/{tournament.pk}/players/$"))

    desk.fill("#paste textarea[name=names]", "\n".join(NAMES))
    submit(desk, "#paste form")
    warning = desk.locator("ul.messages li.warning")
    expect(warning).to_contain_text(TYPO)
    expect(warning).to_contain_text(CLUB_PLAYER)
    expect(desk.locator("table.registrations tbody tr")).to_have_count(13)
    evening.look("players-pasted-close-name-warning")
    evening.on_phone(f"/manage/tournaments/{tournament.pk}/players/", "players")
    # Every registration's buttons are in sight on the phone, none past the right edge.
    rights = evening.phone.evaluate(
        """() => [...document.querySelectorAll('table.registrations td.actions .button,'
            + ' table.registrations td.actions button')]
            .map((button) => button.getBoundingClientRect().right)"""
    )
    assert len(rights) >= 13 * 2
    assert max(rights) <= PHONE["width"], rights

    # The typo is the club player: merged on its Correct page, the club player's name kept.
    typo = tournament.registrations.get(player__name=TYPO)
    row = desk.locator("table.registrations tbody tr", has_text=TYPO)
    with desk.expect_navigation():
        row.locator(f"a[href$='/manage/registrations/{typo.pk}/']").click()
    expect(desk.locator("#merge")).to_contain_text(CLUB_PLAYER)  # the close name, offered
    club_player = Player.objects.get(club=club, name=CLUB_PLAYER)
    desk.select_option("#merge select[name=other]", str(club_player.pk))
    expect(desk.locator("#merge input[name=keep][value=other]")).to_be_checked()
    evening.look("correct-merge")
    evening.on_phone(f"/manage/registrations/{typo.pk}/", "correct")
    submit(desk, "#merge")
    expect(desk.locator("ul.messages li.success")).to_contain_text(CLUB_PLAYER)
    players = names_in(desk.locator("table.registrations tbody th[scope=row]"))
    assert CLUB_PLAYER in players and TYPO not in players
    assert not Player.objects.filter(club=club, name=TYPO).exists()
    typo.refresh_from_db()
    assert typo.player_id == club_player.pk and typo.start_number == 3

    # The other typo has no club player near it: renamed.
    misspelt = tournament.registrations.get(player__name=MISSPELT)
    evening.go(f"/manage/registrations/{misspelt.pk}/")
    desk.fill("#rename input[name=name]", SPELT)
    submit(desk, "#rename")
    expect(desk.locator("ul.messages li.success")).to_contain_text(SPELT)
    players = names_in(desk.locator("table.registrations tbody th[scope=row]"))
    assert SPELT in players and MISSPELT not in players
    assert len(players) == 13
    evening.look("players-corrected")

    # 2. Roll call: one player is not here; round 1 is drawn without him.
    absent = tournament.registrations.get(player__name=ABSENT)
    evening.go(f"/manage/tournaments/{tournament.pk}/roll-call/")
    submit(desk, f"form[action$='/registrations/{absent.pk}/presence/']", "button[value='0']")
    expect(desk.locator(f"#r{absent.pk}")).to_have_class(re.compile(r"\bis-absent\b"))
    expect(desk.locator("[data-roll-call-count]")).to_contain_text("12")
    evening.look("roll-call")
    evening.on_phone(f"/manage/tournaments/{tournament.pk}/roll-call/", "roll-call")

    evening.go(f"/manage/tournaments/{tournament.pk}/")
    draw_form = desk.locator(f"form[action$='/manage/tournaments/{tournament.pk}/draw/']")
    expect(draw_form.locator(".absent-notice")).to_be_visible()
    expect(draw_form.locator(".absent-notice a[href$='/roll-call/']")).to_be_visible()
    evening.look("draw-panel-absent")
    round_1 = draw_and_publish(evening, tournament, 1)
    assert round_1.status == "draft"
    expect(desk.locator(".absent-notice")).to_be_visible()  # the draft says it too
    seats = desk.locator(".tables-grid .seats")
    expect(desk.locator(".tables-grid > li.table-card")).to_have_count(3)
    expect(seats.first).to_be_visible()
    assert ABSENT not in " ".join(seats.all_inner_texts())
    assert ABSENT not in seated_names(round_1) and len(seated_names(round_1)) == 12
    evening.look("round-1-draft")

    # The draft printed: DRAFT across every table's page.
    evening.go(f"/manage/rounds/{round_1.pk}/print/")
    sheets = desk.locator("article.print-sheet")
    expect(sheets).to_have_count(3)
    mark = "DRAFT" if language == "en" else "ЧЕРНЕТКА"
    for index in range(3):
        assert sheets.nth(index).get_attribute("data-watermark") == mark
    desk.emulate_media(media="print")
    watermark = desk.evaluate(
        "getComputedStyle(document.querySelector('article.print-sheet'), '::after').content"
    )
    assert mark in watermark
    evening.look("round-1-draft-print")
    desk.emulate_media(media="screen")
    evening.go(f"/manage/rounds/{round_1.pk}/")
    publish(evening, round_1)

    # 3. The round clock, on the wall screen with the seats; the find-your-seat list.
    clock_form = desk.locator(f"#clock form[action$='/manage/rounds/{round_1.pk}/clock/']")
    clock_form.locator("input[name=minutes]").fill("30")
    submit(desk, f"#clock form[action$='/manage/rounds/{round_1.pk}/clock/']")
    expect(desk.locator("ul.messages li.success")).to_be_visible()
    expect(desk.locator("#clock [data-round-clock][data-ticking='1']")).to_be_visible()
    remaining = int(desk.locator("#clock [data-round-clock]").get_attribute("data-remaining"))
    assert 29 * 60 < remaining <= 30 * 60
    evening.look("round-1-clock")
    evening.on_phone(f"/manage/rounds/{round_1.pk}/", "round-1-clock")

    wall = open_page(viewport=LAPTOP, language=language)
    # A screenful every 3 seconds (the wall's ?seconds=), to see its panels in turn.
    wall.goto(f"{live_server.url}/tournaments/{tournament.pk}/wall/?seconds=3")
    time = wall.locator("[data-round-clock] [data-clock-time]")
    expect(time).to_be_visible()
    expect(time).to_have_text(re.compile(r"^(29|30):\d\d$"))
    shown = time.inner_text()
    expect(time).not_to_have_text(shown, timeout=5_000)  # it ticks
    seat_numbers = wall.locator(".wall-table .seat-no")
    expect(seat_numbers).to_have_count(12)
    assert sorted(names_in(seat_numbers)) == sorted(["1", "2", "3", "4"] * 3)
    for name in seated_names(round_1):
        expect(wall.locator(".wall-tables")).to_contain_text(name)
    evening.look("wall-screen", wall)
    expect(seat_numbers.first).to_be_visible(timeout=10_000)  # the tables' panel comes round
    expect(time).to_be_visible()
    evening.look("wall-screen-tables", wall)
    seat_lines = wall.locator(".wall-seat-lines li")
    expect(seat_lines).to_have_count(12)
    expect(seat_lines.first).to_be_visible(timeout=10_000)  # and the find-your-seat panel
    evening.look("wall-screen-seats", wall)

    seat_list = open_page(viewport=LAPTOP, language=language)
    seat_list.goto(f"{live_server.url}/tournaments/{tournament.pk}/seats/")
    lines = seat_list.locator("table.seat-lines tbody tr")
    expect(lines).to_have_count(12)
    listed = names_in(seat_list.locator("table.seat-lines tbody th[scope=row]"))
    assert listed == sorted(seated_names(round_1), key=alphabetical)
    assert ABSENT not in listed
    first_seat = round_1.tables.get(number=1).seats.get(position=0)
    first_line = seat_list.locator(
        "table.seat-lines tbody tr", has_text=first_seat.registration.player.name
    )
    assert names_in(first_line.locator("td")) == ["1", str(first_seat.number)]
    evening.look("find-your-seat", seat_list)
    evening.on_phone(f"/tournaments/{tournament.pk}/seats/", "find-your-seat")

    # 4. Round 1's results as final totals, then a correction of a confirmed one.
    enter_round(evening, round_1)
    expect(desk.locator("#round-results li.result-confirmed")).to_have_count(3)
    evening.look("round-1-results")
    corrected_table = round_1.tables.get(number=1)
    evening.on_phone(f"/manage/tables/{corrected_table.pk}/result/", "table-result")

    totals = table_totals(corrected_table)
    seat = totals.index(CORRECTED_FROM)
    corrected_player = corrected_table.seats.get(position=seat).registration.player.name
    corrected = list(totals)
    corrected[seat] = CORRECTED_TO
    evening.go(f"/manage/rounds/{round_1.pk}/")
    card = desk.locator("#round-results li.table-card[data-table='1']")
    expect(card.locator(".seat-totals")).to_contain_text(str(CORRECTED_FROM))
    enter_totals(evening, corrected_table, corrected, note=NOTE)
    expect(card.locator(".seat-totals")).to_contain_text(str(CORRECTED_TO))
    evening.go(f"/manage/tables/{corrected_table.pk}/result/")
    versions = desk.locator("table.history tbody tr")
    expect(versions).to_have_count(2)
    expect(versions.nth(1)).to_contain_text(str(CORRECTED_TO))
    expect(versions.nth(1)).to_contain_text(NOTE)
    evening.look("correction-history")

    standings = open_page(viewport=LAPTOP, language=language)
    standings.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    player_row = standings.locator("table.standings tbody tr", has_text=corrected_player)
    expect(player_row).to_have_count(1)
    cells = names_in(player_row.locator("td"))
    assert str(CORRECTED_TO) in cells and str(CORRECTED_FROM) not in cells, cells
    evening.look("standings-corrected", standings)
    evening.on_phone(f"/tournaments/{tournament.pk}/standings/", "standings")

    # 5. A late entry, a withdrawal, the absent player back; rounds 2 and 3.
    evening.go(f"/manage/tournaments/{tournament.pk}/players/")
    desk.fill("#add input[name=name]", LATE)
    submit(desk, "#add")
    expect(desk.locator("ul.messages li.success")).to_contain_text(LATE)
    late = tournament.registrations.get(player__name=LATE)
    assert (late.start_number, late.first_round) == (14, 2)
    late_row = desk.locator("table.registrations tbody tr", has_text=LATE)
    expect(late_row.locator("td.status")).to_contain_text("2")

    withdrawn = tournament.registrations.get(player__name=WITHDRAWN)
    submit(desk, f"form[action$='/registrations/{withdrawn.pk}/withdraw/']")
    expect(desk.locator("ul.messages li.success")).to_contain_text(WITHDRAWN)
    withdrawn_row = desk.locator("table.registrations tbody tr", has_text=WITHDRAWN)
    expect(withdrawn_row).to_have_class(re.compile(r"\bwithdrawn\b"))
    expect(
        withdrawn_row.locator(f"form[action$='/registrations/{withdrawn.pk}/rejoin/']")
    ).to_be_visible()
    evening.look("late-entry-and-withdrawal")

    evening.go(f"/manage/tournaments/{tournament.pk}/roll-call/")
    submit(desk, f"form[action$='/registrations/{absent.pk}/presence/']", "button[value='1']")
    expect(desk.locator(f"#r{absent.pk}")).to_have_class(re.compile(r"\bis-present\b"))
    expect(desk.locator(f"#r{withdrawn.pk}")).to_have_count(0)  # withdrawn: not called
    expect(desk.locator("ul.roll-call > li.is-absent")).to_have_count(0)

    round_2 = draw_and_publish(evening, tournament, 2)
    drawn = " ".join(desk.locator(".tables-grid .seats").all_inner_texts())
    assert LATE in drawn and ABSENT in drawn and WITHDRAWN not in drawn
    expect(desk.locator(".tables-grid > li.table-card")).to_have_count(4)  # 4 + 3 + 3 + 3
    assert sorted(t.seats.count() for t in round_2.tables.all()) == [3, 3, 3, 4]
    evening.look("round-2-draft")
    publish(evening, round_2)
    enter_round(evening, round_2)
    evening.look("round-2-results")

    round_3 = draw_and_publish(evening, tournament, 3)
    publish(evening, round_3)
    enter_round(evening, round_3)
    assert WITHDRAWN not in seated_names(round_3) and LATE in seated_names(round_3)
    evening.look("round-3-results")

    # 6. Finish, then the final ranking and prize list in the standings' order.
    evening.go(f"/manage/tournaments/{tournament.pk}/")
    with desk.expect_navigation():
        desk.click(f"a[href$='/manage/tournaments/{tournament.pk}/finish/']")
    expect(desk.locator(".gaps")).to_have_count(0)  # every round played: nothing missing
    if desk.locator("form [name=note]").count():
        desk.fill("form [name=note]", "Зіграно три тури")
    evening.look("finish")
    submit(desk, f"form[action$='/manage/tournaments/{tournament.pk}/finish/']")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    expect(desk.locator(".page-head .badge.status-finished")).to_be_visible()
    expect(desk.locator(f"a[href$='/manage/tournaments/{tournament.pk}/reopen/']")).to_be_visible()
    evening.look("finished")

    standings.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    order = row_names(standings.locator("table.standings tbody th[scope=row]"))
    assert len(order) == 14 and order[0]
    evening.look("standings-final", standings)

    evening.go(f"/manage/tournaments/{tournament.pk}/ranking/print/")
    sheet = desk.locator("article.ranking-sheet")
    expect(sheet).to_be_visible()
    assert sheet.get_attribute("data-watermark") is None  # finished: not provisional
    ranked = row_names(sheet.locator("table.ranking tbody th[scope=row]"))
    assert ranked == order
    ranks = [int(re.match(r"\d+", r).group()) for r in names_in(sheet.locator("td.rank"))]
    assert ranks == sorted(ranks) and ranks[0] == 1
    expect(sheet.locator("tr.prize").first).to_be_visible()
    expect(sheet.locator("tr.withdrawn")).to_contain_text(WITHDRAWN)
    evening.look("final-ranking")
    desk.emulate_media(media="print")
    evening.look("final-ranking-print")
    desk.emulate_media(media="screen")
    assert Registration.objects.filter(tournament=tournament).count() == 14

    evening.on_phone(f"/manage/tournaments/{tournament.pk}/ranking/print/", "final-ranking")

    assert evening.english == {}, f"English left on the Ukrainian pages: {evening.english}"
    # Collected along the way so that one page too wide does not hide the rest of the evening.
    assert not evening.too_wide, "pages wider than a 360px phone: " + "; ".join(evening.too_wide)
