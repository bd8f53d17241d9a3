# Two commands set everything up: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed-$(shell sha256sum requirements.lock | cut -c1-16)

.PHONY: venv serve test setup-dev check clean assets

venv: $(STAMP)

$(STAMP): requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements.lock
	@rm -f $(VENV)/.installed-*
	@touch $@

# Prepare the SQLite database, the course and the demo accounts (idempotent).
setup-dev: venv
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_course
	$(BIN)/python manage.py create_demo_accounts --if-absent

serve: setup-dev
	$(BIN)/python manage.py serve --port $(PORT)

test: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

check: venv
	DJANGO_SETTINGS_MODULE=tutor.settings.production SECRET_KEY=check-only-$$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') \
		ALLOWED_HOSTS=tutor.example $(BIN)/python manage.py check --deploy --fail-level WARNING

clean:
	rm -rf $(VENV)

# Rebuild the vendored CodeMirror bundle (static/js/editor.js) from assets/editor.
assets:
	cd assets/editor && npm ci --no-audit --no-fund && npm run build
