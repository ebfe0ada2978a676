"""The Content-Security-Policy: every page says where scripts may come from, and needs no more.

An injected `<script>`, `onclick=` or `style=` in a page then does nothing. That only holds if the
pages themselves carry no inline script or style: the templates and the rendered pages (ours,
the admin's, the API's) are searched for them here; tests/e2e/test_csp.py asks a real browser.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

TEMPLATES_DIR = Path(settings.BASE_DIR) / "templates"


def policy_of(response) -> dict[str, list[str]]:
    """The Content-Security-Policy header as directive -> sources."""
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def page_urls(world) -> dict[str, list[str]]:
    """The site's pages, by who opens them."""
    public, round_ = world.public, world.public_round
    return {
        "anonymous": [
            reverse("home"),
            reverse("login"),
            reverse("public-tournament-list"),
            reverse("public-tournament", args=[public.pk]),
            reverse("public-round", args=[public.pk, 1]),
            reverse("public-table", args=[public.pk, 1, 1]),
            reverse("public-standings", args=[public.pk]),
            reverse("public-wall", args=[public.pk]),
            reverse("public-player", args=[public.pk, 1]),
            reverse("api-docs"),
        ],
        "director": [
            reverse("director-home"),
            reverse("director-tournament", args=[public.pk]),
            reverse("director-tournament-edit", args=[public.pk]),
            reverse("director-registrations", args=[public.pk]),
            reverse("director-player-cards", args=[public.pk]),
            reverse("director-round", args=[round_.pk]),
            reverse("director-round-print", args=[round_.pk]),
            reverse("director-round", args=[world.fresh_round.pk]),
            reverse("director-table-result", args=[world.waiting_table.pk]),
        ],
        "player": [
            reverse("player-home"),
            reverse("table-sheet", args=[world.waiting_table.pk]),
        ],
        "live_player": [reverse("live-game", args=[world.live_game.pk])],
        "superuser": [
            reverse("admin:index"),
            reverse("admin:tournaments_tournament_changelist"),
            reverse("admin:tournaments_tournament_change", args=[public.pk]),
            reverse("admin:tournaments_tournament_add"),
        ],
    }


@pytest.fixture
def opened_pages(world, client):
    """Every page of page_urls() as its visitor gets it: (url, response)."""
    people = {
        "anonymous": None,
        "director": world.director,
        "player": world.player,
        "live_player": next(user for user in world.live_seated.values() if user is not None),
        "superuser": get_user_model().objects.create_superuser("root", password="x" * 12),
    }
    pages = []
    for person, urls in page_urls(world).items():
        client.logout()
        if people[person] is not None:
            client.force_login(people[person])
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (person, url, response.status_code)
            pages.append((url, response))
    return pages


def test_every_page_allows_scripts_from_the_site_only_never_inline_or_eval(opened_pages):
    for url, response in opened_pages:
        policy = policy_of(response)

        assert policy["script-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"], url
        assert policy["object-src"] == ["'none'"], url
        assert policy["base-uri"] == ["'none'"], url
        assert policy["frame-ancestors"] == ["'none'"], url
        assert policy["form-action"] == ["'self'"], url
        for name, sources in policy.items():
            assert "'unsafe-eval'" not in sources, (url, name)
            assert "'unsafe-inline'" not in sources, (url, name)


def test_the_api_and_the_error_pages_carry_the_policy_too(client, world):
    answers = [
        client.get(reverse("tournament-list")),
        client.get("/api/no-such-thing/"),
        client.get("/no-such-page/"),
        client.get(reverse("api-docs") + "?script"),
    ]

    for response in answers:
        assert policy_of(response)["script-src"] == ["'self'"]


def test_live_tables_may_open_their_websocket():
    policy = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]

    # 'self' covers ws:/wss: of the page's own host in CSP 3 browsers.
    assert policy["connect-src"][0] == "'self'"


class InlineCode(HTMLParser):
    """What a page runs or styles inline: the things a strict policy refuses."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False
        self._script_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name == "style":
                self.found.append(f"<{tag} style=...>")
            if name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}=...>")
            if value and re.match(r"\s*javascript:", value, flags=re.IGNORECASE):
                self.found.append(f"<{tag} {name}={value!r}>")
            if value and name in {"hx-vals", "hx-vars", "data-hx-vals"} and "js:" in value:
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in {"hx-trigger", "data-hx-trigger"} and value and "[" in value:
                self.found.append(f"<{tag} {name}={value!r}> (a filter runs through eval)")
        if tag == "style":
            self.found.append("<style> element")
        inline = tag == "script" and "src" not in attributes
        if inline and attributes.get("type") != "application/json":
            self._in_script = True
            self._script_text = ""

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self._script_text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_script:
            self._in_script = False
            self.found.append(f"inline <script>: {self._script_text.strip()[:60]!r}")


def inline_code_in(markup: str) -> list[str]:
    parser = InlineCode()
    parser.feed(markup)
    parser.close()
    return parser.found


def test_no_page_runs_or_styles_anything_inline(opened_pages):
    for url, response in opened_pages:
        assert inline_code_in(response.content.decode()) == [], url


def test_the_browsable_api_has_no_inline_code_while_debugging(client, world):
    client.force_login(world.director)

    for url in (reverse("api-root"), reverse("tournament-list")):
        response = client.get(url, headers={"accept": "text/html"})

        assert response["Content-Type"].startswith("text/html")
        assert inline_code_in(response.content.decode()) == [], url


def test_the_api_documentation_loads_its_start_up_script_from_the_site(client):
    page = client.get(reverse("api-docs")).content.decode()
    sources = re.findall(r'<script src="([^"]+)"', page)

    assert any("?script" in source or "&script" in source for source in sources), sources
    script = client.get(reverse("api-docs") + "?script")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in script.content.decode()


def test_no_template_has_inline_script_handlers_styles_or_eval():
    """The templates, read as written: what a page could ever render (branches included)."""
    problems = []
    for path in sorted(TEMPLATES_DIR.rglob("*.html")):
        text = path.read_text()
        # Template comments and tags are not markup; their text is left out.
        markup = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", "", text, flags=re.DOTALL)
        markup = re.sub(r"{#.*?#}", "", markup, flags=re.DOTALL)
        markup = re.sub(r"{%.*?%}", " ", markup, flags=re.DOTALL)
        problems += [
            f"{path.relative_to(TEMPLATES_DIR)}: {found}" for found in inline_code_in(markup)
        ]

    assert problems == []


def test_the_template_scan_finds_what_the_policy_would_refuse():
    found = inline_code_in(
        '<select onchange="this.form.submit()"></select><script>alert(1)</script>'
        '<p style="color: red"></p><a href="javascript:void(0)">x</a>'
        '<div hx-on:click="go()" hx-trigger="every 1s [visible()]"></div>'
        '<script type="application/json" id="config">{"a": 1}</script>'
        '<script src="/static/js/site.js"></script>'
    )

    assert len(found) == 6, found


def test_htmx_is_told_to_use_no_eval_no_inline_styles_and_no_swapped_scripts(client):
    page = client.get(reverse("home")).content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", page)

    assert meta, "no htmx-config meta on the page"
    config = json.loads(meta.group(1))
    assert config["allowEval"] is False
    assert config["includeIndicatorStyles"] is False
    assert config["allowScriptTags"] is False
    # Before htmx, which reads it when it starts.
    assert page.index('name="htmx-config"') < page.index("htmx.min.js")


def test_the_language_switch_needs_no_inline_handler(client):
    page = client.get(reverse("home")).content.decode()

    assert re.search(r'<select id="language" name="language" data-submit-on-change>', page)
    assert re.search(r'<script src="/static/js/site\.js" defer>', page)
    assert "form.submit()" in (Path(settings.BASE_DIR) / "static" / "js" / "site.js").read_text()
