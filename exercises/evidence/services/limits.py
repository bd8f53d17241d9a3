"""Size limits of what authors and instructors write."""

MAX_TEXT_CHARS = 20_000
MAX_CITATION_CHARS = 500
MAX_PEER_MINIMUM = 5
