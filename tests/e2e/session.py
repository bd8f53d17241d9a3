"""Signing in and waiting in browser tests.

`sign_in` drives the real sign-in form (label, password, button) as a user would, then waits until the site has
sent the browser on, so the next step acts on a signed-in page. `until` is for a condition only the database can
show (a lab run finishing in the worker while no page is watching it): it polls with a deadline and fails with
a message instead of sleeping a fixed time.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from tests.conftest import PASSWORD


def sign_in(page, live_server, username: str = "learner", *, password: str = PASSWORD, then: str = "") -> None:
    """Sign in as `username` on the sign-in page (with ?next=`then` when given); return once the site has sent the
    browser to `then`, or to the home page without one."""
    page.goto(f"{live_server.url}/account/sign-in/" + (f"?next={then}" if then else ""))
    page.get_by_label("아이디").fill(username)
    page.get_by_label("비밀번호").fill(password)
    page.get_by_role("button", name="로그인").click()
    page.wait_for_url(re.compile(re.escape(then or "/") + "$"))


def until(condition: Callable[[], object], *, timeout: float, message: str | Callable[[], str]) -> None:
    """Return as soon as `condition()` is true; fail with `message` once `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, message() if callable(message) else message
        time.sleep(0.05)
