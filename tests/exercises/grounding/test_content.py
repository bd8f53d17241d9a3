"""The exercise format refuses sample answers whose claim-level keys do not fit."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from exercises.grounding.content import read_exercise
from lessons.content import ContentError

BASE = {
    "title": "t", "fixture": "notice", "prompt": "p",
    "questions": [{"key": "q", "text": "토요일에 여나요?", "judgement": "grounded", "evidence": [2]}],
}


def write(tmp_path: Path, claims: list[dict], text: str = "토요일에는 18시까지 엽니다. 주차는 무료입니다.") -> Path:
    folder = tmp_path / "ex"
    folder.mkdir()
    spec = {**BASE, "samples": [{"key": "a", "title": "A", "text": text, "claims": claims}]}
    (folder / "exercise.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    return folder


GOOD = [{"text": "토요일에는 18시까지 엽니다.", "relation": "restates", "lines": [2], "question": "q"},
        {"text": "주차는 무료입니다.", "relation": "silent"}]


def test_a_fitting_key_is_read_with_its_judgement(tmp_path: Path) -> None:
    spec = read_exercise(write(tmp_path, GOOD), line_counts={"notice": 3})
    assert [(k["relation"], k["judgement"]) for k in spec["samples"][0]["claims"]] == [
        ("restates", "grounded"), ("silent", "no_data")]


@pytest.mark.parametrize(("claims", "message"), [
    (GOOD[:1], "키가 없는 주장"),
    ([*GOOD, {"text": "없는 주장입니다.", "relation": "silent"}], "나뉜 주장에 없는 키"),
    ([GOOD[0], {"text": "주차는 무료입니다.", "relation": "silent", "judgement": "grounded"}], "맞지 않습니다"),
    ([GOOD[0], {"text": "주차는 무료입니다.", "relation": "maybe"}], "relation"),
    ([{**GOOD[0], "lines": [9]}, GOOD[1]], "줄 번호가 원문 밖"),
    ([{**GOOD[0], "question": "nope"}, GOOD[1]], "없는 질문"),
])
def test_a_key_that_does_not_fit_is_refused(tmp_path: Path, claims: list[dict], message: str) -> None:
    with pytest.raises(ContentError, match=message):
        read_exercise(write(tmp_path, claims), line_counts={"notice": 3})
