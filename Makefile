# Development tasks; every target sets up .venv first, so a fresh clone needs only `make run`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Touched after a successful install, so dependencies are reinstalled only when
# pyproject.toml changes (or the virtual environment is deleted).
INSTALLED := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help venv messages translations run test test-pg lint fmt bench clean

help:
	@echo "make run      set up .venv, migrate, load demo data, serve on http://127.0.0.1:8000/"
	@echo "make test     formatting, lint, migration check and the test suite"
	@echo "make test-pg  the test suite against DATABASE_URL=postgres://..."
	@echo "make lint     ruff format --check and ruff check"
	@echo "make fmt      ruff format and ruff check --fix"
	@echo "make bench    run every bench/*.py (bench/load.py needs DATABASE_URL=postgres://...)"
	@echo "make messages compile the translations (locale/*/LC_MESSAGES/django.po)"
	@echo "make translations  extract the strings into locale/uk/LC_MESSAGES/django.po"
	@echo "make clean    remove .venv, caches and collected static files (keeps db.sqlite3)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

venv: $(INSTALLED)

# Compiled translations are build products, never committed.
messages: $(INSTALLED)
	$(BIN)/python manage.py compilemessages --ignore=.venv -v0

# Extracts the strings again; then translate the new and fuzzy entries (make test checks them).
translations: $(INSTALLED)
	$(BIN)/python manage.py makemessages -l uk --ignore=.venv --ignore=staticfiles \
		--ignore=tests --ignore=artifacts --ignore=bench

run: messages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

lint: $(INSTALLED)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

fmt: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint messages
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

test-pg: messages
	@case "$$DATABASE_URL" in \
		postgres://*|postgresql://*) ;; \
		*) echo "make test-pg needs DATABASE_URL=postgres://..." >&2; exit 2 ;; \
	esac
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

bench: $(INSTALLED)
	@set -e; for script in bench/[!_]*.py; do \
		[ -e "$$script" ] || { echo "no benchmarks in bench/"; break; }; \
		echo "== $$script"; \
		$(BIN)/python "$$script"; \
	done

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis *.egg-info build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
