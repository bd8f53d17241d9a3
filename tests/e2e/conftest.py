"""A real headless Chromium (the system's) driven by Playwright against the live test server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection

# Debian's headless shell first: the same Chromium (Blink, V8, the same version as the browser package) built for
# headless use only, as Playwright's own headless runs use. The browser tests took 343 CPU-seconds with the full
# browser in headless mode and 212 with the shell on this 2-core machine, every one of them passing in both.
CHROMIUM = (os.environ.get("CHROMIUM_PATH") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or shutil.which("chromium-browser"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        pytest.skip("Chromium이 설치되어 있지 않아 브라우저 테스트를 건너뜁니다 "
                    "(apt-get install chromium-headless-shell).")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread while the browser
    # is open; the ORM calls the tests make meanwhile are still synchronous.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        yield browser
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """When a browser test fails, its report shows what each open page showed: address and main text.

    A timeout says only that something did not appear; the page says why (a refusal, an error
    message, the previous screen), which a failure seen once in CI cannot be asked again.
    """
    outcome = yield
    report = outcome.get_result()
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or browser is None:
        return
    for number, context in enumerate(browser.contexts, start=1):
        for page in context.pages:
            try:
                main = page.locator("main").first.inner_text(timeout=2_000)
            except Exception as error:  # noqa: BLE001 - the page may be closed or between loads
                main = f"(본문을 읽지 못함: {type(error).__name__})"
            report.sections.append((f"page {number}: {page.url}", main[:3_000]))


@pytest.fixture
def page(browser: object, live_server: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.csp_violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text and page.csp_violations.append(message.text))
    yield page
    context.close()


def database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker(live_server: object) -> Iterator[subprocess.Popen]:
    """The site's real worker process (sandbox self-test, then db_worker) on the test database."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tutor.settings.test", "DATABASE_URL": database_url()}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    process = subprocess.Popen([sys.executable, "manage.py", "worker"], cwd=settings.BASE_DIR, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    yield process
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    print(process.stdout.read())  # shown by pytest when the test fails


