"""The home page and the health check, as a visitor and a monitor see them."""

import pytest
from django.db import OperationalError
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_names_the_app_and_links_to_admin_and_health_check(client):
    response = client.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "1001" in page
    assert "Тисяча одне" in page
    assert f'href="{reverse("admin:index")}"' in page
    assert 'href="/healthz"' in page
    assert "/static/css/app.css" in page


def test_home_page_is_served_in_ukrainian_markup_when_the_browser_asks(client):
    response = client.get("/", headers={"accept-language": "uk"})

    assert response.status_code == 200
    assert '<html lang="uk">' in response.content.decode()


def test_healthz_reports_ok_with_a_working_database(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": True, "redis": None}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_reports_unavailable_when_the_database_fails(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr("core.health.connection.cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": False, "redis": None}


def test_healthz_rejects_writes(client):
    assert client.post("/healthz").status_code == 405
