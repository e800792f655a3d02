# Eleora: two entry points. `make run` serves the app with a demo campaign on the embedded
# default (SQLite, in-memory channel layer); `make test` runs lint, types and the whole suite,
# including PostgreSQL and Redis for real.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/eleora
REDIS_TEST_URL ?= redis://127.0.0.1:6379/15

.PHONY: run test lint types services test-deps bench bench-short messages screenshots

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --url http://$(HOST):$(PORT)/
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) eleora_site.asgi:application

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

types: $(STAMP)
	$(VENV)/bin/mypy

services:
	bash scripts/ensure-services.sh

# What the browser tests and the translations need from Debian (Chromium, gettext, a font).
test-deps:
	bash scripts/ensure-test-deps.sh

# Two workers (pytest-xdist) in each pass: the machine has two cores.
# Browser tests run in their own pytest process: Playwright's sync API keeps an event loop
# running for its whole session, which async tests in the same process cannot share. Their
# workers take whole files (each file's browsers and server are its own fixtures).
# The second pass runs on PostgreSQL and Redis only the tests marked `database` (those that reach
# the database or the channel layer, tests/conftest.py): pure rules gain nothing there.
# The benchmark's short mode is the last step: a smoke check of every part (nothing timed).
# DB_CONN_MAX_AGE=0 on PostgreSQL: the sockets' pool threads keep no connection to the test
# database past a call, so it can be dropped at the end.
test: test-deps lint types services
	FAST_PASSWORD_HASHER=1 $(VENV)/bin/pytest -m "not browser and not bench" -n 2 \
		--cov --cov-report=term
	@echo "Coverage of the Magus package (at least 95 %):"
	$(VENV)/bin/coverage report --include="combat/rules/magus/*" --fail-under=95
	@echo "Coverage of the d100 package (at least 95 %):"
	$(VENV)/bin/coverage report --include="combat/rules/d100/*" --fail-under=95
	FAST_PASSWORD_HASHER=1 $(VENV)/bin/pytest -m browser -p no:cacheprovider -n 2 --dist loadfile
	FAST_PASSWORD_HASHER=1 DATABASE_URL=$(PG_URL) REDIS_URL=$(REDIS_TEST_URL) DB_CONN_MAX_AGE=0 \
		$(VENV)/bin/pytest -m "database and not browser and not bench" -p no:cacheprovider -q -n 2
	$(VENV)/bin/pytest -m bench -p no:cacheprovider -q

# The browser tests again, writing their screenshots over the README's in docs/screenshots/
# (`make test` writes them under build/ and leaves the work tree as it was).
screenshots: test-deps $(STAMP)
	SCREENSHOTS_DIR=docs/screenshots FAST_PASSWORD_HASHER=1 $(VENV)/bin/pytest -m browser -p no:cacheprovider

# The full benchmark (about 80 minutes on a 2-core machine: docs/performance.md; writes docs/performance.md and build/bench.json).
bench: $(STAMP) services test-deps
	$(PY) -m scripts.bench

bench-short: $(STAMP) services test-deps
	$(PY) -m scripts.bench --short

messages: $(STAMP)
	$(PY) manage.py makemessages -l en --no-obsolete -i ".venv/*" -i "tests/*"
	$(PY) manage.py compilemessages -l en --ignore=.venv
