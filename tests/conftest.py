"""Suite-wide pytest hooks: database in the header, browser tests last, no all-skipped passes,
and the Hypothesis profile."""

import pytest

import tests.hypothesis_profiles  # noqa: F401 - loads the profile HYPOTHESIS_PROFILE names

_passed_tests = 0
# Internal errors (a worker's stops the rest of its tests), repeated at the very end of the run.
_internal_errors: list[str] = []


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher takes a quarter of a second per user by design; tests make many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def cache_cleared():
    """Throttle counters and rendered standings live in the cache, which outlives a test's
    database transaction (and the ids it hands out again)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def default_language():
    """A request in Ukrainian leaves Ukrainian active in the thread; the next test starts anew."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture
def finish_round(django_capture_on_commit_callbacks):
    """Enter a confirmed result at every table of a published round (standings included)."""
    from tests.factories import enter_confirmed_result

    def finish(round_):
        for table in round_.tables.order_by("number"):
            with django_capture_on_commit_callbacks(execute=True):
                enter_confirmed_result(table, seed=table.pk)

    return finish


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    database = settings.DATABASES["default"]
    celery = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else settings.CELERY_BROKER_URL
    lines = [f"database: {database['ENGINE']} ({database['NAME']}); celery: {celery}"]
    missing = _integration_backends_missing()
    lines.append(f"integration tests: {'left out, ' + missing if missing else 'run'}")
    lines.append(f"hypothesis profile: {tests.hypothesis_profiles.PROFILE}")
    return lines


def _integration_backends_missing() -> str | None:
    """Why the integration tests cannot run here, or None when they can."""
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "they need DATABASE_URL=postgres://... (the CI's PostgreSQL pass runs them)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A worker process cannot share SQLite's in-memory test database, so on SQLite the
    # integration tests are left out of the run (not skipped); on PostgreSQL they run.
    missing = _integration_backends_missing()
    if missing:
        left_out = [item for item in items if item.get_closest_marker("integration")]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [item for item in items if not item.get_closest_marker("integration")]
    # Sync Playwright leaves its event loop marked running until the session ends, which breaks
    # any asyncio test that runs after a browser test; so browser tests go last.
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    _require_the_browser(items)


def _require_the_browser(items: list[pytest.Item]) -> None:
    """Browser tests without a browser stop the run at once, with one line saying what to do
    (`make test` installs it first where it can; see the Makefile's `browser` target)."""
    import os

    if not any(item.get_closest_marker("e2e") for item in items):
        return
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.access(chromium, os.X_OK):
        pytest.exit(
            f"The browser tests need Chromium at {chromium}: install it with "
            "`apt-get install chromium` (as root), or set CHROMIUM to its path.",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    global _passed_tests
    if report.when == "call" and report.passed:
        _passed_tests += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A run in which every test was skipped proves nothing; CI must not count it as a pass.
    if session.config.option.collectonly or hasattr(session.config, "workerinput"):
        return  # under pytest-xdist the controller counts every worker's passes
    if exitstatus == pytest.ExitCode.OK and _passed_tests == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if _passed_tests == 0 and terminalreporter.stats.get("skipped"):
        terminalreporter.write_line("FAILED: tests ran but none passed (all skipped)", red=True)


def pytest_internalerror(excrepr) -> None:
    # Printed when it happens, amid the other workers' output (a live server's log lines,
    # a browser test's tracebacks); CI shows the tail of a long log, where it is repeated.
    _internal_errors.append(str(excrepr))


def pytest_unconfigure(config: pytest.Config) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not _internal_errors:
        return
    for text in _internal_errors:
        reporter.write_sep("=", "INTERNALERROR (repeated from above)", red=True)
        for line in text.splitlines()[-60:]:
            reporter.write_line(line)
