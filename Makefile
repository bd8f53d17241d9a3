# Two commands set everything up: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Two locks, each stamped by its digest: requirements.lock is what serving needs (make serve, dev,
# setup-dev, check); requirements-dev.lock adds the test and lint tools (make test, lint).
STAMP := $(VENV)/.installed-runtime-$(shell sha256sum requirements.lock | cut -c1-16)
DEV_STAMP := $(VENV)/.installed-dev-$(shell sha256sum requirements-dev.lock | cut -c1-16)
PIP_INSTALL = $(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps
# pip-compile from pip-tools, for `make lock` (any venv of its own; not installed in .venv).
COMPILER ?= pip-compile
COMPILE = $(COMPILER) --generate-hashes --no-emit-find-links --no-emit-index-url --strip-extras

.PHONY: venv dev-venv serve dev test lint setup-dev check clean assets system-deps lock

venv: $(STAMP)

dev-venv: $(STAMP) $(DEV_STAMP)

$(STAMP): requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -r requirements.lock
	@rm -f $(VENV)/.installed-runtime-*
	@touch $@

$(DEV_STAMP): requirements-dev.lock $(STAMP)
	$(PIP_INSTALL) -r requirements-dev.lock
	@rm -f $(VENV)/.installed-dev-*
	@touch $@

# Re-lock from pyproject.toml, keeping every pin already in the locks (pip-compile only moves
# a pin that pyproject.toml no longer allows; add --upgrade-package NAME to move one on
# purpose). The development lock is compiled against the runtime one, then the packages the
# runtime lock already pins are left out of it, so the two never disagree and never overlap.
lock:
	$(COMPILE) --output-file=requirements.lock pyproject.toml
	$(COMPILE) --extra=dev --constraint=requirements.lock --output-file=requirements-dev.lock pyproject.toml
	awk 'NR == FNR { if ($$0 ~ /^[A-Za-z0-9]/) { split($$1, p, "=="); runtime[p[1]] = 1 } next } \
	  /^#    pip-compile/ { print; print "#"; print "# then without the packages requirements.lock already pins (the runtime); `make lock` does both."; next } \
	  /^[A-Za-z0-9]/ { split($$1, p, "=="); skip = (p[1] in runtime) } /^#/ { skip = 0 } !skip' \
	  requirements.lock requirements-dev.lock > .lock-dev.tmp
	mv .lock-dev.tmp requirements-dev.lock

# What only the system can provide for the lab sandbox: bubblewrap, a system
# python3 to run inside it, and libseccomp. Installed when we are root with
# apt-get; otherwise printed, and labs are refused until they are there.
system-deps:
	@missing=""; \
	command -v bwrap >/dev/null 2>&1 || missing="$$missing bubblewrap"; \
	test -x /usr/bin/python3 || missing="$$missing python3-minimal"; \
	ldconfig -p 2>/dev/null | grep -q libseccomp.so.2 || missing="$$missing libseccomp2"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "실습 샌드박스에 필요한 패키지가 없습니다:$$missing"; \
	    echo "  sudo apt-get install$$missing   (설치 전까지 실습 실행은 거부됩니다)"; \
	  fi; \
	fi

# Prepare the SQLite database, the course and the demo accounts (idempotent).
setup-dev: venv system-deps
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py load_course
	$(BIN)/python manage.py create_demo_accounts --if-absent

# The production server (gunicorn, threaded workers sized to the cores) and
# TASK_WORKERS task workers (default 2), with hashed static files served by
# whitenoise. Plain HTTP on this machine; see README "Deployment" for TLS.
serve: setup-dev
	DJANGO_SETTINGS_MODULE=tutor.settings.serve $(BIN)/python manage.py collectstatic --no-input --verbosity 0
	DJANGO_SETTINGS_MODULE=tutor.settings.serve $(BIN)/python manage.py serve --port $(PORT)

# Django's auto-reloading development server (DEBUG on) and one task worker.
dev: setup-dev
	$(BIN)/python manage.py worker & worker=$$!; trap 'kill $$worker' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(PORT)

# The suite runs in two processes per core (pytest-xdist; each process is its own "host": var folder, database,
# sandbox slots and slot users, see tutor/settings/test.py) and prints its slowest tests. Two per core, because
# many tests wait (a sandbox's time limit, a browser, a worker process): on 2 cores, 4 processes took 300 s
# where 2 took 432 s and one 490 s. "worksteal" lets an idle process take tests queued for a busy one, so the
# few slow browser tests do not end the run alone. TEST_PROCESSES=0 runs everything in this one process.
TEST_PROCESSES ?= $(shell echo $$(( $$(nproc) * 2 )))
test: dev-venv system-deps
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) --dist worksteal --durations=15 $(PYTEST_ARGS)

# Linting and type checking (ruff, mypy with django-stubs); CI runs this too.
lint: dev-venv
	$(BIN)/ruff check .
	$(BIN)/mypy

check: venv
	DJANGO_SETTINGS_MODULE=tutor.settings.production SECRET_KEY=check-only-$$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') \
		SEAL_KEYS=check:$$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') \
		ALLOWED_HOSTS=tutor.example $(BIN)/python manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV)

# Rebuild the vendored CodeMirror bundle (static/js/editor.js) from assets/editor.
assets:
	cd assets/editor && npm ci --no-audit --no-fund && npm run build
