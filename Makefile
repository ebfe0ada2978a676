# Development tasks; every target sets up .venv first, so a fresh clone needs only `make run`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Touched after a successful install, so dependencies are reinstalled only when
# pyproject.toml changes (or the virtual environment is deleted).
INSTALLED := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium
# The suite over every core and one process more (pytest-xdist): the browser tests spend much of
# their time waiting for pages, so a third process on two cores keeps both busy (an idle 2-core
# machine: make test 5 min 34 s; its pytest took 7 min 53 s with 2 processes and the live
# table at a human's pace, which the browser tests now watch at a quarter of it). The
# integration tests share one Redis database for their Celery workers
# (tests/integration/conftest.py), so make test-pg runs them after the rest, in one process.
# `make test PARALLEL=` runs everything in one process. `make test MARKS='not e2e'` leaves out
# the browser tests (CI's SQLite pass: they run once, in its PostgreSQL pass).
MARKS ?=
PARALLEL ?= -n $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# Where `make run` listens. `make run ADDRESS=0.0.0.0:8000` serves the phones in a club room too,
# and the demo command then prints this computer's network addresses (docs/venue.md).
ADDRESS ?= 127.0.0.1:8000

# $(call debian_tool,COMMAND,PACKAGE): install the Debian package when COMMAND is missing and
# this runs as root with apt-get; otherwise stop with one line naming the command to run.
define debian_tool
if ! command -v $(1) >/dev/null 2>&1; then \
	if [ "$$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's $(2) (needed for $(1))"; \
		DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null \
		&& DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null \
		|| { echo "Could not install $(2): run 'sudo apt-get install $(2)'" >&2; exit 2; }; \
		command -v $(1) >/dev/null 2>&1 \
		|| { echo "$(1) is still missing after installing $(2)" >&2; exit 2; }; \
	else \
		echo "$(1) is missing: run 'sudo apt-get install $(2)', then make again" >&2; exit 2; \
	fi; \
fi
endef

.DEFAULT_GOAL := help
.PHONY: help venv messages browser translations run test test-pg lint fmt bench lock clean

help:
	@echo "make run      set up .venv, migrate, load demo data, serve on http://127.0.0.1:8000/"
	@echo "              (make run ADDRESS=0.0.0.0:8000: for the phones in a club room too)"
	@echo "make test     formatting, lint, migration check and the test suite"
	@echo "make test-pg  the test suite against DATABASE_URL=postgres://..."
	@echo "make lint     ruff format --check, ruff check, the import contracts (lint-imports), mypy"
	@echo "make fmt      ruff format and ruff check --fix"
	@echo "make bench    run every bench/*.py (bench/load.py needs DATABASE_URL=postgres://...)"
	@echo "make lock     resolve pyproject.toml's ranges into requirements/*.txt again"
	@echo "make messages compile the translations (locale/*/LC_MESSAGES/django.po)"
	@echo "make translations  extract the strings into locale/uk/LC_MESSAGES/django.po"
	@echo "make clean    remove .venv, caches and collected static files (keeps db.sqlite3)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The locked versions (requirements/dev.txt, made by `make lock`), then the project itself, which
# builds the bots' compiled solver (setup.py, bots/_solver.c) beside its source.
$(INSTALLED): pyproject.toml setup.py bots/_solver.c requirements/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --requirement requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

venv: $(INSTALLED)

# Compiled translations are build products, never committed. GNU gettext's msgfmt compiles them.
messages: $(INSTALLED)
	@$(call debian_tool,msgfmt,gettext)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0

# The browser tests drive Debian's Chromium (Playwright never downloads a browser here).
browser:
	@$(call debian_tool,$(CHROMIUM),chromium)

# Extracts the strings again; then translate the new and fuzzy entries (make test checks them).
translations: $(INSTALLED)
	$(BIN)/python manage.py makemessages -l uk --ignore=.venv --ignore=staticfiles \
		--ignore=tests --ignore=artifacts --ignore=bench

run: messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --address '$(ADDRESS)'
	$(BIN)/python manage.py runserver '$(ADDRESS)'

lint: $(INSTALLED)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy

fmt: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint messages browser
	$(BIN)/python manage.py makemigrations --check --dry-run
	HYPOTHESIS_PROFILE=quick $(BIN)/pytest $(PARALLEL) $(if $(MARKS),-m "$(MARKS)")

test-pg: messages browser
	@case "$$DATABASE_URL" in \
		postgres://*|postgresql://*) ;; \
		*) echo "make test-pg needs DATABASE_URL=postgres://..." >&2; exit 2 ;; \
	esac
	$(BIN)/python manage.py makemigrations --check --dry-run
	HYPOTHESIS_PROFILE=full $(BIN)/pytest $(PARALLEL) -m "not integration"
	HYPOTHESIS_PROFILE=full $(BIN)/pytest -m integration

# Resolve the ranges of pyproject.toml again into exact versions: requirements/base.txt for the
# image (no dev tools), requirements/dev.txt for development and CI. Run after changing a range.
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet "uv>=0.13,<0.14"
	$(BIN)/python -m uv pip compile --native-tls pyproject.toml --universal --python-version 3.11 \
		--no-header --quiet -o requirements/base.txt
	$(BIN)/python -m uv pip compile --native-tls pyproject.toml --extra dev --universal --python-version 3.11 \
		--no-header --quiet -o requirements/dev.txt

bench: $(INSTALLED)
	@set -e; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || { echo "no benchmarks in bench/"; break; }; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info build bots/_solver.*.so
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
