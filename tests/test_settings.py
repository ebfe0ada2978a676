"""The environment variables switch the settings between the embedded mode and real services."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
CONTROLLED_VARIABLES = {
    # Set by the browser tests' conftest for the whole run; a deployment never has it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "TIME_ZONE",
    "HTTPS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "LOG_FORMAT",
}
# Long and random, as check --deploy wants it.
PRODUCTION_SECRET_KEY = secrets.token_urlsafe(50)

# Loads the settings in a fresh interpreter, as manage.py and the Celery worker do.
PROBE = """
import json
from django.conf import settings
from config.celery import app

print(json.dumps({
    "debug": settings.DEBUG,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "database_name": str(settings.DATABASES["default"]["NAME"]),
    "database_host": settings.DATABASES["default"].get("HOST", ""),
    "broker_url": app.conf.broker_url,
    "result_backend": app.conf.result_backend,
    "always_eager": app.conf.task_always_eager,
    "eager_propagates": app.conf.task_eager_propagates,
    "acks_late": app.conf.task_acks_late,
    "prefetch_multiplier": app.conf.worker_prefetch_multiplier,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "proxy_ssl_header": settings.SECURE_PROXY_SSL_HEADER,
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "csrf_cookie_secure": settings.CSRF_COOKIE_SECURE,
    "hsts_seconds": settings.SECURE_HSTS_SECONDS,
    "log_format": settings.LOGGING["handlers"]["console"]["formatter"],
    "staticfiles_storage": settings.STORAGES["staticfiles"]["BACKEND"],
}))
"""


def run_python(*arguments: str, **environment: str) -> subprocess.CompletedProcess:
    """Python in the project folder with only the given settings variables set."""
    env = {key: value for key, value in os.environ.items() if key not in CONTROLLED_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(environment)
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_settings(**environment: str) -> subprocess.CompletedProcess:
    return run_python("-c", PROBE, **environment)


def loaded_settings(**environment: str) -> dict:
    result = load_settings(**environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_no_environment_gives_the_embedded_mode():
    loaded = loaded_settings()

    assert loaded["debug"] is True
    assert loaded["engine"] == "django.db.backends.sqlite3"
    assert loaded["database_name"] == str(PROJECT_DIR / "db.sqlite3")
    assert loaded["always_eager"] is True
    assert loaded["eager_propagates"] is True
    assert loaded["broker_url"] == "memory://"


def test_postgres_database_url_selects_postgresql():
    loaded = loaded_settings(DATABASE_URL="postgres://club:secret@db.example:5433/thousand_one")

    assert loaded["engine"] == "django.db.backends.postgresql"
    assert loaded["database_name"] == "thousand_one"
    assert loaded["database_host"] == "db.example"


def test_redis_url_sends_tasks_to_redis_instead_of_running_them_inline():
    loaded = loaded_settings(REDIS_URL="redis://127.0.0.1:6379/0")

    assert loaded["broker_url"] == "redis://127.0.0.1:6379/0"
    assert loaded["result_backend"] == "redis://127.0.0.1:6379/0"
    assert loaded["always_eager"] is False


def test_tasks_are_acknowledged_late_one_at_a_time_in_every_mode():
    for environment in ({}, {"REDIS_URL": "redis://127.0.0.1:6379/0"}):
        loaded = loaded_settings(**environment)

        assert loaded["acks_late"] is True
        assert loaded["prefetch_multiplier"] == 1


def test_production_without_secret_key_refuses_to_start():
    result = load_settings(DEBUG="0", ALLOWED_HOSTS="club.example")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_production_without_allowed_hosts_refuses_to_start():
    result = load_settings(DEBUG="0", SECRET_KEY="a-long-random-production-secret-value")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_with_secret_key_and_allowed_hosts_starts():
    loaded = loaded_settings(
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-value",
        ALLOWED_HOSTS="club.example,www.club.example",
    )

    assert loaded["debug"] is False


def test_unreadable_debug_value_refuses_to_start():
    result = load_settings(DEBUG="maybe")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def production(**environment: str) -> dict:
    return loaded_settings(
        DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY, ALLOWED_HOSTS="club.example", **environment
    )


def test_production_with_the_published_development_key_refuses_to_start():
    result = load_settings(
        DEBUG="0",
        SECRET_KEY="django-insecure-development-only-key-for-the-embedded-mode",
        ALLOWED_HOSTS="club.example",
    )

    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_expects_https_from_a_proxy_by_default():
    loaded = production()

    assert loaded["proxy_ssl_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert loaded["ssl_redirect"] is True
    assert loaded["session_cookie_secure"] is True
    assert loaded["csrf_cookie_secure"] is True
    assert loaded["hsts_seconds"] == 365 * 24 * 3600


def test_https_off_serves_a_club_lan_over_plain_http():
    loaded = production(HTTPS="0")

    assert loaded["proxy_ssl_header"] is None
    assert loaded["ssl_redirect"] is False
    assert loaded["session_cookie_secure"] is False
    assert loaded["csrf_cookie_secure"] is False
    assert loaded["hsts_seconds"] == 0


def test_hsts_and_the_redirect_can_be_tuned():
    loaded = production(SECURE_HSTS_SECONDS="3600", SECURE_SSL_REDIRECT="0")

    assert loaded["hsts_seconds"] == 3600
    assert loaded["ssl_redirect"] is False
    assert loaded["session_cookie_secure"] is True


def test_development_ignores_the_https_switch():
    loaded = loaded_settings(HTTPS="not even a boolean")

    assert loaded["debug"] is True
    assert loaded["ssl_redirect"] is False
    assert loaded["session_cookie_secure"] is False


def test_production_logs_json_and_serves_collected_static_files():
    loaded = production()

    assert loaded["log_format"] == "json"
    assert (
        loaded["staticfiles_storage"] == "servestatic.storage.CompressedManifestStaticFilesStorage"
    )


def test_development_logs_text_and_needs_no_collectstatic():
    loaded = loaded_settings()

    assert loaded["log_format"] == "text"
    assert loaded["staticfiles_storage"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_log_format_can_be_chosen_and_an_unknown_one_refuses_to_start():
    assert production(LOG_FORMAT="text")["log_format"] == "text"

    result = load_settings(LOG_FORMAT="xml")

    assert result.returncode != 0
    assert "LOG_FORMAT" in result.stderr
