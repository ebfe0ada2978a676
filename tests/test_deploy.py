"""The deployment as a club's operator meets it: Django's deploy checks, the Docker files, .env.

No Docker engine is needed: the files are read and checked for what the deployment relies on.
"""

import ast
import http.server
import json
import re
import subprocess
import sys
import threading

import pytest
import yaml

from tests.test_settings import PRODUCTION_SECRET_KEY, PROJECT_DIR, run_python

DOCKER_DIR = PROJECT_DIR / "docker"
APP_SERVICES = ("migrate", "web", "worker", "beat")
# What HTTPS=0 gives up, and check --deploy therefore names: HSTS, the redirect, secure cookies.
PLAIN_HTTP_WARNINGS = {"security.W004", "security.W008", "security.W012", "security.W016"}


def check_deploy(**environment: str) -> subprocess.CompletedProcess:
    return run_python(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=PRODUCTION_SECRET_KEY,
        ALLOWED_HOSTS="club.example",
        **environment,
    )


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DOCKER_DIR / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def dockerfile_stages() -> list[str]:
    """The Dockerfile's stages, each from its FROM line on (comments left out)."""
    lines = [
        line
        for line in (DOCKER_DIR / "Dockerfile").read_text().splitlines()
        if not line.lstrip().startswith("#")
    ]
    stages: list[list[str]] = []
    for line in lines:
        if line.startswith("FROM "):
            stages.append([])
        if stages:
            stages[-1].append(line)
    return ["\n".join(stage) for stage in stages]


def env_example_names() -> set[str]:
    text = (DOCKER_DIR / ".env.example").read_text()
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def settings_variables() -> set[str]:
    """Every environment variable config/settings.py reads, found in its syntax tree."""
    tree = ast.parse((PROJECT_DIR / "config" / "settings.py").read_text())
    names = {"DATABASE_URL"}  # read by dj_database_url.config()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = ast.unparse(node.func)
            if function in {"os.environ.get", "os.getenv"} or function.startswith("_env"):
                names.add(node.args[0].value)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            names.add(ast.unparse(node.slice).strip("'\""))
    return names


# ------------------------------------------------------------------------- Django's deploy checks
def test_production_settings_pass_every_deploy_check():
    result = check_deploy()

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_plain_http_for_a_club_lan_is_reported_as_the_trade_off_it_is():
    result = check_deploy(HTTPS="0")

    assert result.returncode != 0
    assert set(re.findall(r"security\.W\d+", result.stderr)) == PLAIN_HTTP_WARNINGS


# ------------------------------------------------------------------------------- compose.yaml
def test_compose_runs_the_services_of_a_club_server(compose):
    assert set(compose["services"]) == {"postgres", "redis", *APP_SERVICES}
    assert compose["services"]["postgres"]["image"].startswith("postgres:17")
    assert compose["services"]["redis"]["image"].startswith("redis:")
    assert compose["services"]["web"]["ports"] == ["${WEB_PORT:-8000}:8000"]


def test_compose_builds_one_image_that_every_app_service_runs(compose):
    services = compose["services"]
    images = {services[name]["image"] for name in APP_SERVICES}

    assert len(images) == 1
    assert [name for name in services if "build" in services[name]] == ["migrate"]
    assert services["migrate"]["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}


def test_the_app_image_is_built_here_and_never_pulled(compose):
    # No registry has thousand-one:latest: a pull attempt only printed errors before the build.
    for name in APP_SERVICES:
        assert compose["services"][name]["pull_policy"] == "never"


def test_every_container_log_is_rotated(compose):
    for name, service in compose["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert re.fullmatch(r"\d+[km]", logging["options"]["max-size"]), name
        assert int(logging["options"]["max-file"]) >= 2, name


def test_the_number_of_workers_is_a_setting_every_up_keeps(compose):
    # `--scale worker=3` lasted until the next plain `up -d`; replicas from docker/.env do not.
    assert compose["services"]["worker"]["deploy"]["replicas"] == "${WORKERS:-1}"
    assert "WORKERS" in env_example_names()


def test_databases_and_web_have_health_checks_the_others_opt_out(compose):
    services = compose["services"]

    assert "pg_isready" in str(services["postgres"]["healthcheck"]["test"])
    assert "redis-cli ping" in str(services["redis"]["healthcheck"]["test"])
    assert "docker/healthcheck.py" in str(services["web"]["healthcheck"]["test"])
    assert "inspect ping" in str(services["worker"]["healthcheck"]["test"])
    # They run the web image, whose own HEALTHCHECK asks port 8000: not theirs to answer.
    assert services["migrate"]["healthcheck"] == {"disable": True}
    assert services["beat"]["healthcheck"] == {"disable": True}


def test_app_services_wait_for_healthy_databases_and_finished_migrations(compose):
    services = compose["services"]

    assert services["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for name in ("web", "worker"):
        assert services[name]["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
            "migrate": {"condition": "service_completed_successfully"},
        }
    assert services["beat"]["depends_on"]["redis"] == {"condition": "service_healthy"}
    assert services["beat"]["depends_on"]["migrate"] == {
        "condition": "service_completed_successfully"
    }


def test_workers_scale_and_everything_but_migrate_restarts(compose):
    services = compose["services"]

    # `--scale worker=N` needs containers without a fixed name.
    assert not any("container_name" in service for service in services.values())
    assert services["migrate"]["restart"] == "no"
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert services[name]["restart"] == "unless-stopped"
    assert "celery -A config worker" in " ".join(services["worker"]["command"])
    assert "WORKER_CONCURRENCY" in " ".join(services["worker"]["command"])
    beat = " ".join(services["beat"]["command"])
    assert "celery -A config beat --schedule /tmp/" in beat  # the app's user can write there


def test_app_services_reach_the_composed_postgres_and_redis(compose):
    environment = compose["services"]["web"]["environment"]

    assert compose["services"]["web"]["env_file"] == ".env"
    assert environment["DATABASE_URL"].startswith("postgres://")
    assert "@postgres:5432/" in environment["DATABASE_URL"]
    assert environment["REDIS_URL"] == "redis://redis:6379/0"
    assert set(compose["volumes"]) == {"postgres-data", "redis-data"}


# ---------------------------------------------------------------------------------- Dockerfile
def test_dockerfile_builds_in_one_stage_and_runs_in_a_slim_one(dockerfile_stages):
    build, runtime = dockerfile_stages

    assert " AS build" in build.splitlines()[0]
    # The locked versions and nothing else, without the development tools (tests/test_lock.py
    # checks the lock).
    assert "pip install --no-deps --requirement requirements/base.txt" in build
    assert "gettext" in build and "gettext" not in runtime
    # The bots' exact solver is compiled in the build stage; the compiler stays there.
    assert "gcc" in build and "gcc" not in runtime
    assert "setup.py --quiet build_ext --inplace" in build
    assert "manage.py compilemessages" in build
    assert "DEBUG=0" in build and "manage.py collectstatic --noinput" in build
    assert "COPY --from=build /opt/venv /opt/venv" in runtime
    assert "COPY --from=build /app /app" in runtime


def test_the_runtime_venv_has_no_installer(dockerfile_stages):
    build = dockerfile_stages[0]
    last_run = build[build.rindex("\nRUN ") :]

    # Removed in the last step of the build stage, after the solver's build needed setuptools.
    assert "pip uninstall --yes --quiet pip setuptools" in last_run
    assert "find /opt/venv -name '*.po' -delete" in last_run
    assert "build_ext" in last_run and "collectstatic" in last_run


def test_the_image_has_brotli_copies_of_the_static_files(dockerfile_stages):
    build = dockerfile_stages[0]

    # The build fails unless collectstatic wrote .br files (the brotli module is locked).
    assert "find staticfiles -name '*.br' | grep -q ." in build


def test_the_image_runs_as_an_unprivileged_user(dockerfile_stages):
    runtime = dockerfile_stages[-1]
    users = re.findall(r"^USER\s+(\S+)", runtime, flags=re.MULTILINE)

    assert users and users[-1] not in {"root", "0", "0:0"}


def test_the_image_serves_uvicorn_on_port_8000_with_a_health_check(dockerfile_stages):
    runtime = dockerfile_stages[-1]

    assert "EXPOSE 8000" in runtime
    assert "HEALTHCHECK" in runtime and "/app/docker/healthcheck.py" in runtime
    assert re.search(r"^CMD (.+)$", runtime, flags=re.MULTILINE).group(1) == (
        '["sh", "/app/docker/web.sh"]'
    )


def web_command(tmp_path, **environment: str) -> list[str]:
    """The uvicorn command line docker/web.sh runs in the web container."""
    fake = tmp_path / "bin" / "uvicorn"
    fake.parent.mkdir(exist_ok=True)
    fake.write_text('#!/bin/sh\nfor argument in "$@"; do echo "$argument"; done\n')
    fake.chmod(0o755)
    result = subprocess.run(
        ["sh", str(DOCKER_DIR / "web.sh")],
        env={"PATH": f"{fake.parent}:/usr/bin:/bin", **environment},
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return result.stdout.splitlines()


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_web_container_runs_uvicorn_with_the_workers_asked_for(tmp_path):
    command = web_command(tmp_path, WEB_WORKERS="5")

    assert command[0] == "config.asgi:application"
    assert option(command, "--port") == "8000"
    assert option(command, "--workers") == "5"
    assert "--proxy-headers" in command
    # Each option is one this uvicorn has (an unknown one stops the container at once).
    help_text = subprocess.run(
        [sys.executable, "-m", "uvicorn", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for part in command:
        if part.startswith("--"):
            assert part in help_text


def test_uvicorn_gives_its_workers_time_to_start(tmp_path):
    # Its default of 5 s killed workers during first starts on two cores ("Child process died").
    assert int(option(web_command(tmp_path), "--timeout-worker-healthcheck")) >= 30


@pytest.mark.parametrize(
    ("environment", "trusted"),
    [
        # Behind a TLS proxy on this machine or in a container: Docker's networks.
        ({}, "172.16.0.0/12"),
        ({"HTTPS": "1"}, "172.16.0.0/12"),
        # No proxy: a client reaching the published port comes from the bridge's gateway too,
        # and could name any address in X-Forwarded-For. Nobody outside is trusted.
        ({"HTTPS": "0"}, "127.0.0.1"),
        ({"HTTPS": "Off"}, "127.0.0.1"),
        ({"HTTPS": "0", "FORWARDED_ALLOW_IPS": ""}, "127.0.0.1"),
        # The operator's own choice wins.
        ({"HTTPS": "0", "FORWARDED_ALLOW_IPS": "192.168.1.2"}, "192.168.1.2"),
    ],
)
def test_forwarded_headers_are_believed_only_from_a_proxy(tmp_path, environment, trusted):
    assert option(web_command(tmp_path, **environment), "--forwarded-allow-ips") == trusted


def test_secrets_and_local_state_stay_out_of_the_image():
    ignored = (PROJECT_DIR / ".dockerignore").read_text().splitlines()

    local_builds = ("staticfiles", "**/*.mo", "**/*.so")
    for pattern in (".env", "**/.env", ".git", ".venv", "db.sqlite3", *local_builds):
        assert pattern in ignored
    assert "!docker/healthcheck.py" in ignored and "!docker/web.sh" in ignored


# --------------------------------------------------------------------------------- .env.example
def test_env_example_documents_every_variable_the_settings_read():
    missing = settings_variables() - env_example_names()

    assert not missing, f"add to docker/.env.example: {sorted(missing)}"


def test_env_example_documents_every_variable_compose_and_the_image_use():
    dockerfile = (DOCKER_DIR / "Dockerfile").read_text()
    used = set(re.findall(r"\$\$?\{([A-Z][A-Z0-9_]*)", (DOCKER_DIR / "compose.yaml").read_text()))
    used |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", dockerfile))
    build_arguments = set(re.findall(r"^ARG ([A-Z][A-Z0-9_]*)", dockerfile, flags=re.MULTILINE))
    container_own = {"HOSTNAME"}  # set by Docker in every container

    assert not used - build_arguments - container_own - env_example_names()


def test_env_example_leaves_the_secrets_empty_and_asks_for_https():
    text = (DOCKER_DIR / ".env.example").read_text()

    for required in ("SECRET_KEY", "ALLOWED_HOSTS", "POSTGRES_PASSWORD"):
        assert re.search(rf"^{required}=$", text, flags=re.MULTILINE)
    assert re.search(r"^HTTPS=1$", text, flags=re.MULTILINE)


# ------------------------------------------------------------------------- the health check script
def test_container_health_check_passes_against_a_healthy_server(live_server, transactional_db):
    port = live_server.url.rsplit(":", 1)[1]
    result = subprocess.run(
        [sys.executable, str(DOCKER_DIR / "healthcheck.py"), port],
        env={"ALLOWED_HOSTS": ".localhost,club.example", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=30,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert '"status": "ok"' in result.stdout


def test_container_health_check_fails_when_nothing_answers():
    result = subprocess.run(
        [sys.executable, str(DOCKER_DIR / "healthcheck.py"), "1"],
        env={"ALLOWED_HOSTS": "club.example", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=30,
    )

    assert result.returncode == 1
    assert result.stdout.startswith("unhealthy: the web server did not answer")


class _DatabaseDown(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"status": "error", "database": False, "redis": True}).encode()
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_container_health_check_names_the_dependency_that_failed():
    server = http.server.HTTPServer(("127.0.0.1", 0), _DatabaseDown)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        result = subprocess.run(
            [sys.executable, str(DOCKER_DIR / "healthcheck.py"), str(server.server_port)],
            env={"ALLOWED_HOSTS": "club.example", "PATH": ""},
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        server.shutdown()

    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "unhealthy: database (HTTP 503)"


def health_check_timeout(**environment: str) -> float:
    script = str(DOCKER_DIR / "healthcheck.py")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import runpy; print(runpy.run_path({script!r})['timeout_seconds']())",
        ],
        env={"PATH": "", **environment},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout)


def seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)s", duration)
    assert match, duration
    return float(match.group(1))


def test_the_health_check_outwaits_the_database_pool(compose, dockerfile_stages):
    # A web process waits DB_POOL_TIMEOUT for a connection before /healthz answers 503 naming
    # the database; a check that gave up first said only "timed out".
    assert health_check_timeout() > 10
    assert health_check_timeout(DB_POOL_TIMEOUT="25") > 25
    compose_timeout = seconds(compose["services"]["web"]["healthcheck"]["timeout"])
    image_timeout = seconds(
        re.search(r"HEALTHCHECK .*--timeout=(\d+s)", dockerfile_stages[-1]).group(1)
    )
    assert min(compose_timeout, image_timeout) > health_check_timeout()
