"""The OpenAPI 3 schema lists every endpoint and validates; the docs page needs no CDN."""

import re

import pytest
import yaml
from django.contrib.staticfiles import finders
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

# Every operation of api/urls.py, as the schema names it.
OPERATIONS = {
    "/api/clubs/": {"get", "post"},
    "/api/clubs/{id}/": {"get"},
    "/api/players/": {"get", "post"},
    "/api/players/{id}/": {"get", "patch"},
    "/api/tournaments/": {"get", "post"},
    "/api/tournaments/{id}/": {"get", "patch"},
    "/api/tournaments/{id}/finish/": {"post"},
    "/api/tournaments/{id}/rounds/": {"get", "post"},
    "/api/tournaments/{tournament_id}/standings/": {"get"},
    "/api/registrations/": {"get", "post"},
    "/api/registrations/{id}/": {"get"},
    "/api/registrations/{id}/withdraw/": {"post"},
    "/api/rounds/": {"get"},
    "/api/rounds/{id}/": {"get"},
    "/api/rounds/{id}/redraw/": {"post"},
    "/api/rounds/{id}/swap/": {"post"},
    "/api/rounds/{id}/publish/": {"post"},
    "/api/tables/": {"get"},
    "/api/tables/{id}/": {"get"},
    "/api/tables/{table_id}/results/": {"get", "post"},
    "/api/tables/{table_id}/results/{number}/confirm/": {"post"},
    "/api/tables/{table_id}/results/{number}/dispute/": {"post"},
    "/api/seasons/": {"get", "post"},
    "/api/seasons/{id}/": {"get", "patch"},
    "/api/seasons/{id}/standings/": {"get"},
    "/api/seasons/{id}/tournaments/": {"post"},
    "/api/players/{player_id}/rating/": {"get"},
    "/api/token/": {"post"},
}
HTTP_METHODS = {"get", "put", "patch", "post", "delete", "head", "options", "trace"}


def operations(schema) -> dict[str, set[str]]:
    return {path: set(item) & HTTP_METHODS for path, item in schema["paths"].items()}


def test_the_schema_is_openapi_3_and_lists_every_endpoint():
    response = APIClient().get("/api/schema/?format=json")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "1001 tournaments API"
    assert operations(schema) == OPERATIONS
    # Both ways of logging in are described.
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["name"] == "Authorization"
    assert schemes["cookieAuth"]["in"] == "cookie"


def test_the_schema_describes_requests_and_answers():
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]

    draw = paths["/api/tournaments/{id}/rounds/"]["post"]
    assert "201" in draw["responses"]
    submit = paths["/api/tables/{table_id}/results/"]["post"]
    body = submit["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    request = schema["components"]["schemas"][body.rsplit("/", 1)[-1]]
    assert {"sheet", "expected_version"} <= set(request["required"])
    standings = paths["/api/tournaments/{tournament_id}/standings/"]["get"]
    assert standings["parameters"][0]["name"] == "tournament_id"


def test_the_schema_is_served_as_yaml_by_default():
    response = APIClient().get("/api/schema/")

    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert operations(schema) == OPERATIONS


def test_the_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"

    # --fail-on-warn turns every warning or error of the generator into a failure.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    schema = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")
    assert operations(schema) == OPERATIONS


def test_the_docs_page_loads_nothing_from_another_host():
    response = APIClient().get("/api/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    # No absolute URL (http:, https: or protocol-relative //host) anywhere in the page.
    assert not re.search(r"https?:|[\"'(=]\s*//", page), re.findall(r"\S*//\S*", page)
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets), assets
    assert any(asset.endswith("swagger-ui.css") for asset in assets), assets
    # The start-up script is a file of the page's own (no inline script, for the CSP).
    assert "/api/docs/?script=" in assets
    for asset in assets:
        if asset == "/api/docs/?script=":
            continue
        assert asset.startswith("/static/drf_spectacular_sidecar/"), asset
        # The file is shipped with the app, so collectstatic serves it.
        assert finders.find(asset.removeprefix("/static/")), asset
    script = APIClient().get("/api/docs/?script=").content.decode()
    assert "SwaggerUIBundle(" in script
    assert not re.search(r"https?:", script)
    assert '"/api/schema/"' in script
