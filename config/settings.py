"""Django settings for every environment, read from environment variables.

With no variables set the project runs in the embedded mode: DEBUG on, SQLite in the project
folder and Celery tasks executed eagerly in the web process. Production sets DEBUG=0 and must then
also provide a long random SECRET_KEY and ALLOWED_HOSTS, or the settings refuse to load.
"""

import importlib.util
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from core.network import lan_addresses

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE_WORDS = {"1", "true", "yes", "on"}
_FALSE_WORDS = {"0", "false", "no", "off", ""}


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = _env_bool("DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS")

# What Django's deploy check (security.W009) calls strong enough; a short key can be guessed
# offline from any signed cookie or personal link, and then sessions and links can be forged.
_SECRET_KEY_MIN_LENGTH = 50
_SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5


def _secret_key_is_strong(key: str) -> bool:
    return (
        len(key) >= _SECRET_KEY_MIN_LENGTH
        and len(set(key)) >= _SECRET_KEY_MIN_UNIQUE_CHARACTERS
        and not key.startswith("django-insecure-")
    )


# The embedded mode's key when SECRET_KEY is not set: random for each installation, made at the
# first start and kept in the project folder (git and the Docker build leave it out). A key
# published in the repository would let anyone on the club's network forge the personal links
# and sessions of `make run ADDRESS=0.0.0.0:8000`, and so see a player's cards.
EMBEDDED_SECRET_KEY_FILE = BASE_DIR / ".secret_key"


def _kept_key(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):  # missing, unreadable or damaged
        return ""


def _embedded_secret_key(path: Path) -> str:
    kept = _kept_key(path)
    if _secret_key_is_strong(kept):
        return kept
    key = secrets.token_urlsafe(50)
    # Written whole under another name, then given its own: a process starting at the same time
    # (the development server's reloader, the test processes) reads the whole key or none.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(key + "\n")
        try:
            os.link(temporary, path)
        except FileExistsError:
            kept = _kept_key(path)
            if _secret_key_is_strong(kept):
                return kept  # another process was first: its key counts
            os.replace(temporary, path)  # a damaged or weak key is replaced
    except OSError:
        # A folder that cannot be written: a key of this process only (its sessions and links
        # end when it stops), never a known one.
        return key
    finally:
        temporary.unlink(missing_ok=True)
    return key


if DEBUG:
    SECRET_KEY = SECRET_KEY or _embedded_secret_key(EMBEDDED_SECRET_KEY_FILE)
else:
    if not _secret_key_is_strong(SECRET_KEY):
        raise ImproperlyConfigured(
            "DEBUG is off: SECRET_KEY must be a long random value (at least "
            f"{_SECRET_KEY_MIN_LENGTH} characters, at least {_SECRET_KEY_MIN_UNIQUE_CHARACTERS} "
            "different ones, not starting with 'django-insecure-'). Make one with: "
            'python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG is off: set ALLOWED_HOSTS (comma-separated host names).")


def _public_url(raw: str) -> str:
    """PUBLIC_URL as scheme://host[:port], with no slash at the end, or "" when unset."""
    url = raw.strip().rstrip("/")
    if not url:
        return ""
    parts = urlsplit(url)
    try:
        port_readable = parts.port is None or parts.port > 0
    except ValueError:  # a port that is no number or out of range
        port_readable = False
    if (
        not port_readable
        or parts.scheme not in {"http", "https"}
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ImproperlyConfigured(
            "PUBLIC_URL must be the address phones open the site by, such as "
            f"http://192.168.1.20:8000 or https://club.example (no path); got {raw!r}"
        )
    return url


# The address QR codes, player cards and personal links carry (web/public_address.py); unset,
# the address the director's browser used.
PUBLIC_URL = _public_url(os.environ.get("PUBLIC_URL", ""))
if DEBUG and not ALLOWED_HOSTS:
    # Django's development default (localhost only), plus this machine's address on the club's
    # network and PUBLIC_URL's host, so phones in the room can open `make run ADDRESS=0.0.0.0:8000`.
    # Other host names stay refused (a DNS rebinding page cannot reach the development server).
    ALLOWED_HOSTS = [".localhost", "127.0.0.1", "[::1]", *lan_addresses()]
    if PUBLIC_URL:
        _public_host = urlsplit(PUBLIC_URL).hostname or ""
        ALLOWED_HOSTS.append(f"[{_public_host}]" if ":" in _public_host else _public_host)

CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")

# Production mode serves HTTPS through a proxy in front (Caddy, nginx, Traefik) that terminates TLS
# and sets X-Forwarded-Proto. HTTPS=0 is the club-LAN trade-off, plain http without a proxy: no
# secure cookies, no redirect to https, no HSTS (`check --deploy` warns about exactly those).
HTTPS = not DEBUG and _env_bool("HTTPS", default=True)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", default=True)
    # Container and load balancer health checks talk plain http to the app itself.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    # Browsers then refuse plain http for this host for that long, even if HTTPS breaks later.
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", default=False)
# includeSubDomains and preload bind every host of the domain, not just this site: the club's
# call (the two variables above), so Django's reminders to turn them on are silenced.
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
# Django's defaults, stated so that nobody loosens them without noticing.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"


def _websocket_sources(hosts: list[str], *, secure: bool) -> list[str]:
    """The site's own websocket addresses, for browsers whose 'self' does not cover ws:/wss:."""
    scheme = "wss" if secure else "ws"
    sources = []
    for host in hosts:
        # "*" (any host) and IPv6 literals cannot be written as CSP sources; 'self' covers them.
        if host == "*" or host.startswith("["):
            continue
        names = [host[1:], f"*{host}"] if host.startswith(".") else [host]
        sources += [f"{scheme}://{name}:*" for name in names]
    return sources


# Content-Security-Policy (django-csp): everything from this site only, and no inline script,
# no eval, no inline style, so that injected markup cannot run or restyle anything. Templates
# load their scripts from static/js (tests/security/test_csp.py checks that none is inline);
# htmx runs with eval and its inline indicator styles off (the htmx-config meta in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        # data: for the images that CSS and the API documentation page carry inline.
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        # The live tables' websockets ('self' covers ws:/wss: of this host in CSP 3 browsers).
        "connect-src": ["'self'", *_websocket_sources(ALLOWED_HOSTS, secure=HTTPS)],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Daphne's runserver serves the live tables' websockets in development (`make run`), and it
# must come before staticfiles. Production runs uvicorn: the image has no daphne, and a
# production process loads none.
_DEVELOPMENT_SERVER = ["daphne"] if DEBUG and importlib.util.find_spec("daphne") else []

INSTALLED_APPS = [
    *_DEVELOPMENT_SERVER,
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Only its system checks: daphne's runserver, listed first, serves static files in development.
    "servestatic",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    # Its system checks catch settings of the pre-4.0 format, which it would silently ignore.
    "csp",
    # The project's apps, bottom layer first (the layers of pyproject.toml's import contracts).
    "core",
    "tournaments",
    "scoring",
    "seasons",
    "draws",
    "gameplay",
    "archive",
    "api",
    "web",
]

MIDDLEWARE = [
    # First, so every log line of a request, and its access line, carry the request id.
    "core.middleware.RequestIdMiddleware",
    # Static files from the app itself under ASGI, compressed and cached (no nginx needed),
    # answered in the event loop: the last async middleware, above which the request does not
    # go to a thread (core/asgi_handler.py); all below run synchronously in one thread call.
    # Their headers (nosniff, referrer policy) come from SERVESTATIC_ADD_HEADERS_FUNCTION.
    "servestatic.middleware.ServeStaticMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header of every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.database_errors.DatabaseUnavailableMiddleware",
]

# While DEBUG is on, the technical 500 page only for this computer, not the phones in the room.
DEFAULT_EXCEPTION_REPORTER = "core.debug_pages.LocalExceptionReporter"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL unset: a SQLite file next to manage.py; postgres://... selects PostgreSQL
# (psycopg 3). Persistent connections with health checks avoid a reconnect per request.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# SQLite lets one writer at a time in. Another process's write (a second web worker, a
# management command) makes a request wait for the lock for up to `timeout` seconds instead of
# failing at once; and every transaction takes the write lock when it begins (IMMEDIATE), because
# one that began reading and then wants to write fails with "database is locked" at once, without
# waiting at all. A lock still held after the wait is a 503 "busy" (core/database_errors.py).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    _sqlite_options = DATABASES["default"].setdefault("OPTIONS", {})
    _sqlite_options.setdefault("timeout", 20)
    _sqlite_options.setdefault("transaction_mode", "IMMEDIATE")
# Under the ASGI server every concurrent request runs its database work in a thread of its own,
# and persistent connections would pile up per thread until PostgreSQL refuses clients. In
# production each process therefore borrows connections from a pool of at most DB_POOL_MAX_SIZE
# (psycopg_pool), waiting up to DB_POOL_TIMEOUT seconds for one (then a clear 503).
DB_POOL = _env_bool("DB_POOL", default=not DEBUG)
if DB_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "16")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Where the site's date formats differ from Django's (core/formats/uk: no leading zero).
FORMAT_MODULE_PATH = ["core.formats"]
LANGUAGES = [
    ("en", "English"),
    ("uk", "Українська"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

STATIC_URL = "static/"
# Where `collectstatic` writes (the image bakes it in; the process tests collect once elsewhere).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production serves the files `collectstatic` wrote, under names with a content hash (cached for
# good) and precompressed, the imports of JavaScript modules pointing at the hashed names too
# (core/static_files.py); development and tests use the source folders, no collectstatic needed.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "core.static_files.ModuleManifestStaticFilesStorage"
    },
}
# Decided here, not by DEBUG at request time: tests turn DEBUG off but have no collected files.
SERVESTATIC_USE_FINDERS = DEBUG


def _static_file_headers(headers, path: str, url: str) -> None:
    """What SecurityMiddleware adds to every page, for the static files answered above it."""
    if SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = SECURE_REFERRER_POLICY


SERVESTATIC_ADD_HEADERS_FUNCTION = _static_file_headers

REST_FRAMEWORK = {
    # The browsable API (HTML forms for every endpoint) only while developing; a server answers
    # JSON alone, also to a browser.
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous API client then gets 401 with a WWW-Authenticate header.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # drf-spectacular's, documenting the error answers as well (api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.SafeJSONParser",
        "api.parsers.SafeFormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "core.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.ScopedRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"results": os.environ.get("RESULTS_THROTTLE", "60/minute")},
}

# Request limits, chosen for this app rather than left at Django's defaults. The largest honest
# form is a director's score sheet of 300 deals (about 3,000 fields, some 60 KB), the largest
# honest files a players' CSV (512 KB) and a tournament archive (20 MB), each checked by its
# form; anything beyond these limits is refused with 413 or 400 and a message
# (core/request_limits.py), by the API's parsers too.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024  # bytes of a body other than uploaded files
DATA_UPLOAD_MAX_NUMBER_FIELDS = 4000
DATA_UPLOAD_MAX_NUMBER_FILES = 5
# Uploaded files up to this size stay in memory, larger ones go to a temporary file...
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
# ...and one larger than this (the app's own setting) is refused with 413 the moment it passes
# the limit (core.request_limits.UploadSizeLimit), not read to its end for a form to refuse.
UPLOAD_MAX_FILE_SIZE = 20 * 1024 * 1024
FILE_UPLOAD_HANDLERS = [
    "core.request_limits.UploadSizeLimit",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
# Failed sign-ins (every route: page, admin, API token) allowed within the window (seconds) per
# user name from one address, per user name and per address, before further attempts are refused
# with 429 (core/login_limit.py).
LOGIN_RATE_LIMIT = {"window": 15 * 60, "per_user_and_address": 5, "per_user": 20, "per_address": 50}
# The backend counts and refuses, so no sign-in route can bypass the limit.
AUTHENTICATION_BACKENDS = ["core.login_limit.RateLimitedModelBackend"]

SPECTACULAR_SETTINGS = {
    "TITLE": "1001 tournaments API",
    "DESCRIPTION": "Clubs, players, tournaments, seat draws, table results and standings of 1001.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The documentation page's assets are served from the app itself, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "TableResultStatusEnum": "scoring.models.TableResult.Status",
        "ResultVersionStatusEnum": "scoring.models.ResultVersion.Status",
    },
}

# With Redis, the cache (throttling counters) is shared by all web processes.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            # One connection pool and one client per process, not one per request or per
            # operation (core/cache.py).
            "OPTIONS": {"pool_class": "core.cache.SharedConnectionPool"},
            # Raised when what the cache holds can no longer be read by this code: version 2
            # since the engine moved from gameplay.engine to rules, so a live game's pickled
            # state from before the upgrade is recomputed, never unpickled.
            "VERSION": 2,
        }
    }

# REDIS_URL unset: tasks run inline at .delay() time, so the embedded mode needs no worker.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# A task lost with its worker is delivered again rather than dropped; tasks are idempotent.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# A bot move lost with a dead worker is enqueued again by this watchdog (run by `celery beat`).
CELERY_BEAT_SCHEDULE = {
    "watch-bot-turns": {"task": "gameplay.tasks.watch_bot_turns", "schedule": 5.0},
    # Standings whose computation was lost (a broker restart) are computed all the same.
    "catch-up-standings": {"task": "scoring.tasks.catch_up_standings", "schedule": 30.0},
    # Ratings and season tables a lost task left stale are recomputed (issue 18), every 6 hours.
    "catch-up-ratings": {"task": "seasons.tasks.catch_up_ratings", "schedule": 6 * 60 * 60.0},
    # Guests' practice games left for days (gameplay.services.DEFAULT_PRACTICE_LIMITS).
    "forget-stale-guest-games": {
        "task": "gameplay.tasks.forget_stale_guest_games",
        "schedule": 60 * 60.0,
    },
}
# Under ASGI, the threads that run requests' synchronous code are kept for the next requests
# (core/request_threads.py): at most this many idle ones per web process; 0 starts a thread per
# request, as Django does by itself (bench/request_cost.py compares the two).
REQUEST_THREADS_KEPT = max(0, min(256, int(os.environ.get("REQUEST_THREADS_KEPT", "16"))))
# With workers, confirmations within this many seconds share one standings computation.
STANDINGS_DEBOUNCE_SECONDS = 2
# How fast the live table shows the bots' moves: each pause of gameplay.pacing is multiplied by
# this (1: a human's pace; the browser tests watch whole deals at a quarter of the pauses).
LIVE_TABLE_PACE = 1.0

# Live tables tell their watchers about each move through the channel layer: Redis when there
# is one (several web processes), else in process memory (the embedded mode's single process).
# A web process waits for its sockets' messages with a blocking pop of 5 s (channels_redis); the
# read of its answer must be allowed longer, or a socket with nothing to receive for 5 s fails
# with "Timeout reading from" Redis and is closed (redis-py 8 reads with a 5 s timeout unless told:
# the lost standings and table sockets of issue 17's load runs). A Redis that hangs is still
# noticed, after CHANNEL_LAYER_READ_SECONDS.
CHANNEL_LAYER_READ_SECONDS = 30
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": CHANNEL_LAYER_READ_SECONDS}]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
# json: one object per line for a log collector (production's default); text: for people.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text; got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        # Every line logged during a request (or a Celery task) carries its id.
        "request_id": {"()": "core.logging.RequestIdFilter"},
        # Personal links' tokens never reach a log.
        "secret_paths": {"()": "core.logging.SecretPathFilter"},
        # The periodic tasks that run every few seconds or minutes log at DEBUG, not INFO.
        "routine_tasks": {
            "()": "core.logging.RoutineTaskFilter",
            "tasks": ["gameplay.tasks.watch_bot_turns", "scoring.tasks.catch_up_standings"],
        },
    },
    "formatters": {
        "text": {"format": "{asctime} {levelname} {name} [{request_id}] {message}", "style": "{"},
        "json": {"()": "core.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id", "secret_paths", "routine_tasks"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own logger has a handler of its own; keep records from printing twice.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # In the embedded mode tasks run inline; a line per task would drown the server's log.
        "celery.app.trace": {"level": LOG_LEVEL if REDIS_URL else "WARNING"},
        # uvicorn's worker processes log in the same format; the access lines come from
        # core.middleware (with request ids), so uvicorn's own would only repeat them.
        "uvicorn": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "uvicorn.access": {"handlers": [], "propagate": False},
    },
}
