"""Marks written the way a learner types them on the marking page, read by the page's own form."""

from __future__ import annotations

from exercises.grounding.forms import MarksForm
from exercises.grounding.schemas import MarkIn
from tutor.forms import cleaned


def typed(by_claim: dict[int, dict[str, str | list[int]]]) -> list[MarkIn]:
    """``{claim id: {"judgement": "grounded", "lines": "2, 4"}}`` through ``MarksForm``, as the page sends it:
    only the fields given are sent; a list of line numbers is typed as "1 3". A bad field raises the page's
    ``TutorError``."""
    data = {f"{field}-{claim_id}": " ".join(map(str, value)) if isinstance(value, list) else value
            for claim_id, fields in by_claim.items() for field, value in fields.items()}
    form = MarksForm(data, claim_ids=list(by_claim))
    cleaned(form)
    return form.marks()
