"""The environment variables switch the settings between the embedded mode and real services."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_the_embedded_mode_signs_with_a_random_key_of_its_own_kept_across_restarts():
    """Not a key published in the repository: with one, anyone on the club's network could forge
    a player's personal link (venue mode) and see his cards."""
    probe = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = run_python("-c", probe)
    second = run_python("-c", probe)

    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    assert key == second.stdout.strip()  # sessions and printed links outlive a restart
    assert len(key) >= 50 and not key.startswith("django-insecure-")
    assert key == (PROJECT_DIR / ".secret_key").read_text(encoding="ascii").strip()
    assert (PROJECT_DIR / ".secret_key").stat().st_mode & 0o077 == 0  # the owner's only


def test_each_installation_makes_its_own_key_and_replaces_a_damaged_one(tmp_path):
    from config.settings import _embedded_secret_key

    one, other = tmp_path / "one", tmp_path / "other"
    key = _embedded_secret_key(one)

    assert key != _embedded_secret_key(other)
    assert _embedded_secret_key(one) == key
    one.write_bytes(b"\xff\xfe damaged")
    replaced = _embedded_secret_key(one)
    assert replaced != key and len(replaced) >= 50
    assert one.read_text(encoding="ascii").strip() == replaced
    assert sorted(path.name for path in tmp_path.iterdir()) == ["one", "other"]  # no leftovers


def test_processes_starting_at_once_agree_on_the_key(tmp_path):
    path = tmp_path / "key"
    probe = (
        "import sys; from config.settings import _embedded_secret_key; "
        "from pathlib import Path; print(_embedded_secret_key(Path(sys.argv[1])))"
    )
    env = {key: value for key, value in os.environ.items() if key not in CONTROLLED_VARIABLES}
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", probe, str(path)],
            cwd=PROJECT_DIR,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    keys = {start.communicate(timeout=60)[0].strip() for start in starts}

    assert keys == {path.read_text(encoding="ascii").strip()}


def test_a_folder_that_cannot_be_written_gets_a_key_of_the_process_only(tmp_path):
    from config.settings import _embedded_secret_key

    missing = tmp_path / "no-such-folder" / "key"

    key = _embedded_secret_key(missing)
    assert len(key) >= 50 and key != _embedded_secret_key(missing)


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
    result = load_settings(DEBUG="0", SECRET_KEY=PRODUCTION_SECRET_KEY)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_with_secret_key_and_allowed_hosts_starts():
    loaded = loaded_settings(
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
        ALLOWED_HOSTS="club.example,www.club.example",
    )

    assert loaded["debug"] is False


@pytest.mark.parametrize(
    "weak_key",
    [
        "x",
        "a-long-random-production-secret-value",  # 37 characters
        "ab" * 30,  # long, but two different characters
        "django-insecure-" + secrets.token_urlsafe(50),  # what startproject writes
    ],
    # Fixed ids: under pytest-xdist every process must collect the same test names.
    ids=["one-character", "37-characters", "two-characters-repeated", "startproject-default"],
)
def test_production_with_a_weak_secret_key_refuses_to_start_and_says_how_to_make_one(weak_key):
    result = load_settings(DEBUG="0", SECRET_KEY=weak_key, ALLOWED_HOSTS="club.example")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr
    assert "at least 50 characters" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr
    # The refused key itself is never printed to the log.
    if len(weak_key) > 1:
        assert weak_key not in result.stderr


def test_production_accepts_a_key_made_the_way_the_message_says():
    key = subprocess.run(
        [sys.executable, "-c", "import secrets; print(secrets.token_urlsafe(50))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()

    assert (
        loaded_settings(DEBUG="0", SECRET_KEY=key, ALLOWED_HOSTS="club.example")["debug"] is False
    )


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
    from django.utils.module_loading import import_string
    from servestatic.storage import CompressedManifestStaticFilesStorage

    loaded = production()

    assert loaded["log_format"] == "json"
    # servestatic's hashed and compressed files, with the imports of JavaScript modules rewritten
    # to the hashed names (the live table's script is a module).
    assert loaded["staticfiles_storage"] == "core.static_files.ModuleManifestStaticFilesStorage"
    storage = import_string(loaded["staticfiles_storage"])
    assert issubclass(storage, CompressedManifestStaticFilesStorage)
    assert storage.support_js_module_import_aggregation is True


def test_development_logs_text_and_needs_no_collectstatic():
    loaded = loaded_settings()

    assert loaded["log_format"] == "text"
    assert loaded["staticfiles_storage"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_log_format_can_be_chosen_and_an_unknown_one_refuses_to_start():
    assert production(LOG_FORMAT="text")["log_format"] == "text"

    result = load_settings(LOG_FORMAT="xml")

    assert result.returncode != 0
    assert "LOG_FORMAT" in result.stderr


# A request through the whole middleware stack in a fresh interpreter (no database needed: the
# API's root and its documentation read nothing from it).
REQUEST_PROBE = """
import json
import sys
import django
django.setup()
from django.test import Client
host, path, accept = sys.argv[1:4]
response = Client(HTTP_HOST=host).get(path, headers={"accept": accept}, secure=True)
print(json.dumps({
    "status": response.status_code,
    "content_type": response["Content-Type"],
    "body": response.content.decode()[:2000],
    "policy": response.get("Content-Security-Policy", ""),
}))
"""
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def request_in(path: str, *, host: str, accept: str = BROWSER_ACCEPT, **environment) -> dict:
    result = run_python("-c", REQUEST_PROBE, host, path, accept, **environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def production_request(path: str, accept: str = BROWSER_ACCEPT, **environment) -> dict:
    environment = {"ALLOWED_HOSTS": "club.example", **environment}
    return request_in(
        path,
        host="club.example",
        accept=accept,
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
        **environment,
    )


def test_production_api_answers_a_browser_with_json_not_the_browsable_api():
    answer = production_request("/api/")

    assert answer["status"] == 200
    assert answer["content_type"] == "application/json"
    assert json.loads(answer["body"])["tournaments"].endswith("/api/tournaments/")


def test_production_api_refuses_to_render_html_on_request():
    answer = production_request("/api/", accept="text/html")

    assert answer["status"] == 406
    assert answer["content_type"] == "application/json"
    assert "<html" not in answer["body"]


def test_development_keeps_the_browsable_api():
    answer = request_in("/api/", host="localhost")

    assert answer["status"] == 200
    assert answer["content_type"].startswith("text/html")
    assert "Django REST framework" in answer["body"]


def test_production_answers_carry_the_content_security_policy():
    # Pages need the collected static files (the image has them); the API's root does not.
    answer = production_request("/api/")

    assert answer["status"] == 200
    assert "script-src 'self';" in answer["policy"] + ";"
    assert "unsafe" not in answer["policy"]


def policy_sources(policy: str, directive: str) -> list[str]:
    for part in policy.split(";"):
        name, *sources = part.split()
        if name == directive:
            return sources
    raise AssertionError(f"no {directive} in {policy!r}")


def test_the_policy_lets_live_tables_open_websockets_to_the_sites_own_hosts():
    behind_https = production_request("/api/", ALLOWED_HOSTS="club.example,.club.org")
    club_lan = production_request("/api/", ALLOWED_HOSTS="club.example,*,[::1]", HTTPS="0")

    assert policy_sources(behind_https["policy"], "connect-src") == [
        "'self'",
        "wss://club.example:*",
        "wss://club.org:*",
        "wss://*.club.org:*",
    ]
    assert policy_sources(club_lan["policy"], "connect-src") == ["'self'", "ws://club.example:*"]


DAPHNE_PROBE = """
import sys, django
django.setup()
import config.asgi
from django.conf import settings
print("daphne" in settings.INSTALLED_APPS, any(m.split(".")[0] == "daphne" for m in sys.modules))
"""


def test_a_production_process_loads_no_daphne():
    # The image has no daphne (requirements/base.txt); uvicorn serves pages and websockets.
    result = run_python(
        "-c",
        DAPHNE_PROBE,
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
        ALLOWED_HOSTS="club.example",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


def test_development_serves_websockets_with_daphnes_runserver():
    result = run_python("-c", DAPHNE_PROBE)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "True"


def test_the_tasks_keep_their_names_wherever_their_code_lives():
    """Tasks queued in Redis name their function; a move of the code must not orphan them."""
    from django.conf import settings

    from config.celery import app
    from gameplay import tasks as gameplay_tasks
    from scoring import tasks as scoring_tasks
    from seasons import tasks as seasons_tasks
    from web import tasks as web_tasks

    names = {
        gameplay_tasks.play_bot_turn: "gameplay.tasks.play_bot_turn",
        gameplay_tasks.watch_bot_turns: "gameplay.tasks.watch_bot_turns",
        gameplay_tasks.forget_stale_guest_games: "gameplay.tasks.forget_stale_guest_games",
        scoring_tasks.recompute_standings: "scoring.tasks.recompute_standings",
        scoring_tasks.catch_up_standings: "scoring.tasks.catch_up_standings",
        web_tasks.prerender_standings: "tournaments.tasks.prerender_standings",
        seasons_tasks.recompute_ratings: "seasons.tasks.recompute_ratings",
        seasons_tasks.recompute_season_standings: "seasons.tasks.recompute_season_standings",
        seasons_tasks.catch_up_ratings: "seasons.tasks.catch_up_ratings",
    }
    for task, name in names.items():
        assert task.name == name
        assert app.tasks[name] is task or app.tasks[name].name == name
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled <= set(names.values())


def test_every_cache_object_of_a_process_shares_one_redis_connection_pool():
    """Under the ASGI server each request builds its own cache object; they must not each open a
    new connection to Redis (one pool per process, through Django's pool_class option)."""
    from django.core.cache.backends.redis import RedisCache

    from core.cache import SharedConnectionPool

    options = {"OPTIONS": {"pool_class": "core.cache.SharedConnectionPool"}}
    first = RedisCache("redis://127.0.0.1:6379/13", options)
    second = RedisCache("redis://127.0.0.1:6379/13", options)
    other = RedisCache("redis://127.0.0.1:6379/12", options)

    pool = first._cache.get_client(write=True).connection_pool
    assert isinstance(pool, SharedConnectionPool)
    assert second._cache.get_client(write=True).connection_pool is pool
    assert other._cache.get_client(write=True).connection_pool is not pool


def test_the_cache_uses_one_redis_client_per_pool_for_every_operation():
    """Django's Redis cache made a new redis-py client for each operation (core/cache.py)."""
    from core.cache import RedisCache

    options = {"OPTIONS": {"pool_class": "core.cache.SharedConnectionPool"}}
    first = RedisCache("redis://127.0.0.1:6379/13", options)
    second = RedisCache("redis://127.0.0.1:6379/13", options)
    other = RedisCache("redis://127.0.0.1:6379/12", options)

    client = first._cache.get_client(write=True)
    assert first._cache.get_client() is client
    assert second._cache.get_client(write=True) is client
    assert other._cache.get_client() is not client
    assert client.connection_pool is first._cache._get_connection_pool(True)
