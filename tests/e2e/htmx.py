"""Waiting for htmx in browser tests.

htmx swaps new content in first and wires its hx-* attributes a settle step later (20 ms). A key pressed on
a control swapped in between goes to the plain form instead: the page reloads, which is the no-JS path a
user may also take, but not the one a test of the htmx path means to drive. So a test that acts on swapped
content waits until its target has settled.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, expect

BUSY = re.compile(r"\bhtmx-(request|swapping|settling)\b")


def wait_settled(target: Locator, timeout: float = 10_000) -> None:
    """Return once `target` (an hx-target) holds swapped content that htmx has finished processing."""
    target.wait_for(timeout=timeout)
    expect(target).not_to_have_class(BUSY, timeout=timeout)
