# Two commands set everything up on a fresh machine: `make build` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# axe-core, the accessibility checker the browser tests inject into every page, from the npm registry (never committed)
AXE_CORE := axe-core@4.14.1
AXE_STAMP := $(VENV)/js/.installed

.PHONY: build test serve bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(VENV)/bin/starpnp build --all

# Two workers, each taking whole test files (a file's module fixtures, such as a built game, are made once), the
# longest files first in the order tests/conftest.py gives them (LONG_FILES).
$(AXE_STAMP): $(STAMP)
	npm install --silent --no-audit --no-fund --prefix $(VENV)/js $(AXE_CORE)
	touch $(AXE_STAMP)

test: $(STAMP) $(AXE_STAMP)
	$(VENV)/bin/pytest -q -n 2 --dist loadfile --no-loadscope-reorder

serve: $(STAMP)
	$(VENV)/bin/starpnp serve --data data

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf output/*/ $(VENV)
