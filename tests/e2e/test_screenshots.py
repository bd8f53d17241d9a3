"""The README's screenshots: each role's main screens at 1280 px and 360 px. Each screen must not scroll
sideways at 360 px; with SCREENSHOTS=docs/screenshots the PNGs are (re)written there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.session import sign_in
from tests.e2e.test_accessibility import records  # noqa: F401  (records is a fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = {
    None: [("visitor-home", "/")],
    "learner": [("learner-home", "/"), ("learner-lesson", "/lessons/{lesson}/"),
                ("learner-marking", "/exercises/attempts/{attempt}/"), ("learner-lab", "/labs/{lab}/")],
    "teacher": [("instructor-queue", "/evidence/queue/"), ("instructor-cohort", "/evidence/cohorts/{cohort}/progress/")],
}


def test_main_screens_of_each_role_fit_360px(browser, live_server, records, instructor) -> None:  # noqa: F811
    target = os.environ.get("SCREENSHOTS")
    values = {"lesson": records["lesson"].slug, "attempt": records["attempt"].pk, "lab": records["lab"].slug,
              "cohort": records["cohort"].pk}
    too_wide = []
    for who, screens in SCREENS.items():
        for width, height in ((1280, 900), (360, 780)):
            context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR")
            page = context.new_page()
            if who:
                sign_in(page, live_server, who)
            for name, path in screens:
                page.goto(live_server.url + path.format(**values))
                if width == 360 and page.evaluate("document.documentElement.scrollWidth") > 360:
                    too_wide.append(name)
                if target:
                    Path(target).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=f"{target}/{name}-{width}.png")
            context.close()
    assert too_wide == []
