# Clubsite: `make run` for a first look, `make test` for the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: install run test bench lint messages clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@# -qq: errors only (setuptools' note on every editable install alarmed newcomers)
	$(PY) -m pip install --quiet --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py recompute --stale
	$(PY) manage.py load_demo
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(PY) -m pytest

# Federation-scale data in PostgreSQL (BENCH_DATABASE_URL, dropped and created afresh) and
# ratios measured side by side; see docs/performance.md.
bench: install
	$(PY) scripts/bench $(BENCH_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

messages: install
	$(PY) manage.py makemessages --all --ignore=.venv --ignore=staticfiles --ignore=tests --no-obsolete
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
