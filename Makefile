# The two commands of the README, and what they need. Every target installs what it uses, so a fresh
# clone needs only Python 3.11+, Node.js 20+ and make.

VENV := .venv
PYTHON := $(VENV)/bin/python

.PHONY: serve test build check browser faketime epubcheck screenshots benchmark lock clean

## Preview the book at http://127.0.0.1:8000/ with live reload; another address: `make serve ADDR=127.0.0.1:8123`.
## --dirty: a save rebuilds only the pages it changes (hooks/site/incremental.py keeps the rest of the site exact).
ADDR ?= 127.0.0.1:8000
serve: $(VENV)/.installed node_modules/.installed
	$(VENV)/bin/mkdocs serve --livereload --dirty --dev-addr $(ADDR)

## Run every test: the math, the hooks, the built site and the widgets in a real browser.
test: $(VENV)/.installed node_modules/.installed browser faketime epubcheck
	$(PYTHON) -m pytest

## Check the whole book in about a second, without a site build: placeholders, formulas, typed numbers, data files.
check: $(VENV)/.installed node_modules/.installed
	$(PYTHON) scripts/check_chapters.py

## Build the site into site/ exactly as it is published, with the book as site/book.pdf and site/book.epub (linked
## from every page's footer); SITE_URL is the address it is published at.
build: $(VENV)/.installed node_modules/.installed browser epubcheck
	@case "$$SITE_URL" in ""|*127.0.0.1*|*localhost*) \
	  echo "SITE_URL is '$$SITE_URL': the canonical links, og:url and the sitemap will name this machine;" \
	    "to publish, run SITE_URL=https://your.host/path/ make build" >&2; \
	  if [ -n "$$GITHUB_ACTIONS" ]; then echo "error: a published build needs its address" >&2; exit 1; fi ;; \
	esac
	BOOK_FILES=1 $(VENV)/bin/mkdocs build --strict
	$(PYTHON) -m scripts.books site

## Screenshots of the built site (light, dark, desktop, phone) into screenshots/: `make screenshots PAGES="grpo"`;
## every page by default but the whole book on one page, which is shot when named (`PAGES=print`).
screenshots: build browser
	$(PYTHON) -m scripts.screenshots $(PAGES)

## Measure the build and the pages against the alternatives; writes benchmarks/RESULTS.md (15 to 35 min, by the machine).
benchmark: $(VENV)/.installed node_modules/.installed browser
	benchmarks/run

## Find a Chromium for the browser tests and the PDF, or install one; stops with what to install if it cannot.
browser: $(VENV)/.installed
	$(PYTHON) -m scripts.ensure_browser

## Find epubcheck (and Java) to check the EPUB, or install it; stops with what to install if it cannot.
epubcheck: $(VENV)/.installed
	$(PYTHON) -m scripts.ensure_epubcheck

## Find libfaketime for the reproducibility test, or install it; stops with what to install if it cannot.
faketime: $(VENV)/.installed
	$(PYTHON) -m scripts.ensure_faketime

$(VENV)/.installed: requirements/dev.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --require-hashes -r requirements/dev.txt
	touch $@

node_modules/.installed: package-lock.json
	npm ci --no-audit --no-fund
	touch $@

## Re-pin the Python dependencies (with hashes) after editing requirements/*.in.
# The lock files name no index or wheel folder of the machine they were made on: pip's own configuration says where
# to look, on every machine.
LOCK_OPTIONS := --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
lock: $(VENV)/.installed
	cd requirements && ../$(VENV)/bin/pip-compile $(LOCK_OPTIONS) -o book.txt book.in
	cd requirements && ../$(VENV)/bin/pip-compile $(LOCK_OPTIONS) -o dev.txt dev.in

clean:
	rm -rf site $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
