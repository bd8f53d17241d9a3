"""Settings for bench/grounding_server.py: the dev settings, with the suggest rate limit out of the way."""

from tutor.settings.dev import *  # noqa: F403

GROUNDING_SUGGEST_PER_MINUTE = 1_000_000
