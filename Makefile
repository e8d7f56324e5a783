# The two commands of the README's quick start: `make run` and `make test`.
# `make test` lists the ten slowest tests at the end (the closing note of a change reports them).
VENV ?= .venv
PYTHON ?= python3
STAMP := $(VENV)/.installed

.PHONY: run test quick lint bench screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# make run GAME=triumph (Napoleon's Triumph); make run COMPUTER=blue (play the computer, LEVEL=easy|normal|strong);
# make run LANG_UI=de (German; bg: Bulgarian)
run: $(STAMP)
	$(VENV)/bin/arbiter demo $(if $(GAME),--game $(GAME)) $(if $(COMPUTER),--computer $(COMPUTER)) $(if $(LEVEL),--level $(LEVEL)) $(if $(LANG_UI),--lang $(LANG_UI))

test: $(STAMP)
	bash .ci/system-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy hardware firmware_bridge companion_app
	$(VENV)/bin/python -m pytest --durations=10

# While iterating: the suite without the soaks (tests marked slow); `make test` runs everything.
quick: $(STAMP)
	$(VENV)/bin/python -m pytest -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict engine
	$(VENV)/bin/mypy hardware firmware_bridge companion_app

# The Napoleon's Triumph screenshots docs/app.md shows, drawn again by their Kivy tests (a plain
# test run leaves docs/ alone).
screenshots: $(STAMP)
	ARBITER_DOCS_SCREENSHOTS=1 $(VENV)/bin/python -m pytest tests/companion_app/test_app_triumph.py \
		tests/companion_app/test_app_triumph_display.py tests/companion_app/test_app_triumph_map.py \
		tests/companion_app/test_app_triumph_orders.py tests/companion_app/test_app_triumph_sizes.py

bench: $(STAMP)
	for b in bench/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
