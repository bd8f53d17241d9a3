"""One judgement enum: ``models.Judgement`` is what the models store, the API takes and gives, the content files
name and the engine labels; the copies the layering forces are held equal to it here."""

from __future__ import annotations

from typing import get_args

from django.utils import translation

from exercises.grounding import engine
from exercises.grounding.engine import matcher
from exercises.grounding.models import Judgement, Relation
from exercises.grounding.schemas import GroupJudgementIn, MarkIn
from lessons import content_schema


def test_the_content_files_name_the_judgements_a_key_may_have() -> None:
    """lessons cannot import grounding, so its content schema names the judgements itself: a key's judgement is
    any of ``Judgement`` but 주장 아님 (a claim key is about a claim)."""
    assert set(get_args(content_schema.Judgement)) == set(Judgement.values) - {Judgement.NOT_A_CLAIM}


def test_the_engine_labels_its_readings_with_the_judgements_korean_names() -> None:
    """The engine is plain Python (no Django); its hint words are the labels of ``Judgement``, so a hint
    "근거" and a learner's 근거 are one word on the page and in the API."""
    with translation.override("ko"):
        labels = {str(label) for label in Judgement.labels}
    assert {matcher.GROUNDED, matcher.NO_SOURCE, matcher.HOLD, engine.NOT_A_CLAIM} == labels


def test_the_api_takes_the_enum_and_refuses_anything_else() -> None:
    """A mark's judgement is one of ``Judgement`` or "" (cleared); a group's relation one of ``Relation``."""
    assert MarkIn(claim=1, judgement="no_data").judgement == Judgement.NO_DATA
    assert MarkIn(claim=1, judgement="").judgement == ""
    for bad in ("근거", "GROUNDED", "maybe"):
        try:
            MarkIn(claim=1, judgement=bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
    assert GroupJudgementIn(relation="silent", explanation="x").relation == Relation.SILENT
