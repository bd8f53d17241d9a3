"""One rule in the course: lesson 1's table, diagram, flawed-answer rows, self-checks, the exercise keys and the
feedback all file a claim the source contradicts under 자료없음 (원문과 어긋남), and 보류 only where the source itself
makes the matter conditional or pending."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings

from exercises.grounding.feedback import claim_feedback
from exercises.grounding.models import JUDGEMENT_FOR, Judgement, Relation
from lessons.content import parse_yaml

LESSON = Path(settings.CONTENT_DIR) / "answer-from-sources"
NOTICE = (LESSON / "fixtures" / "bookshop-notice.txt").read_text(encoding="utf-8").splitlines()
CONTRADICTION = re.compile(r"어긋|다른 값|다르게 적")
PENDING_WORDS = re.compile(r"조건|미뤄|미정|확인 뒤|정하지 않|아직")


def table_after(heading: str, *, header: bool = True) -> list[list[str]]:
    """The rows (cells) of the first Markdown table after ``heading`` in lesson.md, its rule (and, if the table
    begins after the heading, its header row) left out."""
    text = (LESSON / "lesson.md").read_text(encoding="utf-8")
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:] if header else rows


def test_the_overview_table_files_contradiction_under_no_data() -> None:
    """The 판단 table: 자료없음 covers 원문과 어긋남; 보류 speaks only of conditions and pending matters."""
    rows = {row[0]: " ".join(row[1:]) for row in table_after("| 판단 | 뜻 | 원문과의 관계 | 인용 |", header=False)}
    assert set(rows) == {"근거", "자료없음", "보류"}
    assert "원문과 어긋남" in rows["자료없음"]
    assert not CONTRADICTION.search(rows["보류"]) and PENDING_WORDS.search(rows["보류"])


def test_the_flawed_answer_rows_say_no_data_for_the_contradicted_claim() -> None:
    """Every row of "흠이 섞인 답" whose reason is a contradiction is 자료없음 (원문과 어긋남), and there is one;
    every 보류 row gives the source's condition as its reason."""
    rows = table_after("### 흠이 섞인 답을 주장별로 보면")
    assert len(rows) == 5
    contradicted = [r for r in rows if CONTRADICTION.search(r[2])]
    assert contradicted, "the flawed answer shows a contradicted claim"
    for claim, judgement, reason in rows:
        if CONTRADICTION.search(reason):
            assert judgement.startswith("자료없음") and "원문과 어긋남" in judgement, (claim, judgement)
        if judgement.startswith("보류"):
            assert PENDING_WORDS.search(reason), (claim, reason)


def test_the_diagram_sends_contradiction_to_no_data_and_conditions_to_pending() -> None:
    """In the SVG each outcome box pairs its case with its judgement: 원문과 어긋남 → 자료없음, 조건·미정 → 보류;
    no text puts 어긋남 beside 보류, and the title says the same."""
    root = ET.fromstring((LESSON / "diagrams" / "three-judgements.svg").read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text or "" for t in root.iter(f"{ns}text")]
    assert texts[texts.index("원문과 어긋남") + 1] == "→ 자료없음"
    pending = next(i for i, t in enumerate(texts) if "보류" in t)
    assert not CONTRADICTION.search(texts[pending - 1]) and PENDING_WORDS.search(texts[pending - 1] + "미정")
    assert texts[pending - 1] == "조건·미정"
    title = root.find(f"{ns}title")
    assert title is not None and "어긋나면 자료없음(원문과 어긋남)" in (title.text or "")
    assert not any(CONTRADICTION.search(t) and "보류" in t for t in texts)


def test_the_self_checks_answer_contradiction_with_no_data() -> None:
    """A self-check whose answer names a contradiction answers 자료없음; one answering 보류 names a condition."""
    checks = parse_yaml((LESSON / "self_checks.yaml").read_text(encoding="utf-8"))
    assert any(CONTRADICTION.search(c["answer"]) for c in checks), "a self-check on a contradicted claim"
    for check in checks:
        if CONTRADICTION.search(check["answer"]):
            assert check["answer"].startswith("자료없음"), check["key"]
        if check["answer"].startswith("보류"):
            assert not CONTRADICTION.search(check["answer"]) and PENDING_WORDS.search(check["explanation"]), check["key"]


def test_the_exercise_keys_follow_the_same_rule() -> None:
    """Every sample claim keyed 원문과 어긋남 in the course is 자료없음, every 보류 key is conditional."""
    assert JUDGEMENT_FOR[Relation.CONTRADICTS] == Judgement.NO_DATA
    assert JUDGEMENT_FOR[Relation.CONDITIONAL] == Judgement.PENDING
    seen = 0
    for path in Path(settings.CONTENT_DIR).glob("*/exercises/*/exercise.yaml"):
        for sample in parse_yaml(path.read_text(encoding="utf-8")).get("samples", []) or []:
            for claim in sample.get("claims", []) or []:
                judgement = claim.get("judgement", JUDGEMENT_FOR[claim["relation"]])
                if claim["relation"] == Relation.CONTRADICTS:
                    seen += 1
                    assert judgement == Judgement.NO_DATA, claim["text"]
                if judgement == Judgement.PENDING:
                    assert claim["relation"] == Relation.CONDITIONAL, claim["text"]
    assert seen >= 1


@pytest.mark.parametrize(("judgement", "verdict"), [("no_data", "right"), ("pending", "review"), ("grounded", "review")])
def test_the_feedback_on_the_lessons_contradicted_claim_agrees_with_the_lesson(judgement: str, verdict: str) -> None:
    """The lesson's flawed claim "토요일에는 20시까지 영업합니다 (2)" citing line 2: 자료없음 is 맞음 because 원문과
    어긋남, and 보류 or 근거 is 다시 보기 — what the lesson teaches is what the feedback says."""
    item = claim_feedback(text="토요일에는 20시까지 영업합니다 (2).", judgement=judgement, cited=[2], question=None,
                          key=None, lines=NOTICE)
    assert item["verdict"] == verdict, item
    assert "원문과 어긋남" in item["basis"] and "자료없음" in item["basis"], item["basis"]
